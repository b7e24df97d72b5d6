// PacketCoalescingUnit tests: grouping and the exact end of the grouping window, L2 order =
// RGR allocation order, RGR exhaustion back-pressure, the round-robin request selector, a full
// reply queue stopping stage 2 and from_mem, writes passing through untouched, one reply per
// requester under a random stream, protocol and configuration errors.
// Built twice: coalesce_tb with the C++ RGR model, and (with Verilator) coalesce_rtl_tb with
// rgr_model = rtl (GPUSC_TB_RTL: rtl/pcu_rgr.v behind pin adapters) for every bench built from
// pcu64(): the same cycle-exact checks hold, the RTL answering within the cycle it is asked.
//
// Bench: a ScriptedInitiator plays the NI on req_in, an L2 stand-in answers every request after
// a fixed latency L with the same payload (is_reply = true, dst = src), a ScriptedTarget plays
// the NI on reply_out. Timing used throughout (header comment of the unit): a request handed
// over in cycle c is latched at c + 1 (stage 1), sent in c + 2 (stage 2), taken by the L2 in
// c + 2, answered in c + 2 + L, merged in c + 3 + L and handed to the NI in c + 4 + L.
#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <map>
#include <random>

#include "coalesce/coalesce_stages.h"
#include "coalesce/packet_coalescing_unit.h"
#include "common/address_map.h"
#include "common/payload_pool.h"
#include "harness/scripted_initiator.h"
#include "harness/scripted_target.h"
#include "mem/memory_partition.h"

using namespace gpusc;
using Params = PacketCoalescingUnit::Params;

namespace {

constexpr uint64_t kBase = 0x10000;
constexpr unsigned kLine = 128;
constexpr unsigned kMc = 60;  // node id of the memory partition (requests' dst)
uint64_t addr_of(uint64_t block) { return kBase + block * kLine; }

// L2 stand-in: takes every request (except while refusing), answers it `latency` cycles after
// it took it with the same payload turned into a reply, one reply per cycle in arrival order.
class L2Stub : public sc_core::sc_module, private Tickable {
 public:
  struct Arrival {
    uint64_t cycle;
    tlm::tlm_generic_payload* gp;
    uint64_t address;
    unsigned length;
    tlm::tlm_command cmd;
    MemExt ext;
  };
  MsgIn in{"in"};
  MsgOut out{"out"};

  L2Stub(sc_core::sc_module_name name, ClockDomain& clk, PayloadPool& pool, unsigned latency)
      : sc_core::sc_module(name), clk_(clk), pool_(pool), latency_(latency) {
    in.set_accept([this](tlm::tlm_generic_payload& gp) { return accept(gp); });
    in.set_b_transport([this](tlm::tlm_generic_payload& gp, sc_core::sc_time& t) {
      MemExt& e = *gp.get_extension<MemExt>();
      e.is_reply = true;
      e.dst = e.src;
      t += clk_.period() * double(latency_);
      ++lt_calls_;
    });
    out.on_accept([this] {
      taken_.back() = clk_.now();
      clk_.wake_after_now(*this);
    });
  }
  // END_REQ is withheld for requests offered in [from, until); they are taken at `until`.
  void refuse(uint64_t from, uint64_t until) { refuse_from_ = from, refuse_until_ = until; }
  // A read reply for `block` that no request asked for, handed over at `cycle`.
  void bogus_reply(uint64_t cycle, uint64_t block) {
    auto& gp = pool_.acquire();
    gp.set_address(addr_of(block));
    gp.get_extension<MemExt>()->is_reply = true;
    queue_.push_back({cycle, &gp});
    clk_.wake(*this, cycle);
  }
  const std::vector<Arrival>& arrivals() const { return arrivals_; }
  const std::vector<uint64_t>& reply_taken() const { return taken_; }  // cycle the PCU took each reply
  int max_open_reads_per_block() const { return max_open_; }
  unsigned lt_calls() const { return lt_calls_; }

 private:
  bool accept(tlm::tlm_generic_payload& gp) {
    const uint64_t now = clk_.now();
    if (now >= refuse_from_ && now < refuse_until_) {
      clk_.wake(*this, refuse_until_);
      return false;
    }
    const MemExt& e = *gp.get_extension<MemExt>();
    arrivals_.push_back({now, &gp, gp.get_address(), gp.get_data_length(), gp.get_command(), e});
    if (e.kind == MemKind::Read) max_open_ = std::max(max_open_, ++open_[gp.get_address()]);
    queue_.push_back({now + latency_, &gp});
    clk_.wake(*this, now + latency_);
    return true;
  }
  bool tick(uint64_t cycle) override {
    if (in.has_pending()) in.retry();
    if (queue_.empty() || out.busy()) return false;
    if (queue_.front().first > cycle) {
      clk_.wake(*this, queue_.front().first);
      return false;
    }
    tlm::tlm_generic_payload* gp = queue_.front().second;
    queue_.pop_front();
    MemExt& e = *gp->get_extension<MemExt>();
    if (e.kind == MemKind::Read && !e.is_reply) --open_[gp->get_address()];
    e.is_reply = true;
    e.dst = e.src;
    taken_.push_back(cycle);
    if (!out.send(*gp)) taken_.back() = UINT64_MAX;
    return !queue_.empty() && !out.busy();
  }

