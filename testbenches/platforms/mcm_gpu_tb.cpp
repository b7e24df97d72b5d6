// McmGpu tests (paper 003): on a small MCM (4 GPMs x 4 SMs, the mcm_small preset with 4 SMs per
// GPM) every load is answered exactly once on real kernels, with and without the mechanisms;
// ring traffic is exactly the hops of the remote requests and their replies (a request for the
// GPM two hops away crosses two links each way); the L1.5 sees only remote requests and is
// flushed once per kernel boundary; distributed scheduling keeps CTA ids on their GPM; the
// 256-SM baseline elaborates; the monolithic references are one die; a link-bound STREAM triad
// fills the busiest ring link to its bytes per cycle and never past it; the multi-GPU presets
// have their capacities; bad configurations are clear errors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <memory>

#include "platforms/mcm_gpu/mcm_gpu.h"
#include "platforms/mcm_gpu/presets.h"
#include "workload/workload_factory.h"

using namespace gpusc;

namespace {

const MemExt& ext(const tlm::tlm_generic_payload& gp) { return mem_ext(const_cast<tlm::tlm_generic_payload&>(gp), "tb"); }

McmGpu::Params small_params(const std::string& overlays = "", unsigned sms = 4) {
  json cfg = mcm_gpu::preset("mcm_small" + overlays);
  cfg["gpm"]["sms"] = sms;
  cfg["gpm"]["noc"]["k"] = sms + 3;  // SMs + 2 partitions + the boundary
  return params_from_json<McmGpu::Params>(cfg, "");
}

// Counts every line read an SM hands its L1 and every read reply it gets back, per payload:
// each request must be answered exactly once.
struct LoadLedger {
  std::map<const void*, int> open;
  uint64_t requests = 0, replies = 0, errors = 0;
  void attach(McmGpu& m) {
    for (unsigned g = 0; g < m.gpms(); ++g) {
      GpuBlock::Observers o;
      o.sm_request = [this](unsigned, const tlm::tlm_generic_payload& gp) {
        if (ext(gp).kind != MemKind::Read) return;
        ++requests;
        if (open[&gp]++ != 0) ++errors;
      };
      o.sm_reply = [this](unsigned, const tlm::tlm_generic_payload& gp) {
        if (ext(gp).kind != MemKind::Read) return;
        ++replies;
        if (--open[&gp] != 0) ++errors;
      };
      m.gpm(g).set_observers(o);
    }
  }
  void check() const {
    CHECK(requests > 0);
    CHECK(errors == 0);
    CHECK(requests == replies);
    for (const auto& [p, n] : open) CHECK(n == 0);
  }
};

// Runs `kernel` (small input) on `p` to the end: every load answered once, remote traffic on
// the ring, nothing left on a link. Returns the SM count.
unsigned every_load_once_on(const McmGpu::Params& p, const std::string& kernel) {
  auto wl = make_workload(kernel, {{"size", "small"}}, 1);
  McmGpu m("mcm", p, *wl);
  LoadLedger ledger;
  ledger.attach(m);
  REQUIRE(m.run(20000000));
  ledger.check();
  CHECK(m.inter_gpm_messages() > 0);
  for (unsigned c = 0; c < 2; ++c)
    for (unsigned g = 0; g < m.gpms(); ++g)
      for (auto d : {noc::BandwidthLink::kAtoB, noc::BandwidthLink::kBtoA})
        CHECK(m.link(static_cast<McmGpu::Class>(c), g).in_flight(d) == 0);
  return m.platform().sm_count();
}

void every_load_once(const std::string& overlays, const std::string& kernel) {
  every_load_once_on(small_params(overlays), kernel);
}

}  // namespace

TEST_CASE("McmGpu: every load is answered exactly once, baseline on bfs", "[mcm_gpu]") { every_load_once("", "bfs"); }
TEST_CASE("McmGpu: every load is answered exactly once, +l15+ds on transpose", "[mcm_gpu]") {
  every_load_once("+l15+ds", "transpose");
}
TEST_CASE("McmGpu: every load is answered exactly once, +opt on spmv", "[mcm_gpu]") { every_load_once("+opt", "spmv"); }
TEST_CASE("McmGpu: every load is answered exactly once, +l15_32mb+ft on kmeans", "[mcm_gpu]") {
  every_load_once("+l15_32mb+ft", "kmeans");
}

