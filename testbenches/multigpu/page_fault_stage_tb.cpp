// PageFaultStage (paper 004 §2.3, the requesting side of the page-migration baseline) with a real
// PageMigrationEngine: each GPU under test has a scripted L1 (ScriptedInitiator) sending requests
// into its stage, a "network" behind the stage that records what leaves (cycle, MemExt::dst) and
// answers each request after a per-address delay (or refuses everything until a cycle), and an L1
// sink recording the replies. The engine's hooks are scripted as in page_migration_engine_tb: the
// owner map is a std::map, move remaps it, flush is recorded, flushed is true from a set cycle.
// The stage's `route` hook sets MemExt::dst to kMemNode + the page's owner now, so a request that
// waited for its page's migration is seen to be routed to the new owner.
// Expected cycles come from the stage's header (a message taken in cycle c may leave in c + 1, one
// request toward the network and one reply toward the L1 per cycle) and the engine's phases: a
// fault raised in the stage's tick of cycle t starts at t + 1, its fault phase ends at
// t + 1 + fault_cycles, an immediate drain, shootdown_cycles, the flush polled the cycle after the
// shoot-down (done at once here unless flushed_from says otherwise), transfer_cycles: the page
// moves in M = t + 2 + fault + shootdown + transfer and the held request leaves in M + 1.
// Covered: a local request's timing, route and in-flight accounting, two replies in one cycle
// passing one per cycle; a faulting request held in order (a local one behind it too) while
// replies pass, released to the new owner with held / hold_cycles; a drain holding every GPU's
// remote requests and the owner's own while another GPU's local ones leave, and waiting for the
// stages' in-flight replies; a full queue refusing and taking back, behind a held request and
// behind a network that refuses; bad parameters and a foreign reply are clear errors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/payload_pool.h"
#include "harness/scripted_initiator.h"
#include "multigpu/page_fault_stage.h"
#include "multigpu/page_migration_engine.h"

using namespace gpusc;
using multigpu::PageFaultStage;
using multigpu::PageMigrationEngine;
using Phase = PageMigrationEngine::Phase;

namespace {
constexpr uint64_t kPage = 4096;
constexpr uint32_t kMemNode = 100;  // MemExt::dst of GPU g's memory: kMemNode + g

// The network and memory behind one stage: records every request it takes (cycle, pc, dst) and
// sends it back as its reply `delay(addr)` cycles later (replies due in one cycle all go in that
// cycle, in the order taken). Until `refuse_until` it takes nothing (END_REQ withheld), then
// takes the held request in that cycle.
class Net : public sc_core::sc_module, private Tickable {
 public:
  struct Got {
    uint64_t cycle;
    uint64_t pc;
    uint32_t dst;
  };
  MsgIn in{"in"};
  MsgOut out{"out"};
  std::vector<Got> got;
  uint64_t refuse_until = 0;
  std::function<unsigned(uint64_t addr)> delay = [](uint64_t) { return 5u; };

  Net(sc_core::sc_module_name n, ClockDomain& clk) : sc_core::sc_module(n), clk_(clk) {
    in.set_accept([this](tlm::tlm_generic_payload& gp) {
      const uint64_t now = clk_.now();
      if (now < refuse_until) {
        clk_.wake(*this, refuse_until);
        return false;
      }
      const MemExt& e = *gp.get_extension<MemExt>();
      got.push_back({now, e.pc, e.dst});
      const uint64_t due = now + delay(gp.get_address());
      due_.emplace(due, &gp);
      clk_.wake(*this, due);
      return true;
    });
    out.on_accept([this] { clk_.wake_after_now(*this); });
  }
  std::vector<uint64_t> pcs() const {
    std::vector<uint64_t> v;
    for (const Got& g : got) v.push_back(g.pc);
    return v;
  }

