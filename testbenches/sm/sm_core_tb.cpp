// SmCore tests against a scripted memory that answers every line request after a fixed latency.
// Timing conventions the expected cycles are derived from (sm_core.h): a CTA launched before
// the simulation starts (time 0) issues from cycle 1; a line request leaves through mem_out the
// cycle after its instruction issued (one per cycle); the memory takes it in that cycle a and
// sends the reply at a + L; the SM takes the reply at a + L + 1 and the warp's next
// instruction can issue in that same cycle.
#include <catch2/catch.hpp>

#include "harness/scripted_initiator.h"
#include "harness/scripted_target.h"
#include "sm_fixture.h"

using namespace gpusc;
using namespace gpusc::tb;
using Op = WarpInstr::Op;

namespace {
SmCore::Params one_scheduler() {
  SmCore::Params p;
  p.schedulers = 1;
  return p;
}

std::shared_ptr<const Kernel> kernel(unsigned ctas, unsigned threads, Program prog) {
  return std::make_shared<ScriptKernel>("k", ctas, threads, std::move(prog));
}

std::vector<unsigned> warps_of(const std::vector<Issue>& v) {
  std::vector<unsigned> r;
  for (const Issue& i : v) r.push_back(i.warp);
  return r;
}

void expect_sm_config_error(const SmCore::Params& p, const std::string& text) {
  ClockDomain clk("clk", 1000.0);
  REQUIRE_THROWS_WITH(SmCore("sm", p, clk, 0), Catch::Contains(text));
}
}  // namespace

TEST_CASE("SmCore: a load blocks its warp until the reply, at an exact cycle", "[sm]") {
  // L = 10. Load A (1 line) issues at 1, leaves at 2, reply sent at 12, taken at 13: the
  // compute issues at 13 and the next load at 13 + 4 = 17. Load B (stride 8 B: 2 lines) leaves
  // at 18 and 19, replies taken at 29 and 30: the last compute issues at 30 and the warp
  // finishes at 34. Cycles 1..33 are active: 4 issue cycles, the other 29 all-waiting.
  SmBench b("b", {one_scheduler()}, 10);
  b.sm[0].launch(kernel(1, 32, [](unsigned, unsigned) {
                   return std::vector<WarpInstr>{mem(Op::Load, 0x10, 0x1000, 4), compute(0x20, 4),
                                                 mem(Op::Load, 0x30, 0x2000, 8), compute(0x40, 4)};
                 }),
                 0, 0);
  b.run(100);
  CHECK(b.cycles_of(0) == std::vector<uint64_t>{1, 13, 17, 30});
  const auto& r = b.mem[0].requests();
  REQUIRE(r.size() == 3);
  CHECK(r[0].cycle == 2);
  CHECK(r[1].cycle == 18);
  CHECK(r[2].cycle == 19);
  CHECK(r[2].address == 0x2080);
  CHECK(b.stat(0, "loads") == 2);
  CHECK(b.stat(0, "line_requests") == 3);
  CHECK(b.stat(0, "replies") == 3);
  CHECK(b.stat(0, "active_cycles") == 33);
  CHECK(b.stat(0, "issue_cycles") == 4);
  CHECK(b.stat(0, "stall_all_waiting") == 29);
  CHECK(b.stat(0, "stall_mem_queue") == 0);
  CHECK(b.stat(0, "ctas_completed") == 1);
  CHECK(b.sm[0].idle());
  CHECK(b.sm[0].pool().in_use() == 0);
  CHECK(collect_stats()["invariant_failures"].empty());
}