TEST_CASE("McmGpu: ring messages are exactly the hops of remote requests and replies (two-hop ones cross two links)",
          "[mcm_gpu][ring]") {
  auto wl = make_workload("transpose", {{"size", "small"}}, 1);
  McmGpu m("mcm", small_params(), *wl);
  uint64_t expected = 0, two_hop = 0, local = 0;
  for (unsigned g = 0; g < m.gpms(); ++g) {
    GpuBlock::Observers o;
    o.injected = [&, g](unsigned node, const tlm::tlm_generic_payload& gp) {
      const MemExt& e = ext(gp);
      if (e.is_reply) return;  // count each request once, at its SM: its reply takes the mirror path
      const unsigned d = m.ids().block_of(e.dst, "tb");
      REQUIRE(m.ids().block_of(node, "tb") == g);
      if (d == g) { ++local; return; }
      unsigned hops = 0;
      for (unsigned here = g; here != d; ++hops)
        here = noc::RingStop::route(here, d, 4) == noc::RingStop::kNext ? (here + 1) % 4 : (here + 3) % 4;
      unsigned back = 0;
      for (unsigned here = d; here != g; ++back)
        here = noc::RingStop::route(here, g, 4) == noc::RingStop::kNext ? (here + 1) % 4 : (here + 3) % 4;
      expected += hops + back;
      two_hop += hops == 2;
    };
    m.gpm(g).set_observers(o);
  }
  REQUIRE(m.run(20000000));
  CHECK(local > 0);
  CHECK(two_hop > 0);
  CHECK(m.inter_gpm_messages() == expected);
}

TEST_CASE("McmGpu: the L1.5 sees only remote requests and is flushed once per kernel boundary", "[mcm_gpu][l15]") {
  auto wl = make_workload("bfs", {{"size", "small"}}, 1);
  McmGpu m("mcm", small_params("+l15"), *wl);
  uint64_t seen = 0, local_seen = 0, local_from_sms = 0;
  for (unsigned g = 0; g < m.gpms(); ++g) {
    const unsigned first = m.gpm(g).first_partition(), n = m.gpm(g).mc_count();
    auto own = [&m, first, n](uint64_t addr) {
      const unsigned p = m.address_mapper().partition(addr);
      return p >= first && p < first + n;
    };
    m.l15(g)->up_in().set_tap([&, own](tlm::tlm_generic_payload& gp) {
      ++seen;
      if (own(gp.get_address())) ++local_seen;
    });
    GpuBlock::Observers o;
    o.injected = [&, own](unsigned, const tlm::tlm_generic_payload& gp) {
      if (!ext(gp).is_reply && own(gp.get_address())) ++local_from_sms;
    };
    m.gpm(g).set_observers(o);
  }
  REQUIRE(m.run(20000000));
  CHECK(seen > 0);
  CHECK(local_from_sms > 0);  // local traffic exists, and none of it reached an L1.5
  CHECK(local_seen == 0);
  const unsigned kernels = m.platform().cta().kernels_started();
  REQUIRE(kernels > 1);
  for (unsigned g = 0; g < m.gpms(); ++g) CHECK(m.l15(g)->flushes() == kernels);
  CHECK(m.mechanism_summary().at("l15_flushes_per_gpm").get<unsigned>() == kernels);
}

