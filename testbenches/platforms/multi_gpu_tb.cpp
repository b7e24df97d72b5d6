// The multi-GPU platform of paper 004 (DCA baseline, platforms/multi_gpu): on 4 small GPUs (4 CUs,
// 3 partitions each) running real kernels, every remote read is answered exactly once by the
// GPU that owns its page, requests cross the fabric exactly for the pages other GPUs own, the
// fabric's byte counts add up per class and direction, and on MGPUSim's tree exactly the
// messages between GPU pairs cross the uplinks; 8- and 16-GPU systems of full GPUs elaborate and
// run; bad configurations are clear errors.
#include <functional>
#include <map>
#include <memory>

#include <catch2/catch.hpp>

#include "common/mem_ext.h"
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

// What the observers saw: requests injected at SM nodes, replies injected at MC nodes.
struct Ledger {
  std::map<const tlm::tlm_generic_payload*, unsigned> outstanding;  // remote reads -> requesting GPU
  uint64_t remote_reads = 0, remote_read_replies = 0, duplicates = 0, strays = 0, wrong_owner = 0;
  std::vector<uint64_t> remote_out, remote_in;      // [gpu] requests leaving / entering per GPU
  std::vector<uint64_t> replies_out, replies_in;    // [gpu] replies leaving / entering
  std::vector<uint64_t> pair_out, pair_in;          // [pair] requests leaving / entering GPU pair p (tree)
  uint64_t req_wire = 0, rep_wire = 0;              // link bytes predicted from the messages
};

void watch(MultiGpu& m, Ledger& l) {
  const unsigned G = m.gpus();
  l.remote_out.assign(G, 0), l.remote_in.assign(G, 0), l.replies_out.assign(G, 0), l.replies_in.assign(G, 0);
  l.pair_out.assign((G + 1) / 2, 0), l.pair_in.assign((G + 1) / 2, 0);
  MultiGpu::Observers o;
  o.injected = [&m, &l](unsigned g, unsigned, const tlm::tlm_generic_payload& gp) {
    const MemExt& e = *gp.get_extension<MemExt>();
    if (!e.is_reply) {
      const unsigned owner = m.gpu_of_address(gp.get_address());
      if (m.gpu_of_node(e.dst) != owner) ++l.wrong_owner;
      if (owner == g) return;
      ++l.remote_out[g], ++l.remote_in[owner];
      if (g / 2 != owner / 2) ++l.pair_out[g / 2], ++l.pair_in[owner / 2];
      l.req_wire += m.link(g).wire_bytes(gp);
      if (e.kind != MemKind::Read) return;
      ++l.remote_reads;
      if (!l.outstanding.emplace(&gp, g).second) ++l.duplicates;
    } else {
      const unsigned to = m.gpu_of_node(e.dst);
      if (to == g) return;
      ++l.replies_out[g], ++l.replies_in[to];
      l.rep_wire += m.link(g).wire_bytes(gp);
      if (e.kind != MemKind::Read) return;
      const auto it = l.outstanding.find(&gp);
      if (it == l.outstanding.end() || it->second != to) {
        ++l.strays;
        return;
      }
      l.outstanding.erase(it);
      ++l.remote_read_replies;
    }
  };
  m.set_observers(o);
}