 private:
  bool tick(uint64_t cycle) override {
    if (in.has_pending() && cycle >= refuse_until) in.retry();
    while (!due_.empty() && due_.begin()->first <= cycle && !out.busy()) {
      tlm::tlm_generic_payload& gp = *due_.begin()->second;
      due_.erase(due_.begin());
      gp.get_extension<MemExt>()->is_reply = true;
      out.send(gp);
    }
    if (!due_.empty() && !out.busy()) clk_.wake(*this, std::max(cycle + 1, due_.begin()->first));
    return false;
  }
  ClockDomain& clk_;
  std::multimap<uint64_t, tlm::tlm_generic_payload*> due_;  // reply cycle -> request (stable for ties)
};

// The L1's memory side: records each reply (cycle, pc).
class L1Sink : public sc_core::sc_module {
 public:
  struct Got {
    uint64_t cycle;
    uint64_t pc;
    bool is_reply;
  };
  MsgIn in{"in"};
  std::vector<Got> got;
  L1Sink(sc_core::sc_module_name n, ClockDomain& clk) : sc_core::sc_module(n) {
    in.set_accept([this, &clk](tlm::tlm_generic_payload& gp) {
      const MemExt& e = *gp.get_extension<MemExt>();
      got.push_back({clk.now(), e.pc, e.is_reply});
      return true;
    });
  }
  unsigned count(uint64_t pc) const {
    unsigned n = 0;
    for (const Got& g : got) n += g.pc == pc;
    return n;
  }
};

struct Rig;

// One GPU's CU side: scripted L1 -> stage -> Net, replies -> stage -> L1Sink.
struct Side {
  unsigned gpu;
  tb::ScriptedInitiator l1;
  PageFaultStage pf;
  Net net;
  L1Sink sink;
  std::vector<uint64_t> routed;  // cycles the route hook ran
  Side(Rig& r, unsigned g, const PageFaultStage::Params& p);
};

struct Rig {
  ClockDomain clk{"clk", 1000.0};
  PayloadPool pool{64};
  std::map<uint64_t, unsigned> owner;  // page number -> GPU (default 0)
  uint64_t flushed_from = 0;           // the owner's flush is done from this cycle
  std::vector<std::pair<uint64_t, unsigned>> flushes;  // (cycle, GPU flushed)
  std::vector<PageMigrationEngine::Event> moved;       // Moved events
  PageMigrationEngine engine;
  std::vector<std::unique_ptr<Side>> sides;

  Rig(const PageMigrationEngine::Params& ep, unsigned gpus, const std::vector<unsigned>& stage_gpus,
      const PageFaultStage::Params& sp = {})
      : engine("engine", ep, gpus, kPage, clk, hooks()) {
    engine.observe([this](const PageMigrationEngine::Event& ev) {
      if (ev.kind == PageMigrationEngine::Event::Moved) moved.push_back(ev);
    });
    for (unsigned g : stage_gpus) sides.push_back(std::make_unique<Side>(*this, g, sp));
  }
  unsigned owner_of(uint64_t a) const {
    const auto it = owner.find(a / kPage);
    return it == owner.end() ? 0u : it->second;
  }
  PageMigrationEngine::Hooks hooks() {
    PageMigrationEngine::Hooks h;
    h.owner = [this](uint64_t a) { return owner_of(a); };
    h.move = [this](uint64_t a, unsigned to) { owner[a / kPage] = to; };
    h.flush = [this](unsigned g, uint64_t, bool) { flushes.emplace_back(clk.now(), g); };
    h.flushed = [this](unsigned) { return clk.now() >= flushed_from; };
    return h;
  }
  Side& side(unsigned gpu) {
    for (auto& s : sides)
      if (s->gpu == gpu) return *s;
    throw std::logic_error("no stage for GPU " + std::to_string(gpu));
  }
  // GPU `gpu`'s L1 sends a read of `addr` (request id `pc`) in cycle `cycle`, with MemExt::dst
  // set for the page's owner at issue.
  void read(unsigned gpu, uint64_t cycle, uint64_t addr, uint64_t pc) {
    side(gpu).l1.at(cycle, [this, gpu, addr, pc](tlm::tlm_generic_payload& gp, MemExt& e) {
      gp.set_command(tlm::TLM_READ_COMMAND);
      gp.set_address(addr);
      gp.set_data_length(64);
      e.kind = MemKind::Read;
      e.src = gpu;
      e.pc = pc;
      e.dst = kMemNode + owner_of(addr);
    });
  }
  // Runs every edge before cycle c: what the test then checks is the state at the start of c.
  void run_to(uint64_t c) { sc_core::sc_start(clk.time_of(c) - sc_core::sc_time_stamp()); }
};

Side::Side(Rig& r, unsigned g, const PageFaultStage::Params& p)
    : gpu(g),
      l1(("l1_" + std::to_string(g)).c_str(), r.clk, r.pool),
      pf(("pf" + std::to_string(g)).c_str(), p, r.clk,
         PageFaultStage::Context{&r.engine, g, [&r](uint64_t a) { return r.owner_of(a); },
                                 [&r, this](tlm::tlm_generic_payload& gp, MemExt& e) {
                                   e.dst = kMemNode + r.owner_of(gp.get_address());
                                   routed.push_back(r.clk.now());
                                 }}),
      net(("net" + std::to_string(g)).c_str(), r.clk),
      sink(("sink" + std::to_string(g)).c_str(), r.clk) {
  l1.out.bind(pf.from_l1());
  pf.to_net().bind(net.in);
  net.out.bind(pf.from_net());
  pf.to_l1().bind(sink.in);
}

PageMigrationEngine::Params quick() {  // short phases: fault 20, shoot-down 10, transfer 30
  PageMigrationEngine::Params p;
  p.fault_cycles = 20;
  p.shootdown_cycles = 10;
  p.transfer_cycles = 30;
  return p;
}

uint64_t stat(const std::string& key) { return collect_stats()["stats"][key].get<uint64_t>(); }

}  // namespace

