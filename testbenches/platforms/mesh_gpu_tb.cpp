// Platform tests of issue 4 on the baseline mesh GPU (no PCU): every load answered exactly once,
// stats that add up, bytes on links = flits x flit width, and configuration errors. Each
// TEST_CASE elaborates one small MeshGpu (mesh_gpu_fixture.h: 4x4 mesh, 12 SMs, 4 MCs on the
// bottom row = nodes 0..3, SMs on nodes 4..15). Determinism and the two-configuration
// comparisons run the mesh_gpu binary from CMake scripts (mesh_gpu_runs.cmake).
#include <algorithm>
#include <sstream>

#include <catch2/catch.hpp>

#include "platforms/mesh_gpu/presets.h"
#include "platforms/mesh_gpu_fixture.h"
#include "workload/workload_factory.h"

using namespace gpusc;
using namespace gpusc::test;

namespace {

const json kTranspose = {{"width", 64}, {"height", 64}};
const json kSpmv = {{"generator", "uniform"}, {"rows", 1024}, {"nnz_per_row", 8}, {"threads_per_cta", 64}};
const json kHistogram = {{"elements", 16384}, {"bins", 64}};

std::string ni(unsigned node) { return "gpu.noc.ni_" + std::to_string(node); }

}  // namespace

TEST_CASE("mesh_gpu: every line request of transpose gets exactly one reply", "[mesh_gpu]") {
  GpuBench b(small_params("ics8x8"), "transpose", kTranspose);
  REQUIRE(b.run());
  require_drained_and_answered_once(b);
  // 64 x 64 floats, 32 x 8 threads per CTA: 128 warps, each one load line and 32 store lines.
  REQUIRE(b.sum_over_sms(".line_requests") == 128 + 128 * 32);
}

TEST_CASE("mesh_gpu: every line request of spmv gets exactly one reply", "[mesh_gpu]") {
  GpuBench b(small_params("ics8x8"), "spmv", kSpmv);
  REQUIRE(b.run());
  require_drained_and_answered_once(b);
  // 1024 rows of 64 threads per CTA: 16 CTAs, so every one of the 12 SMs issued loads.
  for (unsigned i = 0; i < kSms; ++i) REQUIRE(b.log.reads()[i] > 0);
}

// The partitions build a BandwidthMemory instead of the GDDR5 channel (memory_partition.h); the
// rest of the platform is unchanged. One elaboration per TEST_CASE (SystemC).
static void run_with_bandwidth_memory(const std::string& kernel, const json& kp) {
  GpuBench b(small_params("ics8x8", {{"mc", {{"memory", "bandwidth"}}}}), kernel, kp);
  REQUIRE(b.run());
  require_drained_and_answered_once(b);
  for (unsigned j = 0; j < kMcs; ++j) {
    REQUIRE(b.gpu.mc(j).dram() == nullptr);
    REQUIRE(b.gpu.mc(j).bandwidth_memory() != nullptr);
  }
  // Every L2 fetch was a read of the bandwidth memory ("bytes" is a BandwidthMemory statistic).
  REQUIRE(b.sum_over_mcs(".dram.reads") == b.sum_over_mcs(".l2.fetches"));
  REQUIRE(b.sum_over_mcs(".dram.reads") > 0);
  REQUIRE(b.sum_over_mcs(".dram.bytes") >= 128 * b.sum_over_mcs(".dram.reads"));
}

TEST_CASE("mesh_gpu: with mc.memory = bandwidth every line request of spmv gets exactly one reply",
          "[mesh_gpu][partition]") {
  run_with_bandwidth_memory("spmv", kSpmv);
}

TEST_CASE("mesh_gpu: with mc.memory = bandwidth every line request of transpose gets exactly one reply",
          "[mesh_gpu][partition]") {
  run_with_bandwidth_memory("transpose", kTranspose);  // stores: the L2 writes lines back
}

TEST_CASE("mesh_gpu: every line request of histogram (atomics) gets exactly one reply", "[mesh_gpu]") {
  GpuBench b(small_params("ics8x8"), "histogram", kHistogram);
  REQUIRE(b.run());
  require_drained_and_answered_once(b);
  uint64_t atomics = 0;
  for (unsigned i = 0; i < kSms; ++i) atomics += b.log.atomics()[i];
  REQUIRE(atomics > 0);
  // Atomics bypass the write-through L1 and are performed at the L2: one each.
  REQUIRE(b.sum_over_l1s(".atomics") == double(atomics));
  REQUIRE(b.sum_over_mcs(".l2.atomics") == double(atomics));
}