// remote_reads: whether the kernel reads other GPUs' pages at all (transpose under contiguous
// groups reads only its own rows and writes the other GPUs' columns). inspect: more checks on the
// platform after the run.
void check_dca_run(const std::string& kernel, bool remote_reads = true, const json& over = json::object(),
                   const std::function<void(const MultiGpu&)>& inspect = {}) {
  auto wl = make_workload(kernel, {{"size", "small"}}, 1);
  MultiGpu m(params("dca4+small", over), *wl);
  Ledger l;
  watch(m, l);
  REQUIRE(m.run(5000000));
  INFO(kernel);
  // Every remote read reached the GPU owning its page and was answered there exactly once.
  CHECK((l.remote_reads > 0) == remote_reads);
  CHECK(m.remote_requests() > 0);
  CHECK(l.remote_reads == m.remote_reads());
  CHECK(l.remote_read_replies == l.remote_reads);
  CHECK(l.outstanding.empty());
  CHECK(l.duplicates == 0);
  CHECK(l.strays == 0);
  CHECK(l.wrong_owner == 0);
  // Requests cross the fabric exactly for the pages other GPUs own: each GPU's link carried its
  // remote requests out and the other GPUs' requests for its pages in (request class), and the
  // replies to them back (reply class; every request, read or write, is answered once).
  constexpr unsigned Q = MultiGpu::kRequestClass, R = MultiGpu::kReplyClass;
  uint64_t req_ab = 0, req_ba = 0, rep_ab = 0, rep_ba = 0, msgs_out = 0, msgs_in = 0;
  for (unsigned g = 0; g < m.gpus(); ++g) {
    INFO("gpu " << g);
    BandwidthLink& k = m.link(g);
    CHECK(k.delivered(BandwidthLink::kAtoB, Q) == l.remote_out[g]);
    CHECK(k.delivered(BandwidthLink::kBtoA, Q) == l.remote_in[g]);
    CHECK(k.delivered(BandwidthLink::kAtoB, R) == l.replies_out[g]);
    CHECK(k.delivered(BandwidthLink::kBtoA, R) == l.replies_in[g]);
    CHECK(l.replies_out[g] == l.remote_in[g]);
    CHECK(l.replies_in[g] == l.remote_out[g]);
    // One serializer per direction: the link's bytes are its classes' bytes.
    CHECK(k.bytes(BandwidthLink::kAtoB) == k.bytes(BandwidthLink::kAtoB, Q) + k.bytes(BandwidthLink::kAtoB, R));
    req_ab += k.bytes(BandwidthLink::kAtoB, Q);
    req_ba += k.bytes(BandwidthLink::kBtoA, Q);
    rep_ab += k.bytes(BandwidthLink::kAtoB, R);
    rep_ba += k.bytes(BandwidthLink::kBtoA, R);
    msgs_out += k.delivered(BandwidthLink::kAtoB, Q);
    msgs_in += k.delivered(BandwidthLink::kBtoA, Q);
  }
  // MGPUSim's tree: pair switches 0 (GPUs 0, 1) and 1 (GPUs 2, 3) under the root; exactly the
  // requests between the pairs crossed the uplinks, up from their pair and down into the other.
  const bool tree = m.params().fabric.topology == "tree";
  CHECK(m.uplinks() == (tree ? 2u : 0u));
  CHECK(m.switches() == (tree ? 3u : 1u));
  for (unsigned q = 0; q < m.uplinks(); ++q) {
    INFO("pair " << q);
    CHECK(l.pair_out[q] > 0);
    CHECK(m.uplink(q).delivered(BandwidthLink::kAtoB, Q) == l.pair_out[q]);
    CHECK(m.uplink(q).delivered(BandwidthLink::kBtoA, Q) == l.pair_in[q]);
    CHECK(m.uplink(q).delivered(BandwidthLink::kAtoB, R) == l.pair_in[q]);
    CHECK(m.uplink(q).delivered(BandwidthLink::kBtoA, R) == l.pair_out[q]);
  }
  CHECK(msgs_out == m.remote_requests());
  CHECK(msgs_in == msgs_out);
  // Link bytes per direction add up: what entered the switch left it, and equals the messages'
  // wire sizes (header + data, whole 16 B flits).
  CHECK(req_ab == req_ba);
  CHECK(rep_ab == rep_ba);
  CHECK(req_ab == l.req_wire);
  CHECK(rep_ab == l.rep_wire);
  CHECK(req_ab % 16 == 0);
  CHECK(rep_ab % 16 == 0);
  const json s = m.summary();
  CHECK(s.at("fabric_bytes").get<uint64_t>() == req_ab + rep_ab);
  CHECK(s.at("fabric_request_bytes_switch_to_gpu").get<uint64_t>() == req_ba);
  CHECK(s.at("remote_request_ratio").get<double>() > 0.0);
  CHECK(s.at("remote_request_ratio").get<double>() < 1.0);
  CHECK(m.fabric_drained());
  CHECK(s.at("invariant_failures").empty());
  if (inspect) inspect(m);
}

}  // namespace

TEST_CASE("multi_gpu DCA: every remote read answered once and fabric bytes add up (spmv on 4 GPUs x 4 CUs)",
          "[multi_gpu]") {
  check_dca_run("spmv");
}

TEST_CASE("multi_gpu DCA: every remote read answered once and fabric bytes add up (bfs on 4 GPUs x 4 CUs)",
          "[multi_gpu]") {
  check_dca_run("bfs");
}

TEST_CASE("multi_gpu DCA: remote writes only each answered once and fabric bytes add up (transpose on 4 GPUs x 4 CUs)",
          "[multi_gpu]") {
  check_dca_run("transpose", false);
}

