// RDMA CoDec tests (RdmaCoalescer + RdmaDecoalescer). Cycle by cycle, from the rules in
// rdma_coalescer.h: a message handed over in cycle c is latched in c + 1; a buffer whose latched
// responses fill a packet sends it in that cycle, one idle for `timeout` cycles after its latest
// latch sends what it has. So ten responses handed over in c .. c + 9 leave as one packet in
// c + 10 and a lone response handed over in c leaves in c + 31. The de-coalescer sends the k
// responses of a packet latched in a in a .. a + k - 1.
// Covered: at most per_packet transactions per packet (whole responses, multi-word ones, one too
// wide passes through), one destination per buffer and round-robin draining with the
// pass-through queue, the timeout flush of a partly full buffer exactly at 30 idle cycles (and
// its restart), back-pressure from a full buffer, de-coalesced responses identical to the
// originals with their data taken from the wire image, 1e5 random responses under random
// back-pressure with none lost or duplicated, and bad configurations or inputs.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <vector>

#include "common/payload_pool.h"
#include "harness/scripted_initiator.h"
#include "multigpu/rdma_coalescer.h"
#include "multigpu/rdma_decoalescer.h"
#include "multigpu/rdma_packet.h"

using namespace gpusc;
using multigpu::RdmaCoalescer;
using multigpu::RdmaDecoalescer;
using multigpu::RdmaPacketExt;

namespace {

// What a response looked like when the serving GPU handed it to the coalescer.
struct Resp {
  uint64_t seq;  // MemExt::pc: unique per response
  uint16_t id;
  unsigned dst;
  uint64_t mask;
  uint64_t addr;
  std::vector<uint8_t> data;
};

// A fine-grained response: `words` words (mask bits 0 .. words - 1 of a 16-word line, shifted
// by seq % 4 so the masks differ), data bytes a function of seq, response ID seq mod 2^16.
Resp make_resp(uint64_t seq, unsigned dst, unsigned words) {
  Resp r{seq, static_cast<uint16_t>(seq & 0xffff), dst, ((uint64_t{1} << words) - 1) << (seq % 4 <= 16 - words ? seq % 4 : 0),
         0x100000 + 64 * seq, {}};
  for (unsigned b = 0; b < 4 * words; ++b) r.data.push_back(static_cast<uint8_t>(seq * 31 + b * 7 + 1));
  return r;
}

void fill(tlm::tlm_generic_payload& gp, MemExt& e, const Resp& r, unsigned self = 0) {
  e.kind = MemKind::Read;
  e.is_reply = true;
  e.src = self;
  e.dst = r.dst;
  e.pc = r.seq;
  e.word_mask = static_cast<uint32_t>(r.mask);
  gp.set_command(tlm::TLM_READ_COMMAND);
  gp.set_address(r.addr);
  gp.set_data_length(static_cast<unsigned>(r.data.size()));
  std::copy(r.data.begin(), r.data.end(), gp.get_data_ptr());
  multigpu::set_rdma_id(gp, r.id);
}

// A regular message (a write ack) that must pass through unchanged.
void fill_ack(tlm::tlm_generic_payload& gp, MemExt& e, uint64_t seq, unsigned dst) {
  e.kind = MemKind::Write;
  e.is_reply = true;
  e.dst = dst;
  e.pc = seq;
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_address(0x900000 + 64 * seq);
  gp.set_data_length(0);
}

// A sink that records every message (and the contents of coalesced packets), optionally stalls
// (until a cycle, or at random), and releases what it took at its next edge (packets with the
// responses they carry).
class Sink : public sc_core::sc_module, private Tickable {
 public:
  struct Got {
    uint64_t cycle;
    MemExt ext;
    uint64_t addr;
    unsigned length;
    std::vector<uint8_t> data;
    int id = -1;  // valid RdmaIdExt, or -1
    bool packet = false;
    unsigned txns = 0;
    std::vector<uint64_t> seqs;   // a packet's responses (MemExt::pc), in order
    std::vector<unsigned> dsts;   // their MemExt::dst
    std::vector<uint16_t> ids;
  };
  MsgIn in{"in"};

