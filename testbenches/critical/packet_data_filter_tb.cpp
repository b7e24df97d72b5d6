// PacketDataFilter tests (paper 002 §3.4): FDR/PDR classification, replies carrying only the
// critical sectors with their DPC size on the wire, the table merge ("1000" + "0100" -> one
// reply "1100") and the exact end of the merge window, a full table (bypass and stall), plain
// DPC mode, DF-MAN, no read answered twice or never over 1e4 random partial requests, the stage
// in a real MemoryPartition with a BackingStore, and protocol / configuration errors.
//
// Bench: a ScriptedInitiator plays the NI on req_in; an L2 stand-in takes every request and
// answers it `latency` cycles later with the same payload, its data buffer filled with the
// line's contents (a function of the address); a sink plays the NI on reply_out and records
// each reply with its data. Timing (header of the unit): a request handed over in c is sent to
// the L2 in c + 1; the stand-in answers in c + 1 + L; the reply enters the compressor in
// c + 2 + L and leaves compress (2) + decompress (1) cycles later, in c + 5 + L.
// Units under test include critical/dpc_co_dec.h (DpcCoDec: its latencies are checked cycle by cycle here).
// Built twice: packet_data_filter_tb with the C++ codec, and (with Verilator) packet_data_filter_rtl_tb
// with codec.model = rtl (GPUSC_TB_RTL): the RTL codec (rtl/dpc_*.v behind pin adapters) passes the
// same cycle-exact checks, since its latencies are DpcCoDec's defaults; the cases that set other
// latencies are replaced there by the RTL's own.
#include <catch2/catch.hpp>

#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <random>
#include <set>

#include "common/address_map.h"
#include "common/payload_pool.h"
#include "common/stats.h"
#include "critical/critical_stages.h"
#include "critical/dpc_codec.h"
#include "critical/packet_data_filter.h"
#include "harness/scripted_initiator.h"
#include "mem/backing_store.h"
#include "mem/memory_partition.h"

using namespace gpusc;
using Params = PacketDataFilter::Params;
using Line = std::array<uint8_t, 128>;
using Catch::Matchers::Contains;

namespace {

constexpr uint64_t kBase = 0x40000;
constexpr unsigned kMc = 60;
uint64_t addr_of(uint64_t block) { return kBase + block * 128; }

void put_word(Line& l, unsigned j, uint32_t v) {
  for (unsigned b = 0; b < 4; ++b) l[4 * j + b] = static_cast<uint8_t>(v >> (8 * b));
}
// Words 0..31: DPC 220 bits; sector 0 alone (DF-TRUC, words 0..7): 90 bits (dpc_codec_tb).
Line words_0_31(uint64_t) {
  Line l{};
  for (unsigned j = 0; j < 32; ++j) put_word(l, j, j);
  return l;
}

class L2Stub : public sc_core::sc_module, private Tickable {
 public:
  MsgIn in{"in"};
  MsgOut out{"out"};
  std::vector<std::pair<uint64_t, MemExt>> arrivals;  // (cycle, ext) of each request taken
  std::function<Line(uint64_t)> contents = words_0_31;
  bool no_data = false;     // answer reads without a data buffer
  bool multicast = false;   // answer reads as multicast replies

  L2Stub(sc_core::sc_module_name name, ClockDomain& clk, unsigned latency)
      : sc_core::sc_module(name), clk_(clk), latency_(latency) {
    in.set_accept([this](tlm::tlm_generic_payload& gp) {
      arrivals.emplace_back(clk_.now(), *gp.get_extension<MemExt>());
      queue_.push_back({clk_.now() + latency_, &gp});
      clk_.wake(*this, clk_.now() + latency_);
      return true;
    });
    out.on_accept([this] { clk_.wake_after_now(*this); });
  }