  ClockDomain& clk_;
  PayloadPool& pool_;
  const unsigned latency_;
  uint64_t refuse_from_ = 0, refuse_until_ = 0;
  std::deque<std::pair<uint64_t, tlm::tlm_generic_payload*>> queue_;
  std::vector<Arrival> arrivals_;
  std::vector<uint64_t> taken_;
  std::map<uint64_t, int> open_;
  int max_open_ = 0;
  unsigned lt_calls_ = 0;
};

struct PcuBench : sc_core::sc_module {
  ClockDomain clk{"clk", 1000.0};
  PayloadPool pool{kLine};
  PacketCoalescingUnit pcu;
  tb::ScriptedInitiator ni;  // the NI's request side
  L2Stub l2;
  tb::ScriptedTarget sm;     // the NI's reply side

  PcuBench(sc_core::sc_module_name name, const Params& p, unsigned latency, unsigned target_depth = 4)
      : sc_core::sc_module(name),
        pcu("pcu", p, clk),
        ni("ni", clk, pool),
        l2("l2", clk, pool, latency),
        sm("sm", clk, target_depth) {
    ni.out.bind(pcu.req_in);
    pcu.to_mem.bind(l2.in);
    l2.out.bind(pcu.from_mem);
    pcu.reply_out.bind(sm.in);
  }
  void read(uint64_t cycle, unsigned node, uint64_t block, uint64_t tag = 0) {
    ni.at(cycle, [=](tlm::tlm_generic_payload& gp, MemExt& e) {
      e.kind = MemKind::Read;
      e.src = node;
      e.dst = kMc;
      e.pc = tag;
      gp.set_command(tlm::TLM_READ_COMMAND);
      gp.set_address(addr_of(block));
      gp.set_data_length(kLine);
    });
  }
  void run_to(uint64_t cycle) { sc_core::sc_start(clk.time_of(cycle) - sc_core::sc_time_stamp()); }
  uint64_t stat(const std::string& name) const {
    return collect_stats()["stats"][std::string(pcu.name()) + "." + name].get<uint64_t>();
  }
};

Params pcu64() {
  Params p;
  p.rgrs = 64;
#ifdef GPUSC_TB_RTL
  p.rgr_model = "rtl";
#endif
  return p;
}

DestSet set_of(std::initializer_list<unsigned> nodes) {
  DestSet d;
  for (unsigned n : nodes) d.add(n);
  return d;
}

}  // namespace

TEST_CASE("PCU: reads to one block before it returns give one L2 request and one multicast reply",
          "[pcu][grouping]") {
  // L = 100. SM 1 reads X at 10: L2 takes it at 12, answers at 112, merge (RGR cleared) at 113,
  // reply handed to the NI at 114. Stage 1 of a read handed over in t runs at t + 1, so reads
  // handed over up to 111 (stage 1 at 112) join the group; one handed over at 112 has stage 1
  // in the merge cycle 113, after the merge: it allocates anew, reaches the L2 at 114 and its
  // reply the NI at 114 + 102 = 216.
  PcuBench b("b", pcu64(), 100);
  const uint64_t X = 7;
  b.read(10, 1, X, 101);
  b.read(11, 2, X, 102);
  b.read(50, 3, X, 103);
  b.read(111, 4, X, 104);  // last cycle inside the window
  b.read(112, 5, X, 105);  // first cycle past it
  b.run_to(400);

  for (const auto& s : b.ni.sent()) CHECK(s.accepted == s.offered);
  const auto& l2 = b.l2.arrivals();
  REQUIRE(l2.size() == 2);
  CHECK(l2[0].cycle == 12);
  CHECK(l2[0].ext.src == 1);
  CHECK(l2[0].ext.pc == 101);
  CHECK(l2[1].cycle == 114);
  CHECK(l2[1].ext.src == 5);
  CHECK(l2[0].address == addr_of(X));
  CHECK(l2[1].address == addr_of(X));

  const auto& r = b.sm.arrivals();
  REQUIRE(r.size() == 2);
  CHECK(r[0].cycle == 114);
  CHECK(r[0].address == addr_of(X));
  CHECK(r[0].ext.dests == set_of({1, 2, 3, 4}));  // ONE message for four requesters
  CHECK(r[0].ext.pc == 101);                      // SM 1's request payload became the reply
  CHECK(r[0].ext.is_reply);
  CHECK(r[1].cycle == 216);
  CHECK(r[1].ext.dests.empty());                  // single requester: unicast
  CHECK(r[1].ext.dst == 5);

  CHECK(b.stat("reads") == 5);
  CHECK(b.stat("rgr_allocations") == 2);
  CHECK(b.stat("grouped_requests") == 3);
  CHECK(b.stat("replies") == 2);
  CHECK(b.stat("multicast_replies") == 1);
  CHECK(collect_stats()["stats"]["b.pcu.coalescing_ratio"].get<double>() == Approx(3.0 / 5.0));
  CHECK(collect_stats()["stats"]["b.pcu.inter_core_locality_ratio"].get<double>() == Approx(4.0 / 5.0));
  // One RGR valid over [11, 113) (stage 1 of SM 1's read to the merge), one over [113, 215):
  // 204 RGR-cycles in the 400 cycles run.
  CHECK(collect_stats()["stats"]["b.pcu.rgr_occupancy"].get<double>() == Approx(204.0 / 400.0));
  CHECK(b.stat("rgr_full_cycles") == 0);
  CHECK(b.stat("mc_stall_cycles") == 0);
  CHECK(collect_stats()["invariant_failures"].empty());
  CHECK(b.pcu.drained());
  CHECK(b.pool.in_use() == 0);  // the three grouped requests were released
}