TEST_CASE("SmCore: compute latency spaces a warp's instructions and two schedulers dual-issue", "[sm]") {
  // Two warps of one CTA: slot 0 on scheduler 0, slot 1 on scheduler 1, both issue at 1.
  // Warp 0: latencies 4, 16, 1, 4 -> issues at 1, 5, 21, 22, finishes at 26.
  // Warp 1: latencies 2, 0 (treated as 1), 2 -> issues at 1, 3, 4, finishes at 6; its second
  // instruction has 4 active lanes. thread_instructions = 4 * 32 + 2 * 32 + 4 = 196.
  SmBench b("b", {SmCore::Params{}}, 10);
  std::vector<uint64_t> done;
  b.sm[0].add_cta_done_listener([&](SmCore&, unsigned) { done.push_back(b.clk.now()); });
  b.sm[0].launch(kernel(1, 64, [](unsigned, unsigned w) {
                   if (w == 0) return std::vector<WarpInstr>{compute(0, 4), compute(0x10, 16), compute(0x20, 1),
                                                             compute(0x30, 4)};
                   return std::vector<WarpInstr>{compute(0, 2), compute(0x10, 0, 0xF), compute(0x20, 2)};
                 }),
                 0, 0);
  b.run(100);
  CHECK(b.cycles_of(0, 0) == std::vector<uint64_t>{1, 5, 21, 22});
  CHECK(b.cycles_of(0, 1) == std::vector<uint64_t>{1, 3, 4});
  CHECK(done == std::vector<uint64_t>{26});
  CHECK(b.stat(0, "warp_instructions") == 7);
  CHECK(b.stat(0, "thread_instructions") == 196);
  // Active 1..25; issue in 1, 3, 4, 5, 21, 22; the rest waits.
  CHECK(b.stat(0, "active_cycles") == 25);
  CHECK(b.stat(0, "issue_cycles") == 6);
  CHECK(b.stat(0, "stall_all_waiting") == 19);
  // Event-driven: the SM ticks only at 1, 3, 4, 5, 6 (warp 1 finishes), 21, 22, 26.
  CHECK(b.clk.dispatched_ticks() == 8);
}

TEST_CASE("SmCore: GTO and LRR issue orders on the same script", "[sm][scheduler]") {
  // One scheduler, 4 warps, each: latency 1, latency 3, latency 1 (r = cycle the warp is
  // ready again).
  //   GTO: 1 w0 (r2), 2 w0 greedy (r5), 3 w1 oldest ready (r4), 4 w1 greedy (r7), 5 w0 oldest
  //        ready (done), 6 w2, 7 w2 (r10), 8 w1 (r7; done), 9 w3, 10 w3 (r13), 11 w2 (r10;
  //        done), 12 nothing ready, 13 w3.
  //   LRR: one warp after the other, every warp ready when its turn comes: 1..12 = w0..w3 x 3.
  SmCore::Params gto = one_scheduler(), lrr = one_scheduler();
  lrr.scheduler = "lrr";
  SmBench b("b", {gto, lrr}, 10);
  auto k = kernel(1, 128, [](unsigned, unsigned) {
    return std::vector<WarpInstr>{compute(0, 1), compute(0x10, 3), compute(0x20, 1)};
  });
  b.sm[0].launch(k, 0, 0);
  b.sm[1].launch(k, 0, 0);
  b.run(50);
  CHECK(b.cycles_of(0) == std::vector<uint64_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13});
  CHECK(warps_of(b.of(0)) == std::vector<unsigned>{0, 0, 1, 1, 0, 2, 2, 1, 3, 3, 2, 3});
  CHECK(b.cycles_of(1) == std::vector<uint64_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  CHECK(warps_of(b.of(1)) == std::vector<unsigned>{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3});
}

TEST_CASE("SmCore: a full mem_queue stalls memory instructions", "[sm][mem_queue]") {
  // mem_queue = 2, one line leaves per cycle.
  // SM 0: three 2-line stores then a compute. Store A issues at 1 (queue 2); at 2 one line
  // left (queue 1): B does not fit (stall); at 3 queue 0: B issues; 4 stall; 5 C issues; the
  // compute needs no room: 6. Lines leave at 2..7 in order.
  // SM 1: a 4-line store issues into the empty queue at 1 (wider than the queue); a 1-line
  // store fits once the queue holds at most 1 line: after the sends of 2, 3, 4 -> issues at 4.
  SmCore::Params p = one_scheduler();
  p.mem_queue = 2;
  SmBench b("b", {p, p}, 50);
  b.sm[0].launch(kernel(1, 32, [](unsigned, unsigned) {
                   return std::vector<WarpInstr>{mem(Op::Store, 0x10, 0x1000, 128, 4, 0x3),
                                                 mem(Op::Store, 0x20, 0x2000, 128, 4, 0x3),
                                                 mem(Op::Store, 0x30, 0x3000, 128, 4, 0x3), compute(0x40, 1)};
                 }),
                 0, 0);
  b.sm[1].launch(kernel(1, 32, [](unsigned, unsigned) {
                   return std::vector<WarpInstr>{mem(Op::Store, 0x10, 0x1000, 128, 4, 0xF),
                                                 mem(Op::Store, 0x20, 0x9000, 0, 4, 0x1)};
                 }),
                 0, 0);
  b.run(200);
  CHECK(b.cycles_of(0) == std::vector<uint64_t>{1, 3, 5, 6});
  const auto& r = b.mem[0].requests();
  REQUIRE(r.size() == 6);
  const uint64_t addr[6] = {0x1000, 0x1080, 0x2000, 0x2080, 0x3000, 0x3080};
  for (unsigned i = 0; i < 6; ++i) {
    CHECK(r[i].cycle == 2 + i);
    CHECK(r[i].address == addr[i]);
  }
  CHECK(b.stat(0, "stall_mem_queue") == 2);
  CHECK(b.stat(0, "active_cycles") == 6);
  CHECK(b.stat(0, "stall_all_waiting") == 0);
  CHECK(b.cycles_of(1) == std::vector<uint64_t>{1, 4});
  CHECK(b.stat(1, "stall_mem_queue") == 2);
  CHECK(b.mem[1].requests().size() == 5);
  CHECK(b.mem[1].requests().back().address == 0x9000);
  CHECK(b.mem[1].requests().back().cycle == 6);
  CHECK(collect_stats()["invariant_failures"].empty());
}