TEST_CASE("McmGpu: distributed scheduling runs each CTA id on the same GPM at every launch", "[mcm_gpu][ds]") {
  auto wl = make_workload("pagerank", {{"size", "small"}}, 1);
  McmGpu m("mcm", small_params("+ds+ft"), *wl);
  std::map<uint32_t, unsigned> gpm_of_cta;
  bool stable = true;
  for (unsigned g = 0; g < m.gpms(); ++g) {
    GpuBlock::Observers o;
    o.sm_request = [&, g](unsigned, const tlm::tlm_generic_payload& gp) {
      const MemExt& e = ext(gp);
      const auto [it, fresh] = gpm_of_cta.emplace(e.cta_id, g);
      if (!fresh && it->second != g) stable = false;
    };
    m.gpm(g).set_observers(o);
  }
  REQUIRE(m.run(20000000));
  REQUIRE(m.platform().cta().kernels_started() > 1);
  CHECK(gpm_of_cta.size() > 4);
  CHECK(stable);
}

TEST_CASE("McmGpu: the 256-SM baseline (4 GPMs x 64 SMs) and the optimized one elaborate", "[mcm_gpu][full]") {
  auto wl = make_workload("transpose", {{"size", "small"}}, 1);
  const auto p = params_from_json<McmGpu::Params>(mcm_gpu::preset("mcm_baseline+opt"), "");
  McmGpu m("mcm", p, *wl);
  CHECK(m.platform().sm_count() == 256);
  CHECK(m.gpm(3).mc_count() == 16);
  CHECK(m.l15(0)->capacity_bytes() == 2u * 1024 * 1024);
  CHECK(m.gpm(0).mc(0).l2().params().sets * 16u * 128u * 16u == 2u * 1024 * 1024);
  sc_core::sc_start(m.core_clock().time_of(2000));  // it also runs
  CHECK(m.inter_gpm_messages() > 0u);  // remote requests already crossed the ring
}

TEST_CASE("McmGpu: every load is answered exactly once on the full 256-SM platform with the L1.5 and DS",
          "[mcm_gpu][full]") {
  // mcm_baseline+l15+ds: 4 GPMs x 64 SMs, 12x7 meshes with 4 boundary nodes and inbound virtual
  // networks, the 16 MB remote-only L1.5 on each boundary path; a stencil whose halos cross GPMs.
  const auto p = params_from_json<McmGpu::Params>(mcm_gpu::preset("mcm_baseline+l15+ds"), "");
  CHECK(every_load_once_on(p, "stencil2d") == 256);
}

TEST_CASE("McmGpu: in every preset with an L1.5 it can track every miss its GPM's L1s may have outstanding",
          "[mcm_gpu][l15]") {
  // An L1.5 with fewer MSHRs than its SMs' L1s together caps the GPM's remote misses (with 512
  // for 64 SMs x 32, STREAM with the 16 MB L1.5 ran 34.6% slower than without it).
  for (const char* name : {"mcm_small+l15", "mcm_small+opt", "mcm_baseline+l15", "mcm_baseline+l15_8mb",
                           "mcm_baseline+l15_32mb", "mcm_baseline+l15+ds", "mcm_baseline+opt", "multigpu_small+mgpu_opt",
                           "multigpu2x128+mgpu_opt"}) {
    INFO(name);
    const auto p = params_from_json<McmGpu::Params>(mcm_gpu::preset(name), "");
    REQUIRE(p.l15_enabled);
    CHECK(p.l15.mshrs >= p.gpm.sms * p.gpm.l1.mshrs);
  }
}

TEST_CASE("McmGpu: 64-SM GPMs with 4 boundary nodes each stream across the ring without deadlock", "[mcm_gpu][full]") {
  // STREAM (2^22 floats, fine interleave: 3/4 of the lines remote) on mcm_baseline with each GPM's
  // remote traffic spread over 4 boundary nodes of a 12 x 7 mesh. Before traffic entering a GPM
  // had virtual networks of its own (gpu/gpu_block.h) this deadlocked near cycle 4,000: each
  // GPM's mesh filled with requests leaving it, which held the channels the requests entering
  // it needed, while the ring between them was full of the other GPMs' leaving requests.
  auto wl = make_workload("stream", {}, 1);
  json cfg = mcm_gpu::preset("mcm_baseline");
  cfg["gpm"]["boundary_nodes"] = 4;
  cfg["gpm"]["noc"]["k"] = 12;
  cfg["gpm"]["noc"]["m"] = 7;
  McmGpu m("mcm", params_from_json<McmGpu::Params>(cfg, ""), *wl);
  m.run(12000, {}, 2000);
  CHECK(m.stop() == Platform::Stop::max_cycles);  // still running at 12,000 cycles, not stalled
  // Every boundary node of every GPM carried requests out and replies in.
  for (unsigned g = 0; g < m.gpms(); ++g)
    for (unsigned b = 0; b < 4; ++b) {
      INFO("GPM " << g << " boundary node " << b);
      noc::NetworkInterface& ni = m.gpm(g).request_net().ni(m.gpm(g).boundary_node(b));
      CHECK(ni.out[0].sent() > 0);      // requests leaving (vnet 0)
      CHECK(ni.in[3].received() > 0);   // replies entering (inbound reply vnet 3)
    }
}

