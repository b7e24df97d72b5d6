// ProbeHandler (probe_handler.h) between real L1s (mem/cache.h) and real request / reply networks
// (2x2 mesh: cores 0, 1, 2 at nodes 0, 1, 2; a scripted memory at node 3 answering every request
// with its own payload after a fixed latency). Each core is a scripted initiator into its L1 and a
// sink for the L1's replies. Checks what answers each load (a remote L1 or the memory), that it is
// answered exactly once, which requests reach memory, and the timeout / early-release / deflection
// paths with their counters. Probes carry their header in ProbeExt (probe/probe_ext.h).
#include <catch2/catch.hpp>

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "common/clock_domain.h"
#include "common/payload_pool.h"
#include "gpu/node_numbering.h"
#include "harness/scripted_initiator.h"
#include "harness/scripted_target.h"
#include "mem/cache.h"
#include "noc/network.h"
#include "probe/probe_fabric.h"
#include "probe/probe_handler.h"

using namespace gpusc;
using probe::ProbeFabric;
using probe::ProbeHandler;

namespace {

constexpr unsigned kCores = 3, kMem = 3;

// Answers each request with its own payload `latency` cycles after taking it.
struct MockMemory : sc_core::sc_module, Tickable {
  struct Rec {
    uint64_t cycle;
    MemKind kind;
    uint64_t addr;
    unsigned src;
  };
  MsgIn in{"in"};
  MsgOut out{"out"};
  ClockDomain& clk;
  uint64_t latency;
  std::deque<std::pair<uint64_t, tlm::tlm_generic_payload*>> q;
  std::vector<Rec> recs;
  MockMemory(sc_core::sc_module_name n, ClockDomain& c, uint64_t lat) : sc_core::sc_module(n), clk(c), latency(lat) {
    in.set_accept([this](tlm::tlm_generic_payload& gp) {
      const MemExt& e = *gp.get_extension<MemExt>();
      recs.push_back({clk.now(), e.kind, gp.get_address(), e.src});
      q.emplace_back(clk.now() + latency, &gp);
      clk.wake(*this, q.back().first);
      return true;
    });
    out.on_accept([this] { clk.wake_after_now(*this); });
  }
  bool tick(uint64_t cycle) override {
    if (q.empty()) return false;
    if (q.front().first > cycle) {
      clk.wake(*this, q.front().first);
      return false;
    }
    if (out.busy()) return true;
    auto& gp = *q.front().second;
    q.pop_front();
    MemExt& e = *gp.get_extension<MemExt>();
    e.is_reply = true;
    e.dst = e.src;
    if (e.kind == MemKind::Read) gp.set_data_length(128);
    e.t_reply_inject = sc_core::sc_time_stamp();
    out.send(gp);
    return !q.empty();
  }
  unsigned reads_from(unsigned src, uint64_t addr) const {
    unsigned n = 0;
    for (const auto& r : recs) n += r.src == src && r.addr == addr && r.kind == MemKind::Read;
    return n;
  }
};

struct Unused : sc_core::sc_module {
  MsgIn in{"in"};
  MsgOut out{"out"};
  explicit Unused(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    in.set_accept([](tlm::tlm_generic_payload&) -> bool { FAIL("a message reached an unused port"); return false; });
  }
};

// escape: VCs kept for deflected probes, one per deflection (deflection = router needs one).
noc::Network::Params net_params(unsigned escape = 0) {
  noc::Network::Params n;
  n.topology = "mesh";
  n.k = 2;
  n.m = 2;
  n.routing = "xy";
  n.router.vnets = 1;
  n.router.vcs_per_vnet = escape + 1;
  n.escape_vcs = escape;
  n.router.vc_depth = 8;
  n.ni.flit_bytes = 32;
  n.ni.header_bytes = 8;
  return n;
}

ProbeHandler::Params oracle_params(unsigned c = 2, unsigned s = 1, std::string selector = "index") {
  ProbeHandler::Params p;
  p.sharing = "oracle";
  p.c = c;
  p.s = s;
  p.p = 1;
  p.selector = selector;
  return p;
}

struct Bench {
  ClockDomain core{"core_clk", 1400}, noc_clk{"noc_clk", 700};
  NodeNumbering ids;
  noc::Network req, rep;
  PayloadPool pool;
  std::vector<unsigned> nodes{0, 1, 2};
  std::unique_ptr<ProbeFabric> fabric;
  std::vector<std::unique_ptr<Cache>> l1;
  std::vector<std::unique_ptr<ProbeHandler>> h;
  std::vector<std::unique_ptr<tb::ScriptedInitiator>> cpu;
  std::vector<std::unique_ptr<tb::ScriptedTarget>> sink;
  MockMemory mem;
  Unused unused_mem{"unused_mem"};

