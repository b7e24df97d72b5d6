// CtaScheduler tests: CTA limits delaying launches, round-robin order over 3 SMs carried
// across kernels, the kernel-boundary hook (once per kernel, after the drain), short-run
// limits, the contiguous-groups and greedy policies on real SMs, another CTA-done listener
// kept next to the scheduler's, bad policies, and an end-to-end run of a real workload
// against the scripted memory. The policies' exact per-cycle choices: cta_policy_tb.cpp.
// Timing: the scheduler starts at cycle 0; a CTA launched in cycle c issues from c + 1; a CTA
// retired in cycle c wakes the scheduler at c + 1.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "sm_fixture.h"
#include "workload/workload_factory.h"

using namespace gpusc;
using namespace gpusc::tb;
using Op = WarpInstr::Op;

namespace {
Program computes(uint16_t cycles) {
  return [cycles](unsigned, unsigned) { return std::vector<WarpInstr>{compute(0, cycles)}; };
}

struct Start {
  uint64_t cycle;
  unsigned sm, kernel, cta;
  bool operator==(const Start& o) const {
    return cycle == o.cycle && sm == o.sm && kernel == o.kernel && cta == o.cta;
  }
};
std::ostream& operator<<(std::ostream& os, const Start& l) {
  return os << "{cycle " << l.cycle << " sm " << l.sm << " kernel " << l.kernel << " cta " << l.cta << "}";
}
// Every issue as (cycle, sm, kernel, cta), by cycle then SM: for one-instruction, one-warp
// CTAs, where and when each CTA started.
std::vector<Start> starts(const SmBench& b) {
  std::vector<Start> r;
  for (const Issue& i : b.issues) r.push_back({i.cycle, i.sm, i.kernel_id, i.cta_id});
  std::stable_sort(r.begin(), r.end(), [](const Start& x, const Start& y) {
    return x.cycle != y.cycle ? x.cycle < y.cycle : x.sm < y.sm;
  });
  return r;
}
uint64_t stat(const std::string& key) { return collect_stats()["stats"].at(key).get<uint64_t>(); }
}  // namespace

TEST_CASE("CtaScheduler: with max_ctas = 2 the third CTA waits until one retires", "[cta]") {
  // One SM, max_ctas 2, 3 one-warp CTAs of one 10-cycle instruction. CTA 0 launched at 0
  // (issues 1, retires 11), CTA 1 at 1 (issues 2, retires 12); CTA 2 waits for the retirement
  // of CTA 0 (scheduler wakes at 12), issues at 13, retires at 23; the scheduler sees the
  // drain at 24 and finishes.
  SmCore::Params p;
  p.max_ctas = 2;
  SmBench b("b", {p}, 10);
  ScriptWorkload w;
  w.add("k", 3, 32, computes(10));
  b.schedule(w);
  b.run(8);
  CHECK(b.sm[0].resident_ctas() == 2);
  CHECK_FALSE(b.sm[0].can_launch(ScriptKernel("k", 3, 32, computes(10))));
  CHECK_FALSE(b.cta->done());
  b.run(100);
  CHECK(starts(b) == std::vector<Start>{{1, 0, 0, 0}, {2, 0, 0, 1}, {13, 0, 0, 2}});
  REQUIRE(b.cta->done());
  CHECK(b.cta->finish_cycle() == 24);
  CHECK(stat("cta.kernels") == 1);
  CHECK(stat("cta.ctas_launched") == 3);
  CHECK(stat("cta.ctas_done") == 3);
}

