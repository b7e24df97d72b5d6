// Workload factory and the contract every kernel model keeps: invariants, determinism under a
// seed, lazy order-independent streams, input files, parameter errors, sizes and footprints.
#include <catch2/catch.hpp>

#include <algorithm>

#include "workload/workload_factory.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;
using Catch::Matchers::Contains;

namespace {
// Small parameters per workload so that whole runs stay quick in a test.
json small_params(const std::string& name) {
  if (name == "atax" || name == "bicg") return {{"nx", 40}, {"ny", 70}, {"threads_per_cta", 32}};
  if (name == "barnes-hut") return {{"bodies", 160}, {"threads_per_cta", 96}};
  if (name == "cfd") return {{"mesh_x", 6}, {"mesh_y", 4}, {"mesh_z", 3}, {"block_size", 96}};
  if (name == "bfs") return {{"generator", "rmat"}, {"scale", 8}, {"edge_factor", 4}, {"threads_per_cta", 64}};
  if (name == "pagerank") return {{"scale", 7}, {"iterations", 2}, {"threads_per_cta", 96}};
  if (name == "spmv") return {{"rows", 300}, {"nnz_per_row", 5}, {"threads_per_cta", 128}};
  if (name == "comd") return {{"nx", 3}, {"ny", 3}, {"nz", 3}, {"threads_per_cta", 64}};
  if (name == "conv2d") return {{"width", 50}, {"height", 20}, {"filter", 5}};
  if (name == "gemm") return {{"m", 40}, {"n", 36}, {"k", 20}, {"tile", 8}};
  if (name == "polybench-gemm") return {{"ni", 20}, {"nj", 40}, {"nk", 6}};
  if (name == "2mm") return {{"ni", 12}, {"nj", 9}, {"nk", 5}, {"nl", 35}, {"block_x", 16}};
  if (name == "3mm") return {{"ni", 10}, {"nj", 7}, {"nk", 4}, {"nl", 33}, {"nm", 3}};
  if (name == "histogram") return {{"elements", 1000}, {"bins", 64}, {"threads_per_cta", 100}};
  if (name == "kmeans") return {{"points", 300}, {"features", 3}, {"clusters", 4}, {"max_iterations", 3}};
  if (name == "sssp") return {{"generator", "rmat"}, {"scale", 8}, {"edge_factor", 4}, {"threads_per_cta", 64}};
  if (name == "stencil2d") return {{"rows", 20}, {"cols", 40}, {"iterations", 2}};
  if (name == "stencil3d") return {{"nx", 40}, {"ny", 10}, {"nz", 3}, {"iterations", 2}, {"block_x", 16}};
  if (name == "stream") return {{"elements", 1000}, {"threads_per_cta", 96}};
  if (name == "transpose") return {{"width", 40}, {"height", 33}, {"block_x", 16}, {"block_y", 16}};
  if (name == "string-match") return {{"bytes", 3000}, {"keyword", "the"}, {"threads_per_cta", 64}};
  if (name == "bitonic-sort") return {{"length", 256}, {"threads_per_cta", 96}};
  if (name == "aes") return {{"bytes", 16 * 200}, {"threads_per_cta", 96}};
  if (name == "fir") return {{"length", 300}, {"taps", 5}, {"threads_per_cta", 96}};
  if (name == "word-count") return {{"bytes", 1500}, {"min_length", 5}};
  if (name == "inverted-index") return {{"bytes", 2000}, {"urls", 40}};
  if (name == "page-view-count") return {{"bytes", 1200}, {"pages", 8}, {"clients", 4}, {"repeat", 0.2}};
  FAIL("no small params for " << name);
  return {};
}

// Every stream of every launch, in (launch, cta, warp) order.
std::vector<std::vector<Stream>> run(Workload& w) {
  std::vector<std::vector<Stream>> out;
  for (auto& k : all_kernels(w)) out.push_back(drain_kernel(*k));
  return out;
}
}  // namespace

