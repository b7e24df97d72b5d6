// Readers and workloads on the real inputs of the shared data folder (GPUSC_DATA_DIR, given by
// CMake; this executable is only built when the folder exists). Expected counts are those of
// the data README and of the files' own headers.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>
#include <tuple>

#include "workload/edge_list_reader.h"
#include "workload/graph_input.h"
#include "workload/matrix_market_reader.h"
#include "workload/sssp.h"
#include "workload/trace_workload.h"
#include "workload/workload_factory.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;

namespace {
std::string data(const std::string& rel) { return std::string(GPUSC_DATA_DIR) + "/" + rel; }
uint64_t self_loops(const CsrGraph& g) {
  uint64_t n = 0;
  for (uint32_t v = 0; v < g.rows; ++v)
    for (uint32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e) n += g.col_idx[e] == v;
  return n;
}
}  // namespace

TEST_CASE("data: west0067.mtx is 67 x 67 with 294 real entries") {
  MatrixMarketInfo info;
  const CsrGraph g = read_matrix_market(data("matrices/west0067.mtx"), &info);
  REQUIRE(info.field == "real");
  REQUIRE(info.symmetry == "general");
  REQUIRE(g.rows == 67);
  REQUIRE(g.cols == 67);
  REQUIRE(g.nnz() == 294);
  REQUIRE(g.has_values());
  // The file's first entry "5 1 -.2788416" is row 4, column 0 (0-based).
  const auto e = std::find(g.col_idx.begin() + g.row_ptr[4], g.col_idx.begin() + g.row_ptr[5], 0u);
  REQUIRE(e != g.col_idx.begin() + g.row_ptr[5]);
  REQUIRE(g.values[e - g.col_idx.begin()] == Approx(-0.2788416f));
}

TEST_CASE("data: karate.mtx has 34 vertices and 78 undirected edges = 156 arcs") {
  MatrixMarketInfo info;
  const CsrGraph g = read_matrix_market(data("graphs/karate.mtx"), &info);
  REQUIRE(info.field == "pattern");
  REQUIRE(info.symmetry == "symmetric");
  REQUIRE(info.stored == 78);
  REQUIRE(g.rows == 34);
  REQUIRE(g.nnz() == 156);
  REQUIRE(self_loops(g) == 0);
  REQUIRE(g.symmetrized().nnz() == 156);  // already symmetric
}

TEST_CASE("data: CA-CondMat.txt (SNAP, CRLF) has 23,133 nodes and 186,936 arcs incl. 58 self loops") {
  std::vector<uint64_t> ids;
  const CsrGraph g = read_edge_list(data("graphs/CA-CondMat.txt"), {}, &ids);
  REQUIRE(g.rows == 23133);
  REQUIRE(ids.size() == 23133);
  REQUIRE(*std::max_element(ids.begin(), ids.end()) == 108299);  // ids are not contiguous
  REQUIRE(ids[0] == 81626);  // first id of the first data line
  REQUIRE(g.nnz() == 186936);
  REQUIRE(self_loops(g) == 58);
  EdgeListOptions o;
  o.keep_self_loops = false;
  REQUIRE(read_edge_list(data("graphs/CA-CondMat.txt"), o).nnz() == 186936 - 58);
  o.symmetrize = true;
  o.keep_self_loops = true;
  REQUIRE(read_edge_list(data("graphs/CA-CondMat.txt"), o).nnz() == 186936);  // every arc has its reverse
}

TEST_CASE("data: BFS on karate launches eccentricity + 1 times and SpMV on west0067 reads 294 nonzeros") {
  const CsrGraph g = read_matrix_market(data("graphs/karate.mtx"));
  std::vector<uint32_t> lvl(g.rows, UINT32_MAX);
  std::queue<uint32_t> q;
  lvl[0] = 0;
  q.push(0);
  uint32_t ecc = 0;
  while (!q.empty()) {
    const uint32_t v = q.front();
    q.pop();
    ecc = std::max(ecc, lvl[v]);
    for (uint32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e)
      if (lvl[g.col_idx[e]] == UINT32_MAX) lvl[g.col_idx[e]] = lvl[v] + 1, q.push(g.col_idx[e]);
  }
  auto bfs = make_workload("bfs", {{"input", data("graphs/karate.mtx")}}, 1);
  REQUIRE(all_kernels(*bfs).size() == ecc + 1);
  auto spmv = make_workload("spmv", {{"input", data("matrices/west0067.mtx")}}, 1);
  const AccessCount c = count_accesses(spmv->address_space(), *spmv->next_kernel());
  REQUIRE(c.total_loads("vals") == 294);
  REQUIRE(c.stores.at("y").size() == 67);
}