TEST_CASE("PageFaultStage: a local request leaves the cycle after it is taken, routed, and its reply passes the cycle after",
          "[page_fault][timing]") {
  Rig r(quick(), 2, {0});
  Side& s = r.side(0);
  const uint64_t X = 3 * kPage + 0x40, Y = 3 * kPage + 0x80, Z = 5 * kPage;  // all on GPU 0
  s.net.delay = [=](uint64_t a) { return a == Y ? 6u : 5u; };
  r.read(0, 10, X, 1);
  r.read(0, 20, Y, 2);
  r.read(0, 21, Z, 3);
  r.run_to(11);
  REQUIRE(s.l1.sent().size() == 1);
  CHECK(s.l1.sent()[0].accepted == 10);  // taken in 10
  CHECK(s.net.got.empty());              // not in the cycle it was taken
  r.run_to(12);
  REQUIRE(s.net.got.size() == 1);
  CHECK(s.net.got[0].cycle == 11);
  CHECK(s.net.got[0].dst == kMemNode + 0);
  CHECK(s.routed == std::vector<uint64_t>{11});  // routed once, when it left
  CHECK(r.engine.in_flight(0) == 1);
  CHECK(r.engine.remote_in_flight(0) == 0);
  CHECK_FALSE(s.pf.idle());
  // The network answers in 11 + 5 = 16; the reply reaches the L1 in 17.
  r.run_to(17);
  CHECK(s.sink.got.empty());
  CHECK(r.engine.in_flight(0) == 1);
  r.run_to(18);
  REQUIRE(s.sink.got.size() == 1);
  CHECK(s.sink.got[0].cycle == 17);
  CHECK(s.sink.got[0].pc == 1);
  CHECK(s.sink.got[0].is_reply);
  CHECK(r.engine.in_flight(0) == 0);
  CHECK(s.pf.idle());
  // Y leaves in 21 and Z in 22; the network answers both in 27 (21 + 6, 22 + 5): one reply
  // toward the L1 per cycle, so Y in 28 and Z in 29.
  r.run_to(28);
  REQUIRE(s.net.got.size() == 3);
  CHECK(s.net.got[1].cycle == 21);
  CHECK(s.net.got[2].cycle == 22);
  CHECK(s.sink.got.size() == 1);
  CHECK(r.engine.in_flight(0) == 2);
  r.run_to(30);
  REQUIRE(s.sink.got.size() == 3);
  CHECK(s.sink.got[1].cycle == 28);
  CHECK(s.sink.got[1].pc == 2);
  CHECK(s.sink.got[2].cycle == 29);
  CHECK(s.sink.got[2].pc == 3);
  CHECK(r.engine.in_flight(0) == 0);
  CHECK(s.pf.idle());
  CHECK(s.pf.held() == 0);
  CHECK(s.pf.hold_cycles() == 0);
  CHECK(stat("pf0.remote") == 0);
  CHECK(r.engine.faults() == 0);
}