TEST_CASE("factory knows the twenty-seven kernels and the trace replay, and names them in the unknown-name error") {
  auto all = workload_names();
  REQUIRE(std::find(all.begin(), all.end(), "accel-sim") != all.end());
  REQUIRE(all.size() == kernel_model_names().size() + 1);
  const auto names = kernel_model_names();
  REQUIRE(names == std::vector<std::string>{"2mm", "3mm", "aes", "atax", "barnes-hut", "bfs", "bicg", "bitonic-sort", "cfd",
                                            "comd", "conv2d", "fir", "gemm", "histogram", "inverted-index", "kmeans",
                                            "page-view-count", "pagerank", "polybench-gemm", "spmv", "sssp", "stencil2d",
                                            "stencil3d", "stream", "string-match", "transpose", "word-count"});
  REQUIRE(std::is_sorted(names.begin(), names.end()));
  REQUIRE_THROWS_WITH(make_workload("fft", json::object(), 1),
                      Contains("unknown workload 'fft'") && Contains("2mm, 3mm, accel-sim, aes, atax, barnes-hut, bfs, bicg"));
  REQUIRE_THROWS_WITH(make_workload("gemm", {{"tiles", 8}}, 1),
                      Contains("unknown parameter 'gemm.tiles'") && Contains("tile"));
  REQUIRE_THROWS_WITH(make_workload("gemm", {{"tile", 64}}, 1), Contains("'gemm.tile' = 64 is out of range"));
  REQUIRE_THROWS_WITH(make_workload("bfs", {{"generator", "ring"}}, 1), Contains("rmat|grid|banded|uniform"));
  REQUIRE_THROWS_WITH(make_workload("pagerank", {{"rmat_a", 0.9}}, 1),
                      Contains("pagerank.rmat_a + rmat_b + rmat_c + rmat_d"));
  REQUIRE_THROWS_WITH(make_workload("spmv", {{"input", "matrix.csv"}}, 1), Contains("unknown file type"));
  REQUIRE_THROWS_WITH(make_workload("spmv", {{"input", "/nonexistent/a.mtx"}}, 1), Contains("cannot open"));
}

TEST_CASE("factory: effective parameters and parameter docs") {
  const json e = workload_effective_params("bfs", {{"source", 3}});
  REQUIRE(e.at("source") == 3);
  REQUIRE(e.at("symmetrize") == true);  // BFS default: undirected
  REQUIRE(e.at("generator") == "uniform");  // BFS default: a Rodinia-like random graph
  REQUIRE(workload_effective_params("bfs", {{"size", "small"}}).at("generator") == "rmat");
  REQUIRE(workload_effective_params("spmv", json::object()).at("generator") == "uniform");
  const json d = workload_params_doc("histogram");
  REQUIRE(d.size() == 5);  // four Params fields and the factory's "size"
  REQUIRE(d[2].at("name") == "distribution");
  REQUIRE(d[2].at("choices") == "normal|uniform");
}

TEST_CASE("every workload keeps the stream invariants on small inputs") {
  for (const auto& name : kernel_model_names()) {
    INFO(name);
    auto w = make_workload(name, small_params(name), 7);
    REQUIRE(w->name() == name);
    unsigned launches = 0;
    while (auto k = w->next_kernel()) {
      ++launches;
      check_invariants(w->address_space(), *k, drain_kernel(*k));
      REQUIRE_THROWS(k->warp(k->num_ctas(), 0));
      REQUIRE_THROWS(k->warp(0, k->warps_per_cta()));
    }
    REQUIRE(launches >= 1);
    REQUIRE(w->next_kernel() == nullptr);
  }
}

TEST_CASE("same seed gives identical streams, a different seed a different R-MAT graph or body set") {
  for (const auto& name : kernel_model_names()) {
    INFO(name);
    auto a = make_workload(name, small_params(name), 99);
    auto b = make_workload(name, small_params(name), 99);
    const auto ra = run(*a), rb = run(*b);
    REQUIRE(ra.size() == rb.size());
    for (size_t k = 0; k < ra.size(); ++k) {
      REQUIRE(ra[k].size() == rb[k].size());
      for (size_t s = 0; s < ra[k].size(); ++s) REQUIRE(same_stream(ra[k][s], rb[k][s]));
    }
  }
  for (const char* name : {"bfs", "pagerank", "barnes-hut", "sssp"}) {
    auto a = make_workload(name, small_params(name), 1);
    auto b = make_workload(name, small_params(name), 2);
    const auto ra = run(*a), rb = run(*b);
    bool differ = ra.size() != rb.size();
    for (size_t k = 0; !differ && k < ra.size(); ++k)
      for (size_t s = 0; !differ && s < ra[k].size(); ++s) differ = !same_stream(ra[k][s], rb[k][s]);
    REQUIRE(differ);
  }
}

