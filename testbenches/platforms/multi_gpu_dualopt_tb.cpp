// DUALOPT on the multi-GPU platform (paper 004 §4; platforms/multi_gpu, overlays coalescing,
// caching, dualopt) on 4 small GPUs (4 CUs, 3 partitions each) running real kernels:
//   * coalescing (MaskMshrStage, RdmaWordSelector, RdmaCoalescer, RdmaDecoalescer): every remote
//     read an SM hands to its L1 gets exactly one reply, carrying exactly its own words; every
//     fine-grained read that leaves a CU is answered exactly once by the GPU owning its page; the
//     replies cross the link as coalesced packets, far fewer bytes than 64 B lines;
//   * caching (RdmaCache): every remote read answered once; the RDMA cache serves reads; remote
//     writes dirty it and its lines go home at kernel end (every write-back acked);
//   * dualopt: the decision engine decides once and turns on exactly the chosen mode;
//   * bad configurations are clear errors.
#include <map>
#include <memory>

#include <catch2/catch.hpp>

#include "common/mem_ext.h"
#include "multigpu/rdma_packet.h"
#include "platforms/multi_gpu/multi_gpu.h"
#include "platforms/multi_gpu/presets.h"
#include "workload/workload_factory.h"

using namespace gpusc;
using noc::BandwidthLink;