TEST_CASE("CtaScheduler: round-robin over 3 SMs, carried across kernels, one hook per kernel", "[cta]") {
  // 3 SMs with max_ctas 1; kernel 0 has 5 CTAs, kernel 1 has 3; every CTA is one 10-cycle
  // instruction. Cycle 0: CTAs 0, 1, 2 to SMs 0, 1, 2 (one per SM per cycle). They retire at
  // 11; cycle 12: the scan starts after SM 2: CTA 3 -> SM 0, CTA 4 -> SM 1. They retire at
  // 23; cycle 24: boundary hook of kernel 0, then kernel 1 starts at the SM after SM 1:
  // CTA 0 -> SM 2, CTA 1 -> SM 0, CTA 2 -> SM 1. They retire at 35: hook of kernel 1 at 36,
  // the workload has ended: finished at 36.
  SmCore::Params p;
  p.max_ctas = 1;
  SmBench b("b", {p, p, p}, 10);
  ScriptWorkload w;
  w.add("k0", 5, 32, computes(10));
  w.add("k1", 3, 32, computes(10));
  b.schedule(w);
  std::vector<std::pair<unsigned, uint64_t>> hooks;
  b.cta->set_on_kernel_boundary([&](unsigned k) {
    hooks.emplace_back(k, b.clk.now());
    for (auto& sm : b.sm) CHECK(sm.idle());
  });
  uint64_t finished_at = 0;
  struct Watch : sc_core::sc_module {
    SC_HAS_PROCESS(Watch);
    Watch(sc_core::sc_module_name n, const sc_core::sc_event& e, std::function<void()> f)
        : sc_core::sc_module(n), f_(std::move(f)) {
      SC_METHOD(fire);
      sensitive << e;
      dont_initialize();
    }
    void fire() { f_(); }
    std::function<void()> f_;
  } watch("watch", b.cta->finished(), [&] { finished_at = b.clk.now(); });
  b.run(200);
  CHECK(starts(b) == std::vector<Start>{{1, 0, 0, 0},
                                        {1, 1, 0, 1},
                                        {1, 2, 0, 2},
                                        {13, 0, 0, 3},
                                        {13, 1, 0, 4},
                                        {25, 0, 1, 1},
                                        {25, 1, 1, 2},
                                        {25, 2, 1, 0}});
  CHECK(hooks == std::vector<std::pair<unsigned, uint64_t>>{{0, 24}, {1, 36}});
  REQUIRE(b.cta->done());
  CHECK(b.cta->finish_cycle() == 36);
  CHECK(finished_at == 36);
  CHECK(stat("cta.kernels") == 2);
  CHECK(stat("cta.ctas_done") == 8);
}

TEST_CASE("CtaScheduler: the kernel boundary waits for the last stores' acks", "[cta]") {
  // One CTA whose warp stores one line and ends: it retires at 2 while the write (taken by
  // the memory at 2) is answered at 32 and the ack reaches the SM at 33. The hook must not
  // run before the SM has taken that ack.
  SmBench b("b", {SmCore::Params{}}, 30);
  ScriptWorkload w;
  w.add("k", 1, 32, [](unsigned, unsigned) { return std::vector<WarpInstr>{mem(Op::Store, 0, 0x1000, 4)}; });
  b.schedule(w);
  std::vector<uint64_t> hook_cycles;
  b.cta->set_on_kernel_boundary([&](unsigned) {
    hook_cycles.push_back(b.clk.now());
    CHECK(b.sm[0].outstanding() == 0);
  });
  b.run(100);
  REQUIRE(hook_cycles.size() == 1);
  CHECK(hook_cycles[0] >= 33);
  CHECK(hook_cycles[0] <= 34);  // seen in the ack's cycle or the next, depending on tick order
  CHECK(b.cta->finish_cycle() == hook_cycles[0]);
}

TEST_CASE("CtaScheduler: max_kernels and max_ctas cut a run short", "[cta]") {
  // 2 kernels of 6 CTAs; only kernel 0's first 2 CTAs run.
  SmBench b("b", {SmCore::Params{}}, 10);
  ScriptWorkload w;
  w.add("k0", 6, 32, computes(4));
  w.add("k1", 6, 32, computes(4));
  CtaScheduler::Params cp;
  cp.max_kernels = 1;
  cp.max_ctas = 2;
  b.schedule(w, cp);
  unsigned hooks = 0;
  b.cta->set_on_kernel_boundary([&](unsigned) { ++hooks; });
  b.run(100);
  REQUIRE(b.cta->done());
  CHECK(starts(b) == std::vector<Start>{{1, 0, 0, 0}, {2, 0, 0, 1}});
  CHECK(hooks == 1);
  CHECK(stat("cta.kernels") == 1);
  CHECK(stat("cta.ctas_launched") == 2);
}

