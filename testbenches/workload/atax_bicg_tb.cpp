// ATAX and BICG (PolyBench): two launches each, every A element read once per launch, the
// broadcast vector read once per thread, the output written once.
#include <catch2/catch.hpp>

#include "workload/atax.h"
#include "workload/bicg.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;

namespace {
constexpr unsigned NX = 5, NY = 7;

// One launch: thread per row (by_column false) or per column of the NX x NY matrix A.
void check_matvec(const Workload& w, const Kernel& k, bool by_column, const std::string& vec, const std::string& out) {
  INFO(k.name());
  const auto warps = drain_kernel(k);
  check_invariants(w.address_space(), k, warps);
  const AccessCount c = count_accesses(w.address_space(), warps);
  REQUIRE(c.loaded() == std::set<std::string>{"A", vec});
  REQUIRE(c.stored() == std::set<std::string>{out});
  const unsigned threads = by_column ? NY : NX, len = by_column ? NX : NY;
  for (uint64_t i = 0; i < NX * NY; ++i) REQUIRE(c.load("A", i) == 1);
  for (uint64_t j = 0; j < len; ++j) REQUIRE(c.load(vec, j) == threads);
  for (uint64_t t = 0; t < threads; ++t) REQUIRE(c.store(out, t) == 1);
  // Lanes of one A load: a row segment (by column: 4 bytes apart) or a column (4 * NY apart).
  for (const auto& i : on_array(w.address_space(), warps[0], "A", WarpInstr::Op::Load))
    for (unsigned l = 1; l < threads; ++l) REQUIRE(i.addr[l] - i.addr[l - 1] == (by_column ? 4u : 4u * NY));
  for (const auto& i : on_array(w.address_space(), warps[0], vec, WarpInstr::Op::Load))
    for (unsigned l = 1; l < threads; ++l) REQUIRE(i.addr[l] == i.addr[0]);  // broadcast
}
}  // namespace

TEST_CASE("atax: tmp = A x by rows, then y = A^T tmp by columns") {
  AtaxWorkload::Params p;
  p.nx = NX, p.ny = NY, p.threads_per_cta = 32;
  AtaxWorkload w(p);
  auto k = all_kernels(w);
  REQUIRE(k.size() == 2);
  REQUIRE(k[0]->name() == "atax.kernel1");
  check_matvec(w, *k[0], false, "x", "tmp");
  check_matvec(w, *k[1], true, "tmp", "y");
}

TEST_CASE("bicg: s = A^T r by columns, then q = A p by rows") {
  BicgWorkload::Params p;
  p.nx = NX, p.ny = NY, p.threads_per_cta = 32;
  BicgWorkload w(p);
  auto k = all_kernels(w);
  REQUIRE(k.size() == 2);
  REQUIRE(k[1]->name() == "bicg.kernel2");
  check_matvec(w, *k[0], true, "r", "s");
  check_matvec(w, *k[1], false, "p", "q");
}
