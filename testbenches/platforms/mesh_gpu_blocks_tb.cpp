// Blocks, address mappers and CTA policies on the mesh GPU (small 4x4 fixture: 12 SMs, 4 MCs).
// With blocks = 2, SMs 0-5 and MCs 0-1 form block 0, SMs 6-11 and MCs 2-3 block 1. Checks:
// first-touch placement on a real run (every request an MC took lies on a page its block owns,
// both blocks own pages, everything answered once), first-touch with contiguous CTA groups
// keeping most reads inside the requester's block where fine interleave cannot, each CTA
// policy completing a multi-launch kernel, and configuration errors.
#include <catch2/catch.hpp>

#include "common/contiguous_split.h"
#include "common/first_touch_page_mapper.h"
#include "platforms/mesh_gpu_fixture.h"
#include "workload/workload_factory.h"

using namespace gpusc;
using namespace gpusc::test;

namespace {

const json kStencil = {{"rows", 64}, {"cols", 64}, {"iterations", 3}};

json blocks2(const std::string& kind, const std::string& policy, unsigned blocks = 2) {
  return {{"blocks", blocks}, {"address_map", {{"kind", kind}}}, {"cta", {{"policy", policy}}}};
}

// Share of the reads the MCs took that came from an SM of the MC's own block.
double local_read_share(MeshGpu& g) {
  const ContiguousSplit mc_blocks(g.mc_count(), g.params().blocks);
  double local = 0, all = 0;
  for (unsigned j = 0; j < g.mc_count(); ++j)
    for (unsigned i = 0; i < g.sm_count(); ++i) {
      const double r = static_cast<double>(g.mc(j).reads_from(g.sm_node(i)));
      all += r;
      if (g.block_of_sm(i) == mc_blocks.group_of(j)) local += r;
    }
  return all > 0 ? local / all : 0.0;
}

}  // namespace

TEST_CASE("mesh_gpu blocks: blocks = 2 puts SMs 0-5 and MCs 0-1 in block 0", "[mesh_gpu][blocks]") {
  auto wl = make_workload("stencil2d", kStencil, 1);
  MeshGpu g("gpu", small_params("ics8x8", blocks2("first-touch", "round-robin")), *wl);
  for (unsigned i = 0; i < kSms; ++i) CHECK(g.block_of_sm(i) == (i < 6 ? 0u : 1u));
  const auto* ft = dynamic_cast<const FirstTouchPageMapper*>(&g.address_mapper());
  REQUIRE(ft);
  CHECK(ft->block_of_partition(0) == 0);
  CHECK(ft->block_of_partition(1) == 0);
  CHECK(ft->block_of_partition(2) == 1);
  CHECK(ft->block_of_partition(3) == 1);
  CHECK(ft->page_bytes() == 4096);
}

TEST_CASE("mesh_gpu blocks: first-touch, every request reaches an MC of its page's owner block", "[mesh_gpu][blocks]") {
  // The request network's injections at SM nodes carry the MC node the L1 routed each one to.
  GpuBench b(small_params("ics8x8", blocks2("first-touch", "contiguous-groups")), "stencil2d", kStencil);
  REQUIRE(b.run());
  require_drained_and_answered_once(b);
  const auto& ft = dynamic_cast<const FirstTouchPageMapper&>(b.gpu.address_mapper());
  CHECK(ft.pages_of(0) > 0);
  CHECK(ft.pages_of(1) > 0);
  std::vector<unsigned> mc_of_node(kK * kM, ~0u);
  for (unsigned j = 0; j < kMcs; ++j) mc_of_node[b.gpu.mc_node(j)] = j;
  unsigned requests = 0;
  for (const InjectedMsg& m : b.log.injected()) {
    if (m.is_reply) continue;
    ++requests;
    const unsigned mc = mc_of_node.at(m.dests.first());
    INFO("request from node " << m.node << " to MC " << mc << " address 0x" << std::hex << m.address);
    REQUIRE(mc != ~0u);
    REQUIRE(ft.partition(m.address) == mc);
    REQUIRE(ft.block_of_partition(mc) == ft.owner(m.address));
  }
  CHECK(requests == b.sum_over_sms(".line_requests") - b.sum_over_l1s(".read_hits") - b.sum_over_l1s(".mshr_merges"));
}