TEST_CASE("streams are lazy and order-independent: one warp alone equals all warps interleaved") {
  for (const auto& name : kernel_model_names()) {
    INFO(name);
    auto w = make_workload(name, small_params(name), 5);
    auto fresh = make_workload(name, small_params(name), 5);  // for warps pulled with no others
    for (unsigned launch = 0;; ++launch) {
      auto k = w->next_kernel();
      auto kf = fresh->next_kernel();
      REQUIRE((k == nullptr) == (kf == nullptr));
      if (!k) break;
      const unsigned wpc = k->warps_per_cta(), n = k->num_ctas() * wpc;
      // All warps live at once, pulled one instruction at a time round-robin, last warp first.
      std::vector<std::unique_ptr<WarpStream>> live;
      for (unsigned i = n; i-- > 0;) live.push_back(k->warp(i / wpc, i % wpc));
      std::vector<Stream> inter(n);
      for (bool any = true; any;) {
        any = false;
        for (unsigned j = 0; j < n; ++j) {
          WarpInstr ins;
          if (live[j] && live[j]->next(ins)) {
            inter[n - 1 - j].push_back(ins);
            any = true;
          } else {
            live[j].reset();
          }
        }
      }
      // One warp of a fresh workload's launch, the only stream ever created there.
      const unsigned only = (launch * 7 + 3) % n;
      REQUIRE(same_stream(drain(*kf->warp(only / wpc, only % wpc)), inter[only]));
      // And each warp alone again, in descending order.
      for (unsigned i = n; i-- > 0;) REQUIRE(same_stream(drain(*k->warp(i / wpc, i % wpc)), inter[i]));
    }
  }
}

TEST_CASE("a kernel's streams outlive the workload and the kernel that made them") {
  auto w = make_workload("bfs", small_params("bfs"), 3);
  auto k = w->next_kernel();
  const Stream ref = drain(*k->warp(0, 0));
  auto s = k->warp(0, 0);
  k.reset();
  w.reset();
  REQUIRE(same_stream(drain(*s), ref));
}

TEST_CASE("graph kernels read their input from a Matrix Market or edge-list file") {
  TempFile mtx("m.mtx", "%%MatrixMarket matrix coordinate real general\n3 5 4\n1 1 1\n1 5 2\n2 3 3\n3 2 4\n");
  auto spmv = make_workload("spmv", {{"input", mtx.path()}}, 1);
  REQUIRE(spmv->address_space().array("row_ptr").bytes == 4 * 4);
  REQUIRE(spmv->address_space().array("x").bytes == 4 * 5);
  const AccessCount c = count_accesses(spmv->address_space(), *spmv->next_kernel());
  REQUIRE(c.total_loads("vals") == 4);
  REQUIRE(c.load("x", 4) == 1);
  REQUIRE(c.load("x", 3) == 0);

  // Path 10 - 20 - 30 - 40 as a directed SNAP list; symmetrized by BFS's default.
  TempFile el("p.txt", "# path\r\n10\t20\r\n20\t30\r\n30\t40\r\n");
  auto bfs = make_workload("bfs", {{"input", el.path()}}, 1);
  REQUIRE(bfs->address_space().array("level").bytes == 4 * 4);
  REQUIRE(all_kernels(*bfs).size() == 4);  // eccentricity 3 from vertex 0 (id 10)
  auto bfs_rev = make_workload("bfs", {{"input", el.path()}, {"source", 3}, {"symmetrize", false}}, 1);
  REQUIRE(all_kernels(*bfs_rev).size() == 1);  // vertex 40 has no out-arcs

  // sssp's weights = auto: a file's values as integers (max(1, round(|v|))), hashed without values.
  auto word = [](const Workload& w, const std::string& a, uint64_t i) {
    unsigned char b[4];
    w.address_space().read_contents(w.address_space().base(a) + 4 * i, 4, b);
    return uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
  };
  TempFile wmtx("w.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 7.4\n2 3 -2\n1 3 0.2\n");
  auto sssp = make_workload("sssp", {{"input", wmtx.path()}, {"symmetrize", false}}, 1);
  REQUIRE(word(*sssp, "weight", 0) == 7);  // row 0: (0,1) 7.4, (0,2) 0.2
  REQUIRE(word(*sssp, "weight", 1) == 1);
  REQUIRE(word(*sssp, "weight", 2) == 2);  // row 1: (1,2) -2
  REQUIRE(all_kernels(*sssp).size() == 2);  // 0 -> 2 directly (weight 1) beats 0 -> 1 -> 2 (9)
  auto sssp_el = make_workload("sssp", {{"input", el.path()}, {"max_weight", 1}}, 1);
  for (uint64_t e = 0; e < 6; ++e) REQUIRE(word(*sssp_el, "weight", e) == 1);  // hashed in [1, 1]
  REQUIRE(all_kernels(*sssp_el).size() == 4);  // unit weights: the BFS levels
}