TEST_CASE("PCU: the summary lines come from the PCU stage, merged over the PCUs given", "[pcu][summary]") {
  // Two PCUs (two partitions). b: X read by SMs 1, 2, 3 while it is out (2 grouped), then Y by
  // SM 4 alone; c: Z read by SMs 1 and 2 (1 grouped). Merged: 3 grouped of 6 reads, 2 multicast.
  PcuBench b("b", pcu64(), 100), c("c", pcu64(), 100);
  b.read(10, 1, 7);
  b.read(11, 2, 7);
  b.read(12, 3, 7);
  b.read(13, 4, 8);
  c.read(10, 1, 9);
  c.read(20, 2, 9);
  b.run_to(400);
  REQUIRE(b.stat("grouped_requests") == 2);
  REQUIRE(c.stat("grouped_requests") == 1);

  const McStage& stage = b.pcu;  // through the hook-point interface, as a platform sees it
  json s = json::object();
  stage.summarize(s, {&b.pcu, &c.pcu});
  CHECK(s.size() == 2);
  CHECK(s.at("coalescing_ratio").get<double>() == Approx(3.0 / 6.0));
  CHECK(s.at("multicast_replies").get<double>() == 2.0);
  json one = json::object();
  c.pcu.summarize(one, {&c.pcu});
  CHECK(one.at("coalescing_ratio").get<double>() == collect_stats()["stats"]["c.pcu.coalescing_ratio"].get<double>());
  CHECK(one.at("multicast_replies").get<double>() == 1.0);
  // The stage's view of itself.
  CHECK(stage.idle());
  CHECK(b.pcu.in() == &b.pcu.req_in);
  CHECK(b.pcu.to_l2() == &b.pcu.to_mem);
  CHECK(b.pcu.from_l2() == &b.pcu.from_mem);
  CHECK(b.pcu.out() == &b.pcu.reply_out);
  CHECK(stage.stall_cycles() == b.pcu.mc_stall_cycles());
}