  Sink(sc_core::sc_module_name n, ClockDomain& clk, unsigned refuse_percent = 0, unsigned max_stall = 1, uint64_t seed = 1)
      : sc_core::sc_module(n), clk_(clk), refuse_(refuse_percent), max_stall_(max_stall), rng_(seed) {
    in.set_accept([this](tlm::tlm_generic_payload& gp) {
      const uint64_t now = clk_.now();
      if (now < stalled_until_) {
        clk_.wake(*this, stalled_until_);
        return false;
      }
      if (!retrying_ && refuse_ && rng_() % 100 < refuse_) {
        stalled_until_ = now + 1 + rng_() % max_stall_;
        ++refusals_;
        clk_.wake(*this, stalled_until_);
        return false;
      }
      Got g;
      g.cycle = now;
      g.ext = *gp.get_extension<MemExt>();
      g.addr = gp.get_address();
      g.length = gp.get_data_length();
      if (gp.get_data_ptr()) g.data.assign(gp.get_data_ptr(), gp.get_data_ptr() + gp.get_data_length());
      if (const auto* id = multigpu::rdma_id(gp)) g.id = id->id;
      if (const auto* x = multigpu::coalesced_packet(gp)) {
        g.packet = true;
        g.txns = x->transactions;
        for (const auto& it : x->items) {
          g.seqs.push_back(it.response->get_extension<MemExt>()->pc);
          g.dsts.push_back(it.response->get_extension<MemExt>()->dst);
          g.ids.push_back(it.id);
        }
      }
      got_.push_back(std::move(g));
      release_.push_back(&gp);  // MsgIn still touches gp after accept: release at the next edge
      clk_.wake_after_now(*this);
      return true;
    });
  }
  void stall_until(uint64_t c) { stalled_until_ = c; }
  const std::vector<Got>& got() const { return got_; }
  uint64_t refusals() const { return refusals_; }

 private:
  bool tick(uint64_t cycle) override {
    for (auto* gp : release_) {
      if (auto* x = multigpu::coalesced_packet(*gp))
        for (auto& it : x->items) it.response->release();
      gp->release();
    }
    release_.clear();
    if (!in.has_pending()) return false;
    if (cycle < stalled_until_) {
      clk_.wake(*this, stalled_until_);
      return false;
    }
    retrying_ = true;
    in.retry();
    retrying_ = false;
    return false;
  }
  ClockDomain& clk_;
  const unsigned refuse_, max_stall_;
  std::mt19937_64 rng_;
  uint64_t stalled_until_ = 0, refusals_ = 0;
  bool retrying_ = false;
  std::vector<Got> got_;
  std::vector<tlm::tlm_generic_payload*> release_;
};

// Source -> coalescer -> sink (packets as they leave the coalescer).
struct CoBench : sc_core::sc_module {
  ClockDomain clk{"clk", 1000.0};
  PayloadPool pool{64};
  tb::ScriptedInitiator src{"src", clk, pool};
  RdmaCoalescer co;
  Sink sink{"sink", clk};
  std::map<uint64_t, Resp> sent;

  CoBench(sc_core::sc_module_name n, const RdmaCoalescer::Params& p) : sc_core::sc_module(n), co("co", p, clk) {
    src.out.bind(co.in);
    co.out.bind(sink.in);
  }
  // Hands response seq (to GPU dst, `words` words) to the coalescer no earlier than `cycle`.
  void send(uint64_t cycle, uint64_t seq, unsigned dst, unsigned words = 1) {
    const Resp r = make_resp(seq, dst, words);
    sent[seq] = r;
    src.at(cycle, [r](tlm::tlm_generic_payload& gp, MemExt& e) { fill(gp, e, r); });
  }
  void ack(uint64_t cycle, uint64_t seq, unsigned dst) {
    src.at(cycle, [=](tlm::tlm_generic_payload& gp, MemExt& e) { fill_ack(gp, e, seq, dst); });
  }
  void run_to(uint64_t cycle) { sc_core::sc_start(clk.time_of(cycle) - sc_core::sc_time_stamp()); }
  double stat(const std::string& k) const { return collect_stats()["stats"][std::string(co.name()) + "." + k].get<double>(); }
};

std::vector<uint64_t> cycles(const Sink& s) {
  std::vector<uint64_t> c;
  for (const auto& g : s.got()) c.push_back(g.cycle);
  return c;
}
std::vector<unsigned> sizes(const Sink& s) {
  std::vector<unsigned> c;
  for (const auto& g : s.got()) c.push_back(g.txns);
  return c;
}
std::vector<uint64_t> iota(uint64_t from, uint64_t n, uint64_t step = 1) {
  std::vector<uint64_t> v;
  for (uint64_t k = 0; k < n; ++k) v.push_back(from + k * step);
  return v;
}

}  // namespace