TEST_CASE("mesh_gpu: L1 misses of each SM are the reads the MCs received from its node", "[mesh_gpu]") {
  GpuBench b(small_params("ics8x8"), "spmv", kSpmv);
  REQUIRE(b.run());
  MeshGpu& g = b.gpu;
  double total_from_sms = 0;
  for (unsigned i = 0; i < kSms; ++i) {
    INFO("SM " << i);
    const std::string l1 = "gpu.sm_" + std::to_string(i) + ".l1";
    const double reads = b.stat(l1 + ".reads"), hits = b.stat(l1 + ".read_hits"),
                 misses = b.stat(l1 + ".read_misses"), merges = b.stat(l1 + ".mshr_merges"),
                 fetches = b.stat(l1 + ".fetches");
    REQUIRE(reads == double(b.log.reads()[i]));  // every load line the SM issued reached its L1
    REQUIRE(reads == hits + misses + merges);
    REQUIRE(fetches == misses);  // a write-through L1 fetches only for read misses
    uint64_t at_mcs = 0;
    for (unsigned j = 0; j < kMcs; ++j) at_mcs += g.mc(j).reads_from(g.sm_node(i));
    REQUIRE(double(at_mcs) == fetches);  // L1 misses = L2 accesses from this SM (+ merges above)
    total_from_sms += double(at_mcs);
  }
  // The identities above are not vacuous: spmv's x gathers hit and merge in the L1.
  REQUIRE(b.sum_over_l1s(".read_hits") > 0);
  REQUIRE(b.sum_over_l1s(".mshr_merges") > 0);
  // Without a PCU every read the MCs take is an L2 read, and the MCs only hear from SMs.
  REQUIRE(b.sum_over_l1s(".fetches") == b.sum_over_mcs(".l2.reads"));
  REQUIRE(total_from_sms == b.sum_over_mcs(".l2.reads"));
  REQUIRE(b.sum_over_mcs(".locality.reads") == b.sum_over_mcs(".l2.reads"));
  REQUIRE(b.sum_over_l1s(".writes") == b.sum_over_mcs(".l2.writes"));
}

TEST_CASE("mesh_gpu: bytes on links are flits x flit width (transpose, hand-derived)", "[mesh_gpu]") {
  const MeshGpu::Params p = small_params("ics8x8");
  REQUIRE(p.noc.ni.flit_bytes == 16);
  REQUIRE(p.noc.ni.header_bytes == 8);
  REQUIRE(p.noc.routing == "xy-xy");
  GpuBench b(p, "transpose", kTranspose);
  REQUIRE(b.run());
  MeshGpu& g = b.gpu;

  // 128 warps. Load: one 128 B line each, touched by no other warp, so 128 L1 misses = 128 read
  // requests of ceil(8 / 16) = 1 flit and 128 replies of ceil((8 + 128) / 16) = 9 flits.
  // Store out[x * 64 + y]: the 32 lanes write 32 lines 256 B apart, 4 B each: 4096 write
  // requests of ceil((8 + 4) / 16) = 1 flit and 4096 write acks of ceil(8 / 16) = 1 flit.
  const double request_flits = 128 * 1 + 4096 * 1;
  const double reply_flits = 128 * 9 + 4096 * 1;
  double sm_flits = 0, mc_flits = 0, ejected = 0;
  for (unsigned i = 0; i < kSms; ++i) sm_flits += b.stat(ni(g.sm_node(i)) + ".flits_injected");
  for (unsigned j = 0; j < kMcs; ++j) mc_flits += b.stat(ni(g.mc_node(j)) + ".flits_injected");
  for (unsigned n = 0; n < kSms + kMcs; ++n) ejected += b.stat(ni(n) + ".flits_ejected");
  REQUIRE(sm_flits == request_flits);
  REQUIRE(mc_flits == reply_flits);
  REQUIRE(ejected == request_flits + reply_flits);  // unicast only: every flit leaves once
  REQUIRE((sm_flits + mc_flits) * p.noc.ni.flit_bytes == (4224 + 5248) * 16);
  REQUIRE(b.stat("gpu.request_messages_injected") == 128 + 4096);
  REQUIRE(b.stat("gpu.reply_messages_injected") == 128 + 4096);

  // The same from every message the NIs took, with the packetization rule recomputed here, and
  // the router traversals of XY routes: flit-hops of the network.
  double flits = 0, hops = 0;
  for (const InjectedMsg& m : b.log.injected()) {
    REQUIRE(m.dests.single_member());
    const unsigned f = flits_of(m, p.noc.ni.flit_bytes, p.noc.ni.header_bytes);
    flits += f;
    hops += double(f) * dor_switch_traversals(m.node, m.dests, false, kK);
  }
  REQUIRE(b.log.injected().size() == 2 * (128 + 4096));
  REQUIRE(flits == request_flits + reply_flits);
  REQUIRE(double(g.request_net().flit_hops()) == hops);
  REQUIRE(b.gpu.summary().at("flit_hops").get<double>() == hops);
}