namespace {

MultiGpu::Params params(const std::string& preset, const json& over = json::object()) {
  json cfg = multi_gpu::preset(preset);
  cfg.merge_patch(over);
  return params_from_json<MultiGpu::Params>(cfg, "");
}

// Remote reads as the SMs see them (handed to the L1, answered by it), and fine-grained reads
// as the network sees them (injected at an SM node, answered by an MC of the owner).
struct Ledger {
  std::map<const tlm::tlm_generic_payload*, unsigned> at_sm;   // outstanding remote reads -> GPU
  std::map<const tlm::tlm_generic_payload*, unsigned> in_net;  // outstanding remote reads sent -> GPU
  uint64_t sm_reads = 0, sm_replies = 0, sm_dups = 0, sm_strays = 0, wrong_size = 0;
  uint64_t net_reads = 0, net_replies = 0, net_dups = 0, net_strays = 0, fine_sent = 0;
};

void watch(MultiGpu& m, Ledger& l, bool fine_grained) {
  MultiGpu::Observers o;
  o.sm_request = [&m, &l](unsigned g, unsigned, const tlm::tlm_generic_payload& gp) {
    const MemExt& e = *gp.get_extension<MemExt>();
    if (e.kind != MemKind::Read || m.gpu_of_address(gp.get_address()) == g) return;
    ++l.sm_reads;
    if (!l.at_sm.emplace(&gp, g).second) ++l.sm_dups;
  };
  o.sm_reply = [&m, &l, fine_grained](unsigned g, unsigned, const tlm::tlm_generic_payload& gp) {
    const MemExt& e = *gp.get_extension<MemExt>();
    if (e.kind != MemKind::Read || m.gpu_of_address(gp.get_address()) == g) return;
    const auto it = l.at_sm.find(&gp);
    if (it == l.at_sm.end() || it->second != g) {
      ++l.sm_strays;
      return;
    }
    l.at_sm.erase(it);
    ++l.sm_replies;
    // Fine-grained: the reply holds exactly the words its mask names (4 B each).
    if (fine_grained && gp.get_data_length() != 4u * static_cast<unsigned>(__builtin_popcount(e.word_mask)))
      ++l.wrong_size;
  };
  o.injected = [&m, &l](unsigned g, unsigned, const tlm::tlm_generic_payload& gp) {
    const MemExt& e = *gp.get_extension<MemExt>();
    if (e.kind != MemKind::Read) return;
    if (!e.is_reply) {
      if (m.gpu_of_node(e.dst) == g || m.gpu_of_node(e.src) != g) return;  // local, or an RDMA cache fetch
      ++l.net_reads;
      if (multigpu::rdma_id(gp)) ++l.fine_sent;
      if (!l.in_net.emplace(&gp, g).second) ++l.net_dups;
    } else {
      const unsigned to = m.gpu_of_node(e.dst);
      if (to == g) return;
      const auto it = l.in_net.find(&gp);
      if (it == l.in_net.end()) return;  // a reply to an RDMA cache's own fetch
      if (it->second != to || m.gpu_of_address(gp.get_address()) != g) ++l.net_strays;
      l.in_net.erase(it);
      ++l.net_replies;
    }
  };
  m.set_observers(o);
}

// net: also check the network-level ledger (not with an RDMA cache, whose replies enter at the
// boundary, where no MC injects them).
void check_answered_once(const Ledger& l, bool net = true) {
  CHECK(l.sm_reads > 0);
  CHECK(l.sm_replies == l.sm_reads);
  CHECK(l.at_sm.empty());
  CHECK(l.sm_dups == 0);
  CHECK(l.sm_strays == 0);
  if (!net) return;
  CHECK(l.net_replies == l.net_reads);
  CHECK(l.in_net.empty());
  CHECK(l.net_dups == 0);
  CHECK(l.net_strays == 0);
}

// The small GPUs with 3 boundary nodes each (4 CUs + 3 partitions + 3 on a 5x2 mesh).
const json kThreeBoundaries = {{"boundary_nodes", 3}, {"noc", {{"k", 5}, {"m", 2}}}};

void check_coalescing_spmv(const json& over) {
  auto wl = make_workload("spmv", {{"size", "small"}}, 1);
  MultiGpu m(params("dca4+small+coalescing", over), *wl);
  Ledger l;
  watch(m, l, true);
  REQUIRE(m.run(5000000));
  check_answered_once(l);
  CHECK(l.wrong_size == 0);
  // Every remote read bypassed the L1 and left as a fine-grained read with a response ID.
  CHECK(l.fine_sent == l.net_reads);
  const json s = m.summary();
  CHECK(s.at("fine_grained_reads_sent").get<uint64_t>() == l.fine_sent);
  // Coalescing happened, and the reply links carried far fewer bytes than one 64 B line
  // (8 B header + 64 B = 5 flits of 16 B) per remote read, the DCA cost.
  uint64_t packets = 0, responses = 0;
  for (unsigned g = 0; g < m.gpus(); ++g) packets += m.coalescer(g)->packets(), responses += m.coalescer(g)->responses();
  CHECK(packets > 0);
  CHECK(responses > 2 * packets);  // more than two responses per packet on average
  CHECK(responses <= l.fine_sent);
  const uint64_t rep = s.at("fabric_reply_bytes_gpu_to_switch").get<uint64_t>();
  CHECK(rep * 2 < l.net_reads * 80);
  CHECK(s.at("invariant_failures").empty());
  CHECK(m.fabric_drained());
}

void check_caching_spmv(const json& over) {
  auto wl = make_workload("spmv", {{"size", "small"}}, 1);
  MultiGpu m(params("dca4+small+caching", over), *wl);
  CHECK(m.params().mc.l2.sets == 32);  // 0.5 MB over the dca4 preset's 16 banks of 16 ways
  Ledger l;
  watch(m, l, false);
  REQUIRE(m.run(5000000));
  check_answered_once(l, false);
  uint64_t reads = 0, fetches = 0;
  for (unsigned g = 0; g < m.gpus(); ++g) {
    REQUIRE(m.rdma_cache(g));
    CHECK(m.rdma_cache(g)->enabled());
    reads += m.rdma_cache(g)->reads(), fetches += m.rdma_cache(g)->read_fetches();
  }
  // The L1 misses to remote lines reached the RDMA caches, and fewer fetches crossed the fabric.
  CHECK(reads > 0);
  CHECK(reads <= l.sm_reads);
  CHECK(fetches < reads);
  CHECK(m.summary().at("invariant_failures").empty());
}

}  // namespace

TEST_CASE("multi_gpu coalescing: every remote read answered exactly once with its own words and coalesced on the link "
          "(spmv on 4 GPUs x 4 CUs)",
          "[multi_gpu][dualopt]") {
  check_coalescing_spmv(json::object());
}

TEST_CASE("multi_gpu coalescing with 3 boundary nodes per GPU: every remote read answered exactly once with its own "
          "words (spmv)",
          "[multi_gpu][dualopt]") {
  check_coalescing_spmv(kThreeBoundaries);
}