  explicit Bench(const ProbeHandler::Params& p, uint64_t mem_latency = 200, unsigned escape_vcs = 1)
      : req("req", net_params(p.deflection == "router" ? escape_vcs : 0), noc_clk),
        rep("rep", net_params(), noc_clk),
        mem("mem", core, mem_latency) {
    ids.add_block(4);
    fabric = std::make_unique<ProbeFabric>(SmFrontBlockContext{core, nodes, 0, req, rep, 0, 0, ids}, p.deflection == "router");
    for (unsigned i = 0; i < kCores; ++i) {
      const std::string n = std::to_string(i);
      l1.push_back(std::make_unique<Cache>(("l1_" + n).c_str(), Cache::Params{}, core, i));
      l1[i]->set_route([](tlm::tlm_generic_payload&, MemExt& e) { e.dst = kMem; });
      h.push_back(std::make_unique<ProbeHandler>(("probe_" + n).c_str(), p, core, *l1[i], i, i, *fabric));
      cpu.push_back(std::make_unique<tb::ScriptedInitiator>(("cpu_" + n).c_str(), core, pool));
      sink.push_back(std::make_unique<tb::ScriptedTarget>(("sink_" + n).c_str(), core, 64));
      cpu[i]->out.bind(l1[i]->up_in);
      l1[i]->up_out.bind(sink[i]->in);
      l1[i]->down_out.bind(h[i]->from_l1());
      h[i]->to_l1().bind(l1[i]->down_in);
      h[i]->to_net().bind(req.ni(i).in[0]);
      rep.ni(i).out[0].bind(h[i]->from_net());
      req.ni(i).out[0].bind(*h[i]->peer_in());
      h[i]->peer_out()->bind(rep.ni(i).in[0]);
    }
    req.ni(kMem).out[0].bind(mem.in);
    mem.out.bind(rep.ni(kMem).in[0]);
    unused_mem.out.bind(req.ni(kMem).in[0]);
    rep.ni(kMem).out[0].bind(unused_mem.in);
  }
  void load(unsigned c, uint64_t cycle, uint64_t addr, uint64_t pc = 0x40, MemKind kind = MemKind::Read) {
    cpu[c]->at(cycle, [=](tlm::tlm_generic_payload& gp, MemExt& e) {
      gp.set_address(addr);
      gp.set_command(kind == MemKind::Write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      gp.set_data_length(kind == MemKind::Read ? 128 : 4);
      e.kind = kind;
      e.src = c;
      e.pc = pc;
      e.word_mask = kind == MemKind::Read ? 0 : 1;
    });
  }
  void run(uint64_t cycles = 5000) { sc_core::sc_start(core.time_of(cycles)); }
  uint64_t stat(unsigned c, const char* n) const { return h[c]->stat(n); }
  // Every load of every core answered exactly once, every unit drained.
  void require_drained(const std::vector<size_t>& loads) {
    for (unsigned c = 0; c < kCores; ++c) {
      INFO("core " << c);
      REQUIRE(sink[c]->arrivals().size() == loads[c]);
      REQUIRE(h[c]->idle());
      REQUIRE(l1[c]->idle());
      REQUIRE(l1[c]->mshrs_in_use() == 0);
    }
    REQUIRE(pool.in_use() == 0);
  }
};

}  // namespace

TEST_CASE("probe handler: a probe finds the line in a remote L1, whose data answers the load and the L2 never sees it",
          "[probe][handler]") {
  Bench b(oracle_params(2, 1));
  b.load(1, 1, 0x1000);       // core 1 fetches the line from memory (nobody else has it: not probed)
  b.load(0, 400, 0x1000);     // core 0 misses; the oracle says core 1 has it
  b.run(1500);
  b.require_drained({1, 1, 0});
  CHECK(b.mem.reads_from(1, 0x1000) == 1);
  CHECK(b.mem.reads_from(0, 0x1000) == 0);  // answered by core 1, the L2 request never sent
  CHECK(b.stat(1, "nonshared_reads") == 1);
  CHECK(b.stat(0, "probed_misses") == 1);
  CHECK(b.stat(0, "remote_answers") == 1);
  CHECK(b.stat(1, "data_replies_sent") == 1);
  CHECK(b.stat(1, "peer_hits") == 1);
  CHECK(b.stat(0, "remote_reply_bytes") == 128);
  CHECK(b.h[0]->timeout_handler().timeouts() == 0);
  // Much faster than the 200-cycle memory: a few hops each way on the 700 MHz mesh.
  const auto& a = b.sink[0]->arrivals().at(0);
  CHECK(a.cycle < 400 + 120);
  CHECK(a.ext.is_reply);
}

TEST_CASE("probe handler: nobody has the line: every probe NACKs, early release sends the L2 request once",
          "[probe][handler]") {
  ProbeHandler::Params p = oracle_params(2, 2);
  p.sharing = "always";
  Bench b(p);
  b.load(0, 1, 0x2000);
  b.run(2000);
  b.require_drained({1, 0, 0});
  CHECK(b.stat(0, "probes_sent") == 2);  // a leader and a scout, one target each
  CHECK(b.stat(0, "returns") == 2);
  CHECK(b.stat(0, "nacks") == 1);
  CHECK(b.h[0]->timeout_handler().early_releases() == 1);
  CHECK(b.h[0]->timeout_handler().timeouts() == 0);
  CHECK(b.mem.reads_from(0, 0x2000) == 1);
  CHECK(b.stat(0, "selective_l2_answers") == 1);
  CHECK(b.stat(0, "remote_answers") == 0);
  // The L2 request leaves only after the probes came back: later than a direct read would.
  CHECK(b.mem.recs.at(0).cycle > 20);
}

TEST_CASE("probe handler: the timeout fires once, the L2 request goes out once, and the later reply is dropped",
          "[probe][handler]") {
  ProbeHandler::Params p = oracle_params(2, 1);
  p.timeout = 2;  // fires before the probe can be back
  Bench b(p, 400);
  b.load(1, 1, 0x3000);
  b.load(0, 600, 0x3000);
  b.run(3000);
  b.require_drained({1, 1, 0});
  CHECK(b.h[0]->timeout_handler().timeouts() == 1);
  CHECK(b.h[0]->timeout_handler().l2_sends() == 1);
  CHECK(b.mem.reads_from(0, 0x3000) == 1);
  CHECK(b.stat(0, "remote_answers") == 1);      // the probe data (tens of cycles) beats the 400-cycle memory
  CHECK(b.stat(0, "dropped_l2_replies") == 1);  // the L2 reply of the same load is dropped
  CHECK(b.stat(0, "dropped_probe_data") == 0);
}

TEST_CASE("probe handler: a load the L2 answered while its probes still walk frees its tracking entry at once",
          "[probe][handler][tracking]") {
  // §III-F: two-level probing and the timeout handler track up to 32 requests, the MSHR size: an
  // entry lives while its miss does. Until 2026-12 a group the L2 answered stayed tracked until
  // its last probe came back.
  ProbeHandler::Params p = oracle_params(2, 1);  // one leader over cores 1 then 2
  p.timeout = 2;
  p.tracked = 1;
  Bench b(p, 1);
  b.load(2, 1, 0x3000);      // only core 2 holds the line: the leader misses at core 1 first
  b.load(0, 400, 0x3000);
  b.load(1, 3, 0x3800);      // core 1 holds a second line
  b.run(400);
  uint64_t c = 400;
  for (; b.stat(0, "selective_l2_answers") == 0 && c < 2000; ++c) b.run(1);
  REQUIRE(b.stat(0, "selective_l2_answers") == 1);  // the L2 (1-cycle memory) answered first...
  INFO("cycle " << c);
  REQUIRE(b.h[0]->outstanding_probes() == 1);       // ...while the leader is still on its way
  CHECK(b.h[0]->probing().tracked() == 0);
  CHECK(b.h[0]->timeout_handler().tracked() == 0);
  b.load(0, c + 1, 0x3800);  // the next shared miss is probed, not sent unprobed
  b.run(3000);
  b.require_drained({2, 1, 1});
  CHECK(b.stat(0, "probed_misses") == 2);
  CHECK(b.stat(0, "tracking_full") == 0);
  CHECK(b.h[0]->probing().finished_by_l2() == 1);
}

TEST_CASE("probe handler: a load a probe answered before its L2 reply frees its tracking entry at once",
          "[probe][handler][tracking]") {
  ProbeHandler::Params p = oracle_params(2, 1);
  p.timeout = 2;  // the L2 copy goes out before the probe is back
  p.tracked = 1;
  Bench b(p, 400);
  b.load(1, 1, 0x3000);
  b.load(1, 2, 0x3800);
  b.load(0, 1000, 0x3000);  // answered by core 1 in tens of cycles; its L2 reply is due at ~1400
  b.load(0, 1150, 0x3800);  // shared too: probed, the entry of 0x3000 is free
  b.run(4000);
  b.require_drained({2, 2, 0});
  CHECK(b.stat(0, "probed_misses") == 2);
  CHECK(b.stat(0, "tracking_full") == 0);
  CHECK(b.stat(0, "remote_answers") == 2);
  CHECK(b.stat(0, "dropped_l2_replies") == 2);
}

TEST_CASE("probe handler: an own NACK waits in the incoming probe queue behind a probe whose L1 lookup waits",
          "[probe][handler][incoming]") {
  // §III-F: every probe a core receives, a returning NACK too, enters its Incoming Probe Requests
  // queue; local accesses win the L1 port over probe lookups. Until 2026-12 a NACK skipped the queue.
  ProbeHandler::Params p = oracle_params(1, 1);  // index selector: core 0 probes core 1, cores 1 and 2 probe core 0
  Bench b(p, 20);
  b.load(0, 1, 0x6000);  // core 0 holds X
  b.load(2, 1, 0x6800);  // core 2 holds Y and Z
  b.load(2, 2, 0x7000);
  const uint64_t busy_from = 300, busy_to = 700;
  std::vector<size_t> loads{1, 0, 2};
  b.load(1, 310, 0x7000);  // core 1 probes core 0 for Z: the lookup waits for the port
  ++loads[1];
  for (uint64_t c = busy_from; c < busy_to; ++c, ++loads[0]) {
    b.load(0, c, 0x6000);  // hits: the L1 port is busy every cycle
    if (c == 320) b.load(0, c, 0x6800), ++loads[0];  // core 0 probes core 1 for Y: NACK, back behind 1's probe
  }
  b.run(3000);
  b.require_drained(loads);
  CHECK(b.stat(0, "nacks") == 1);
  CHECK(b.h[0]->timeout_handler().early_releases() == 1);
  unsigned sent_at = 0;
  for (const auto& r : b.mem.recs)
    if (r.src == 0 && r.addr == 0x6800) sent_at = static_cast<unsigned>(r.cycle);
  // The NACK is processed only once core 1's probe ahead of it got its lookup, after the hits.
  CHECK(sent_at > busy_to);
  CHECK(b.stat(0, "peer_lookups") == 1);
  CHECK(b.stat(1, "remote_answers") == 0);  // core 0 does not hold Z: its probe NACKs, core 1 goes to the L2
}

TEST_CASE("probe handler: writes and atomics are never probed nor answered by a probe", "[probe][handler]") {
  ProbeHandler::Params p = oracle_params(2, 2);
  p.sharing = "always";
  Bench b(p);
  b.load(1, 1, 0x4000);
  b.load(0, 300, 0x4000, 0x40, MemKind::Write);
  b.load(0, 301, 0x4000, 0x44, MemKind::Atomic);
  b.run(2000);
  b.require_drained({2, 1, 0});
  CHECK(b.stat(0, "writes_atomics") == 2);
  CHECK(b.stat(0, "probes_sent") == 0);
  CHECK(b.stat(0, "read_misses") == 0);
  unsigned w = 0, a = 0;
  for (const auto& r : b.mem.recs) {
    w += r.src == 0 && r.kind == MemKind::Write;
    a += r.src == 0 && r.kind == MemKind::Atomic;
  }
  CHECK(w == 1);
  CHECK(a == 1);
}

TEST_CASE("probe handler: a refusing core is skipped by deflection and the probe finds the line at the next target",
          "[probe][handler][deflection]") {
  ProbeHandler::Params p = oracle_params(2, 1);
  p.deflection = "router";
  Bench b(p);  // index selector: core 0 probes 1 then 2
  b.load(1, 1, 0x5000);
  b.load(2, 300, 0x5000);          // the oracle: core 1 has it, core 2 probes core 1 (0 has nothing)
  b.load(0, 900, 0x5000);
  b.fabric->set_refusing(1, true);  // as if its incoming queue were full
  b.run(2000);
  b.require_drained({1, 1, 1});
  // Core 2 probes 0 (miss) then 1, which refuses: deflected back to core 2 (no target left), an
  // early release to memory. Core 0 probes 1 (refusing: deflected on) then 2, which has the line.
  CHECK(b.fabric->deflections() == 2);
  CHECK(b.mem.reads_from(2, 0x5000) == 1);
  CHECK(b.h[2]->timeout_handler().early_releases() == 1);
  CHECK(b.stat(0, "remote_answers") == 1);
  CHECK(b.stat(2, "data_replies_sent") == 1);
  CHECK(b.stat(2, "skipped_targets") == 2);  // its own probe's target 1, and core 0's probe's target 1
  CHECK(b.stat(1, "data_replies_sent") == 0);
  CHECK(b.mem.reads_from(0, 0x5000) == 0);
}

TEST_CASE("probe handler: router deflection: with the incoming queue full the core refuses probes, every load answered once",
          "[probe][handler][deflection]") {
  ProbeHandler::Params p = oracle_params(2, 2);
  p.sharing = "always";
  p.incoming_queue = 1;
  p.deflection = "router";
  Bench b(p);
  // Cores 0 and 2 miss on many lines at once: their probes pile up at core 1 (and at each other).
  std::vector<size_t> loads(kCores, 0);
  for (unsigned i = 0; i < 24; ++i)
    for (unsigned c : {0u, 2u}) {
      b.load(c, 1 + i, 0x10000 + 0x80 * (i % 12) + 0x1000 * c);
      ++loads[c];
    }
  b.run(20000);
  b.require_drained(loads);
  CHECK(b.stat(1, "refusals") + b.stat(0, "refusals") + b.stat(2, "refusals") > 0);
}

TEST_CASE("probe handler: ni deflection: a full core passes probes on without a lookup, every load answered once",
          "[probe][handler][deflection]") {
  ProbeHandler::Params p = oracle_params(2, 2);
  p.sharing = "always";
  p.incoming_queue = 1;
  Bench b(p);
  std::vector<size_t> loads(kCores, 0);
  // Core 1's L1 is kept busy by its own misses (more than its 32 MSHRs: reservation fails take
  // the lookup slot every cycle), so probes for it wait and its incoming queue fills.
  for (unsigned i = 0; i < 48; ++i, ++loads[1]) b.load(1, 1 + i, 0x80000 + 0x80 * i);
  for (unsigned i = 0; i < 24; ++i)
    for (unsigned c : {0u, 2u}) {
      b.load(c, 1 + i, 0x10000 + 0x80 * (i % 12) + 0x1000 * c);
      ++loads[c];
    }
  b.run(20000);
  b.require_drained(loads);
  CHECK(b.stat(0, "ni_deflections") + b.stat(1, "ni_deflections") + b.stat(2, "ni_deflections") > 0);
  CHECK(b.fabric->deflections() == 0);  // no router hook installed
}

TEST_CASE("probe handler: C larger than the other cores is a clear error", "[probe][handler][params]") {
  REQUIRE_THROWS_WITH(Bench(oracle_params(3, 1)), Catch::Contains("probe.c") && Catch::Contains("<= 2"));
}

TEST_CASE("probe handler: S larger than C is a clear error", "[probe][handler][params]") {
  REQUIRE_THROWS_WITH(Bench(oracle_params(2, 3)), Catch::Contains("probe.s"));
}

TEST_CASE("probe handler: P outside [0, 1] is a clear error", "[probe][handler][params]") {
  ProbeHandler::Params p = oracle_params(2, 1);
  p.p = 1.5;
  REQUIRE_THROWS_WITH(Bench(p), Catch::Contains(".p' = 1.5 is out of range [0, 1]"));
}

TEST_CASE("probe handler: an unknown sharing mode or selector is a clear error", "[probe][handler][params]") {
  ProbeHandler::Params p = oracle_params(2, 1);
  p.sharing = "psychic";
  REQUIRE_THROWS_WITH(Bench(p), Catch::Contains("sharing' = \"psychic\" is not one of predictor|oracle|always"));
}

// ---- Table I's ORACLE scenarios (evaluation devices): DP (location = nearest), PP (perfect) ----

TEST_CASE("probe handler: DP sends one probe straight to the core holding the line, skipping the others",
          "[probe][handler][dp]") {
  ProbeHandler::Params p = oracle_params(2, 1);  // an index search from core 0 would visit core 1 first
  p.location = "nearest";
  Bench b(p);
  b.load(2, 1, 0x1000);    // only core 2 holds the line
  b.load(0, 400, 0x1000);  // core 0 misses: DP probes core 2 directly
  b.run(1500);
  b.require_drained({1, 0, 1});
  CHECK(b.mem.reads_from(0, 0x1000) == 0);
  CHECK(b.stat(0, "probed_misses") == 1);
  CHECK(b.stat(0, "probes_sent") == 1);
  CHECK(b.stat(0, "remote_answers") == 1);
  CHECK(b.stat(1, "peer_lookups") == 0);  // core 1 never looked
  CHECK(b.stat(2, "peer_lookups") == 1);
  CHECK(b.stat(2, "data_replies_sent") == 1);
}

TEST_CASE("probe handler: DP of a line nobody holds goes to the L2 without a probe", "[probe][handler][dp]") {
  ProbeHandler::Params p = oracle_params(2, 1);
  p.location = "nearest";
  Bench b(p);
  b.load(0, 1, 0x1000);
  b.run(1000);
  b.require_drained({1, 0, 0});
  CHECK(b.mem.reads_from(0, 0x1000) == 1);
  CHECK(b.stat(0, "probes_sent") == 0);
  CHECK(b.stat(0, "nonshared_reads") == 1);
}

TEST_CASE("probe handler: PP answers a shared miss at once, with no probe, no lookup and no L2 request",
          "[probe][handler][pp]") {
  ProbeHandler::Params p = oracle_params(2, 1);
  p.location = "perfect";
  Bench b(p);
  b.load(1, 1, 0x1000);
  b.load(0, 400, 0x1000);
  b.run(1500);
  b.require_drained({1, 1, 0});
  CHECK(b.mem.reads_from(0, 0x1000) == 0);
  CHECK(b.stat(0, "perfect_answers") == 1);
  CHECK(b.stat(0, "remote_answers") == 1);
  CHECK(b.stat(0, "probes_sent") == 0);
  CHECK(b.stat(1, "peer_lookups") == 0);
  const auto& a = b.sink[0]->arrivals().at(0);
  CHECK(a.cycle <= 400 + 8);  // L1 miss, handler latch, answer, L1 fill: a few register stages, no network
  CHECK(a.ext.is_reply);
}

TEST_CASE("probe handler: DP / PP without ORACLE sharing is a clear error", "[probe][handler][params]") {
  ProbeHandler::Params p = oracle_params(2, 1);
  p.location = "nearest";
  p.sharing = "predictor";
  REQUIRE_THROWS_WITH(Bench(p), Catch::Contains("location' = nearest") && Catch::Contains("needs sharing = oracle"));
}

TEST_CASE("probe handler: router deflection without an escape VC on the request network is a clear error",
          "[probe][handler][params][deflection]") {
  Bench b(oracle_params(2, 1));  // deflection = ni: one VC per port
  REQUIRE_THROWS_WITH(ProbeFabric(SmFrontBlockContext{b.core, b.nodes, 0, b.req, b.rep, 0, 0, b.ids}, true),
                      Catch::Contains("deflection = router needs an escape VC") &&
                          Catch::Contains("noc.escape_vcs >= 1"));
}

TEST_CASE("probe handler: a probe already deflected once is taken at a second refusing core, not deflected again",
          "[probe][handler][deflection]") {
  ProbeHandler::Params p = oracle_params(2, 1);
  p.deflection = "router";
  Bench b(p);  // index selector: core 0 probes 1 then 2
  b.load(2, 1, 0x5000);
  b.load(0, 400, 0x5000);
  b.fabric->set_refusing(1, true);  // deflected at 1 onto the escape VC, to core 2...
  b.fabric->set_refusing(2, true);  // ...which refuses too: it takes the probe (it has the line)
  b.run(2000);
  b.require_drained({1, 0, 1});
  CHECK(b.fabric->deflections() == 1);
  CHECK(b.stat(0, "remote_answers") == 1);
  CHECK(b.stat(2, "data_replies_sent") == 1);
  CHECK(b.stat(2, "skipped_targets") == 1);
  CHECK(b.mem.reads_from(0, 0x5000) == 0);
}

TEST_CASE("probe handler: with two escape VCs a probe refused by both its targets is deflected twice, back to its requester",
          "[probe][handler][deflection]") {
  ProbeHandler::Params p = oracle_params(2, 1);
  p.deflection = "router";
  Bench b(p, 200, 2);  // index selector: core 0 probes 1 then 2
  b.load(2, 1, 0x5000);
  b.load(0, 400, 0x5000);
  b.fabric->set_refusing(1, true);  // deflected at 1 (escape VC 1) to core 2...
  b.fabric->set_refusing(2, true);  // ...deflected again (escape VC 2): no target left, back to core 0
  b.run(2000);
  b.require_drained({1, 0, 1});
  CHECK(b.fabric->deflections() == 2);
  CHECK(b.h[0]->timeout_handler().early_releases() == 1);  // the probe came back empty: to memory at once
  CHECK(b.mem.reads_from(0, 0x5000) == 1);
  CHECK(b.stat(0, "remote_answers") == 0);
  CHECK(b.stat(2, "data_replies_sent") == 0);
  CHECK(b.stat(2, "incoming_overflow") == 0);
}