// ---- configuration errors -------------------------------------------------------------------

TEST_CASE("mesh_gpu: a read that misses the L2 spends at least the L2 latency plus the DRAM minimum in its MC",
          "[mesh_gpu][latency]") {
  GpuBench b(small_params("ics8x8"), "transpose", kTranspose);
  REQUIRE(b.run());
  require_drained_and_answered_once(b);
  // Transpose reads every input line once, so every L2 read is a cold miss with its own fetch.
  REQUIRE(b.sum_over_mcs(".l2.read_hits") == 0);
  REQUIRE(b.sum_over_mcs(".l2.mshr_merges") == 0);
  REQUIRE(b.sum_over_mcs(".l2.read_misses") == 128);
  const sc_core::sc_time core = sc_core::sc_time(1e6 / b.gpu.params().core_mhz, sc_core::SC_PS);
  double fastest = 1e18;
  unsigned n = 0;
  for (const InjectedMsg& m : b.log.injected())
    if (m.is_reply && m.kind == MemKind::Read) {
      fastest = std::min(fastest, m.in_memory / core);
      ++n;
    }
  REQUIRE(n == 128);
  // Paper 001 Table 1: minimum L2 latency 120 and minimum DRAM latency 220 core cycles; the
  // fastest of these misses (an idle row hit would be 1 + 345, memory_partition_tb) pays both.
  INFO("fastest L2 miss in its MC: " << fastest << " core cycles");
  CHECK(fastest >= 120 + 220);
}

TEST_CASE("mesh_gpu: a mesh whose node count is not sms + mcs is an error", "[mesh_gpu][config]") {
  MeshGpu::Params p = small_params("ics8x8");
  p.sms = 11;
  auto wl = make_workload("transpose", kTranspose, 1);
  REQUIRE_THROWS_WITH(MeshGpu("gpu", p, *wl), Catch::Contains("a 4x4 mesh has 16 nodes but sms + mcs = 15"));
}

TEST_CASE("mesh_gpu: network=vnets with one virtual network is an error", "[mesh_gpu][config]") {
  MeshGpu::Params p = small_params("ics8x8");
  REQUIRE(p.network == "vnets");
  p.noc.router.vnets = 1;
  auto wl = make_workload("transpose", kTranspose, 1);
  REQUIRE_THROWS_WITH(MeshGpu("gpu", p, *wl), Catch::Contains("network=vnets needs noc.router.vnets = 2"));
}

TEST_CASE("mesh_gpu: network=separate with two virtual networks is an error", "[mesh_gpu][config]") {
  MeshGpu::Params p = small_params("ics8x8");
  p.network = "separate";
  auto wl = make_workload("transpose", kTranspose, 1);
  REQUIRE_THROWS_WITH(MeshGpu("gpu", p, *wl), Catch::Contains("network=separate needs noc.router.vnets = 1"));
}

TEST_CASE("mesh_gpu: a ring topology is an error", "[mesh_gpu][config]") {
  MeshGpu::Params p = small_params("ics8x8");
  p.noc.topology = "ring";
  p.noc.k = 16;
  auto wl = make_workload("transpose", kTranspose, 1);
  REQUIRE_THROWS_WITH(MeshGpu("gpu", p, *wl), Catch::Contains("noc.topology 'ring' is not supported"));
}

TEST_CASE("mesh_gpu: a crossbar with a port count other than sms + mcs is an error", "[mesh_gpu][config]") {
  MeshGpu::Params p = small_params("fermi_xbar");
  p.noc.k = 20;
  auto wl = make_workload("transpose", kTranspose, 1);
  REQUIRE_THROWS_WITH(MeshGpu("gpu", p, *wl), Catch::Contains("a crossbar of 20 ports cannot connect sms + mcs = 16"));
}