TEST_CASE("multi_gpu coalescing: bfs on 4 GPUs x 4 CUs answers every remote read once", "[multi_gpu][dualopt]") {
  auto wl = make_workload("bfs", {{"size", "small"}}, 1);
  MultiGpu m(params("dca4+small+coalescing"), *wl);
  Ledger l;
  watch(m, l, true);
  REQUIRE(m.run(5000000));
  check_answered_once(l);
  CHECK(l.wrong_size == 0);
  CHECK(m.summary().at("invariant_failures").empty());
}

TEST_CASE("multi_gpu caching: every remote read answered once and the RDMA cache serves repeats (spmv)",
          "[multi_gpu][dualopt]") {
  check_caching_spmv(json::object());
}

TEST_CASE("multi_gpu caching with 3 boundary nodes per GPU: every remote read answered once (spmv)",
          "[multi_gpu][dualopt]") {
  check_caching_spmv(kThreeBoundaries);
}

TEST_CASE("multi_gpu caching: remote writes dirty the RDMA cache and go home at kernel end (transpose)",
          "[multi_gpu][dualopt]") {
  auto wl = make_workload("transpose", {{"size", "small"}}, 1);
  MultiGpu m(params("dca4+small+caching"), *wl);
  REQUIRE(m.run(5000000));
  sc_core::sc_start(sc_core::sc_time(200, sc_core::SC_US));  // let the last flush's write-backs land
  uint64_t flushes = 0, acks = 0, dirty = 0, present = 0;
  for (unsigned g = 0; g < m.gpus(); ++g) {
    const multigpu::RdmaCache& c = *m.rdma_cache(g);
    flushes += c.flushes();
    acks += c.writeback_acks();
    CHECK(c.idle());
    for (const ArrayRecord& a : wl->address_space().arrays())
      for (uint64_t x = a.base & ~uint64_t{63}; x < a.base + a.bytes; x += 64) {
        dirty += c.cache().is_dirty(x);
        present += c.cache().present(x);
      }
  }
  CHECK(flushes == m.gpus());  // one kernel: one flush per GPU
  CHECK(acks > 0);             // transpose writes the other GPUs' columns: dirty lines went home
  CHECK(dirty == 0);           // and none is left, nor any line (invalidated)
  CHECK(present == 0);
}

TEST_CASE("multi_gpu dualopt: the decision engine decides once and turns on exactly its mode", "[multi_gpu][dualopt]") {
  auto wl = make_workload("spmv", {{"size", "small"}}, 1);
  MultiGpu m(params("dca4+small+dualopt"), *wl);
  Ledger l;
  watch(m, l, false);
  REQUIRE(m.run(5000000));
  check_answered_once(l);
  REQUIRE(m.decision_engine());
  using Mode = multigpu::DecisionEngine::Mode;
  const Mode d = m.decision_engine()->mode();
  CHECK(d != Mode::Undecided);
  for (unsigned g = 0; g < m.gpus(); ++g) {
    CHECK(m.scbu(g)->coalescing() == (d == Mode::Coalescing));
    CHECK(m.rdma_cache(g)->enabled() == (d == Mode::Caching));
  }
  // The window's statistics lead to the decision Fig. 11 takes on them.
  const auto& w = m.decision_engine()->window();
  CHECK(w.remote >= m.params().dualopt.engine.window_remote);
  CHECK(multigpu::DecisionEngine::classify(w.remote_ratio(), w.block_use(16), w.hit_rate(), m.params().dualopt.engine) ==
        d);
}

TEST_CASE("multi_gpu dualopt: bad configurations are clear errors", "[multi_gpu][dualopt][config]") {
  auto wl = make_workload("spmv", {{"size", "small"}}, 1);
  REQUIRE_THROWS_WITH(params("dca4", {{"dualopt", {{"mode", "both"}}}}), Catch::Contains("dualopt.mode"));
  REQUIRE_THROWS_WITH(
      MultiGpu(params("dca4+small+caching", {{"dualopt", {{"rdma_cache", {{"write_policy", "write-through"}}}}}}), *wl),
      Catch::Contains("write-back"));
  REQUIRE_THROWS_WITH(MultiGpu(params("dca4+small+coalescing", {{"dualopt", {{"front", {{"mshr", {{"mask_bits", 8}}}}}}}}),
                               *wl),
                      Catch::Contains("mask_bits (8) must be the words of a 64 B line (16)"));
  REQUIRE_THROWS_WITH(params("dca4", {{"dualopt", {{"codec", {{"timeout", 0}}}}}}), Catch::Contains("timeout"));
}