TEST_CASE("CoDec: ten one-word responses leave as one packet in the cycle the tenth is latched", "[codec][timing]") {
  CoBench b("b", RdmaCoalescer::Params{});
  for (uint64_t k = 0; k < 10; ++k) b.send(10, k, 1);  // handed over in 10 .. 19, latched 11 .. 20
  b.run_to(200);
  REQUIRE(b.sink.got().size() == 1);
  const auto& g = b.sink.got()[0];
  CHECK(g.cycle == 20);
  CHECK(g.packet);
  CHECK(g.txns == 10);
  CHECK(g.length == 60);  // 10 x (2 B ID + 4 B data)
  CHECK(g.ext.dst == 1);
  CHECK(g.ext.src == 0);
  CHECK(g.ext.is_reply);
  CHECK(g.ext.kind == MemKind::Read);
  CHECK(g.seqs == iota(0, 10));
  // The wire image: per transaction the ID (little endian) then the response's data word.
  unsigned wrong = 0;
  for (unsigned t = 0; t < 10; ++t) {
    const Resp& r = b.sent[t];
    wrong += g.data[6 * t] != (r.id & 0xff) || g.data[6 * t + 1] != (r.id >> 8);
    for (unsigned j = 0; j < 4; ++j) wrong += g.data[6 * t + 2 + j] != r.data[j];
  }
  CHECK(wrong == 0);
  CHECK(b.stat("packets") == 1);
  CHECK(b.stat("full_packets") == 1);
  CHECK(b.stat("timeout_packets") == 0);
  CHECK(b.co.idle());
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("CoDec: at most ten transactions per packet, responses never split", "[codec][timing]") {
  CoBench b("b", RdmaCoalescer::Params{});
  // 25 one-word responses to GPU 1, handed over in 10 .. 34: full packets in 20 and 30, the last
  // five (latched 31 .. 35) flushed by the timeout in 35 + 30 = 65.
  for (uint64_t k = 0; k < 25; ++k) b.send(10, k, 1);
  // To GPU 2, from 100: four 3-word responses (latched 101 .. 104). In 104 the packet from the
  // head holds three (9 transactions) and the fourth does not fit: it leaves, 9 transactions;
  // the fourth is flushed alone in 104 + 30 = 134.
  for (uint64_t k = 0; k < 4; ++k) b.send(100, 100 + k, 2, 3);
  // To GPU 3: a 10-word response is a full packet by itself (latched 201, sent 201); an 11-word
  // one is wider than a packet and passes through unchanged (latched 202, sent 202).
  b.send(200, 200, 3, 10);
  b.send(200, 201, 3, 11);
  b.run_to(1000);
  const auto& g = b.sink.got();
  REQUIRE(g.size() == 7);
  CHECK(cycles(b.sink) == std::vector<uint64_t>{20, 30, 65, 104, 134, 201, 202});
  CHECK(sizes(b.sink) == std::vector<unsigned>{10, 10, 5, 9, 3, 10, 0});
  CHECK(g[0].seqs == iota(0, 10));
  CHECK(g[1].seqs == iota(10, 10));
  CHECK(g[2].seqs == iota(20, 5));
  CHECK(g[3].seqs == iota(100, 3));
  CHECK(g[3].ids == std::vector<uint16_t>{100, 101, 102});
  CHECK(g[3].length == 9 * 6);
  CHECK(g[4].seqs == std::vector<uint64_t>{103});
  CHECK(g[5].seqs == std::vector<uint64_t>{200});
  CHECK_FALSE(g[6].packet);  // the 11-word response itself
  CHECK(g[6].ext.pc == 201);
  CHECK(g[6].length == 44);
  CHECK(g[6].id == 201);
  unsigned over = 0;
  for (const auto& x : g) over += x.txns > 10;
  CHECK(over == 0);
  CHECK(b.stat("full_packets") == 4);
  CHECK(b.stat("timeout_packets") == 2);
  CHECK(b.stat("passthrough") == 1);
  CHECK(b.stat("transactions") == 25 + 12 + 10);
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("CoDec: a partly full buffer is flushed exactly 30 idle cycles after its last arrival", "[codec][timeout]") {
  CoBench b("b", RdmaCoalescer::Params{});
  // GPU 2: handed over in 10, 12, 14 -> latched 11, 13, 15: idle from 15, flushed in 45.
  // GPU 3: handed over in 11, 13 and 43 -> latched 12, 14, 44: the third arrival restarts the
  // timer (the buffer was idle 30 cycles only in 44 = 14 + 30, the cycle it arrived), so the
  // flush is in 44 + 30 = 74 with all three.
  b.send(10, 0, 2);
  b.send(11, 1, 3);
  b.send(12, 2, 2);
  b.send(13, 3, 3);
  b.send(14, 4, 2);
  b.send(43, 5, 3);
  b.run_to(300);
  const auto& g = b.sink.got();
  REQUIRE(g.size() == 2);
  CHECK(g[0].cycle == 45);
  CHECK(g[0].ext.dst == 2);
  CHECK(g[0].seqs == std::vector<uint64_t>{0, 2, 4});
  CHECK(g[1].cycle == 74);
  CHECK(g[1].ext.dst == 3);
  CHECK(g[1].seqs == std::vector<uint64_t>{1, 3, 5});
  CHECK(b.stat("timeout_packets") == 2);
  // The coalescer slept between arrivals and timeouts: it ticked at latch and flush cycles only.
  CHECK(b.clk.dispatched_ticks() < 40);
}

TEST_CASE("CoDec: the timeout is a parameter", "[codec][timeout]") {
  RdmaCoalescer::Params p;
  p.timeout = 10;
  CoBench b("b", p);
  b.send(10, 0, 1);  // latched 11, flushed 21
  b.send(50, 1, 1);
  b.send(51, 2, 1);  // latched 51, 52: flushed 62
  b.run_to(300);
  CHECK(cycles(b.sink) == std::vector<uint64_t>{21, 62});
  CHECK(sizes(b.sink) == std::vector<unsigned>{1, 2});
}

namespace {
// Into a coalescer of GPU 2 whose receiver stalls until 200: 60 one-word responses, to GPUs 0, 1,
// 3, 0, 1, 3, ... handed over in 10 .. 69; a write ack to GPU 1 between the 30th and the 31st
// (handed over in 40, so the rest move one cycle later).
void round_robin_traffic(CoBench& b) {
  b.sink.stall_until(200);
  const unsigned dsts[3] = {0, 1, 3};
  for (uint64_t k = 0; k < 60; ++k) {
    if (k == 30) b.ack(10, 1000, 1);
    b.send(10, k, dsts[k % 3]);
  }
}
}  // namespace

TEST_CASE("CoDec: one destination per buffer, drained round-robin with the pass-through queue", "[codec][rr]") {
  RdmaCoalescer::Params p;
  p.self = 2;  // buffers for GPUs 0, 1 and 3
  CoBench b("b", p);
  round_robin_traffic(b);
  b.run_to(1000);
  // GPU 0's tenth response (k = 27) is handed over in 37 and latched in 38: its packet is offered
  // in 38 and withheld by the sink until 200. Then one message per cycle, round-robin from the
  // buffer after GPU 0's: GPU 1 (201), GPU 3 (202), the pass-through ack (203), GPU 0 (204), ...
  const auto& g = b.sink.got();
  REQUIRE(g.size() == 7);
  CHECK(cycles(b.sink) == iota(200, 7));
  const std::vector<unsigned> order = {0, 1, 3, 1, 0, 1, 3};
  for (unsigned i = 0; i < 7; ++i) {
    INFO("message " << i);
    CHECK(g[i].ext.dst == order[i]);
    CHECK(g[i].packet == (i != 3));
  }
  CHECK(g[3].ext.kind == MemKind::Write);
  CHECK(g[3].ext.pc == 1000);
  // Every packet holds responses for its own destination only, in arrival order: GPU d's j-th
  // packet has the responses k = 3 (10 j + i) + slot(d), i = 0 .. 9.
  unsigned foreign = 0, misplaced = 0;
  unsigned nth[4] = {0, 0, 0, 0};
  for (const auto& x : g) {
    if (!x.packet) continue;
    const unsigned d = x.ext.dst, slot = d == 3 ? 2 : d, j = nth[d]++;
    for (unsigned i = 0; i < x.seqs.size(); ++i) {
      foreign += x.dsts[i] != d;
      misplaced += x.seqs[i] != 3 * (10 * j + i) + slot;
    }
    CHECK(x.txns == 10);
  }
  CHECK(foreign == 0);
  CHECK(misplaced == 0);
  CHECK(b.stat("refused") == 0);
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("CoDec: a coalescer with per_cycle 4 sends up to four ready messages per cycle, round-robin",
          "[codec][rr]") {
  // The round-robin case above with per_cycle = 4: the packet withheld since 38 is taken in 200;
  // the six messages ready behind it leave four in 201 and two in 202, in the same order.
  RdmaCoalescer::Params p;
  p.self = 2;
  p.per_cycle = 4;
  CoBench b("b", p);
  round_robin_traffic(b);
  b.run_to(1000);
  const auto& g = b.sink.got();
  REQUIRE(g.size() == 7);
  CHECK(cycles(b.sink) == std::vector<uint64_t>{200, 201, 201, 201, 201, 202, 202});
  const std::vector<unsigned> order = {0, 1, 3, 1, 0, 1, 3};
  for (unsigned i = 0; i < 7; ++i) {
    INFO("message " << i);
    CHECK(g[i].ext.dst == order[i]);
    CHECK(g[i].packet == (i != 3));
  }
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("CoDec: a full buffer withholds END_REQ and holds back its source", "[codec][backpressure]") {
  RdmaCoalescer::Params p;
  p.buffer_entries = 12;
  CoBench b("b", p);
  b.sink.stall_until(300);
  for (uint64_t k = 0; k < 40; ++k) b.send(10, k, 1);
  b.run_to(299);
  // Responses 0..9 (latched 11..20) leave as a packet in 20, withheld by the sink. Responses
  // 10..21 (handed over in 20..31) fill the 12 entries; response 22, offered in 32, is refused.
  CHECK(b.sink.got().empty());
  CHECK(b.co.out.busy());
  CHECK(b.co.buffered(1) == 12);
  CHECK(b.co.in.has_pending());
  const auto& s = b.src.sent();
  REQUIRE(s.size() == 23);
  CHECK(s[21].accepted == 31);
  CHECK(s[22].offered == 32);
  CHECK(s[22].accepted == UINT64_MAX);
  CHECK(b.stat("refused") == 1);
  b.run_to(1000);
  // The sink takes the first packet in 300; in 301 the next full packet (10..19) leaves and frees
  // room, so response 22 is taken in 301.
  CHECK(s[22].accepted == 301);
  const auto& g = b.sink.got();
  REQUIRE(g.size() >= 2);
  CHECK(g[0].cycle == 300);
  CHECK(g[1].cycle == 301);
  CHECK(g[1].seqs == iota(10, 10));
  std::vector<uint64_t> all;
  for (const auto& x : g) all.insert(all.end(), x.seqs.begin(), x.seqs.end());
  CHECK(all == iota(0, 40));  // every response once, in order
  CHECK(b.pool.in_use() == 0);
}

namespace {
// Source -> coalescer -> de-coalescer -> sink (the original responses).
struct RoundTrip : sc_core::sc_module {
  ClockDomain clk{"clk", 1000.0};
  PayloadPool pool{64};
  tb::ScriptedInitiator src{"src", clk, pool};
  RdmaCoalescer co;
  RdmaDecoalescer dec;
  Sink sink;
  std::map<uint64_t, Resp> sent;

  RoundTrip(sc_core::sc_module_name n, const RdmaCoalescer::Params& p, const RdmaDecoalescer::Params& d = {},
            unsigned refuse = 0, unsigned max_stall = 1)
      : sc_core::sc_module(n), co("co", p, clk), dec("dec", d, clk), sink("sink", clk, refuse, max_stall, 5) {
    src.out.bind(co.in);
    co.out.bind(dec.in);
    dec.out.bind(sink.in);
  }
  void send(uint64_t cycle, uint64_t seq, unsigned dst, unsigned words = 1) {
    const Resp r = make_resp(seq, dst, words);
    sent[seq] = r;
    src.at(cycle, [r](tlm::tlm_generic_payload& gp, MemExt& e) { fill(gp, e, r); });
  }
  void run_to(uint64_t cycle) { sc_core::sc_start(clk.time_of(cycle) - sc_core::sc_time_stamp()); }
  // Responses that arrived differing from what was sent (address, kind, masks, ids, data).
  unsigned differing() {
    unsigned bad = 0;
    for (const auto& g : sink.got()) {
      if (g.ext.kind != MemKind::Read) continue;
      const auto it = sent.find(g.ext.pc);
      if (it == sent.end()) {
        ++bad;
        continue;
      }
      const Resp& r = it->second;
      bad += g.addr != r.addr || g.ext.dst != r.dst || g.ext.word_mask != r.mask || !g.ext.is_reply || g.id != r.id ||
             g.data != r.data || g.length != r.data.size();
    }
    return bad;
  }
};
}  // namespace

TEST_CASE("CoDec: de-coalesced responses are the originals, one per cycle after the packet", "[codec][roundtrip]") {
  RoundTrip b("b", RdmaCoalescer::Params{});
  for (uint64_t k = 0; k < 10; ++k) b.send(10, k, 1, 1 + k % 3);  // 1, 2, 3, 1, 2, 3, ... words
  b.run_to(500);
  // Words 1, 2, 3, 1, 2 = 9 fit; the 6th (3) does not: at its latch (16) a packet of 5 leaves;
  // the de-coalescer latches it in 17 and sends its responses in 17 .. 21. Words 3, 1, 2, 3, 1 =
  // 10 fill the next packet when the 10th is latched (20); latched by the de-coalescer in 21, its
  // responses follow the first packet's: 22 .. 26.
  const auto& g = b.sink.got();
  REQUIRE(g.size() == 10);
  CHECK(cycles(b.sink) == iota(17, 10));
  CHECK(b.co.packets() == 2);
  std::vector<uint64_t> seqs;
  for (const auto& x : g) seqs.push_back(x.ext.pc);
  CHECK(seqs == iota(0, 10));
  CHECK(b.differing() == 0);
  CHECK(b.pool.in_use() == 0);
  CHECK(b.dec.idle());
}

TEST_CASE("CoDec: with 16 B transfer units a response of k units is k transactions of 2 + 16 B and comes back whole",
          "[codec][granularity]") {
  RdmaCoalescer::Params p;
  p.data_bytes = 16;
  p.per_packet = 3;
  RoundTrip b("b", p);
  std::vector<unsigned> wire;  // data length of each packet on the wire
  b.dec.in.set_tap([&wire](tlm::tlm_generic_payload& gp) {
    if (multigpu::coalesced_packet(gp)) wire.push_back(gp.get_data_length());
  });
  // Masks of whole 4-word units: one unit, two units, one unit = 4 transactions: the first two
  // responses fill 3 transactions, a full packet; the third leaves by the timeout.
  const uint64_t masks[3] = {0x00f0, 0xff00, 0x000f};
  for (uint64_t k = 0; k < 3; ++k) {
    Resp r = make_resp(k, 1, 1);
    r.mask = masks[k];
    r.data.clear();
    for (unsigned i = 0; i < 4 * unsigned(__builtin_popcountll(r.mask)); ++i)
      r.data.push_back(static_cast<uint8_t>(k * 17 + i * 3 + 1));
    b.sent[k] = r;
    b.src.at(10, [r](tlm::tlm_generic_payload& gp, MemExt& e) { fill(gp, e, r); });
  }
  b.run_to(200);
  CHECK(wire == std::vector<unsigned>{3 * 18, 18});
  CHECK(collect_stats()["stats"][std::string(b.co.name()) + ".transactions"].get<double>() == 4);
  REQUIRE(b.sink.got().size() == 3);
  CHECK(b.differing() == 0);  // the masks and all 4 x 16 B of data, as sent
}

TEST_CASE("CoDec: a fine-grained response whose mask names part of a transfer unit is a clear error",
          "[codec][granularity][bad]") {
  RdmaCoalescer::Params p;
  p.data_bytes = 8;
  CoBench b("b", p);
  Resp r = make_resp(5, 1, 1);
  r.mask = 0b0110;  // words 1 and 2: half of unit 0 and half of unit 1
  r.data.assign(8, 1);
  b.src.at(10, [r](tlm::tlm_generic_payload& gp, MemExt& e) { fill(gp, e, r); });
  REQUIRE_THROWS_WITH(b.run_to(50), Catch::Contains("does not name whole transfer units of data_bytes = 8"));
}

TEST_CASE("CoDec: a de-coalescer with per_cycle 4 sends a packet's responses four per cycle", "[codec][roundtrip]") {
  RdmaDecoalescer::Params d;
  d.per_cycle = 4;
  RoundTrip b("b", RdmaCoalescer::Params{}, d);
  for (uint64_t k = 0; k < 10; ++k) b.send(10, k, 1);  // one packet of 10 in 20, latched by the de-coalescer in 21
  b.src.at(30, [](tlm::tlm_generic_payload& gp, MemExt& e) { fill_ack(gp, e, 50, 1); });  // sent on in 32
  b.run_to(200);
  const auto& g = b.sink.got();
  REQUIRE(g.size() == 11);
  CHECK(cycles(b.sink) == std::vector<uint64_t>{21, 21, 21, 21, 22, 22, 22, 22, 23, 23, 32});
  CHECK(b.differing() == 0);
  CHECK(b.dec.idle());
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("CoDec: regular messages pass through both halves unchanged", "[codec][roundtrip]") {
  RoundTrip b("b", RdmaCoalescer::Params{});
  b.src.at(10, [](tlm::tlm_generic_payload& gp, MemExt& e) { fill_ack(gp, e, 77, 3); });
  b.src.at(11, [](tlm::tlm_generic_payload& gp, MemExt& e) {  // a conventional 64 B line reply, no ID
    e.kind = MemKind::Read;
    e.is_reply = true;
    e.dst = 2;
    e.pc = 78;
    e.word_mask = 0xFFFF;
    gp.set_address(0x4000);
    gp.set_data_length(64);
  });
  b.run_to(100);
  const auto& g = b.sink.got();
  REQUIRE(g.size() == 2);
  // Handed over in 10 and 11, latched and sent on in 11 and 12 (pass-through), latched and sent
  // on by the de-coalescer in 12 and 13.
  CHECK(cycles(b.sink) == std::vector<uint64_t>{12, 13});
  CHECK(g[0].ext.kind == MemKind::Write);
  CHECK(g[0].ext.pc == 77);
  CHECK(g[1].ext.pc == 78);
  CHECK(g[1].length == 64);
  CHECK(g[1].id == -1);
  CHECK(b.pool.in_use() == 0);
}

TEST_CASE("CoDec: the de-coalescer takes data from the wire image and checks its IDs", "[codec][roundtrip]") {
  RoundTrip b("b", RdmaCoalescer::Params{});
  // Flip the first data byte of the second transaction on the wire (after the coalescer built it).
  b.dec.in.set_tap([](tlm::tlm_generic_payload& gp) {
    if (multigpu::coalesced_packet(gp)) gp.get_data_ptr()[6 + 2] ^= 0xff;
  });
  b.send(10, 0, 1);
  b.send(10, 1, 1, 2);
  b.run_to(100);
  REQUIRE(b.sink.got().size() == 2);
  CHECK(b.sink.got()[0].data == b.sent[0].data);
  auto expect = b.sent[1].data;
  expect[0] ^= 0xff;
  CHECK(b.sink.got()[1].data == expect);  // the wire's byte, not the one the payload had
}

TEST_CASE("CoDec: a wire ID that does not match its response is a clear error", "[codec][bad]") {
  RoundTrip b("b", RdmaCoalescer::Params{});
  b.dec.in.set_tap([](tlm::tlm_generic_payload& gp) {
    if (multigpu::coalesced_packet(gp)) gp.get_data_ptr()[0] ^= 0x01;  // ID of transaction 0
  });
  b.send(10, 4, 1);
  REQUIRE_THROWS_WITH(b.run_to(100), Catch::Contains("transaction 0 carries response ID 5") &&
                                         Catch::Contains("has ID 4"));
}

TEST_CASE("CoDec: 1e5 random responses under back-pressure, none lost or duplicated", "[codec][random]") {
  RdmaCoalescer::Params p;  // 4 GPUs, this one is GPU 0
  RdmaDecoalescer::Params d;
  RoundTrip b("b", p, d, /*refuse=*/20, /*max_stall=*/12);
  // Every packet as it reaches the de-coalescer: its size and its responses' destinations.
  uint64_t packets = 0, over = 0, mixed = 0, txns = 0;
  b.dec.in.set_tap([&](tlm::tlm_generic_payload& gp) {
    const auto* x = multigpu::coalesced_packet(gp);
    if (!x) return;
    ++packets;
    txns += x->transactions;
    over += x->transactions > 10;
    for (const auto& it : x->items) mixed += it.response->get_extension<MemExt>()->dst != gp.get_extension<MemExt>()->dst;
  });
  const uint64_t N = 100000;
  std::mt19937_64 rng(11);
  uint64_t t = 10, acks = 0, words = 0;
  for (uint64_t k = 0; k < N; ++k) {
    t += rng() % 3;  // about two per three cycles, bursts of one per cycle
    const unsigned dst = 1 + rng() % 3;
    if (rng() % 20 == 0) {
      ++acks;
      b.src.at(t, [=](tlm::tlm_generic_payload& gp, MemExt& e) { fill_ack(gp, e, N + k, dst); });
      continue;
    }
    const unsigned w = rng() % 8 == 0 ? 1 + rng() % 12 : 1;  // mostly one word, some up to 12 (> 10: pass-through)
    words += w;
    b.send(t, k, dst, w);
  }
  b.run_to(t + 400000);
  const auto& g = b.sink.got();
  CHECK(g.size() == N);
  std::vector<unsigned> seen(2 * N, 0);
  for (const auto& x : g) ++seen[x.ext.pc];
  unsigned lost = 0, dup = 0;
  for (const auto& [seq, r] : b.sent) lost += seen[seq] == 0, dup += seen[seq] > 1;
  unsigned acks_seen = 0;
  for (uint64_t s = N; s < 2 * N; ++s) acks_seen += seen[s], dup += seen[s] > 1;
  CHECK(lost == 0);
  CHECK(dup == 0);
  CHECK(acks_seen == acks);
  CHECK(b.differing() == 0);
  CHECK(over == 0);
  CHECK(mixed == 0);
  CHECK(packets > 0);
  CHECK(b.sink.refusals() > 0);   // the back-pressure was real
  CHECK(b.dec.out.stalls() > 0);  // ... it reached the de-coalescer's output
  CHECK(b.co.out.stalls() > 0);   // ... and the coalescer's
  CHECK(b.src.out.stalls() > 0);  // ... and the serving GPU: a full buffer or pass-through queue
  CHECK(txns > 5 * packets);      // coalescing happened: more than five transactions per packet on average
  const json st = collect_stats();
  CHECK(st["invariant_failures"].empty());
  CHECK(st["stats"]["b.co.passthrough"].get<double>() > acks);  // acks and the responses wider than a packet
  CHECK(b.co.idle());
  CHECK(b.dec.idle());
  CHECK(b.pool.in_use() == 0);
}

namespace {
void construct(const RdmaCoalescer::Params& p) {
  ClockDomain clk("clk", 1000.0);
  RdmaCoalescer c("co", p, clk);
}
}  // namespace

TEST_CASE("CoDec: bad configurations are clear errors", "[codec][bad]") {
  RdmaCoalescer::Params p;
  p.self = 4;
  CHECK_THROWS_WITH(construct(p), Catch::Contains("self = 4 is not a GPU of the fabric (gpus = 4)"));
  p = {};
  p.buffer_entries = 8;
  CHECK_THROWS_WITH(construct(p), Catch::Contains("buffer_entries = 8 is smaller than per_packet = 10"));
  p = {};
  p.gpus = 1;
  CHECK_THROWS_WITH(construct(p), Catch::Contains("'co.gpus' = 1 is out of range"));
  p = {};
  p.data_bytes = 12;
  CHECK_THROWS_WITH(construct(p), Catch::Contains("data_bytes = 12 must be a power of two and a multiple of the 4 B mask word"));
  const auto q = params_from_json<RdmaCoalescer::Params>(parse_json(R"({"timeout": 50, "per_packet": 5})", "t"), "co");
  CHECK(q.timeout == 50);
  CHECK(q.per_packet == 5);
  CHECK(q.buffer_entries == 64);
  CHECK_THROWS_WITH(params_from_json<RdmaCoalescer::Params>(parse_json(R"({"buffers": 3})", "t"), "co"),
                    Catch::Contains("unknown parameter 'co.buffers'"));
}

TEST_CASE("CoDec: a response for this GPU or with a data length that is not its words is a clear error",
          "[codec][bad]") {
  {
    CoBench b("b", RdmaCoalescer::Params{});
    b.send(10, 0, 0);  // GPU 0 is self
    REQUIRE_THROWS_WITH(b.run_to(50), Catch::Contains("for GPU 0: the destination must be another GPU"));
  }
}

TEST_CASE("CoDec: a fine-grained response whose data is not its masked words is a clear error", "[codec][bad]") {
  CoBench b("b", RdmaCoalescer::Params{});
  const Resp r = make_resp(3, 1, 2);
  b.src.at(10, [r](tlm::tlm_generic_payload& gp, MemExt& e) {
    fill(gp, e, r);
    gp.set_data_length(64);  // a whole line with a 2-word mask
  });
  REQUIRE_THROWS_WITH(b.run_to(50), Catch::Contains("has data_length 64 but word mask 0x") &&
                                        Catch::Contains("names 2 words of 4 bytes"));
}