TEST_CASE("multi_gpu DCA on one switch (star): every remote read answered once and fabric bytes add up (spmv)",
          "[multi_gpu]") {
  check_dca_run("spmv", true, {{"fabric", {{"topology", "star"}}}});
}

TEST_CASE("multi_gpu DCA with 3 boundary nodes per GPU: every remote read answered once and fabric bytes add up (spmv)",
          "[multi_gpu]") {
  // 4 CUs + 3 partitions + 3 boundary nodes on a 5x2 mesh: the remote traffic leaves and enters
  // each GPU's network at three nodes, joined to the one link per GPU.
  check_dca_run("spmv", true, {{"boundary_nodes", 3}, {"noc", {{"k", 5}, {"m", 2}}}});
}

TEST_CASE("multi_gpu DCA with the switches on the fabric clock (fabric.mhz 0): every remote read answered once and "
          "fabric bytes add up (spmv)",
          "[multi_gpu]") {
  // The dca4 preset clocks the switches at 4 x the links (fabric.mhz 4000), so every message
  // crosses two clock domains at each switch port. fabric.mhz = 0 puts them on the links' clock,
  // where a port's one message per cycle is below what a link carries in small requests: the
  // switches now throttle the links, and still nothing is lost or duplicated.
  check_dca_run("spmv", true, {{"fabric", {{"mhz", 0}}}}, [](const MultiGpu& m) {
    REQUIRE(m.switches() == 3u);
    for (unsigned i = 0; i < m.switches(); ++i) CHECK(m.switch_network(i).clock().freq_mhz() == 1000.0);
  });
}

TEST_CASE("multi_gpu page map: distributed splits every array into one contiguous run of pages per GPU",
          "[multi_gpu]") {
  auto wl = make_workload("transpose", {{"size", "small"}}, 1);
  MultiGpu m(params("dca4+small"), *wl);
  const uint64_t page = m.params().page_map.page_bytes;
  for (const ArrayRecord& a : wl->address_space().arrays()) {
    INFO(a.name);
    const uint64_t first = a.base / page, n = (a.base + a.bytes - 1) / page - first + 1;
    if (n < 8) continue;  // boundary pages may belong to the previous array
    // Owner is non-decreasing along the array and every GPU owns n/4 (the last one the rest).
    unsigned prev = 0;
    std::vector<uint64_t> pages(4, 0);
    for (uint64_t i = 1; i + 1 < n; ++i) {  // interior pages only
      const unsigned g = m.gpu_of_address((first + i) * page);
      CHECK(g >= prev);
      prev = g;
      ++pages[g];
    }
    for (unsigned g = 0; g < 4; ++g) CHECK(pages[g] + 2 >= n / 4);
  }
}

TEST_CASE("multi_gpu page map: interleave puts page p on GPU p mod 4",
          "[multi_gpu]") {
  auto wl = make_workload("spmv", {{"size", "small"}}, 1);
  MultiGpu m(params("dca4+small", {{"page_map", {{"kind", "interleave"}}}}), *wl);
  const auto& a = wl->address_space().arrays().back();
  const uint64_t page = m.params().page_map.page_bytes;
  for (uint64_t addr = (a.base / page + 1) * page; addr + page < a.base + a.bytes; addr += page)
    CHECK(m.gpu_of_address(addr) == (addr / page) % 4);
}

TEST_CASE("multi_gpu default preset: 4 GPUs of 64 CUs and 16 partitions with paper 004 Table 1 figures",
          "[multi_gpu]") {
  const MultiGpu::Params p = params("dca4");
  CHECK(p.gpus == 4);
  CHECK(p.sms == 64);
  CHECK(p.l1.sets * p.l1.ways * p.l1.line_bytes == 16 * 1024);
  CHECK(p.l1.ways == 4);
  CHECK(p.mcs * p.mc.l2.sets * p.mc.l2.ways * p.mc.l2.line_bytes == 2 * 1024 * 1024);
  CHECK(p.mc.l2.ways == 16);
  CHECK(p.mc.l2.write_policy == "write-back");
  CHECK(p.link.bytes_per_cycle == 64);
  CHECK(p.link.flit_bytes == 16);
  CHECK(p.link.classes == 2);
  CHECK(p.fabric.topology == "tree");
  CHECK(p.fabric.mhz == 4 * p.fabric_mhz);  // a switch port forwards one message per 16 B link flit time
  CHECK(p.boundary_nodes == 4);
  // DUALOPT's units between the boundary nodes and the link move one message per node and cycle,
  // as the direct DCA path does (a narrower unit throttled local-dominated transpose to 0.89x)
  CHECK(p.dualopt.decoalescer.per_cycle == p.boundary_nodes);
  CHECK(p.dualopt.codec.per_cycle == p.boundary_nodes);
  CHECK(p.dualopt.rdma_cache.accesses_per_cycle == p.boundary_nodes);
  CHECK(p.dualopt.rdma_cache.messages_per_cycle == p.boundary_nodes);
  CHECK(p.noc.k * p.noc.m == p.sms + p.mcs + p.boundary_nodes);
  CHECK(p.cta.policy == "contiguous-groups");
  auto wl = make_workload("spmv", {{"size", "small"}}, 1);
  MultiGpu m(p, *wl);
  CHECK(m.platform().sm_count() == 256);
  CHECK(!m.run(3000));  // elaborates and runs a few thousand cycles
}