TEST_CASE("PCU: each requester of a merged reply keeps its own request timestamps", "[pcu][grouping][latency]") {
  // L = 100. SM 1 reads X at 10 and SM 2 at 40; each request is stamped as the platform does
  // (issued 6 cycles and injected 3 cycles before, taken by the MC when handed over, as
  // MemoryPartition's tap). The one reply reaches the NI at 114: SM 1's memory latency (MC
  // accept to reply handed to the NI) is 104 cycles, SM 2's is 74, not SM 1's 104.
  PcuBench b("b", pcu64(), 100);
  const uint64_t X = 3;
  for (const auto& [cycle, node] : {std::pair<uint64_t, unsigned>{10, 1}, {40, 2}})
    b.ni.at(cycle, [&b, cycle = cycle, node = node](tlm::tlm_generic_payload& gp, MemExt& e) {
      e.kind = MemKind::Read;
      e.src = node;
      e.dst = kMc;
      e.t_issue = b.clk.time_of(cycle - 6);
      e.t_req_inject = b.clk.time_of(cycle - 3);
      e.t_mem_accept = b.clk.time_of(cycle);
      gp.set_command(tlm::TLM_READ_COMMAND);
      gp.set_address(addr_of(X));
      gp.set_data_length(kLine);
    });
  b.run_to(300);

  const auto& r = b.sm.arrivals();
  REQUIRE(r.size() == 1);
  CHECK(r[0].cycle == 114);
  CHECK(r[0].ext.dests == set_of({1, 2}));
  auto memory_latency = [&](unsigned node) {  // MC accept to the reply handed to the NI [cycles]
    return r[0].cycle - b.clk.cycle_of(r[0].ext.stamps_of(node).t_mem_accept);
  };
  CHECK(memory_latency(1) == 104);
  CHECK(memory_latency(2) == 74);
  const RequestStamps s2 = r[0].ext.stamps_of(2);
  CHECK(s2.node == 2);
  CHECK(s2.t_issue == b.clk.time_of(34));
  CHECK(s2.t_req_inject == b.clk.time_of(37));
  const RequestStamps s1 = r[0].ext.stamps_of(1);  // the read that became the reply: its own fields
  CHECK(s1.t_issue == b.clk.time_of(4));
  CHECK(s1.t_mem_accept == b.clk.time_of(10));
  CHECK(r[0].ext.grouped.size() == 1);
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("PCU: the L2 sees reads in RGR allocation order, not RGR index order", "[pcu][order]") {
  // Phase 1 uses RGRs 0, 1, 2 and frees them (merges at 23, 24, 25), so phase 2 does not get
  // RGRs in index order. Phase 2: the L2 withholds END_REQ in [40, 100): the first read (b5,
  // sent at 42) is held in to_mem and the others wait in the pointer ring; from 100 the L2 takes
  // one per cycle in allocation order b5, b2, b9, b7, b1 (b5 and b2 are joined by SMs 3 and 5).
  PcuBench b("b", pcu64(), 20);
  b.read(0, 0, 10);
  b.read(1, 1, 11);
  b.read(2, 2, 12);
  b.l2.refuse(40, 100);
  const unsigned blocks[] = {5, 2, 9, 5, 7, 2, 1};
  for (unsigned i = 0; i < 7; ++i) b.read(40 + i, i, blocks[i]);
  b.run_to(80);
  CHECK(b.pcu.valid_rgrs() == 5);
  CHECK(b.pcu.reads_waiting() == 4);  // b5 left the ring for to_mem
  CHECK(b.pcu.to_mem.busy());
  b.run_to(200);

  const auto& l2 = b.l2.arrivals();
  REQUIRE(l2.size() == 8);
  const uint64_t want[] = {5, 2, 9, 7, 1};
  for (unsigned i = 0; i < 5; ++i) {
    INFO("phase-2 request " << i);
    CHECK(l2[3 + i].address == addr_of(want[i]));
    CHECK(l2[3 + i].cycle == 100 + i);
  }
  // Replies: taken by the L2 at 100 + i, handed to the NI at 100 + i + 20 + 2.
  const auto& r = b.sm.arrivals();
  REQUIRE(r.size() == 8);
  const DestSet dests[] = {set_of({0, 3}), set_of({1, 5}), DestSet{}, DestSet{}, DestSet{}};
  const unsigned dst[] = {0, 1, 2, 4, 6};
  for (unsigned i = 0; i < 5; ++i) {
    INFO("phase-2 reply " << i);
    CHECK(r[3 + i].cycle == 122 + i);
    CHECK(r[3 + i].address == addr_of(want[i]));
    CHECK(r[3 + i].ext.dests == dests[i]);
    if (dests[i].empty()) CHECK(r[3 + i].ext.dst == dst[i]);
  }
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("PCU: with all 64 RGRs valid the 65th read waits until a reply frees one", "[pcu][rgr]") {
  // L = 200. Reads of 65 distinct blocks handed over at cycles 0..64. Read i allocates at i + 1,
  // so after stage 1 of read 63 (cycle 64) all 64 RGRs are valid and read 64, offered at 64, is
  // refused. Read 0's block returns first: L2 takes it at 2, answers at 202, merge at 203 frees
  // its RGR and read 64 is taken in that cycle (203); it reaches the L2 at 205, the NI at 407.
  const uint64_t L = 200;
  PcuBench b("b", pcu64(), L);
  for (unsigned i = 0; i < 65; ++i) b.read(i, i % 56, 100 + i, i);
  b.run_to(150);
  CHECK(b.pcu.valid_rgrs() == 64);
  CHECK(b.pcu.req_in.has_pending());
  CHECK(b.l2.arrivals().size() == 64);
  b.run_to(600);

  const auto& s = b.ni.sent();
  REQUIRE(s.size() == 65);
  CHECK(s[63].accepted == 63);
  CHECK(s[64].offered == 64);
  CHECK(s[64].accepted == L + 3);
  CHECK(b.stat("rgr_full_cycles") == L + 3 - 64);
  const auto& l2 = b.l2.arrivals();
  REQUIRE(l2.size() == 65);
  CHECK(l2[64].cycle == L + 5);
  CHECK(l2[64].address == addr_of(164));
  // Nothing lost: one reply per read, to its requester, read i at the NI at i + L + 4.
  const auto& r = b.sm.arrivals();
  REQUIRE(r.size() == 65);
  for (unsigned i = 0; i < 65; ++i) {
    INFO("read " << i);
    CHECK(r[i].address == addr_of(100 + i));
    CHECK(r[i].ext.dests.empty());
    CHECK(r[i].ext.dst == i % 56);
    CHECK(r[i].cycle == (i < 64 ? i + L + 4 : 2 * L + 7));
  }
  CHECK(b.stat("rgr_allocations") == 65);
  CHECK(b.stat("grouped_requests") == 0);
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("PCU: a read that matches a valid RGR is not accepted while all RGRs are valid", "[pcu][rgr]") {
  // Follows §3.2 ("When there is an available RGR, a read request is accepted"). 64 distinct
  // blocks at 0..63, L = 200; SM 57 reads block 110 (RGR of read 10) at 64: refused although it
  // matches, taken at 203 when read 0's merge frees an RGR, grouped at stage 1 (204) because
  // block 110 returns only at 10 + 203 = 213: its reply goes to {10, 57} at 10 + 204 = 214.
  const uint64_t L = 200;
  PcuBench b("b", pcu64(), L);
  for (unsigned i = 0; i < 64; ++i) b.read(i, i, 100 + i);
  b.read(64, 57, 110);
  b.run_to(600);
  CHECK(b.ni.sent()[64].accepted == L + 3);
  CHECK(b.l2.arrivals().size() == 64);
  const auto& r = b.sm.arrivals();
  REQUIRE(r.size() == 64);
  CHECK(r[10].address == addr_of(110));
  CHECK(r[10].ext.dests == set_of({10, 57}));
  CHECK(r[10].cycle == 10 + L + 4);
  CHECK(b.stat("grouped_requests") == 1);
}

TEST_CASE("PCU: the request selector alternates reads and writes round-robin", "[pcu][selector]") {
  // The L2 refuses until 50. R0 (first in stage 2, at 2) is held in to_mem; the selector then
  // prefers a write. From 51 both kinds wait, so the L2 takes W0, R1, W1, R2, W2, R3 at 51..56.
  PcuBench b("b", pcu64(), 20);
  b.l2.refuse(0, 50);
  b.read(0, 0, 0, 0);
  b.read(1, 1, 1, 1);
  b.read(2, 2, 2, 2);
  for (unsigned i = 0; i < 3; ++i)
    b.ni.at(3 + i, [i](tlm::tlm_generic_payload& gp, MemExt& e) {
      e.kind = MemKind::Write;
      e.src = 10 + i;
      e.dst = kMc;
      e.pc = 10 + i;
      gp.set_command(tlm::TLM_WRITE_COMMAND);
      gp.set_address(addr_of(20 + i));
      gp.set_data_length(32);
    });
  b.read(6, 3, 3, 3);
  b.run_to(200);
  const auto& l2 = b.l2.arrivals();
  REQUIRE(l2.size() == 7);
  const uint64_t order[] = {0, 10, 1, 11, 2, 12, 3};  // pc tags: R0 W0 R1 W1 R2 W2 R3
  for (unsigned i = 0; i < 7; ++i) {
    INFO("L2 request " << i);
    CHECK(l2[i].ext.pc == order[i]);
    CHECK(l2[i].cycle == 50 + i);
  }
  CHECK(b.sm.arrivals().size() == 7);
  CHECK(b.stat("writes") == 3);
  CHECK(b.stat("reads") == 4);
}

TEST_CASE("PCU: a full reply queue stops stage 2 and from_mem until the NI takes replies", "[pcu][backpressure]") {
  // reply_queue = 2, L = 10, NI target with a 1-deep queue that consumes nothing before 200.
  // Reads of distinct blocks at 0..19: read i goes to the L2 at i + 2 and is merged at i + 13.
  // Reply 0 enters the NI at 14; reply 1 is offered at 15 and withheld; replies 2 and 3 fill the
  // queue at 15 and 16. From 16 stage 2 stops: reads 0..13 reached the L2 (at 2..15), 14..19
  // wait in the ring; the L2's reply 4 (offered at 16) is withheld at from_mem.
  // At 200 the NI takes reply 1 (MC stall 200 - 15 = 185 cycles); at 201 reply 2 leaves, stage 2
  // sends read 14 and from_mem takes reply 4; one per cycle from then on.
  Params p = pcu64();
  p.reply_queue = 2;
  PcuBench b("b", p, 10, 1);
  b.sm.stall_until(200);
  for (unsigned i = 0; i < 20; ++i) b.read(i, i, i, i);
  b.run_to(150);
  CHECK(b.l2.arrivals().size() == 14);
  CHECK(b.l2.arrivals().back().cycle == 15);
  CHECK(b.pcu.reply_queue_size() == 2);
  CHECK(b.pcu.reads_waiting() == 6);
  CHECK(b.pcu.valid_rgrs() == 16);  // replies 0..3 were merged
  CHECK(b.pcu.from_mem.has_pending());
  CHECK(b.pcu.reply_out.busy());
  CHECK(b.sm.occupancy() == 1);
  b.run_to(400);

  const auto& l2 = b.l2.arrivals();
  REQUIRE(l2.size() == 20);
  for (unsigned i = 14; i < 20; ++i) CHECK(l2[i].cycle == 201 + (i - 14));
  const auto& taken = b.l2.reply_taken();
  REQUIRE(taken.size() == 20);
  CHECK(taken[3] == 15);
  CHECK(taken[4] == 201);
  const auto& r = b.sm.arrivals();
  REQUIRE(r.size() == 20);
  for (unsigned i = 0; i < 20; ++i) {
    CHECK(r[i].address == addr_of(i));
    CHECK(r[i].ext.dst == i);
  }
  CHECK(r[0].cycle == 14);
  CHECK(r[1].cycle == 200);
  CHECK(r[2].cycle == 201);
  CHECK(b.stat("mc_stall_cycles") == 185);
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("PCU: writes and atomics pass through untouched, in order, with write-buffer back-pressure",
          "[pcu][writes]") {
  // write_buffer = 2, L2 refuses until 100, W0..W5 offered at 0..5 (W3 an atomic). W0 is held
  // in to_mem (sent at 2), W1 and W2 fill the buffer, W3 waits at req_in. At 100 the L2 takes
  // W0; at 101 W1 leaves the buffer and W3 is taken; then one per cycle: the L2 sees W0..W5 at
  // 100..105 and answers each 10 cycles later; the acks reach the NI 2 cycles after that.
  Params p = pcu64();
  p.write_buffer = 2;
  PcuBench b("b", p, 10);
  b.l2.refuse(0, 100);
  std::vector<tlm::tlm_generic_payload*> sent;
  for (unsigned i = 0; i < 6; ++i)
    b.ni.at(i, [i, &sent](tlm::tlm_generic_payload& gp, MemExt& e) {
      sent.push_back(&gp);
      e.kind = i == 3 ? MemKind::Atomic : MemKind::Write;
      e.src = 2 * i;
      e.dst = kMc;
      e.warp = 30 + i;
      e.pc = 0x400 + i;
      e.word_mask = 0xf0u << i;
      e.sector_mask = 1;
      gp.set_command(tlm::TLM_WRITE_COMMAND);
      gp.set_address(addr_of(5));  // all to one block: writes are never grouped
      gp.set_data_length(16 + i);
    });
  b.run_to(400);

  const auto& s = b.ni.sent();
  REQUIRE(s.size() == 6);
  CHECK(s[2].accepted == 2);
  CHECK(s[3].offered == 3);
  CHECK(s[3].accepted == 101);
  CHECK(s[4].accepted == 102);
  CHECK(s[5].accepted == 103);
  const auto& l2 = b.l2.arrivals();
  REQUIRE(l2.size() == 6);
  const auto& r = b.sm.arrivals();
  REQUIRE(r.size() == 6);
  for (unsigned i = 0; i < 6; ++i) {
    INFO("write " << i);
    CHECK(l2[i].gp == sent[i]);  // the same payload, in order
    CHECK(l2[i].cycle == 100 + i);
    CHECK(l2[i].ext.kind == (i == 3 ? MemKind::Atomic : MemKind::Write));
    CHECK(l2[i].ext.src == 2 * i);
    CHECK(l2[i].ext.dst == kMc);
    CHECK(l2[i].ext.warp == 30 + i);
    CHECK(l2[i].ext.pc == 0x400 + i);
    CHECK(l2[i].ext.word_mask == 0xf0u << i);
    CHECK(l2[i].ext.dests.empty());
    CHECK(l2[i].length == 16 + i);
    CHECK(l2[i].cmd == tlm::TLM_WRITE_COMMAND);
    CHECK(r[i].cycle == 100 + i + 10 + 2);
    CHECK(r[i].ext.pc == 0x400 + i);
    CHECK(r[i].ext.dst == 2 * i);
    CHECK(r[i].ext.dests.empty());
  }
  CHECK(b.stat("writes") == 6);
  CHECK(b.stat("rgr_allocations") == 0);
  CHECK(b.stat("replies") == 6);
  CHECK(b.pcu.drained());
}

namespace {
// 56 SMs behind one NI port: a random stream of reads, writes and atomics over a small block
// set; an SM never has two reads of one block outstanding (as its L1 MSHRs guarantee). Replies
// are checked per destination; the reply side refuses a quarter of the offers at random.
class SmSide : public sc_core::sc_module, private Tickable {
 public:
  static constexpr unsigned kSms = 56, kBlocks = 12;
  MsgOut out{"out"};
  MsgIn in{"in"};
  std::vector<uint64_t> reads = std::vector<uint64_t>(kSms), writes = std::vector<uint64_t>(kSms);
  std::vector<uint64_t> read_replies = std::vector<uint64_t>(kSms), acks = std::vector<uint64_t>(kSms);
  uint64_t errors = 0, messages = 0, sent = 0;

  SmSide(sc_core::sc_module_name name, ClockDomain& clk, PayloadPool& pool, uint64_t total)
      : sc_core::sc_module(name), clk_(clk), pool_(pool), total_(total), waiting_(kSms * kBlocks, false) {
    in.set_accept([this](tlm::tlm_generic_payload& gp) { return receive(gp); });
    out.on_accept([this] { clk_.wake_after_now(*this); });
    clk_.wake(*this, 1);
  }

 private:
  bool receive(tlm::tlm_generic_payload& gp) {
    if (rng_() % 4 == 0) {
      refused_ = true;
      clk_.wake_after_now(*this);
      return false;
    }
    ++messages;
    const MemExt& e = *gp.get_extension<MemExt>();
    const uint64_t block = (gp.get_address() - kBase) / kLine;
    if (e.kind == MemKind::Read) {
      if (e.dests.count() == 1) ++errors;  // one destination must travel as unicast
      const DestSet d = e.dests.empty() ? DestSet::single(e.dst) : e.dests;
      d.for_each([&](unsigned n) {
        if (n >= kSms || !waiting_[n * kBlocks + block]) ++errors;
        else {
          waiting_[n * kBlocks + block] = false;
          ++read_replies[n];
        }
      });
    } else {
      if (!e.dests.empty() || e.dst >= kSms) ++errors;
      else ++acks[e.dst];
    }
    gp.release();
    return true;
  }
  bool tick(uint64_t) override {
    if (refused_) {
      refused_ = false;
      in.retry();
    }
    if (sent < total_ && !out.busy()) {
      const unsigned sm = rng_() % kSms, block = rng_() % kBlocks, k = rng_() % 20;
      const MemKind kind = k < 14 ? MemKind::Read : k < 19 ? MemKind::Write : MemKind::Atomic;
      if (kind != MemKind::Read || !waiting_[sm * kBlocks + block]) {
        auto& gp = pool_.acquire();
        MemExt& e = *gp.get_extension<MemExt>();
        e.kind = kind;
        e.src = sm;
        e.dst = kMc;
        gp.set_address(addr_of(block));
        gp.set_command(kind == MemKind::Read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
        if (kind == MemKind::Read) {
          waiting_[sm * kBlocks + block] = true;
          ++reads[sm];
        } else {
          ++writes[sm];
        }
        ++sent;
        out.send(gp);
      }
    }
    return refused_ || (sent < total_ && !out.busy());
  }

  ClockDomain& clk_;
  PayloadPool& pool_;
  const uint64_t total_;
  std::vector<bool> waiting_;  // [sm * kBlocks + block]: a read is outstanding
  std::mt19937_64 rng_{12345};
  bool refused_ = false;
};

struct RandomBench : sc_core::sc_module {
  ClockDomain clk{"clk", 1000.0};
  PayloadPool pool{kLine};
  PacketCoalescingUnit pcu;
  SmSide sms;
  L2Stub l2;
  RandomBench(sc_core::sc_module_name name, const Params& p, uint64_t total, unsigned latency)
      : sc_core::sc_module(name), pcu("pcu", p, clk), sms("sms", clk, pool, total), l2("l2", clk, pool, latency) {
    sms.out.bind(pcu.req_in);
    pcu.to_mem.bind(l2.in);
    l2.out.bind(pcu.from_mem);
    pcu.reply_out.bind(sms.in);
  }
};
}  // namespace

TEST_CASE("PCU: under a random stream every requester gets exactly one reply for each request",
          "[pcu][property]") {
  const uint64_t N = 10000;
  RandomBench b("b", pcu64(), N, 30);
  sc_core::sc_start(b.clk.time_of(200000));
  REQUIRE(b.sms.sent == N);
  CHECK(b.pcu.drained());
  CHECK(b.sms.errors == 0);
  uint64_t reads = 0, writes = 0;
  for (unsigned s = 0; s < SmSide::kSms; ++s) {
    INFO("SM " << s);
    CHECK(b.sms.read_replies[s] == b.sms.reads[s]);
    CHECK(b.sms.acks[s] == b.sms.writes[s]);
    reads += b.sms.reads[s];
    writes += b.sms.writes[s];
  }
  const json st = collect_stats();
  const json& v = st["stats"];
  CHECK(v["b.pcu.reads"] == reads);
  CHECK(v["b.pcu.writes"] == writes);
  CHECK(v["b.pcu.rgr_allocations"].get<uint64_t>() + v["b.pcu.grouped_requests"].get<uint64_t>() == reads);
  CHECK(v["b.pcu.replies"].get<uint64_t>() == v["b.pcu.rgr_allocations"].get<uint64_t>() + writes);
  CHECK(b.sms.messages == v["b.pcu.replies"].get<uint64_t>());  // a multicast reply is one message
  CHECK(v["b.pcu.grouped_requests"].get<uint64_t>() > 0);
  CHECK(v["b.pcu.multicast_replies"].get<uint64_t>() > 0);
  CHECK(v["b.pcu.mc_stall_cycles"].get<uint64_t>() > 0);
  CHECK(st["invariant_failures"].empty());
  CHECK(b.l2.max_open_reads_per_block() == 1);  // never two reads of one block at the L2
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("PCU: loosely-timed b_transport passes through to the L2 without grouping", "[pcu][lt]") {
  PcuBench b("b", pcu64(), 10);
  auto& gp = b.pool.acquire();
  gp.get_extension<MemExt>()->src = 3;
  gp.set_address(addr_of(1));
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  b.pcu.req_in.get_base_interface().b_transport(gp, t);
  CHECK(b.l2.lt_calls() == 1);
  CHECK(gp.get_extension<MemExt>()->is_reply);
  CHECK(t == b.clk.period() * 10.0);
  CHECK(b.pcu.valid_rgrs() == 0);
  gp.release();
}

TEST_CASE("PCU: a second read from one SM to a block it already waits for is a protocol error", "[pcu][error]") {
  PcuBench b("b", pcu64(), 100);
  b.read(0, 3, 9);
  b.read(5, 3, 9);
  REQUIRE_THROWS_WITH(b.run_to(50), Catch::Contains("b.pcu") && Catch::Contains("SM node 3 sent a second read") &&
                                        Catch::Contains("MSHRs"));
}

TEST_CASE("PCU: a read reply that matches no RGR is a protocol error", "[pcu][error]") {
  PcuBench b("b", pcu64(), 10);
  b.l2.bogus_reply(5, 4);
  REQUIRE_THROWS_WITH(b.run_to(50), Catch::Contains("read reply for address 0x10200 matches no valid RGR"));
}

TEST_CASE("PCU: a read from a node beyond the destination bits is an error", "[pcu][error]") {
  Params p = pcu64();
  p.max_nodes = 16;
  PcuBench b("b", p, 10);
  b.read(0, 16, 1);
  REQUIRE_THROWS_WITH(b.run_to(50), Catch::Contains("read from node 16 but the destination bits cover nodes 0..15"));
}

namespace {
void expect_config_error(const Params& p, const std::string& text) {
  ClockDomain clk("clk", 1000.0);
  REQUIRE_THROWS_WITH(PacketCoalescingUnit("pcu", p, clk), Catch::Contains(text));
}
}  // namespace

TEST_CASE("PCU config error: fewer than 64 RGRs", "[pcu][config]") {
  Params p;
  p.rgrs = 63;
  expect_config_error(p, "'pcu.rgrs' = 63 is out of range [64, 1024]");
}

TEST_CASE("PCU config error: more than 1024 RGRs", "[pcu][config]") {
  Params p;
  p.rgrs = 1025;
  expect_config_error(p, "'pcu.rgrs' = 1025 is out of range [64, 1024]");
}

TEST_CASE("PCU config error: empty reply queue", "[pcu][config]") {
  Params p;
  p.reply_queue = 0;
  expect_config_error(p, "'pcu.reply_queue' = 0 is out of range [1, 4096]");
}

TEST_CASE("PCU config error: empty write buffer", "[pcu][config]") {
  Params p;
  p.write_buffer = 0;
  expect_config_error(p, "'pcu.write_buffer' = 0 is out of range [1, 4096]");
}

TEST_CASE("PCU config error: destination bits beyond the 512-node DestSet", "[pcu][config]") {
  Params p;
  p.max_nodes = 513;
  expect_config_error(p, "'pcu.max_nodes' = 513 is out of range [1, 512]");
}

TEST_CASE("PCU stage registration: \"pcu\" builds a PacketCoalescingUnit as a partition's stage", "[pcu][stages]") {
  McStageRegistry reg;
  register_coalesce_stages(reg);
  CHECK(reg.names() == std::vector<std::string>{"pcu"});
  // Effective parameters: the unit's defaults with the given keys; bad keys name the config key.
  MemoryPartition::Params p;
  p.stages = {"pcu"};
  p.stage_params = {{"pcu", {{"rgrs", 256}}}};
  const auto eff = MemoryPartition::Params::with_stage_defaults(p, reg, "mc");
  Params expected;
  expected.rgrs = 256;
  CHECK(eff.stage_params.at("pcu") == params_to_json(expected));
  p.stage_params["pcu"]["rgr"] = 1;
  REQUIRE_THROWS_WITH(MemoryPartition::Params::with_stage_defaults(p, reg, "mc"),
                      Catch::Contains("unknown parameter 'mc.stage_params.pcu.rgr'") && Catch::Contains("rgrs"));
  p.stage_params = {{"pcu", {{"rgrs", 32}}}};
  REQUIRE_THROWS_WITH(MemoryPartition::Params::with_stage_defaults(p, reg, "mc"),
                      Catch::Contains("'mc.stage_params.pcu.rgrs' = 32 is out of range"));

  ClockDomain core{"core", 1400.0}, dram_clk{"dram_clk", 924.0};
  AddressMap map{1};
  p.stage_params = {{"pcu", {{"rgrs", 256}}}};
  MemoryPartition mc("mc", p, core, dram_clk, 0, map, reg);
  REQUIRE(mc.stage_count() == 1);
  auto* pcu = dynamic_cast<PacketCoalescingUnit*>(mc.stage("pcu"));
  REQUIRE(pcu != nullptr);
  CHECK(std::string(pcu->name()) == "mc.pcu");  // stats keep their names: mc.pcu.reads, ...
  CHECK(pcu->params().rgrs == 256);
  CHECK(&mc.in() == &pcu->req_in);
  CHECK(&mc.out() == &pcu->reply_out);
}

#ifdef GPUSC_TB_RTL
TEST_CASE("PCU with RTL RGRs: more destination bits than the RTL's 64 is an error naming them", "[pcu][config]") {
  Params p = pcu64();
  p.max_nodes = 65;
  expect_config_error(p, "rtl/pcu_rgr.v has 64 destination bits");
}

TEST_CASE("PCU with RTL RGRs: a block beyond the RTL's 41-bit field is an error", "[pcu][error]") {
  PcuBench b("b", pcu64(), 10);
  b.read(0, 3, uint64_t(1) << 41);
  REQUIRE_THROWS_WITH(b.run_to(50), Catch::Contains("41-bit block field"));
}

TEST_CASE("PCU with RTL RGRs: the RTL's clock runs only while reads and replies are being looked up", "[pcu][rtl]") {
  PcuBench b("b", pcu64(), 40);
  b.read(10, 1, 5);
  b.read(11, 2, 5);
  b.run_to(5000);
  REQUIRE(b.sm.arrivals().size() == 1);  // one multicast reply
  // Two lookups (cycles 11 and 12) and one release: a few edges, not 5000.
  const uint64_t edges = collect_stats()["stats"]["b.pcu.rgr_rtl.clock.rising_edges"].get<uint64_t>();
  CHECK(edges >= 3);
  CHECK(edges <= 6);
}
#endif