TEST_CASE("SmCore: mem_out back-pressure holds line requests and loses none", "[sm][backpressure]") {
  // The memory refuses everything before cycle 50. A 32-line store (stride 128) issues at 1;
  // its first line is offered at 2 and taken at 50, then one line per cycle: line k at 50 + k.
  // A second 1-line store needs the queue (8) to hold at most 7: after line 24 left (74).
  // Cycles 2..73 are mem_queue stalls, slept through from 3 to 50.
  SmBench b("b", {one_scheduler()}, 10);
  b.mem[0].refuse_until(50);
  b.sm[0].launch(kernel(1, 32, [](unsigned, unsigned) {
                   return std::vector<WarpInstr>{mem(Op::Store, 0x10, 0x1000, 128), mem(Op::Store, 0x20, 0x9000, 4, 4, 1)};
                 }),
                 0, 0);
  b.run(40);
  CHECK(b.mem[0].requests().empty());
  CHECK(b.sm[0].mem_out.busy());
  CHECK(b.sm[0].mem_queue_occupancy() == 31);  // one line is held at the memory's socket
  b.run(300);
  CHECK(b.cycles_of(0) == std::vector<uint64_t>{1, 74});
  const auto& r = b.mem[0].requests();
  REQUIRE(r.size() == 33);
  for (unsigned k = 0; k < 32; ++k) {
    INFO("line " << k);
    CHECK(r[k].address == 0x1000 + 128 * k);
    CHECK(r[k].cycle == 50 + k);
  }
  CHECK(r[32].address == 0x9000);
  CHECK(r[32].cycle == 82);
  CHECK(b.sm[0].mem_out.stalls() == 1);
  CHECK(b.mem[0].replies_sent() == 33);
  CHECK(b.stat(0, "line_requests") == 33);
  CHECK(b.stat(0, "replies") == 33);
  CHECK(b.stat(0, "stall_mem_queue") == 72);
  CHECK(b.stat(0, "active_cycles") == 74);
  CHECK(b.sm[0].idle());
  CHECK(b.sm[0].pool().in_use() == 0);
  CHECK(collect_stats()["invariant_failures"].empty());
}

TEST_CASE("SmCore: stores do not block the warp and the CTA retires before the write ack", "[sm]") {
  // L = 100. Store at 1, computes at 2 and 3, warp and CTA done at 4; the write ack is sent at
  // 2 + 100 and taken at 103: until then the SM holds no CTA but is not idle.
  SmBench b("b", {one_scheduler()}, 100);
  std::vector<uint64_t> done;
  b.sm[0].add_cta_done_listener([&](SmCore&, unsigned) { done.push_back(b.clk.now()); });
  b.sm[0].launch(kernel(1, 32, [](unsigned, unsigned) {
                   return std::vector<WarpInstr>{mem(Op::Store, 0x10, 0x1000, 4), compute(0x20, 1), compute(0x30, 1)};
                 }),
                 0, 0);
  b.run(60);
  CHECK(b.cycles_of(0) == std::vector<uint64_t>{1, 2, 3});
  CHECK(done == std::vector<uint64_t>{4});
  CHECK(b.sm[0].resident_ctas() == 0);
  CHECK(b.sm[0].outstanding() == 1);
  CHECK_FALSE(b.sm[0].idle());
  b.run(102);
  CHECK_FALSE(b.sm[0].idle());
  b.run(110);
  CHECK(b.sm[0].idle());
  CHECK(b.stat(0, "stores") == 1);
  CHECK(b.stat(0, "replies") == 1);
}