TEST_CASE("McmGpu: multigpu2x128 is 2 GPUs x 128 SMs with 1.5 TB/s and 8 MB of L2 each, and it runs", "[mcm_gpu][full]") {
  auto wl = make_workload("transpose", {{"size", "small"}}, 1);
  const auto p = params_from_json<McmGpu::Params>(mcm_gpu::preset("multigpu2x128+mgpu_opt"), "");
  McmGpu m("mcm", p, *wl);
  CHECK(m.platform().sm_count() == 256);
  CHECK(m.gpms() == 2u);
  CHECK(m.gpm(1).mc_count() == 32);
  CHECK(m.gpm(0).boundary_count() == 16);
  double dram = 0;  // bytes per core cycle of one GPU's partitions
  for (unsigned i = 0; i < 32; ++i) dram += m.gpm(0).mc(i).params().bandwidth_memory.bytes_per_cycle;
  CHECK(dram == 1536.0);  // 1.5 TB/s at 1 GHz
  // mgpu_opt: half of the 8 MB moved into a remote-only L1.5 (iso-transistor)
  CHECK(m.l15(0)->capacity_bytes() == 4u * 1024 * 1024);
  CHECK(m.gpm(0).mc(0).l2().params().sets * 16u * 128u * 32u == 4u * 1024 * 1024);
  CHECK(m.params().link.bytes_per_cycle == 128);  // 256 GB/s aggregate board link, per direction and class
  sc_core::sc_start(m.core_clock().time_of(3000));  // it also runs
  CHECK(m.inter_gpm_messages() > 0u);
}

TEST_CASE("McmGpu: monolithic256 is one die: 256 SMs and 64 partitions on one network, mcm_baseline's L2 and DRAM",
          "[mcm_gpu][full][monolithic]") {
  auto wl = make_workload("transpose", {{"size", "small"}}, 1);
  const auto p = params_from_json<McmGpu::Params>(mcm_gpu::preset("monolithic256"), "");
  McmGpu m("mono", p, *wl);
  REQUIRE(m.gpms() == 1u);
  CHECK(m.platform().sm_count() == 256);
  CHECK(m.gpm(0).mc_count() == 64);
  CHECK(m.gpm(0).boundary_count() == 0);
  double dram = 0;  // bytes per core cycle of all partitions
  uint64_t l2 = 0;
  for (unsigned i = 0; i < 64; ++i) {
    dram += m.gpm(0).mc(i).params().bandwidth_memory.bytes_per_cycle;
    const auto& c = m.gpm(0).mc(i).l2().params();
    l2 += uint64_t{c.sets} * c.ways * c.line_bytes;
  }
  CHECK(dram == 3072.0);  // 3 TB/s at 1 GHz, as mcm_baseline
  CHECK(l2 == 16u * 1024 * 1024);
  sc_core::sc_start(m.core_clock().time_of(3000));  // it runs; nothing crosses a ring
  CHECK(m.inter_gpm_messages() == 0u);
  uint64_t requests = 0;  // requests the die's network carried (vnet 0 of every node)
  for (unsigned n = 0; n < 320; ++n) requests += m.gpm(0).request_net().ni(n).out[0].sent();
  CHECK(requests > 0);
}