TEST_CASE("multi_gpu scaling: 8 GPUs of 64 CUs elaborate and run", "[multi_gpu]") {
  auto wl = make_workload("spmv", {{"size", "small"}}, 1);
  MultiGpu m(params("dca4+gpus8"), *wl);
  CHECK(m.platform().sm_count() == 512);
  CHECK(m.switches() == 5);                  // 4 pair switches + the root
  CHECK(m.fabric_switch(4).nodes() == 4);    // the root: one port per pair
  CHECK(!m.run(2000));
}

TEST_CASE("multi_gpu scaling: 16 GPUs of 64 CUs elaborate and run", "[multi_gpu]") {
  auto wl = make_workload("spmv", {{"size", "small"}}, 1);
  MultiGpu m(params("dca4+gpus16"), *wl);
  CHECK(m.platform().sm_count() == 1024);
  CHECK(m.switches() == 9);
  CHECK(m.fabric_switch(8).nodes() == 8);
  CHECK(!m.run(2000));
}

TEST_CASE("multi_gpu scaling: 8 small GPUs run spmv to the end with requests to all 7 others", "[multi_gpu]") {
  auto wl = make_workload("spmv", {{"size", "small"}}, 1);
  MultiGpu m(params("dca4+small+gpus8"), *wl);
  REQUIRE(m.run(5000000));
  unsigned busy = 0;
  for (unsigned g = 0; g < 8; ++g) busy += m.link(g).delivered(BandwidthLink::kAtoB, MultiGpu::kRequestClass) > 0;
  CHECK(busy == 8);
}

TEST_CASE("multi_gpu bad configurations are clear errors", "[multi_gpu][config]") {
  auto wl = make_workload("spmv", {{"size", "small"}}, 1);
  REQUIRE_THROWS_WITH(params("dca4", {{"gpus", 1}}), Catch::Contains("gpus"));
  REQUIRE_THROWS_WITH(MultiGpu(params("dca4+small", {{"l1", {{"line_bytes", 128}, {"sets", 32}}}}), *wl),
                      Catch::Contains("must be equal: a request is one line at every level"));
  REQUIRE_THROWS_WITH(MultiGpu(params("dca4+small", {{"noc", {{"k", 3}}}}), *wl),
                      Catch::Contains("a 3x2 mesh has 6 nodes but sms + mcs + boundary_nodes = 8"));
  REQUIRE_THROWS_WITH(MultiGpu(params("dca4+small", {{"fabric", {{"router", {{"vnets", 1}}}}}}), *wl),
                      Catch::Contains("fabric.router.vnets must be 2"));
  REQUIRE_THROWS_WITH(MultiGpu(params("dca4+small", {{"link", {{"classes", 1}}}}), *wl),
                      Catch::Contains("link.classes must be 2"));
  REQUIRE_THROWS_WITH(params("dca4", {{"fabric", {{"topology", "ring"}}}}), Catch::Contains("fabric.topology"));
  REQUIRE_THROWS_WITH(MultiGpu(params("dca4+small", {{"page_map", {{"page_bytes", 64}}}}), *wl),
                      Catch::Contains("page_map.page_bytes (64) must be at least interleave_bytes (128)"));
  REQUIRE_THROWS_WITH(MultiGpu(params("dca4+small", {{"page_map", {{"page_bytes", 3000}}}}), *wl),
                      Catch::Contains("page_bytes must be a power of two"));
  REQUIRE_THROWS_WITH(params("dca4", {{"page_map", {{"kind", "migrate"}}}}), Catch::Contains("page_map.kind"));
  REQUIRE_THROWS_WITH(params("dca4", {{"link", {{"bogus", 1}}}}), Catch::Contains("unknown parameter 'link.bogus'"));
  REQUIRE_THROWS_WITH(multi_gpu::preset("dca4+nope"), Catch::Contains("unknown preset 'nope'"));
}

