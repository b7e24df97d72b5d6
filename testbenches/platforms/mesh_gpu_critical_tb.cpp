// The paper-002 overlays dftruc and dfman on the mesh GPU (platforms/mesh_gpu/presets): every L1
// fetches by sector (critical data tracker), an SM-side request_controller stage
// (critical/request_controller_stage.h) chooses each read miss's fetch map, and the MCs' data
// filter sees those maps. Checked on the small platform (dpc8x8 shrunk to 4x4) with an spmv whose
// row_ptr/col_idx/vals reads are coalesced and whose x gathers are single sectors:
//   * per SM, the read requests its NI injects carry exactly the controller's decisions: a
//     partial decision or an SM miss (the line minus its pending sectors) a partial map, any
//     other whole-line decision 1111 (so a controller that is not attached, or whose decision
//     the L1 ignores, fails);
//   * the MC's data filter classifies the same counts; every load is answered once;
// and the combinations the overlays refuse (+pcu, the probe overlays, two filter modes) are
// errors naming the reason, as is any layer that would replace another layer's list.
#include <catch2/catch.hpp>

#include "critical/request_controller_stage.h"
#include "platforms/mesh_gpu/presets.h"
#include "platforms/mesh_gpu_fixture.h"
#include "platforms/preset_catalog.h"

using namespace gpusc;
using namespace gpusc::test;
using Catch::Contains;

namespace {
const json kSpmv = {{"generator", "uniform"}, {"rows", 4096}, {"nnz_per_row", 8}};

void check_maps_follow_controller(const std::string& overlay) {
  GpuBench b(small_params("dpc8x8+" + overlay), "spmv", kSpmv);
  REQUIRE(b.run());
  require_drained_and_answered_once(b);
  std::vector<uint64_t> partial_sent(kSms, 0), full_sent(kSms, 0);
  for (const InjectedMsg& m : b.log.injected()) {
    if (m.is_reply || m.kind != MemKind::Read) continue;
    for (unsigned i = 0; i < kSms; ++i)
      if (b.gpu.sm_node(i) == m.node) {
        const uint32_t map = m.sector_mask & 0xf;
        ++((map == 0 || map == 0xf) ? full_sent : partial_sent)[i];
      }
  }
  double partial = 0, full = 0, sm_misses = 0;
  for (unsigned i = 0; i < kSms; ++i) {
    INFO(overlay << ", SM " << i);
    SmNode& n = b.gpu.block().sm(i);
    REQUIRE(n.front_count() == 1);
    const auto& rc = dynamic_cast<const RequestControllerStage&>(n.front(0)).controller();
    const uint64_t sm = uint64_t(b.stat("gpu.sm_" + std::to_string(i) + ".l1.subsequent_misses"));
    const uint64_t whole = rc.decisions() - rc.partial_decisions();
    REQUIRE(whole >= sm);
    CHECK(partial_sent[i] == rc.partial_decisions() + sm);
    CHECK(full_sent[i] == whole - sm);
    partial += double(rc.partial_decisions());
    full += double(whole - sm);
    sm_misses += double(sm);
  }
  // Both kinds of decision happen on this kernel, so the check above tells them apart.
  CHECK(partial > 0);
  CHECK(full > 0);
  CHECK(b.sum_over_mcs(".data_filter.partial_requests") == partial + sm_misses);
  CHECK(b.sum_over_mcs(".data_filter.full_requests") == full);
  CHECK(b.sum_over_l1s(".read_misses") == partial + full + sm_misses);
  const json s = b.gpu.summary();
  CHECK(s.at("rc_partial_share").get<double>() == Approx(partial / (partial + full + sm_misses)));
  CHECK(b.gpu.params().mc.stage_params.at("data_filter").at("mode") == overlay);
}
}  // namespace

TEST_CASE("mesh_gpu critical: dftruc, the request controller's decisions are the maps the MCs get",
          "[mesh_gpu][critical]") {
  check_maps_follow_controller("dftruc");
}

TEST_CASE("mesh_gpu critical: dfman, the request controller's decisions are the maps the MCs get",
          "[mesh_gpu][critical]") {
  check_maps_follow_controller("dfman");
}

TEST_CASE("mesh_gpu critical: the request controller needs a sector-fetch L1", "[mesh_gpu][critical][config]") {
  REQUIRE_THROWS_WITH(GpuBench(small_params("dpc8x8+dfman", {{"l1", {{"fetch_granularity", "line"}}}}), "spmv", kSpmv),
                      Contains("fetch_granularity = sector"));
}

TEST_CASE("mesh_gpu critical: refused overlay combinations are errors giving the reason", "[mesh_gpu][critical][config]") {
  using mesh_gpu::preset;
  REQUIRE_THROWS_WITH(preset("dpc8x8+pcu+dfman"), Contains("'dfman' and 'pcu'") && Contains("multicast"));
  REQUIRE_THROWS_WITH(preset("dpc8x8+dftruc+pcu"), Contains("'dftruc' and 'pcu'") && Contains("multicast"));
  REQUIRE_THROWS_WITH(preset("dpc8x8+pcu+dpc"), Contains("'dpc' and 'pcu'") && Contains("multicast"));
  REQUIRE_THROWS_WITH(preset("dpc8x8+ip+dfman"), Contains("cannot be combined") && Contains("probe handler"));
  REQUIRE_THROWS_WITH(preset("dpc8x8+dftruc+rp"), Contains("cannot be combined") && Contains("probe handler"));
  REQUIRE_THROWS_WITH(preset("dpc8x8+la-llc+dfman"), Contains("cannot be combined") && Contains("probe handler"));
  REQUIRE_THROWS_WITH(preset("dpc8x8+dpc+dfman"), Contains("choose one of dpc, dftruc, dfman"));
  REQUIRE_THROWS_WITH(preset("dpc8x8+dfman+dftruc"), Contains("choose one of dpc, dftruc, dfman"));
  // Combinations the hardware allows still merge: DPC at the MCs with probing between the L1s.
  const json ok = preset("dpc8x8+dpc+ip");
  CHECK(ok.at("mc").at("stages") == json::array({"data_filter"}));
  CHECK(ok.at("sm_front").at("stages") == json::array({"probe"}));
  CHECK(!ok.contains("excludes"));
  const json df = preset("dpc8x8+dfman");
  CHECK(df.at("l1").at("fetch_granularity") == "sector");
  CHECK(df.at("sm_front").at("stages") == json::array({"request_controller"}));
}

TEST_CASE("preset catalog: a layer that would replace another layer's different list is an error",
          "[mesh_gpu][critical][config]") {
  const cli::PresetTexts t = {{"base", R"({"sms": 4})"},
                              {"a", R"({"mc": {"stages": ["x"]}})"},
                              {"b", R"({"mc": {"stages": ["y"]}})"},
                              {"c", R"({"mc": {"stages": ["x"]}, "l1": {"sets": 8}})"}};
  REQUIRE_THROWS_WITH(cli::merge_presets(t, "base+a+b", "prog"),
                      Contains("'b' sets mc.stages") && Contains("set by 'a'") && Contains("--set mc.stages"));
  const json same = cli::merge_presets(t, "base+a+c", "prog");  // the same list twice is no conflict
  CHECK(same.at("mc").at("stages") == json::array({"x"}));
  CHECK(same.at("l1").at("sets") == 8);
}