TEST_CASE("McmGpu: on the small one-die monolithic256 every load is answered exactly once", "[mcm_gpu][monolithic]") {
  auto wl = make_workload("bfs", {{"size", "small"}}, 1);
  McmGpu m("mono", params_from_json<McmGpu::Params>(mcm_gpu::preset("monolithic_small256"), ""), *wl);
  CHECK(m.gpms() == 1u);
  CHECK(m.platform().sm_count() == 32);
  LoadLedger ledger;
  ledger.attach(m);
  REQUIRE(m.run(20000000));
  ledger.check();
  CHECK(m.inter_gpm_bytes() == 0u);
}

TEST_CASE("McmGpu: a one-GPM GPU with a boundary, or with an L1.5, is a clear error", "[mcm_gpu][errors]") {
  auto wl = make_workload("transpose", {{"size", "small"}}, 1);
  json cfg = mcm_gpu::preset("monolithic_small128");
  cfg["gpm"]["boundary"] = true;
  CHECK_THROWS_WITH(McmGpu("mcm", params_from_json<McmGpu::Params>(cfg, ""), *wl),
                    Catch::Contains("gpms = 1") && Catch::Contains("gpm.boundary = false"));
  json l15 = mcm_gpu::preset("monolithic_small128");
  l15["l15_enabled"] = true;
  CHECK_THROWS_WITH(McmGpu("mcm2", params_from_json<McmGpu::Params>(l15, ""), *wl),
                    Catch::Contains("l15_enabled with gpms = 1"));
}

TEST_CASE("McmGpu: zero GPMs is a clear error", "[mcm_gpu][errors]") {
  auto wl = make_workload("transpose", {{"size", "small"}}, 1);
  json cfg = mcm_gpu::preset("mcm_small");
  cfg["gpms"] = 0;
  CHECK_THROWS_WITH(params_from_json<McmGpu::Params>(cfg, ""), Catch::Contains("gpms"));
}

TEST_CASE("McmGpu: a ring link of 0 bytes per cycle is a clear error", "[mcm_gpu][errors]") {
  json cfg = mcm_gpu::preset("mcm_small");
  cfg["link"]["bytes_per_cycle"] = 0;
  CHECK_THROWS_WITH(params_from_json<McmGpu::Params>(cfg, ""), Catch::Contains("link.bytes_per_cycle"));
}

TEST_CASE("McmGpu: an iso-transistor L1.5 larger than the L2 it comes from is a clear error", "[mcm_gpu][errors]") {
  auto wl = make_workload("transpose", {{"size", "small"}}, 1);
  json cfg = mcm_gpu::preset("mcm_small+l15");
  cfg["l15_bytes"] = 8388608;  // 8 MB per GPM against a 4 MB budget
  const auto p = params_from_json<McmGpu::Params>(cfg, "");
  CHECK_THROWS_WITH(McmGpu("mcm", p, *wl), Catch::Contains("iso-transistor") && Catch::Contains("cannot be larger"));
}

TEST_CASE("McmGpu: a GPM without a boundary is a clear error", "[mcm_gpu][errors]") {
  auto wl = make_workload("transpose", {{"size", "small"}}, 1);
  json cfg = mcm_gpu::preset("mcm_small");
  cfg["gpm"]["boundary"] = false;
  const auto p = params_from_json<McmGpu::Params>(cfg, "");
  CHECK_THROWS_WITH(McmGpu("mcm", p, *wl), Catch::Contains("gpm.boundary"));
}

TEST_CASE("McmGpu: a saturating stream over the ring reaches the links' bytes per cycle and no more",
          "[mcm_gpu][link][bandwidth]") {
  // STREAM triad on 4 GPMs x 4 SMs with fine interleave: 3/4 of all lines cross the ring. With
  // 8 B/cycle links (a 136 B reply every 17 cycles) the ring, not DRAM (96 B/cycle per GPM), limits.
  auto wl = make_workload("stream", {{"size", "small"}}, 1);
  auto p = small_params();
  p.link.bytes_per_cycle = 8;
  McmGpu m("mcm", p, *wl);
  REQUIRE(m.run(20000000));
  const double cycles = double(m.cycles());
  double busiest = 0;
  for (unsigned g = 0; g < m.gpms(); ++g)
    for (auto d : {noc::BandwidthLink::kAtoB, noc::BandwidthLink::kBtoA}) {
      const double rate = double(m.link(McmGpu::kReply, g).bytes(d)) / cycles;
      CHECK(rate <= 8.0);
      busiest = std::max(busiest, rate);
    }
  // The busiest reply link is saturated over the run, start-up and drain included.
  CHECK(busiest >= 0.8 * 8.0);
}

