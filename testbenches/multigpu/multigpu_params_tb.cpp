// Params of every multigpu unit: each key, overridden alone from JSON, changes that key only
// (harness/params_checks.h), and the defaults are paper 004's numbers.
#include <catch2/catch.hpp>

#include "harness/params_checks.h"
#include "multigpu/bitmask_generation_unit.h"
#include "multigpu/decision_engine.h"
#include "multigpu/mask_aware_mshr.h"
#include "multigpu/rdma_coalescer.h"
#include "multigpu/rdma_decoalescer.h"
#include "multigpu/selective_cache_bypass.h"

using namespace gpusc;
using namespace gpusc::multigpu;

TEST_CASE("multigpu params: every key overridden alone changes that key only", "[multigpu][config]") {
  size_t keys = 0;
  for (const auto& r : {tb::check_one_key_overrides<BitmaskGenerationUnit::Params>(),
                        tb::check_one_key_overrides<SelectiveCacheBypass::Params>(),
                        tb::check_one_key_overrides<MaskAwareMshr::Params>(),
                        tb::check_one_key_overrides<RdmaCoalescer::Params>(),
                        tb::check_one_key_overrides<RdmaDecoalescer::Params>(),
                        tb::check_one_key_overrides<DecisionEngine::Params>()}) {
    CHECK(r.skipped.empty());
    keys += r.keys.size();
  }
  CHECK(keys == 3 + 3 + 3 + 9 + 2 + 6);
}

TEST_CASE("multigpu params: the defaults are paper 004's", "[multigpu][config]") {
  const BitmaskGenerationUnit::Params bgu;
  CHECK((bgu.lanes == 64 && bgu.line_bytes == 64 && bgu.word_bytes == 4));
  CHECK(MaskAwareMshr::Params{}.entries == 32);
  CHECK(MaskAwareMshr::Params{}.mask_bits == 16);
  const RdmaCoalescer::Params co;
  CHECK((co.gpus == 4 && co.buffer_entries == 64 && co.per_packet == 10 && co.data_bytes == 4 && co.id_bytes == 2 &&
         co.timeout == 30));
  const DecisionEngine::Params de;
  CHECK((de.window_remote == 20000 && de.remote_thresh == 0.02 && de.block_thresh == 0.2 && de.hit_thresh == 0.4));
}