TEST_CASE("CtaScheduler: another CTA-done listener, added before or after the scheduler, still runs", "[cta]") {
  // 2 SMs, 6 CTAs of one 5-cycle instruction. A tracer listens to SM 0 before the scheduler
  // exists and to SM 1 after: each hears exactly the CTAs its SM ran, and the scheduler still
  // sees every retirement (it finishes, with 6 CTAs done).
  SmBench b("b", {SmCore::Params{}, SmCore::Params{}}, 10);
  std::vector<std::vector<unsigned>> heard(2);
  b.sm[0].add_cta_done_listener([&](SmCore& sm, unsigned cta) {
    CHECK(&sm == &b.sm[0]);
    heard[0].push_back(cta);
  });
  ScriptWorkload w;
  w.add("k", 6, 32, computes(5));
  b.schedule(w);
  b.sm[1].add_cta_done_listener([&](SmCore&, unsigned cta) { heard[1].push_back(cta); });
  b.run(200);
  REQUIRE(b.cta->done());
  CHECK(stat("cta.ctas_done") == 6);
  std::vector<std::vector<unsigned>> ran(2);
  for (const Start& s : starts(b)) ran[s.sm].push_back(s.cta);
  for (unsigned s = 0; s < 2; ++s) {
    std::sort(heard[s].begin(), heard[s].end());
    CHECK(heard[s] == ran[s]);
  }
  CHECK(heard[0].size() + heard[1].size() == 6);
}

TEST_CASE("CtaScheduler: contiguous-groups sends the same CTA ids to the same block at every launch", "[cta]") {
  // 4 SMs in 2 blocks (SMs 0, 1 | 2, 3), one CTA per SM at a time; three launches of a
  // 9-CTA kernel: CTAs 0-4 (the larger group) run on block 0, 5-8 on block 1, every time.
  SmCore::Params p;
  p.max_ctas = 1;
  SmBench b("b", {p, p, p, p}, 10);
  ScriptWorkload w;
  for (int k = 0; k < 3; ++k) w.add("k" + std::to_string(k), 9, 32, computes(3 + 4 * k));
  CtaScheduler::Params cp;
  cp.policy = "contiguous-groups";
  b.schedule(w, cp, {0, 0, 1, 1});
  b.run(1000);
  REQUIRE(b.cta->done());
  const auto s = starts(b);
  REQUIRE(s.size() == 27);
  for (const Start& x : s) {
    INFO(x);
    CHECK(x.sm / 2 == (x.cta < 5 ? 0u : 1u));
  }
  // In the first cycle each SM takes its block's next CTA: 0, 1 on block 0 and 5, 6 on block 1.
  CHECK(std::vector<Start>(s.begin(), s.begin() + 4) ==
        std::vector<Start>{{1, 0, 0, 0}, {1, 1, 0, 1}, {1, 2, 0, 5}, {1, 3, 0, 6}});
}

TEST_CASE("CtaScheduler: greedy fills SM 0 before SM 1 and leaves SM 2 idle for a small grid", "[cta]") {
  // 3 SMs of 2 CTAs, 4 CTAs of one 10-cycle instruction: all launched in cycle 0.
  SmCore::Params p;
  p.max_ctas = 2;
  SmBench b("b", {p, p, p}, 10);
  ScriptWorkload w;
  w.add("k", 4, 32, computes(10));
  CtaScheduler::Params cp;
  cp.policy = "greedy";
  b.schedule(w, cp);
  b.run(100);
  REQUIRE(b.cta->done());
  CHECK(starts(b) == std::vector<Start>{{1, 0, 0, 0}, {1, 0, 0, 1}, {1, 1, 0, 2}, {1, 1, 0, 3}});
  CHECK(b.stat(2, "ctas_completed") == 0);
}

TEST_CASE("CtaScheduler: an unknown policy or a block without SMs is an error", "[cta][config]") {
  SmBench b("b", {SmCore::Params{}, SmCore::Params{}, SmCore::Params{}}, 10);
  ScriptWorkload w;
  w.add("k", 2, 32, computes(1));
  CtaScheduler::Params cp;
  cp.policy = "fifo";
  REQUIRE_THROWS_WITH(b.schedule(w, cp),
                      Catch::Contains("parameter 'cta.policy' = \"fifo\" is not one of round-robin|contiguous-groups|greedy"));
  cp.policy = "contiguous-groups";
  REQUIRE_THROWS_WITH(b.schedule(w, cp, {0, 2, 2}), Catch::Contains("block 1 has no SM"));
  REQUIRE_THROWS_WITH(b.schedule(w, cp, {0, 1}), Catch::Contains("block_of_sm lists 2 SMs, but there are 3"));
}