TEST_CASE("PageFaultStage: a remote unpinned page faults, the request and the ones behind it wait, replies pass, it leaves for the new owner",
          "[page_fault][timing]") {
  // The engine's own latencies (fault 660, shoot-down 560, transfer 3260), GPU 1 under test.
  const PageMigrationEngine::Params ep;
  REQUIRE(ep.fault_cycles == 660);
  REQUIRE(ep.shootdown_cycles == 560);
  REQUIRE(ep.transfer_cycles == 3260);
  Rig r(ep, 2, {1});
  Side& s = r.side(1);
  const uint64_t P = 1 * kPage + 0x40;                      // GPU 0's, not pinned
  const uint64_t L = 4 * kPage, L2 = 4 * kPage + 0x40;      // GPU 1's
  r.owner[4] = 1;
  s.net.delay = [](uint64_t) { return 20u; };
  r.read(1, 10, L, 1);   // leaves in 11, answered in 31, at the L1 in 32
  r.read(1, 12, P, 2);   // taken in 12, faults in the stage's tick of 13
  r.read(1, 13, L2, 3);  // taken in 13, behind the held one
  r.run_to(14);
  CHECK(s.net.pcs() == std::vector<uint64_t>{1});
  CHECK(r.engine.faults() == 1);
  CHECK(r.engine.pending(P));
  CHECK(s.pf.held() == 1);
  REQUIRE(s.l1.sent().size() == 3);
  CHECK(s.l1.sent()[2].accepted == 13);  // the queue has room: taken, then blocked in order
  // L1 replies pass while the request is held.
  r.run_to(33);
  REQUIRE(s.sink.got.size() == 1);
  CHECK(s.sink.got[0].cycle == 32);
  CHECK(s.sink.got[0].pc == 1);
  CHECK(r.engine.in_flight(1) == 0);
  // Mid-migration the engine would let GPU 1's local request go (GPU 1 is not the owner being
  // drained); it still waits behind the held one.
  r.run_to(1000);
  CHECK(r.engine.phase() != Phase::Idle);
  CHECK(r.engine.check(1, L2));
  CHECK(s.net.pcs() == std::vector<uint64_t>{1});
  // Fault in 13: start 14, drain (nothing in flight) at 14 + 660 = 674, shoot-down to 1234, flush
  // done in 1235, transfer to 1235 + 3260 = 4495: the page is GPU 1's in 4495 and the request
  // leaves in 4496, routed to GPU 1's memory; the one behind it in 4497.
  r.run_to(4496);
  CHECK(s.net.pcs() == std::vector<uint64_t>{1});
  REQUIRE(r.moved.size() == 1);
  CHECK(r.moved[0].cycle == 4495);
  CHECK(r.owner_of(P) == 1);
  r.run_to(4497);
  REQUIRE(s.net.got.size() == 2);
  CHECK(s.net.got[1].pc == 2);
  CHECK(s.net.got[1].cycle == 4496);
  CHECK(s.net.got[1].dst == kMemNode + 1);  // the L1 addressed GPU 0 (kMemNode + 0)
  CHECK(s.routed == std::vector<uint64_t>{11, 4496});
  CHECK(s.pf.held() == 1);
  CHECK(s.pf.hold_cycles() == 4496 - 13);
  r.run_to(4498);
  REQUIRE(s.net.got.size() == 3);
  CHECK(s.net.got[2].pc == 3);
  CHECK(s.net.got[2].cycle == 4497);
  CHECK(r.engine.in_flight(1) == 2);
  CHECK(r.engine.remote_in_flight(1) == 0);  // the page is local now
  r.run_to(4600);
  REQUIRE(s.sink.got.size() == 3);
  CHECK(s.sink.got[1].cycle == 4496 + 20 + 1);
  CHECK(s.sink.got[2].cycle == 4497 + 20 + 1);
  CHECK(r.engine.in_flight(1) == 0);
  CHECK(s.pf.held() == 1);  // only the faulting request waited at the head
  CHECK(stat("pf1.remote") == 0);
  CHECK(r.engine.faults() == 1);
  CHECK(r.engine.idle());
  CHECK(s.pf.idle());
}