TEST_CASE("SmCore: request payload fields follow the GPU model contract", "[sm][payload]") {
  // SM on node 10, kernel id 7, CTA 2 of 3 (64 threads: warp slots 0 and 1). Warp slot 1:
  //   load  pc 0x100: lanes at 0x1000 + 4l       -> 1 line, all words, READ, 128 B; issue 1
  //   store pc 0x110: lanes 0..15 at 0x2000 + 8l -> words 0x55555555 (16 words), 64 B; issue
  //                   at 1 + 1 + 5 + 1 = 8 (reply of the load)
  //   atomic pc 0x120: all lanes at 0x3004     -> word 1, sector 0, WRITE, 128 B; issue 9
  SmBench b("b", {one_scheduler()}, 5);
  b.sm[0].launch(kernel(3, 64, [](unsigned, unsigned w) {
                   if (w == 0) return std::vector<WarpInstr>{};
                   return std::vector<WarpInstr>{mem(Op::Load, 0x100, 0x1000, 4),
                                                 mem(Op::Store, 0x110, 0x2000, 8, 4, 0xFFFF),
                                                 mem(Op::Atomic, 0x120, 0x3004, 0)};
                 }),
                 7, 2);
  b.run(100);
  const auto& r = b.mem[0].requests();
  REQUIRE(r.size() == 3);
  struct Want {
    tlm::tlm_command cmd;
    MemKind kind;
    uint64_t addr;
    unsigned len;
    uint64_t pc;
    uint32_t sectors, words;
    uint64_t issue;
  };
  const Want want[3] = {{tlm::TLM_READ_COMMAND, MemKind::Read, 0x1000, 128, 0x100, 0xF, 0xFFFFFFFFu, 1},
                        {tlm::TLM_WRITE_COMMAND, MemKind::Write, 0x2000, 64, 0x110, 0xF, 0x55555555u, 8},
                        {tlm::TLM_WRITE_COMMAND, MemKind::Atomic, 0x3000, 128, 0x120, 0x1, 0x2u, 9}};
  for (unsigned i = 0; i < 3; ++i) {
    INFO("request " << i);
    CHECK(r[i].cmd == want[i].cmd);
    CHECK(r[i].ext.kind == want[i].kind);
    CHECK(r[i].address == want[i].addr);
    CHECK(r[i].length == want[i].len);
    CHECK(r[i].data_ptr_null);
    CHECK(r[i].ext.pc == want[i].pc);
    CHECK(r[i].ext.sector_mask == want[i].sectors);
    CHECK(r[i].ext.word_mask == want[i].words);
    CHECK(r[i].ext.t_issue == b.clk.time_of(want[i].issue));
    CHECK_FALSE(r[i].ext.is_reply);
    CHECK(r[i].ext.src == 10);
    CHECK(r[i].ext.dst == 0);
    CHECK(r[i].ext.warp == 1);
    CHECK(r[i].ext.kernel_id == 7);
    CHECK(r[i].ext.cta_id == 2);
  }
  CHECK(b.cycles_of(0) == std::vector<uint64_t>{1, 8, 9});
  CHECK(b.stat(0, "atomics") == 1);
  // The atomic blocks its warp like a load: its reply is taken at 10 + 5 + 1 = 16, so the
  // warp (and the CTA) finish at 16.
  CHECK(b.stat(0, "active_cycles") == 15);
  CHECK(b.sm[0].pool().in_use() == 0);
}

TEST_CASE("SmCore: CTA, warp and thread limits", "[sm][limits]") {
  SmCore::Params ctas, warps, threads;
  ctas.max_ctas = 2;
  warps.max_warps = 6;
  threads.max_threads = 160;
  SmBench b("b", {ctas, warps, threads}, 10);
  auto empty = [](unsigned, unsigned) { return std::vector<WarpInstr>{}; };
  auto k64 = kernel(8, 64, empty), k96 = kernel(8, 96, empty), k32 = kernel(8, 32, empty);
  // CTA limit: two CTAs of 2 warps, then no third.
  CHECK(b.sm[0].can_launch(*k64));
  b.sm[0].launch(k64, 0, 0);
  b.sm[0].launch(k64, 0, 1);
  CHECK(b.sm[0].resident_ctas() == 2);
  CHECK_FALSE(b.sm[0].can_launch(*k32));
  CHECK_THROWS_WITH(b.sm[0].launch(k32, 0, 2), Catch::Contains("ask can_launch() first"));
  // Warp limit 6: two CTAs of 3 warps, then not even a 1-warp CTA.
  b.sm[1].launch(k96, 0, 0);
  CHECK(b.sm[1].can_launch(*k96));
  b.sm[1].launch(k96, 0, 1);
  CHECK(b.sm[1].resident_warps() == 6);
  CHECK_FALSE(b.sm[1].can_launch(*k32));
  CHECK_FALSE(b.sm[1].fits(*kernel(1, 7 * 32, empty)));
  CHECK(b.sm[1].fits(*k96));
  // Thread limit 160: two CTAs of 64 threads leave 32: a 64-thread CTA does not fit, a
  // 32-thread CTA does.
  b.sm[2].launch(k64, 0, 0);
  b.sm[2].launch(k64, 0, 1);
  CHECK_FALSE(b.sm[2].can_launch(*k64));
  CHECK(b.sm[2].can_launch(*k32));
  CHECK_FALSE(b.sm[2].fits(*kernel(1, 192, empty)));
  // Out-of-range CTA index.
  CHECK_THROWS_WITH(b.sm[2].launch(k32, 0, 8), Catch::Contains("launch of CTA 8 of kernel 'k' which has 8 CTAs"));
  // Every CTA of empty warps retires in the first cycle: all slots come back.
  b.run(10);
  for (unsigned s = 0; s < 3; ++s) {
    CHECK(b.sm[s].resident_ctas() == 0);
    CHECK(b.sm[s].resident_warps() == 0);
    CHECK(b.sm[s].idle());
  }
  CHECK(b.stat(0, "ctas_completed") == 2);
}