 private:
  bool tick(uint64_t cycle) override {
    if (queue_.empty() || out.busy()) return false;
    if (queue_.front().first > cycle) {
      clk_.wake(*this, queue_.front().first);
      return false;
    }
    tlm::tlm_generic_payload* gp = queue_.front().second;
    queue_.pop_front();
    MemExt& e = *gp->get_extension<MemExt>();
    e.is_reply = true;
    e.dst = e.src;
    if (e.kind == MemKind::Read) {
      const Line l = contents(gp->get_address());
      std::memcpy(gp->get_data_ptr(), l.data(), 128);
      if (no_data) gp->set_data_ptr(nullptr);
      if (multicast) e.dests.add(e.src), e.dests.add(e.src + 1);
    }
    out.send(*gp);
    return !queue_.empty();
  }
  ClockDomain& clk_;
  const unsigned latency_;
  std::deque<std::pair<uint64_t, tlm::tlm_generic_payload*>> queue_;
};

class Sink : public sc_core::sc_module {
 public:
  struct Reply {
    uint64_t cycle;
    uint64_t address;
    MemExt ext;
    Line data;
  };
  MsgIn in{"in"};
  std::vector<Reply> replies;
  std::function<bool(uint64_t)> refuse;  // refuse(cycle): withhold END_REQ this cycle

  Sink(sc_core::sc_module_name name, ClockDomain& clk) : sc_core::sc_module(name), clk_(clk) {
    in.set_accept([this](tlm::tlm_generic_payload& gp) {
      if (refuse && refuse(clk_.now())) {
        retry_at_ = clk_.now() + 1;
        return false;
      }
      Reply r{clk_.now(), gp.get_address(), *gp.get_extension<MemExt>(), {}};
      if (gp.get_data_ptr()) std::memcpy(r.data.data(), gp.get_data_ptr(), 128);
      replies.push_back(r);
      gp.release();
      return true;
    });
  }
  // The sink retries a refused reply every cycle (called from the bench's run loop).
  void poll() {
    if (in.has_pending()) in.retry();
  }

 private:
  ClockDomain& clk_;
  uint64_t retry_at_ = 0;
};

struct FilterBench : sc_core::sc_module {
  ClockDomain clk{"clk", 1000.0};
  PayloadPool pool{128};
  PacketDataFilter filter;
  tb::ScriptedInitiator ni;
  L2Stub l2;
  Sink sm;
  uint64_t next_id = 1;