TEST_CASE("McmGpu: with link.classes = 2 requests and replies share one link per neighbour pair and its bytes",
          "[mcm_gpu][link][bandwidth]") {
  // The saturating stream of the test above with one link per neighbour pair: it carries both
  // classes, never more than its bytes per cycle for the two together, and the replies alone
  // no longer get all of them.
  auto wl = make_workload("stream", {{"size", "small"}}, 1);
  auto p = small_params();
  p.link.bytes_per_cycle = 8;
  p.link.classes = 2;
  McmGpu m("mcm", p, *wl);
  REQUIRE(m.run(20000000));
  const double cycles = double(m.cycles());
  double busiest = 0, busiest_reply = 0;
  uint64_t requests = 0;
  for (unsigned g = 0; g < m.gpms(); ++g) {
    noc::BandwidthLink& l = m.link(McmGpu::kReply, g);
    REQUIRE(&l == &m.link(McmGpu::kRequest, g));
    for (auto d : {noc::BandwidthLink::kAtoB, noc::BandwidthLink::kBtoA}) {
      CHECK(l.bytes(d) == l.bytes(d, 0) + l.bytes(d, 1));
      const double rate = double(l.bytes(d)) / cycles;
      CHECK(rate <= 8.0);
      busiest = std::max(busiest, rate);
      busiest_reply = std::max(busiest_reply, double(l.bytes(d, 1)) / cycles);
      requests += l.delivered(d, 0);
    }
  }
  CHECK(requests > 0);
  CHECK(busiest >= 0.8 * 8.0);
  CHECK(busiest_reply < 0.95 * busiest);  // requests took some of the shared bytes
}

TEST_CASE("McmGpu: every load is answered exactly once with one shared ring link per neighbour pair", "[mcm_gpu][link]") {
  auto p = small_params();
  p.link.classes = 2;
  every_load_once_on(p, "bfs");
}

TEST_CASE("McmGpu: a ring link of 3 classes is a clear error", "[mcm_gpu][errors]") {
  auto wl = make_workload("transpose", {{"size", "small"}}, 1);
  auto p = small_params();
  p.link.classes = 3;
  CHECK_THROWS_WITH(McmGpu("mcm", p, *wl), Catch::Contains("link.classes"));
}

TEST_CASE("McmGpu: multigpu_small is 2 GPUs x 16 SMs, 1 MB of L2 each, and mgpu_opt halves it into a remote-only L1.5",
          "[mcm_gpu][multigpu]") {
  auto wl = make_workload("transpose", {{"size", "small"}}, 1);
  const auto base = params_from_json<McmGpu::Params>(mcm_gpu::preset("multigpu_small"), "");
  McmGpu b("mgpu", base, *wl);
  CHECK(b.gpms() == 2);
  CHECK(b.platform().sm_count() == 32);
  CHECK(b.l15(0) == nullptr);
  CHECK(uint64_t{b.gpm(0).mc(0).l2().params().sets} * 16u * 128u * b.gpm(0).mc_count() == 1024u * 1024);
  auto wl2 = make_workload("transpose", {{"size", "small"}}, 1);
  const auto opt = params_from_json<McmGpu::Params>(mcm_gpu::preset("multigpu_small+mgpu_opt"), "");
  McmGpu o("mgpu_opt", opt, *wl2);
  CHECK(o.l15(1)->capacity_bytes() == 512u * 1024);
  CHECK(uint64_t{o.gpm(1).mc(0).l2().params().sets} * 16u * 128u * o.gpm(1).mc_count() == 512u * 1024);
}