TEST_CASE("SmCore: shared memory limits resident CTAs and a CTA larger than the SM's does not fit", "[sm][limits]") {
  SmCore::Params p;
  p.shared_bytes = 10000;
  SmBench b("b", {p}, 10);
  auto empty = [](unsigned, unsigned) { return std::vector<WarpInstr>{}; };
  auto k = std::make_shared<ScriptKernel>("k", 8, 32, empty);
  k->shared_ = 4000;
  CHECK(b.sm[0].fits(*k));
  b.sm[0].launch(k, 0, 0);
  CHECK(b.sm[0].can_launch(*k));
  b.sm[0].launch(k, 0, 1);
  CHECK_FALSE(b.sm[0].can_launch(*k));  // 8000 of 10000 bytes used: a third 4000-byte CTA waits
  auto small = std::make_shared<ScriptKernel>("s", 8, 32, empty);
  small->shared_ = 2000;
  CHECK(b.sm[0].can_launch(*small));
  auto big = std::make_shared<ScriptKernel>("b", 1, 32, empty);
  big->shared_ = 10001;
  CHECK_FALSE(b.sm[0].fits(*big));
  b.run(10);  // the CTAs retire and give their shared memory back
  CHECK(b.sm[0].can_launch(*k));
}

TEST_CASE("SmCore: a reply for a warp without an outstanding load is an error", "[sm][protocol]") {
  // A scripted initiator stands in for the L1 and sends a read reply to warp 3 of an SM that
  // has nothing outstanding.
  ClockDomain clk("clk", 1000.0);
  PayloadPool pool;
  SmCore sm("sm", one_scheduler(), clk, 4);
  ScriptedTarget l1("l1", clk);
  ScriptedInitiator rogue("rogue", clk, pool);
  sm.mem_out.bind(l1.in);
  rogue.out.bind(sm.mem_in);
  rogue.at(2, [](tlm::tlm_generic_payload& gp, MemExt& e) {
    e.kind = MemKind::Read;
    e.is_reply = true;
    e.src = 4;
    e.warp = 3;
    gp.set_address(0x1000);
  });
  REQUIRE_THROWS_WITH(sc_core::sc_start(clk.time_of(5)), Catch::Contains("reply for warp 3 which has no load outstanding"));
}

TEST_CASE("SmCore config error: unknown scheduler policy", "[sm][config]") {
  SmCore::Params p;
  p.scheduler = "fifo";
  expect_sm_config_error(p, "scheduler' = \"fifo\" is not one of gto|lrr");
}

TEST_CASE("SmCore config error: line size not a power of two", "[sm][config]") {
  SmCore::Params p;
  p.line_bytes = 96;
  expect_sm_config_error(p, "line_bytes = 96 must be a power of two");
}

TEST_CASE("SmCore config error: 256 B lines exceed the 32-bit word mask", "[sm][config]") {
  SmCore::Params p;
  p.line_bytes = 256;
  expect_sm_config_error(p, "line_bytes' = 256 is out of range [32, 128]");
}

TEST_CASE("SmCore config error: more than 64 warps per scheduler", "[sm][config]") {
  SmCore::Params p;
  p.max_warps = 130;
  expect_sm_config_error(p, "max_warps = 130 exceeds 64 warps per scheduler with 2 schedulers");
}
