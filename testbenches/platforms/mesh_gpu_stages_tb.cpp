// The mesh GPU's memory-partition stages (mem/mc_stage.h): the platform builds whatever chain
// mc.stages names from the registry it is given, and its summary's mechanism lines are the lines
// the stages add (McStage::summarize), merged over the partitions; it names no mechanism. Test
// stages come from harness/tag_stage.h, the PCU from the paper registry (platforms/paper_stages.h).
#include <catch2/catch.hpp>

#include "coalesce/packet_coalescing_unit.h"
#include "harness/tag_stage.h"
#include "platforms/mesh_gpu_fixture.h"

using namespace gpusc;
using namespace gpusc::test;

namespace {

const json kGemm = {{"m", 64}, {"n", 64}, {"k", 64}};
const json kWholeReplyPerVc = {{"noc", {{"router", {{"vc_depth", 9}}}}}};

McStageRegistry with_tag_stage() {
  McStageRegistry r = paper_mc_stages();
  r.add("tag", tb::TagStage::entry());
  return r;
}

json chain(const json& stages) {
  json p = kWholeReplyPerVc;
  p["mc"]["stages"] = stages;
  return p;
}

}  // namespace

TEST_CASE("mesh_gpu stages: a stage from the platform's registry adds its own summary line", "[mesh_gpu][stages]") {
  GpuBench b(small_params("ics8x8", chain({"tag"})), "gemm", kGemm, 1, with_tag_stage());
  REQUIRE(b.run());
  require_drained_and_answered_once(b);
  uint64_t passed = 0;
  for (unsigned j = 0; j < kMcs; ++j) passed += dynamic_cast<tb::TagStage&>(b.gpu.mc(j).stage(0)).passed();
  REQUIRE(passed > 0);
  CHECK(b.gpu.mechanism_summary() == json{{"tag_messages", passed}});
  const json s = b.gpu.summary();
  CHECK(s.at("tag_messages") == passed);
  CHECK(!s.contains("coalescing_ratio"));  // no PCU, no PCU line
  // The effective configuration names the stage with its parameters' defaults.
  CHECK(b.gpu.params().mc.stage_params == json{{"tag", {{"tag", 1}, {"requests", true}, {"replies", true}, {"depth", 2}, {"spin", false}}}});
}

TEST_CASE("mesh_gpu stages: the PCU's summary lines are its stage's, over every partition", "[mesh_gpu][stages][pcu]") {
  GpuBench b(small_params("ics8x8+pcu+xy-yx", kWholeReplyPerVc), "gemm", kGemm);
  REQUIRE(b.run());
  const double grouped = b.sum_over_mcs(".pcu.grouped_requests"), reads = b.sum_over_mcs(".pcu.reads");
  REQUIRE(grouped > 0);
  const json m = b.gpu.mechanism_summary();
  CHECK(m.size() == 2);
  CHECK(m.at("coalescing_ratio").get<double>() == grouped / reads);
  CHECK(m.at("multicast_replies").get<double>() == b.sum_over_mcs(".pcu.multicast_replies"));
  const json s = b.gpu.summary();
  CHECK(s.at("coalescing_ratio") == m.at("coalescing_ratio"));
  CHECK(s.at("multicast_replies") == m.at("multicast_replies"));
  CHECK(b.gpu.params().mc.stages == std::vector<std::string>{"pcu"});
}

TEST_CASE("mesh_gpu stages: chain [pcu, tag]: every load answered once, both stages in the summary",
          "[mesh_gpu][stages][pcu]") {
  GpuBench b(small_params("ics8x8+xy-yx", chain({"pcu", "tag"})), "gemm", kGemm, 1, with_tag_stage());
  REQUIRE(b.run());
  require_drained_and_answered_once(b);
  REQUIRE(b.sum_over_mcs(".pcu.grouped_requests") > 0);
  const json m = b.gpu.mechanism_summary();
  CHECK(m.contains("coalescing_ratio"));
  CHECK(m.contains("tag_messages"));
  // The tag stage sits behind the PCU: it sees only the reads the PCU let through (and their
  // replies), writes and atomics, never a grouped read.
  CHECK(m.at("tag_messages").get<double>() ==
        2 * (b.sum_over_mcs(".pcu.rgr_allocations") + b.sum_over_mcs(".pcu.writes")));
}

TEST_CASE("mesh_gpu stages: chain [tag, pcu]: every load answered once, both stages in the summary",
          "[mesh_gpu][stages][pcu]") {
  GpuBench b(small_params("ics8x8+xy-yx", chain({"tag", "pcu"})), "gemm", kGemm, 1, with_tag_stage());
  REQUIRE(b.run());
  require_drained_and_answered_once(b);
  REQUIRE(b.sum_over_mcs(".pcu.grouped_requests") > 0);
  const json m = b.gpu.mechanism_summary();
  // In front of the PCU the tag stage sees every request, but a merged reply only once.
  CHECK(m.at("tag_messages").get<double>() == b.sum_over_mcs(".pcu.reads") + b.sum_over_mcs(".pcu.writes") +
                                                  b.sum_over_mcs(".pcu.replies"));
}

TEST_CASE("mesh_gpu stall watchdog: a unit awake without progress is a deadlock after stall_cycles, "
          "not a run to max_cycles",
          "[mesh_gpu][stages][deadlock]") {
  // A spinning stage in every partition keeps each request it takes and ticks every cycle: the
  // SMs block on their loads, yet the simulation never runs out of activity.
  json p = chain({"tag"});
  p["mc"]["stage_params"]["tag"]["spin"] = true;
  GpuBench b(small_params("ics8x8", p), "gemm", kGemm, 1, with_tag_stage());
  Platform& pl = b.gpu.platform();
  auto progress = [&pl] {
    uint64_t n = 0;
    for (unsigned s = 0; s < pl.sm_count(); ++s) n += pl.sm(s).progress();
    return n;
  };
  // The forward progress the display sees at each pause: the cycle it last changed.
  constexpr uint64_t kStall = 20000, kMax = 2000000;
  uint64_t last = 0, last_change = 0;
  const Platform::ProgressFn watch = [&](const Platform::Progress& at) {
    if (progress() != last) last = progress(), last_change = at.cycle;
  };
  REQUIRE_FALSE(pl.run(kMax, watch, kStall));
  CHECK(pl.stop() == Platform::Stop::deadlock);
  REQUIRE(last > 0);  // the SMs did issue before they blocked
  CHECK(progress() == last);
  // Found between kStall and 1.25 kStall after the last progress, long before max_cycles.
  CHECK(pl.cycles() >= last_change + kStall);
  CHECK(pl.cycles() <= last_change + kStall + kStall / 4);
  // It was a real stall: going on without the watchdog, nothing moves until max_cycles, which now
  // ends the run (the stage still ticks).
  const uint64_t stopped = pl.cycles();
  REQUIRE_FALSE(pl.run(stopped + 100000));
  CHECK(pl.stop() == Platform::Stop::max_cycles);
  CHECK(pl.cycles() == stopped + 100000);
  CHECK(progress() == last);
}