TEST_CASE("mesh_gpu blocks: first-touch with contiguous CTA groups keeps most reads in the requester's block",
          "[mesh_gpu][blocks]") {
  // stencil2d: each CTA reads its own tile (and a halo) of the grid every step, and contiguous
  // groups give a block the same tiles at every step, so first touch puts a block's tiles in its
  // own MCs.
  GpuBench b(small_params("ics8x8", blocks2("first-touch", "contiguous-groups")), "stencil2d", kStencil);
  REQUIRE(b.run());
  require_drained_and_answered_once(b);
  const double share = local_read_share(b.gpu);
  INFO("local read share " << share);
  CHECK(share > 0.8);
}

TEST_CASE("mesh_gpu blocks: fine interleave spreads the same run's reads over both blocks", "[mesh_gpu][blocks]") {
  // The contrast to the case above: every page is spread over all four MCs, about half local.
  GpuBench b(small_params("ics8x8", blocks2("fine-interleave", "contiguous-groups")), "stencil2d", kStencil);
  REQUIRE(b.run());
  require_drained_and_answered_once(b);
  const double share = local_read_share(b.gpu);
  INFO("local read share " << share);
  CHECK(share > 0.4);
  CHECK(share < 0.6);
}

TEST_CASE("mesh_gpu blocks: greedy runs bfs (one launch per level) to the end", "[mesh_gpu][blocks]") {
  GpuBench b(small_params("ics8x8", {{"cta", {{"policy", "greedy"}}}}), "bfs",
             {{"size", "small"}, {"scale", 8}, {"threads_per_cta", 64}});
  REQUIRE(b.run());
  require_drained_and_answered_once(b);
  CHECK(b.stat("cta.kernels") > 2);
}

TEST_CASE("mesh_gpu blocks: 3 blocks of first-touch and contiguous groups run pagerank to the end", "[mesh_gpu][blocks]") {
  // 12 SMs in 3 blocks of 4; 4 MCs split 2, 1, 1. 1024 vertices, 16 CTAs per launch (groups of
  // 6, 5, 5), 1 KB pages: each block is first to touch the pages of its own vertices' arrays.
  json cfg = blocks2("first-touch", "contiguous-groups", 3);
  cfg["address_map"]["page_bytes"] = 1024;
  GpuBench b(small_params("ics8x8", cfg), "pagerank", {{"scale", 10}, {"iterations", 2}, {"threads_per_cta", 64}});
  REQUIRE(b.run());
  require_drained_and_answered_once(b);
  const auto& ft = dynamic_cast<const FirstTouchPageMapper&>(b.gpu.address_mapper());
  CHECK(ft.blocks() == 3);
  CHECK(ft.block_of_partition(1) == 0);
  CHECK(ft.block_of_partition(2) == 1);
  CHECK(ft.block_of_partition(3) == 2);
  for (unsigned k = 0; k < 3; ++k) CHECK(ft.pages_of(k) > 0);
}

TEST_CASE("mesh_gpu blocks: bad block, address map and CTA policy settings are clear errors", "[mesh_gpu][config]") {
  auto wl = make_workload("stencil2d", kStencil, 1);
  MeshGpu::Params p = small_params("ics8x8");
  p.blocks = 13;
  REQUIRE_THROWS_WITH(MeshGpu("gpu", p, *wl), Catch::Contains("blocks = 13 but sms = 12: every block needs at least one SM"));
  p = small_params("ics8x8", blocks2("first-touch", "round-robin"));
  p.blocks = 5;
  REQUIRE_THROWS_WITH(MeshGpu("gpu", p, *wl),
                      Catch::Contains("first-touch with blocks = 5 needs at least one MC per block, but mcs = 4"));
  p.blocks = 2;
  p.address_map.page_bytes = 3000;
  REQUIRE_THROWS_WITH(MeshGpu("gpu", p, *wl),
                      Catch::Contains("gpu.address_map") && Catch::Contains("page_bytes must be a power of two, got 3000"));
  p.address_map.page_bytes = 128;
  REQUIRE_THROWS_WITH(MeshGpu("gpu", p, *wl),
                      Catch::Contains("chunk (256 B) must not be larger than page_bytes (128 B)"));
  REQUIRE_THROWS_WITH(small_params("ics8x8", {{"blocks", 0}}), Catch::Contains("parameter 'blocks' = 0 is out of range"));
  REQUIRE_THROWS_WITH(small_params("ics8x8", {{"cta", {{"policy", "fifo"}}}}),
                      Catch::Contains("parameter 'cta.policy' = \"fifo\" is not one of round-robin|contiguous-groups|greedy"));
  REQUIRE_THROWS_WITH(small_params("ics8x8", {{"address_map", {{"kind", "random"}}}}),
                      Catch::Contains("parameter 'address_map.kind' = \"random\" is not one of fine-interleave|first-touch"));
}