TEST_CASE("data: SSSP on karate and delaunay_n13 (hashed weights) and olm1000 (its values) equals Dijkstra") {
  // file, symmetrize (karate and delaunay_n13 are stored as lower triangles; olm1000 is unsymmetric)
  for (const auto& [rel, sym] : std::vector<std::pair<std::string, bool>>{
           {"graphs/karate.mtx", true}, {"graphs/delaunay_n13.mtx", true}, {"matrices/olm1000.mtx", false}}) {
    INFO(rel);
    SsspWorkload::Params p;
    p.input = data(rel);
    p.symmetrize = sym;
    auto g = load_graph_input(p, 1, "sssp");
    SsspWorkload w(p, g);
    if (rel == "matrices/olm1000.mtx") {  // weights = auto takes a file's values: max(1, round(|v|))
      REQUIRE(g->has_values());
      for (uint64_t e = 0; e < g->nnz(); ++e)
        REQUIRE(w.weights()[e] == std::max<uint32_t>(1, uint32_t(std::llround(std::fabs(double(g->values[e]))))));
    }
    // Dijkstra on (distance, arcs): launches = 1 + the most arcs a shortest path needs.
    std::vector<uint64_t> dist(g->rows, UINT64_MAX);
    std::vector<uint32_t> hops(g->rows, UINT32_MAX);
    using Item = std::tuple<uint64_t, uint32_t, uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> q;
    dist[0] = 0, hops[0] = 0;
    q.push({0, 0, 0});
    uint32_t max_hops = 0;
    while (!q.empty()) {
      const auto [d, h, v] = q.top();
      q.pop();
      if (d != dist[v] || h != hops[v]) continue;
      max_hops = std::max(max_hops, h);
      for (uint32_t e = g->row_ptr[v]; e < g->row_ptr[v + 1]; ++e) {
        const uint32_t u = g->col_idx[e];
        const uint64_t nd = d + w.weights()[e];
        if (nd < dist[u] || (nd == dist[u] && h + 1 < hops[u])) dist[u] = nd, hops[u] = h + 1, q.push({nd, h + 1, u});
      }
    }
    REQUIRE(all_kernels(w).size() == max_hops + 1);
    for (uint32_t v = 0; v < g->rows; ++v)
      REQUIRE((w.distances()[v] == SsspWorkload::kUnreached ? UINT64_MAX : uint64_t(w.distances()[v])) == dist[v]);
    UNSCOPED_INFO(rel << ": " << max_hops + 1 << " launches");
  }
  // bcsstk13's stiffness entries reach 1.2e12: as weights they do not fit 32 bits.
  REQUIRE_THROWS_WITH(make_workload("sssp", {{"input", data("matrices/bcsstk13.mtx")}}, 1),
                      Catch::Contains("does not fit a 32-bit weight"));
}

TEST_CASE("data: cfd on the FEM pattern jagmesh7 and on delaunay_n13 gathers every neighbour's state") {
  for (const char* rel : {"matrices/jagmesh7.mtx", "graphs/delaunay_n13.mtx"}) {
    INFO(rel);
    const CsrGraph g = read_matrix_market(data(rel));
    uint64_t offdiag = 0;
    unsigned maxdeg = 0;
    for (uint32_t v = 0; v < g.rows; ++v) {
      unsigned d = 0;
      for (uint32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e) d += g.col_idx[e] != v;
      offdiag += d;
      maxdeg = std::max(maxdeg, d);
    }
    auto w = make_workload("cfd", {{"input", data(rel)}}, 1);
    auto ks = all_kernels(*w);
    REQUIRE(ks.size() == 7);
    const AccessCount c = count_accesses(w->address_space(), *ks[1]);  // the first compute_flux
    const uint64_t nelr = w->address_space().array("areas").bytes / 4;
    REQUIRE(nelr % 192 == 0);
    REQUIRE(nelr - g.rows < 192);
    REQUIRE(w->address_space().array("elements_surrounding_elements").bytes == 4 * nelr * maxdeg);
    // density loads: every thread its own, plus one per neighbour slot (padding threads repeat the
    // last cell's row).
    const uint32_t last = g.rows - 1;
    unsigned last_deg = 0;
    for (uint32_t e = g.row_ptr[last]; e < g.row_ptr[last + 1]; ++e) last_deg += g.col_idx[e] != last;
    uint64_t density = 0;
    for (uint64_t i = 0; i < nelr; ++i) density += c.load("variables", i);
    REQUIRE(density == nelr + offdiag + (nelr - g.rows) * last_deg);
  }
  // delaunay_n13: 8,192 cells, max degree 12, 24,547 undirected edges (data README).
  auto d = make_workload("cfd", {{"input", data("graphs/delaunay_n13.mtx")}}, 1);
  REQUIRE(d->address_space().array("normals").bytes == 4ull * 8256 * 12 * 3);  // 8192 cells padded to 43 x 192
}

TEST_CASE("data: the Accel-Sim trace my_app: 55 CTAs x 4 warps x 33 instructions, 440 LDG.128 and 440 STG.128") {
  TraceWorkload::Params p;
  p.dir = data("traces/my_app");
  TraceWorkload w(p);
  auto k = w.next_kernel();
  REQUIRE(k);
  CHECK(k->num_ctas() == 55);
  CHECK(k->threads_per_cta() == 128);
  CHECK(k->warps_per_cta() == 4);
  uint64_t instrs = 0, loads = 0, stores = 0, bad_stride = 0;
  uint64_t lo = UINT64_MAX, hi = 0;
  for (unsigned c = 0; c < k->num_ctas(); ++c)
    for (unsigned wi = 0; wi < 4; ++wi) {
      auto s = k->warp(c, wi);
      WarpInstr in;
      while (s->next(in)) {
        ++instrs;
        if (!in.is_memory()) continue;
        CHECK(in.access_bytes == 16);
        CHECK(in.active_mask == kAllLanes);
        for (unsigned l = 1; l < kWarpSize; ++l) bad_stride += in.addr[l] != in.addr[0] + 16 * l;
        (in.op == WarpInstr::Op::Load ? loads : stores) += 1;
        if (in.op == WarpInstr::Op::Load) lo = std::min(lo, in.addr[0]), hi = std::max(hi, in.addr[31] + 16);
      }
    }
  // The data README: 7,260 warp instructions, 440 loads and 440 stores, mode 1 with a 16-byte
  // stride, loads covering 0x7f580face400..0x7f580fb05400 (225,280 bytes).
  CHECK(instrs == 7260);
  CHECK(loads == 440);
  CHECK(stores == 440);
  CHECK(bad_stride == 0);
  CHECK(lo == 0x7f580face400ull);
  CHECK(hi == 0x7f580fb05400ull);
  CHECK_FALSE(w.next_kernel());
}