TEST_CASE("multi_gpu page migration: each page moves once, nothing leaves for a migrating page or during a drain, "
          "every load answered once (bfs on 4 GPUs x 4 CUs)",
          "[multi_gpu][page_migration]") {
  using multigpu::PageMigrationEngine;
  auto wl = make_workload("bfs", {{"size", "small"}}, 1);
  MultiGpu m(params("dca4+small+pm"), *wl);
  PageMigrationEngine* e = m.migration_engine();
  REQUIRE(e);
  std::map<uint64_t, unsigned> moved;  // page -> GPU it moved to
  uint64_t moved_twice = 0, drain_violations = 0, pending_violations = 0;
  unsigned owner = ~0u;  // owner of the page being migrated
  e->observe([&](const PageMigrationEngine::Event& ev) {
    if (ev.kind == PageMigrationEngine::Event::Start) owner = ev.from;
    if (ev.kind != PageMigrationEngine::Event::Moved) return;
    moved_twice += moved.count(ev.page);
    moved[ev.page] = ev.to;
  });
  std::map<const tlm::tlm_generic_payload*, int> loads;  // SM load -> replies still due
  uint64_t loads_issued = 0, duplicates = 0, strays = 0;
  MultiGpu::Observers o;
  o.sm_request = [&](unsigned, unsigned, const tlm::tlm_generic_payload& gp) {
    if (gp.get_extension<MemExt>()->kind != MemKind::Read) return;
    ++loads_issued;
    if (!loads.emplace(&gp, 1).second) ++duplicates;
  };
  o.sm_reply = [&](unsigned, unsigned, const tlm::tlm_generic_payload& gp) {
    if (gp.get_extension<MemExt>()->kind != MemKind::Read) return;
    const auto it = loads.find(&gp);
    if (it == loads.end()) {
      ++strays;
      return;
    }
    loads.erase(it);
  };
  o.injected = [&](unsigned g, unsigned, const tlm::tlm_generic_payload& gp) {
    const MemExt& x = *gp.get_extension<MemExt>();
    if (x.is_reply) return;  // a request leaving an SM node
    pending_violations += e->pending(gp.get_address());
    const auto ph = e->phase();
    if (ph != PageMigrationEngine::Phase::Idle && ph != PageMigrationEngine::Phase::Fault)
      drain_violations += m.gpu_of_node(x.dst) != g || g == owner;
  };
  m.set_observers(o);
  REQUIRE(m.run(20000000));
  CHECK(e->migrations() > 0);
  CHECK(e->faults() == e->migrations());
  CHECK(moved.size() == e->migrations());
  CHECK(moved_twice == 0);
  CHECK(m.page_map().moves() == e->migrations());
  for (const auto& [page, to] : moved) CHECK(m.gpu_of_address(page * m.params().page_map.page_bytes) == to);
  CHECK(pending_violations == 0);
  CHECK(drain_violations == 0);
  CHECK(loads_issued > 0);
  CHECK(loads.empty());
  CHECK(duplicates == 0);
  CHECK(strays == 0);
  CHECK(m.remote_reads() > 0);  // pinned pages of other GPUs are read remotely
  CHECK(m.fabric_drained());
  CHECK(e->idle());
  const json s = m.summary();
  CHECK(s.at("pm_migrations").get<uint64_t>() == e->migrations());
  CHECK(s.at("invariant_failures").empty());
}

TEST_CASE("multi_gpu page migration: first-gpu puts every array on GPU 0, and with DUALOPT it is an error",
          "[multi_gpu][page_migration][config]") {
  auto wl = make_workload("spmv", {{"size", "small"}}, 1);
  MultiGpu m(params("dca4+small+pm"), *wl);
  for (const ArrayRecord& a : wl->address_space().arrays())
    for (uint64_t addr = a.base; addr < a.base + a.bytes; addr += 4096) CHECK(m.gpu_of_address(addr) == 0);
  REQUIRE_THROWS_WITH(MultiGpu(params("dca4+small+pm+coalescing"), *wl),
                      Catch::Contains("the page-migration baseline and DUALOPT are separate configurations"));
}