TEST_CASE("size=small keeps every workload within a few hundred thousand warp instructions") {
  for (const auto& name : kernel_model_names()) {
    INFO(name);
    auto w = make_workload(name, {{"size", "small"}}, 1);
    uint64_t instrs = 0, mem = 0;
    while (auto k = w->next_kernel())
      for (unsigned c = 0; c < k->num_ctas(); ++c)
        for (unsigned i = 0; i < k->warps_per_cta(); ++i) {
          auto s = k->warp(c, i);
          for (WarpInstr ins; s->next(ins);) {
            ++instrs;
            mem += ins.is_memory();
          }
        }
    UNSCOPED_INFO(name << ": " << instrs << " warp instructions, " << mem << " memory");
    REQUIRE(instrs > 10000);
    REQUIRE(instrs < 400000);
    REQUIRE(mem * 50 > instrs);  // at least 2% memory instructions (tiled GEMM has ~5%)
  }
}

TEST_CASE("default inputs have footprints of at least 8 x a 512 KB L2, small ones smaller") {
  constexpr uint64_t kL2 = 512 * 1024;  // paper 001: 8 MCs x 64 KB
  for (const auto& name : kernel_model_names()) {
    INFO(name);
    const uint64_t big = make_workload(name, json::object(), 1)->address_space().bytes();
    const uint64_t small = make_workload(name, {{"size", "small"}}, 1)->address_space().bytes();
    UNSCOPED_INFO(name << ": default " << big << " B, small " << small << " B");
    REQUIRE(big >= 8 * kL2);
    REQUIRE(small < big);
  }
}

TEST_CASE("size: a preset under the other keys, and an unknown size is an error naming the choices") {
  const json e = workload_effective_params("gemm", {{"size", "small"}, {"k", 64}});
  REQUIRE(e.at("size") == "small");
  REQUIRE(e.at("m") == 128);  // from the small preset
  REQUIRE(e.at("k") == 64);   // given
  REQUIRE(workload_effective_params("gemm", json::object()).at("size") == "default");
  REQUIRE(workload_effective_params("gemm", {{"size", "default"}}) == workload_effective_params("gemm", json::object()));
  // The effective parameters reproduce the run they describe.
  const json bfs = workload_effective_params("bfs", {{"size", "small"}, {"threads_per_cta", 64}});
  REQUIRE(bfs.at("scale") == 12);
  REQUIRE(bfs.at("threads_per_cta") == 64);
  REQUIRE(workload_effective_params("bfs", bfs) == bfs);
  REQUIRE_THROWS_WITH(make_workload("gemm", {{"size", "huge"}}, 1),
                      Contains("gemm.size") && Contains("default|small"));
  REQUIRE_THROWS_WITH(make_workload("gemm", {{"size", 2}}, 1), Contains("'gemm.size' must be a string"));
  const json d = workload_params_doc("gemm");
  REQUIRE(d.back().at("name") == "size");
  REQUIRE(d.back().at("choices") == "default|small");
}

TEST_CASE("a graph input with no vertices or no edges is an error, not a 0-cycle run") {
  test::TempFile comments("only_comments.txt", "# nothing here\n");
  REQUIRE_THROWS_WITH(make_workload("bfs", {{"input", comments.path()}}, 1),
                      Catch::Contains(comments.path()) && Catch::Contains("has 0 vertices and 0 edges"));
  test::TempFile empty_matrix("no_entries.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 0\n");
  REQUIRE_THROWS_WITH(make_workload("spmv", {{"input", empty_matrix.path()}}, 1),
                      Catch::Contains("has 3 vertices and 0 edges"));
}