TEST_CASE("PageFaultStage: during a drain no remote request leaves any GPU and none of the owner's, until the page moved",
          "[page_fault][timing]") {
  // GPU 1 faults on P (GPU 0's); GPU 2 reads X, a page pinned on GPU 1 (remote for GPU 2).
  Rig r(quick(), 3, {0, 1, 2});
  Side &s0 = r.side(0), &s1 = r.side(1), &s2 = r.side(2);
  const uint64_t P = 1 * kPage, X = 2 * kPage, L0 = 3 * kPage, L2 = 5 * kPage;
  r.owner[5] = 2;
  // Setup: X (GPU 0's) migrates to GPU 1 and is pinned there (fault in 5, moved in 5 + 2 + 60).
  r.run_to(5);
  CHECK_FALSE(r.engine.check(1, X));
  r.run_to(100);
  REQUIRE(r.moved.size() == 1);
  CHECK(r.moved[0].cycle == 67);
  REQUIRE(r.engine.pinned(X));
  REQUIRE(r.owner_of(X) == 1);
  r.flushes.clear();
  r.flushed_from = 200;  // the next flush is done in 200
  s0.net.delay = [=](uint64_t a) { return a == L0 ? 40u : 5u; };      // owner's request: back in 142
  s2.net.delay = [=](uint64_t a) { return a == X + 0x40 ? 60u : 5u; };  // remote request: back in 162
  r.read(2, 100, X + 0x40, 21);  // remote (pinned): leaves in 101
  r.read(0, 100, L0, 1);         // the owner's own page: leaves in 101
  r.read(1, 100, P, 11);         // faults in 101: start 102, drain from 102 + 20 = 122
  r.read(2, 130, L2, 22);        // GPU 2's own page in the drain: leaves in 131
  r.read(2, 131, X + 0x80, 23);  // remote in the drain: held from 132
  r.read(0, 130, L0 + 0x40, 2);  // the owner's own page in the drain: held from 131
  r.run_to(102);
  CHECK(s2.net.pcs() == std::vector<uint64_t>{21});
  CHECK(s0.net.pcs() == std::vector<uint64_t>{1});
  CHECK(r.engine.remote_in_flight(2) == 1);
  CHECK(r.engine.in_flight(0) == 1);
  CHECK(r.engine.faults() == 2);
  r.run_to(140);
  CHECK(r.engine.phase() == Phase::Drain);
  CHECK(s2.net.pcs() == std::vector<uint64_t>{21, 22});
  CHECK(s2.net.got[1].cycle == 131);
  CHECK(s0.net.pcs() == std::vector<uint64_t>{1});
  CHECK(s1.net.got.empty());
  CHECK(s0.pf.held() == 1);
  CHECK(s2.pf.held() == 1);
  // The drain waits for the stages' replies: the owner's at 142, GPU 2's remote one at 162.
  r.run_to(143);
  REQUIRE(s0.sink.got.size() == 1);
  CHECK(s0.sink.got[0].cycle == 142);
  CHECK(r.engine.in_flight(0) == 0);
  CHECK(r.engine.phase() == Phase::Drain);
  r.run_to(162);
  CHECK(r.engine.phase() == Phase::Drain);
  r.run_to(170);
  CHECK(r.engine.remote_in_flight(2) == 0);
  CHECK(s2.sink.count(21) == 1);
  CHECK(r.engine.phase() == Phase::Shootdown);
  // Shoot-down, flush (done in 200), transfer to 230: P is GPU 1's in 230. Until then nothing held
  // leaves; in 231 all three do.
  r.run_to(231);
  REQUIRE(r.flushes.size() == 1);
  CHECK(r.flushes[0].second == 0);
  REQUIRE(r.moved.size() == 2);
  CHECK(r.moved[1].cycle == 230);
  CHECK(s0.net.pcs() == std::vector<uint64_t>{1});
  CHECK(s1.net.got.empty());
  CHECK(s2.net.pcs() == std::vector<uint64_t>{21, 22});
  r.run_to(232);
  REQUIRE(s1.net.got.size() == 1);
  CHECK(s1.net.got[0].cycle == 231);
  CHECK(s1.net.got[0].dst == kMemNode + 1);
  REQUIRE(s0.net.got.size() == 2);
  CHECK(s0.net.got[1].pc == 2);
  CHECK(s0.net.got[1].cycle == 231);
  CHECK(s0.net.got[1].dst == kMemNode + 0);
  REQUIRE(s2.net.got.size() == 3);
  CHECK(s2.net.got[2].pc == 23);
  CHECK(s2.net.got[2].cycle == 231);
  CHECK(s2.net.got[2].dst == kMemNode + 1);
  CHECK(r.engine.remote_in_flight(2) == 1);
  CHECK(s1.pf.hold_cycles() == 231 - 101);
  CHECK(s0.pf.hold_cycles() == 231 - 131);
  CHECK(s2.pf.hold_cycles() == 231 - 132);
  r.run_to(300);
  for (unsigned g = 0; g < 3; ++g) {
    CHECK(r.engine.in_flight(g) == 0);
    CHECK(r.side(g).pf.idle());
  }
  CHECK(s0.sink.got.size() == 2);
  CHECK(s1.sink.got.size() == 1);
  CHECK(s2.sink.got.size() == 3);
  CHECK(stat("pf2.remote") == 2);
  CHECK(stat("pf0.remote") == 0);
  CHECK(stat("pf1.remote") == 0);
  json summary;
  s0.pf.summarize(summary, {&s0.pf, &s1.pf, &s2.pf});
  CHECK(summary["pm_requests_held"] == 3);
  CHECK(summary["pm_hold_cycles"] == (231 - 101) + (231 - 131) + (231 - 132));
}