  FilterBench(sc_core::sc_module_name name, const Params& p, unsigned latency)
      : sc_core::sc_module(name), filter("filter", p, clk), ni("ni", clk, pool), l2("l2", clk, latency), sm("sm", clk) {
    ni.out.bind(filter.req_in);
    filter.to_mem.bind(l2.in);
    l2.out.bind(filter.from_mem);
    filter.reply_out.bind(sm.in);
  }
  // A read of `block` from `node` with sector map `map`; its id is its t_issue in ns.
  uint64_t read(uint64_t cycle, unsigned node, uint64_t block, unsigned map, MemKind kind = MemKind::Read) {
    const uint64_t id = next_id++;
    ni.at(cycle, [=](tlm::tlm_generic_payload& gp, MemExt& e) {
      e.kind = kind;
      e.src = node;
      e.dst = kMc;
      e.sector_mask = map;
      e.t_issue = sc_core::sc_time(double(id), sc_core::SC_NS);
      gp.set_command(kind == MemKind::Read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
      gp.set_address(addr_of(block));
      gp.set_data_length(128);
    });
    return id;
  }
  void run_to(uint64_t cycle) {
    if (!sm.refuse) {
      sc_core::sc_start(clk.time_of(cycle) - sc_core::sc_time_stamp());
      return;
    }
    while (clk.now() < cycle) {  // a refusing sink polls once per cycle
      sc_core::sc_start(clk.period());
      sm.poll();
    }
  }
  uint64_t stat(const std::string& name) const {
    return collect_stats()["stats"][std::string(filter.name()) + "." + name].get<uint64_t>();
  }
};

#ifdef GPUSC_TB_RTL
constexpr const char* kModel = "rtl";
#else
constexpr const char* kModel = "cpp";
#endif

Params mode(const char* m) {
  Params p;
  p.mode = m;
  p.codec.model = kModel;
  return p;
}

Line zero_outside(Line l, unsigned map) {
  for (unsigned s = 0; s < 4; ++s)
    if (!(map >> s & 1)) std::memset(l.data() + 32 * s, 0, 32);
  return l;
}

}  // namespace

TEST_CASE("data filter: a PDR's reply carries only its sectors, DPC-sized on the wire, an FDR the whole line",
          "[filter][truc]") {
  FilterBench b("b", mode("dftruc"), 20);
  b.read(10, 1, 7, 0b0001);  // PDR "1000"
  b.read(12, 2, 8, 0b1111);  // FDR
  b.read(14, 3, 9, 0);       // map 0 = the whole line: FDR
  b.run_to(200);
  REQUIRE(b.l2.arrivals.size() == 3);
  CHECK(b.l2.arrivals[0].first == 11);
  REQUIRE(b.sm.replies.size() == 3);
  const auto& pdr = b.sm.replies[0];
  CHECK(pdr.cycle == 10 + 5 + 20);
  CHECK(pdr.address == addr_of(7));
  CHECK(pdr.ext.sector_mask == 0b0001);
  CHECK(pdr.ext.wire_bytes == 12);  // 90 bits (hand count in dpc_codec_tb)
  CHECK(pdr.data == zero_outside(words_0_31(0), 0b0001));
  for (unsigned i = 1; i < 3; ++i) {
    CHECK(b.sm.replies[i].ext.sector_mask == 0b1111);
    CHECK(b.sm.replies[i].ext.wire_bytes == 28);  // 220 bits
    CHECK(b.sm.replies[i].data == words_0_31(0));
  }
  CHECK(b.stat("partial_requests") == 1);
  CHECK(b.stat("full_requests") == 2);
  CHECK(b.stat("raw_bytes") == 3 * 128);
  CHECK(b.stat("wire_bytes") == 12 + 28 + 28);
  CHECK(b.filter.idle());
  CHECK(b.filter.table_occupancy() == 0);
  CHECK(b.pool.in_use() == 0);
  CHECK(collect_stats()["invariant_failures"].empty());
}

TEST_CASE("data filter: same-key PDRs before the reply merge into one reply, and the window ends exactly",
          "[filter][merge]") {
  // L = 20. Node 1 asks "1000" of X at 10: the L2 takes it at 11 and hands its reply over at 31.
  // Node 1 asks "0100" at 30 (< 31): merged, one reply "1100". Node 1 asks "0010" at 31: too
  // late, a new entry and a second L2 request. Node 2 asks "0001" at 15: another key.
  FilterBench b("b", mode("dftruc"), 20);
  const uint64_t a = b.read(10, 1, 7, 0b0001);
  const uint64_t n2 = b.read(15, 2, 7, 0b1000);
  b.read(20, 1, 7, 0b0001);  // same sectors again: merged, answered by the same reply
  const uint64_t m = b.read(30, 1, 7, 0b0010);
  const uint64_t late = b.read(31, 1, 7, 0b0100);
  b.run_to(25);
  CHECK(b.filter.entry_map(1, addr_of(7)) == 0b0001);  // "1000" OR "1000"
  CHECK(b.filter.entry_map(2, addr_of(7)) == 0b1000);
  CHECK(b.filter.entry_map(3, addr_of(7)) == -1);
  b.run_to(300);
  REQUIRE(b.l2.arrivals.size() == 3);
  CHECK(b.l2.arrivals[0].first == 11);
  CHECK(b.l2.arrivals[1].first == 16);
  CHECK(b.l2.arrivals[2].first == 32);
  REQUIRE(b.sm.replies.size() >= 3);
  const auto& r1 = b.sm.replies[0];
  CHECK(r1.ext.src == 1);
  CHECK(r1.ext.sector_mask == 0b0011);  // "1000" + "0100" -> "1100"
  CHECK(r1.data == zero_outside(words_0_31(0), 0b0011));
  CHECK(r1.ext.t_issue == sc_core::sc_time(double(a), sc_core::SC_NS));
  REQUIRE(r1.ext.grouped.size() == 2);  // the two merged requests, answered by this reply
  CHECK(r1.ext.grouped[1].t_issue == sc_core::sc_time(double(m), sc_core::SC_NS));
  CHECK(b.sm.replies[1].ext.src == 2);
  CHECK(b.sm.replies[1].ext.sector_mask == 0b1000);
  CHECK(b.sm.replies[1].ext.t_issue == sc_core::sc_time(double(n2), sc_core::SC_NS));
  CHECK(b.sm.replies[2].ext.sector_mask == 0b0100);
  CHECK(b.sm.replies[2].ext.t_issue == sc_core::sc_time(double(late), sc_core::SC_NS));
  CHECK(b.stat("merged_requests") == 2);
  CHECK(b.stat("table_allocations") == 3);
  CHECK(b.filter.idle());
  CHECK(collect_stats()["invariant_failures"].empty());
}

#ifndef GPUSC_TB_RTL
TEST_CASE("data filter: the DpcCoDec latencies set when a reply leaves", "[filter][timing]") {
  // Request handed over at 10, L2 answer at 31, compressor intake at 32: the reply leaves at
  // 32 + compress_latency (+ decompress_latency when charged here). Write acks pass at once.
  Params p = mode("dftruc");
  p.codec.compress_latency = 6;
  p.codec.decompress_latency = 3;
  FilterBench b("b", p, 20);
  b.read(10, 1, 7, 0b0001);
  b.read(100, 1, 8, 0, MemKind::Write);
  b.run_to(200);
  REQUIRE(b.sm.replies.size() == 2);
  CHECK(b.sm.replies[0].cycle == 32 + 6 + 3);
  CHECK(b.sm.replies[1].cycle == 100 + 2 + 20);
  CHECK(b.sm.replies[1].ext.wire_bytes == 0);  // not compressed
  CHECK(b.stat("other_requests") == 1);
}

TEST_CASE("data filter: without charge_decompress only the compression latency is paid", "[filter][timing]") {
  Params p = mode("dfman");
  p.codec.compress_latency = 0;
  p.charge_decompress = false;
  FilterBench b("b", p, 20);
  b.read(10, 1, 7, 0b0011);
  b.run_to(200);
  REQUIRE(b.sm.replies.size() == 1);
  CHECK(b.sm.replies[0].cycle == 32);
}
#else
TEST_CASE("data filter: with the RTL codec, latencies other than the RTL's are errors naming them", "[filter][timing]") {
  ClockDomain clk{"clk", 1000.0};
  Params p = mode("dftruc");
  p.codec.compress_latency = 6;
  REQUIRE_THROWS_WITH(PacketDataFilter("f1", p, clk), Contains("codec.compress_latency = 6") && Contains("2 cycles"));
  Params q = mode("dftruc");
  q.codec.decompress_latency = 3;
  REQUIRE_THROWS_WITH(PacketDataFilter("f2", q, clk), Contains("codec.decompress_latency = 3"));
  q.charge_decompress = false;  // then the decompressor is not here: its latency is not the filter's
  PacketDataFilter f3("f3", q, clk);
  CHECK(f3.params().codec.model == "rtl");
}

TEST_CASE("data filter: with the RTL codec and no decompressor here, a reply leaves 2 cycles after intake",
          "[filter][timing]") {
  Params p = mode("dfman");
  p.charge_decompress = false;
  FilterBench b("b", p, 20);
  b.read(10, 1, 7, 0b0011);
  b.read(60, 1, 8, 0b1111);
  b.run_to(200);
  REQUIRE(b.sm.replies.size() == 2);
  CHECK(b.sm.replies[0].cycle == 32 + 2);
  CHECK(b.sm.replies[1].cycle == 82 + 2);
  CHECK(b.sm.replies[0].data == zero_outside(words_0_31(0), 0b0011));  // DF-MAN: zero-filled is smaller
  CHECK(b.sm.replies[1].data == words_0_31(0));
  // The RTL's clock ran only around the two lines: a couple of edges each, not the 200 cycles.
  const uint64_t edges = collect_stats()["stats"]["b.filter.codec_rtl.clock.rising_edges"].get<uint64_t>();
  CHECK(edges >= 2 * 2);
  CHECK(edges <= 2 * 4);
}
#endif

TEST_CASE("data filter: a full table bypasses a PDR, which gets the whole line", "[filter][full]") {
  Params p = mode("dftruc");
  p.table_entries = 2;
  FilterBench b("b", p, 50);
  b.read(10, 1, 7, 0b0001);
  b.read(11, 2, 7, 0b0010);
  b.read(12, 3, 7, 0b0100);  // table full: bypass
  b.read(13, 1, 7, 0b1000);  // same key as the first: merges, the table being full does not matter
  b.run_to(300);
  REQUIRE(b.l2.arrivals.size() == 3);
  CHECK(b.l2.arrivals[2].first == 13);
  REQUIRE(b.sm.replies.size() == 3);
  CHECK(b.sm.replies[0].ext.sector_mask == 0b1001);
  CHECK(b.sm.replies[1].ext.sector_mask == 0b0010);
  CHECK(b.sm.replies[2].ext.src == 3);
  CHECK(b.sm.replies[2].ext.sector_mask == 0b1111);
  CHECK(b.sm.replies[2].ext.wire_bytes == 28);
  CHECK(b.sm.replies[2].data == words_0_31(0));
  CHECK(b.stat("bypassed_requests") == 1);
  CHECK(b.stat("merged_requests") == 1);
  CHECK(b.stat("table_full_cycles") == 0);
  CHECK(collect_stats()["invariant_failures"].empty());
}

TEST_CASE("data filter: with table_full = stall a PDR waits for a free entry and blocks the requests behind it",
          "[filter][full]") {
  // L = 50: the first reply is handed over at 61 and enters the compressor at 62, freeing its
  // entry; the waiting PDR (processed from 13) is sent in 62, the FDR behind it in 63.
  Params p = mode("dftruc");
  p.table_entries = 2;
  p.table_full = "stall";
  FilterBench b("b", p, 50);
  b.read(10, 1, 7, 0b0001);
  b.read(11, 2, 7, 0b0010);
  b.read(12, 3, 7, 0b0100);
  b.read(13, 4, 8, 0b1111);
  b.run_to(40);
  CHECK(b.l2.arrivals.size() == 2);
  CHECK(b.filter.table_occupancy() == 2);
  b.run_to(300);
  REQUIRE(b.l2.arrivals.size() == 4);
  CHECK(b.l2.arrivals[2].first == 62);
  CHECK(b.l2.arrivals[2].second.src == 3);
  CHECK(b.l2.arrivals[3].first == 63);
  REQUIRE(b.sm.replies.size() == 4);
  CHECK(b.sm.replies[2].ext.sector_mask == 0b0100);  // filtered, not bypassed
  CHECK(b.stat("bypassed_requests") == 0);
  CHECK(b.stat("table_full_cycles") == 62 - 13);
  CHECK(b.filter.idle());
  CHECK(collect_stats()["invariant_failures"].empty());
}

TEST_CASE("data filter: mode dpc compresses every reply as a whole line and keeps no table", "[filter][dpc]") {
  FilterBench b("b", mode("dpc"), 20);
  b.read(10, 1, 7, 0b0001);
  b.read(12, 1, 7, 0b0010);  // same key: not merged without a table
  b.run_to(200);
  CHECK(b.l2.arrivals.size() == 2);
  REQUIRE(b.sm.replies.size() == 2);
  for (const auto& r : b.sm.replies) {
    CHECK(r.ext.sector_mask == 0b1111);
    CHECK(r.ext.wire_bytes == 28);
    CHECK(r.data == words_0_31(0));
  }
  CHECK(b.stat("partial_requests") == 2);
  CHECK(b.stat("merged_requests") == 0);
}

TEST_CASE("data filter: DF-MAN sends the zero-filled line when it encodes smaller, the original otherwise",
          "[filter][man]") {
  // Block 7: sector 0 = words 0..7, the rest noise (dpc_codec_tb: zero-filled 158 bits, the
  // original raw 1025). Block 8: all ones (original 65 bits, zero-filled raw).
  FilterBench b("b", mode("dfman"), 20);
  b.l2.contents = [](uint64_t a) {
    Line l;
    if (a == addr_of(8)) {
      l.fill(0xFF);
      return l;
    }
    std::mt19937 rng(5);
    for (auto& x : l) x = static_cast<uint8_t>(rng());
    for (unsigned k = 0; k < 8; ++k) put_word(l, k, k);
    return l;
  };
  b.read(10, 1, 7, 0b0001);
  b.read(11, 1, 8, 0b0001);
  b.run_to(200);
  REQUIRE(b.sm.replies.size() == 2);
  CHECK(b.sm.replies[0].ext.wire_bytes == 20);  // 158 bits
  CHECK(b.sm.replies[0].ext.sector_mask == 0b0001);
  CHECK(b.sm.replies[0].data == zero_outside(b.l2.contents(addr_of(7)), 0b0001));
  CHECK(b.sm.replies[1].ext.wire_bytes == 9);   // 65 bits
  CHECK(b.sm.replies[1].data == b.l2.contents(addr_of(8)));
  CHECK(b.stat("manipulated_replies") == 1);
}

namespace {
// 1e4 random reads (mostly partial) from 8 nodes to 12 lines, with the sink refusing now and
// then: every read is answered exactly once (by its own reply or the one it merged into), by a
// reply to its node and line whose map covers its sectors, whose data is right in those sectors.
void random_reads(const Params& p) {
  FilterBench b("b", p, 30);
  b.l2.contents = [](uint64_t a) {
    Line l;
    std::mt19937 rng(static_cast<unsigned>(a));
    for (unsigned j = 0; j < 32; ++j) put_word(l, j, rng() % 1000);
    return l;
  };
  std::mt19937 rng(42);
  b.sm.refuse = [](uint64_t c) { return (c / 37) % 5 == 0; };
  struct Req {
    unsigned node;
    uint64_t block;
    unsigned map;
  };
  std::map<uint64_t, Req> reqs;
  uint64_t cycle = 10;
  for (unsigned i = 0; i < 10000; ++i) {
    cycle += rng() % 3;
    const unsigned node = rng() % 8;
    const uint64_t block = rng() % 12;
    const unsigned r = rng() % 20;
    const unsigned map = r == 0 ? 0 : r == 1 ? 15 : 1 + rng() % 14;
    reqs[b.read(cycle, node, block, map)] = {node, block, map};
  }
  b.run_to(cycle + 20000);
  REQUIRE(b.ni.queued() == 0);
  std::map<uint64_t, unsigned> answered;
  for (const auto& r : b.sm.replies) {
    std::vector<uint64_t> ids{uint64_t(r.ext.t_issue.to_seconds() * 1e9 + 0.5)};
    for (const auto& g : r.ext.grouped) ids.push_back(uint64_t(g.t_issue.to_seconds() * 1e9 + 0.5));
    unsigned or_map = 0;
    for (uint64_t id : ids) {
      REQUIRE(reqs.count(id));
      const Req& q = reqs[id];
      ++answered[id];
      CHECK(q.node == r.ext.src);
      CHECK(addr_of(q.block) == r.address);
      const unsigned need = q.map == 0 ? 15 : q.map;
      CHECK((need & ~r.ext.sector_mask) == 0u);
      or_map |= need;
    }
    CHECK((r.ext.sector_mask == 15 || r.ext.sector_mask == or_map));
    // Its sectors are the line's; the others are zero (DF-TRUC, or DF-MAN sending the
    // zero-filled line) or the line's (DF-MAN keeping the original).
    const Line mem = b.l2.contents(r.address);
    CHECK(zero_outside(r.data, r.ext.sector_mask) == zero_outside(mem, r.ext.sector_mask));
    if (p.mode == "dftruc") CHECK(r.data == zero_outside(mem, r.ext.sector_mask));
    else CHECK((r.data == mem || r.data == zero_outside(mem, r.ext.sector_mask)));
  }
  REQUIRE(answered.size() == reqs.size());  // none never
  for (const auto& [id, n] : answered) REQUIRE(n == 1);  // none twice
  CHECK(b.stat("merged_requests") > 0);
  CHECK(b.filter.idle());
  CHECK(b.filter.table_occupancy() == 0);
  CHECK(b.pool.in_use() == 0);
  CHECK(b.filter.stall_cycles() > 0);
  CHECK(collect_stats()["invariant_failures"].empty());
}
}  // namespace

TEST_CASE("data filter: 1e4 random partial reads, DF-TRUC, small table bypassing: each answered exactly once",
          "[filter][random]") {
  Params p = mode("dftruc");
  p.table_entries = 16;
  random_reads(p);
}

TEST_CASE("data filter: 1e4 random partial reads, DF-MAN, small table stalling: each answered exactly once",
          "[filter][random]") {
  Params p = mode("dfman");
  p.table_entries = 16;
  p.table_full = "stall";
  random_reads(p);
}

TEST_CASE("data filter: as stage data_filter of a MemoryPartition, replies carry the BackingStore's bytes",
          "[filter][partition]") {
  ClockDomain core{"core", 1400.0}, dram_clk{"dram_clk", 924.0};
  AddressMap map{1};
  PayloadPool pool{128};
  McStageRegistry reg;
  register_critical_stages(reg);
  REQUIRE(reg.contains("data_filter"));
  MemoryPartition::Params mp;
  mp.stages = {"data_filter"};
#ifdef GPUSC_TB_RTL
  const unsigned latency = 2;  // the RTL's
  mp.stage_params = {{"data_filter", {{"mode", "dftruc"}, {"codec", {{"model", "rtl"}}}}}};
#else
  const unsigned latency = 4;
  mp.stage_params = {{"data_filter", {{"mode", "dftruc"}, {"codec", {{"compress_latency", 4}}}}}};
#endif
  MemoryPartition mc("mc", mp, core, dram_clk, 0, map, reg);
  BackingStore store;
  const Line l = words_0_31(0);
  store.write(0x1000, 128, l.data());
  mc.l2().set_backing_store(&store);
  tb::ScriptedInitiator noc("noc", core, pool);
  Sink ni("ni", core);
  noc.out.bind(mc.in());
  mc.out().bind(ni.in);
  auto* f = dynamic_cast<PacketDataFilter*>(mc.stage("data_filter"));
  REQUIRE(f);
  CHECK(f->params().codec.compress_latency == latency);
  CHECK(f->params().codec.model == kModel);
  CHECK(f->params().table_entries == 256);
  for (unsigned i = 0; i < 2; ++i)
    noc.at(10 + 2000 * i, [](tlm::tlm_generic_payload& gp, MemExt& e) {
      e.kind = MemKind::Read;
      e.src = 5;
      e.sector_mask = 0b0001;
      gp.set_command(tlm::TLM_READ_COMMAND);
      gp.set_address(0x1000);
      gp.set_data_length(128);
    });
  sc_core::sc_start(core.time_of(6000));
  REQUIRE(ni.replies.size() == 2);
  for (const auto& r : ni.replies) {
    CHECK(r.ext.sector_mask == 0b0001);
    CHECK(r.ext.wire_bytes == 12);
    CHECK(r.data == zero_outside(l, 0b0001));
  }
  CHECK(mc.idle());
  json summary;
  MemoryPartition::summarize_stages(summary, {&mc});
  CHECK(summary["dpc_space_savings"].get<double>() == Approx(1.0 - 24.0 / 256.0));
  CHECK(summary["partial_request_share"].get<double>() == Approx(1.0));
}

TEST_CASE("data filter: a read reply without its line is an error naming the BackingStore", "[filter][errors]") {
  FilterBench b("b", mode("dftruc"), 5);
  b.l2.no_data = true;
  b.read(10, 1, 7, 0b0001);
  REQUIRE_THROWS_WITH(b.run_to(100), Contains("BackingStore"));
}

TEST_CASE("data filter: a multicast reply is an error", "[filter][errors]") {
  FilterBench b("b", mode("dfman"), 5);
  b.l2.multicast = true;
  b.read(10, 1, 7, 0b0001);
  REQUIRE_THROWS_WITH(b.run_to(100), Contains("multicast"));
}

TEST_CASE("data filter: a reply on the request path is an error", "[filter][errors]") {
  FilterBench b("b", mode("dfman"), 5);
  b.ni.at(10, [](tlm::tlm_generic_payload&, MemExt& e) { e.is_reply = true; });
  REQUIRE_THROWS_WITH(b.run_to(100), Contains("req_in takes read, write and atomic requests"));
}

TEST_CASE("data filter: parameters out of range and unknown keys are errors naming the key", "[filter][errors]") {
  ClockDomain clk{"clk", 1000.0};
  Params p;
  p.mode = "lz4";
  REQUIRE_THROWS_WITH(PacketDataFilter("f1", p, clk), Contains("mode"));
  Params q;
  q.line_bytes = 64;
  REQUIRE_THROWS_WITH(PacketDataFilter("f2", q, clk), Contains("line_bytes"));
  REQUIRE_THROWS_WITH(params_from_json<Params>(json{{"tabel_entries", 3}}, "mc.stage_params.data_filter"),
                      Contains("tabel_entries"));
  REQUIRE_THROWS_WITH(params_from_json<Params>(json{{"table_full", "drop"}}, "mc.stage_params.data_filter"),
                      Contains("table_full"));
}