TEST_CASE("mesh_gpu: an unknown preset or overlay is an error naming the known ones", "[mesh_gpu][config]") {
  REQUIRE_THROWS_WITH(mesh_gpu::preset("ics9x9"),
                      Catch::Contains("unknown preset 'ics9x9'") && Catch::Contains("hpca6x6"));
  REQUIRE_THROWS_WITH(mesh_gpu::preset("ics8x8+pcu+yx"),
                      Catch::Contains("unknown preset 'yx' in 'ics8x8+pcu+yx'") && Catch::Contains("xy-yx"));
  // and the known names are the preset files
  const auto names = mesh_gpu::preset_names();
  for (const char* n : {"fermi_xbar", "hpca6x6", "ics8x8", "pcu", "xy-yx"})
    REQUIRE(std::find(names.begin(), names.end(), n) != names.end());
}

TEST_CASE("mesh_gpu: --list shows every preset, overlay and workload with its description", "[mesh_gpu][cli]") {
  auto words = [](const std::string& s) {  // wrapping only changes whitespace
    std::istringstream in(s);
    std::string out;
    for (std::string w; in >> w;) out += (out.empty() ? "" : " ") + w;
    return out;
  };
  const std::string list = words(mesh_gpu::listing());
  for (const auto& n : mesh_gpu::preset_names()) {
    INFO("preset " << n);
    const std::string d = mesh_gpu::preset_description(n);
    CHECK_FALSE(d.empty());
    CHECK_THAT(list, Catch::Contains(n + " " + words(d)));
  }
  for (const auto& n : workload_names()) {
    INFO("workload " << n);
    const std::string d = workload_description(n);
    CHECK_FALSE(d.empty());
    CHECK_THAT(list, Catch::Contains(n + " " + words(d)));
  }
  CHECK_THAT(list, !Catch::Contains("(no description)"));
}

TEST_CASE("mesh_gpu: hpca6x6's L2 and DRAM latencies are GPGPU-Sim's, both in its 700 MHz core cycles", "[mesh_gpu][config]") {
  // GPGPU-Sim's Fermi configuration (paper 000's simulator; Table II repeats its 700 MHz core and
  // interconnect clocks): rop_latency 120 and dram_latency 100, both added to gpu_sim_cycle, which
  // counts 700 MHz core cycles. Until 2026-11-29 the L2's 120 was read as 1400 MHz cycles (86 ns).
  const json p = mesh_gpu::preset("hpca6x6");
  const double gpgpusim_ns = 1e3 / 700.0;
  const double core_ns = 1e3 / p.at("core_mhz").get<double>(), dram_ns = 1e3 / p.at("dram_mhz").get<double>();
  const json& mc = p.at("mc");
  CHECK(mc.at("l2").at("lookup_latency").get<double>() * core_ns == Approx(120 * gpgpusim_ns).margin(core_ns));
  CHECK(mc.at("l2").at("hit_latency").get<double>() * core_ns == Approx(120 * gpgpusim_ns).margin(core_ns));
  CHECK(mc.at("dram").at("fixed_latency").get<double>() * dram_ns == Approx(100 * gpgpusim_ns).margin(dram_ns));
}

TEST_CASE("mesh_gpu: hpca6x6's memory nodes buffer the read requests GPGPU-Sim's ejection and boundary buffers hold",
          "[mesh_gpu][config]") {
  // GPGPU-Sim's intersim2 (paper 000's simulator) puts an ejection buffer of vc_buf_size flits
  // (ejection_buffer_size 0 = vc_buf_size; Table II: 8 flits/VC) and a boundary buffer of 16 flits
  // (boundary_buffer_size default) between a node's router and the node: 24 one-flit read requests
  // at a memory node. Until 2026-11-29 the NI held 4.
  const json p = mesh_gpu::preset("hpca6x6");
  const auto& noc = p.at("noc");
  const unsigned request_flits = 1;  // an 8 B read request header fits one 32 B flit
  REQUIRE(noc.at("ni").at("header_bytes").get<unsigned>() <= noc.at("ni").at("flit_bytes").get<unsigned>());
  CHECK(noc.at("ni").at("eject_queue").get<unsigned>() * request_flits ==
        noc.at("router").at("vc_depth").get<unsigned>() + 16);
}