TEST_CASE("PageFaultStage: a full queue refuses the next request behind a held one and takes it when the head leaves",
          "[page_fault][backpressure]") {
  PageFaultStage::Params p;
  p.queue = 2;
  Rig r(quick(), 2, {1}, p);
  Side& s = r.side(1);
  const uint64_t P = 1 * kPage, L = 4 * kPage;
  r.owner[4] = 1;
  r.read(1, 10, P, 1);         // faults in 11: the page moves in 11 + 2 + 20 + 10 + 30 = 73
  r.read(1, 11, L, 2);         // waits behind it
  r.read(1, 12, L + 0x40, 3);  // two waiting: refused
  r.run_to(73);
  REQUIRE(s.l1.sent().size() == 3);
  CHECK(s.l1.sent()[0].accepted == 10);
  CHECK(s.l1.sent()[1].accepted == 11);
  CHECK(s.l1.sent()[2].offered == 12);
  CHECK(s.l1.sent()[2].accepted == UINT64_MAX);
  CHECK(s.net.got.empty());
  // The head leaves in 74 and the refused request is taken then; one per cycle after it.
  r.run_to(80);
  CHECK(s.l1.sent()[2].accepted == 74);
  REQUIRE(s.net.got.size() == 3);
  CHECK(s.net.pcs() == std::vector<uint64_t>{1, 2, 3});
  CHECK(s.net.got[0].cycle == 74);
  CHECK(s.net.got[1].cycle == 75);
  CHECK(s.net.got[2].cycle == 76);
  r.run_to(100);
  REQUIRE(s.sink.got.size() == 3);
  for (uint64_t pc = 1; pc <= 3; ++pc) CHECK(s.sink.count(pc) == 1);
  CHECK(r.engine.in_flight(1) == 0);
  CHECK(s.pf.idle());
}