TEST_CASE("CtaScheduler: a CTA larger than an SM is an error", "[cta][config]") {
  SmCore::Params p;
  p.max_threads = 256;
  SmBench b("b", {p}, 10);
  ScriptWorkload w;
  w.add("big", 2, 512, computes(1));
  b.schedule(w);
  REQUIRE_THROWS_WITH(b.run(10), Catch::Contains("kernel 'big' has CTAs of 512 threads (16 warps) that do not fit"));
}

TEST_CASE("CtaScheduler: end to end, transpose on 2 SMs answers every line request once", "[cta][e2e]") {
  // transpose 64 x 32, 32 x 8 CTAs: 2 x 4 = 8 CTAs of 8 warps, 64 warps. Per warp: 3 computes,
  // a load of 32 consecutive floats (one 128 B line: rows are 256 B and the array 256 B
  // aligned) and a store of 32 floats 32 * 4 = 128 B apart (32 lines). So 320 warp
  // instructions, 320 * 32 = 10240 thread instructions, 64 * 33 = 2112 line requests.
  const json params = {{"width", 64}, {"height", 32}, {"block_x", 32}, {"block_y", 8}};
  auto wl = make_workload("transpose", params, 1);
  SmBench b("b", {SmCore::Params{}, SmCore::Params{}}, 20);
  b.schedule(*wl);
  unsigned hooks = 0;
  b.cta->set_on_kernel_boundary([&](unsigned) { ++hooks; });
  sc_core::sc_start();  // until nothing is left to do
  REQUIRE(b.cta->done());

  // The same streams, pulled independently.
  auto ref = make_workload("transpose", params, 1);
  uint64_t warp_instr = 0, thread_instr = 0, loads = 0, stores = 0;
  auto k = ref->next_kernel();
  for (unsigned c = 0; c < k->num_ctas(); ++c)
    for (unsigned wi = 0; wi < k->warps_per_cta(); ++wi) {
      auto s = k->warp(c, wi);
      for (WarpInstr in; s->next(in);) {
        ++warp_instr;
        thread_instr += in.active_lanes();
        loads += in.op == Op::Load;
        stores += in.op == Op::Store;
      }
    }
  CHECK(ref->next_kernel() == nullptr);
  CHECK(warp_instr == 320);
  CHECK(thread_instr == 10240);

  uint64_t wi = 0, ti = 0, ld = 0, st = 0, lines = 0, replies = 0, seen = 0, answered = 0;
  for (unsigned s = 0; s < 2; ++s) {
    wi += b.stat(s, "warp_instructions");
    ti += b.stat(s, "thread_instructions");
    ld += b.stat(s, "loads");
    st += b.stat(s, "stores");
    lines += b.stat(s, "line_requests");
    replies += b.stat(s, "replies");
    seen += b.mem[s].requests().size();
    answered += b.mem[s].replies_sent();
    CHECK(b.sm[s].idle());
    CHECK(b.sm[s].pool().in_use() == 0);
    CHECK(b.stat(s, "ctas_completed") > 0);
  }
  CHECK(wi == warp_instr);
  CHECK(ti == thread_instr);
  CHECK(ld == loads);
  CHECK(st == stores);
  CHECK(lines == 2112);
  CHECK(seen == 2112);
  CHECK(answered == 2112);
  CHECK(replies == 2112);
  // Every line request is a distinct (SM, warp, pc, line): each was seen and answered once.
  std::set<std::tuple<unsigned, uint64_t, uint32_t, uint64_t, uint32_t>> distinct;
  for (unsigned s = 0; s < 2; ++s)
    for (const auto& r : b.mem[s].requests()) distinct.emplace(s, r.ext.pc, r.ext.kernel_id, r.address, r.ext.cta_id * 64 + r.ext.warp);
  CHECK(distinct.size() == 2112);
  CHECK(hooks == 1);
  CHECK(stat("cta.ctas_done") == 8);
  CHECK(collect_stats()["invariant_failures"].empty());
}