TEST_CASE("PageFaultStage: a network that refuses holds requests, the queue fills and nothing is lost or duplicated",
          "[page_fault][backpressure]") {
  PageFaultStage::Params p;
  p.queue = 2;
  Rig r(quick(), 2, {0}, p);
  Side& s = r.side(0);
  s.net.refuse_until = 50;
  for (uint64_t i = 0; i < 4; ++i) r.read(0, 10 + i, 3 * kPage + 64 * i, 1 + i);  // GPU 0's page
  // The first leaves in 11 but the network withholds it; two more wait; the fourth is refused.
  r.run_to(50);
  CHECK(s.net.got.empty());
  REQUIRE(s.l1.sent().size() == 4);
  CHECK(s.l1.sent()[0].accepted == 10);
  CHECK(s.l1.sent()[1].accepted == 11);
  CHECK(s.l1.sent()[2].accepted == 12);
  CHECK(s.l1.sent()[3].accepted == UINT64_MAX);
  CHECK_FALSE(s.pf.idle());
  // The network takes the first in 50; the stage sends the next in 51 (and takes the fourth),
  // then one per cycle.
  r.run_to(60);
  CHECK(s.net.pcs() == std::vector<uint64_t>{1, 2, 3, 4});
  REQUIRE(s.net.got.size() == 4);
  for (unsigned i = 0; i < 4; ++i) CHECK(s.net.got[i].cycle == 50 + i);
  CHECK(s.l1.sent()[3].accepted == 51);
  r.run_to(100);
  REQUIRE(s.sink.got.size() == 4);
  for (uint64_t pc = 1; pc <= 4; ++pc) CHECK(s.sink.count(pc) == 1);
  for (unsigned i = 0; i < 4; ++i) CHECK(s.sink.got[i].cycle == 50 + i + 5 + 1);
  CHECK(r.engine.in_flight(0) == 0);
  CHECK(s.pf.held() == 0);  // waiting for the network is not a hold
  CHECK(s.pf.idle());
}

TEST_CASE("PageFaultStage: bad parameters and a missing engine or hook are clear errors", "[page_fault][bad]") {
  ClockDomain clk("clk", 1000.0);
  PageMigrationEngine::Hooks h;
  h.owner = [](uint64_t) { return 0u; };
  h.move = [](uint64_t, unsigned) {};
  h.flush = [](unsigned, uint64_t, bool) {};
  h.flushed = [](unsigned) { return true; };
  PageMigrationEngine engine("engine", {}, 2, kPage, clk, h);
  const PageFaultStage::Context ok{&engine, 0, [](uint64_t) { return 0u; }, [](tlm::tlm_generic_payload&, MemExt&) {}};
  PageFaultStage::Params p;
  p.queue = 0;
  REQUIRE_THROWS_WITH(PageFaultStage("pf", p, clk, ok), Catch::Contains("pf.queue"));
  PageFaultStage::Context no_engine = ok;
  no_engine.engine = nullptr;
  REQUIRE_THROWS_WITH(PageFaultStage("pf_a", {}, clk, no_engine), Catch::Contains("needs the engine"));
  PageFaultStage::Context no_route = ok;
  no_route.route = nullptr;
  REQUIRE_THROWS_WITH(PageFaultStage("pf_b", {}, clk, no_route), Catch::Contains("route"));
}

TEST_CASE("PageFaultStage: a reply for a request it did not send is a clear error", "[page_fault][bad]") {
  Rig r(quick(), 2, {});
  PayloadPool pool(64);
  tb::ScriptedInitiator l1("l1", r.clk, pool), foreign("foreign", r.clk, pool);
  Net net("net", r.clk);
  L1Sink sink("sink", r.clk), net_sink("net_sink", r.clk);
  PageFaultStage pf("pf", {}, r.clk,
                    PageFaultStage::Context{&r.engine, 0, [&r](uint64_t a) { return r.owner_of(a); },
                                            [](tlm::tlm_generic_payload&, MemExt&) {}});
  l1.out.bind(pf.from_l1());
  pf.to_net().bind(net.in);
  net.out.bind(net_sink.in);
  foreign.out.bind(pf.from_net());  // a "reply" that never went out through this stage
  pf.to_l1().bind(sink.in);
  foreign.at(5, [](tlm::tlm_generic_payload& gp, MemExt& e) {
    gp.set_address(0x40);
    e.is_reply = true;
  });
  REQUIRE_THROWS_WITH(sc_core::sc_start(r.clk.time_of(20)), Catch::Contains("a reply for a request this stage did not send"));
  CHECK(sink.got.empty());
}
