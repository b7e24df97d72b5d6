// SpMV (CSR scalar): touches row_ptr, col_idx, vals, x, y exactly as y = A x needs.
#include <catch2/catch.hpp>

#include "workload/spmv.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;

namespace {
// 5 x 4 matrix: row 0 = {1, 3}, row 1 = {}, row 2 = {0, 1, 2, 3}, row 3 = {2}, row 4 = {0, 3}
std::shared_ptr<const CsrGraph> small_matrix() {
  return std::make_shared<const CsrGraph>(CsrGraph::from_coo(
      5, 4, {{0, 1, 1}, {0, 3, 2}, {2, 0, 3}, {2, 1, 4}, {2, 2, 5}, {2, 3, 6}, {3, 2, 7}, {4, 0, 8}, {4, 3, 9}}, true));
}
}  // namespace

TEST_CASE("spmv reads every nonzero, col_idx and x[col] once per entry and writes y once per row") {
  auto a = small_matrix();
  SpmvWorkload::Params p;
  p.threads_per_cta = 64;  // one CTA, two warps; the second has no rows
  SpmvWorkload w(p, a);
  auto kernels = all_kernels(w);
  REQUIRE(kernels.size() == 1);
  const Kernel& k = *kernels[0];
  REQUIRE(k.num_ctas() == 1);
  REQUIRE(k.warps_per_cta() == 2);
  const auto warps = drain_kernel(k);
  check_invariants(w.address_space(), k, warps);
  const AccessCount c = count_accesses(w.address_space(), warps);

  REQUIRE(c.loaded() == std::set<std::string>{"row_ptr", "col_idx", "vals", "x"});
  REQUIRE(c.stored() == std::set<std::string>{"y"});
  REQUIRE(c.atomic().empty());
  // Reference: thread r reads row_ptr[r] and row_ptr[r + 1].
  for (uint64_t i = 0; i <= a->rows; ++i) REQUIRE(c.load("row_ptr", i) == unsigned(i < a->rows) + unsigned(i >= 1));
  for (uint64_t e = 0; e < a->nnz(); ++e) {
    REQUIRE(c.load("col_idx", e) == 1);
    REQUIRE(c.load("vals", e) == 1);
  }
  std::vector<unsigned> col_count(a->cols, 0);
  for (uint32_t col : a->col_idx) ++col_count[col];
  for (uint32_t j = 0; j < a->cols; ++j) REQUIRE(c.load("x", j) == col_count[j]);
  REQUIRE(c.total_loads("x") == a->nnz());
  for (uint32_t r = 0; r < a->rows; ++r) REQUIRE(c.store("y", r) == 1);
  REQUIRE(c.stores.at("y").size() == a->rows);

  // SIMT divergence: warp 0 iterates max(row length) = 4 times; the lanes of iteration j are the
  // rows longer than j. Warp 1 holds no rows and issues no memory instruction.
  unsigned iter = 0;
  for (const auto& i : on_array(w.address_space(), warps[0], "col_idx", WarpInstr::Op::Load)) {
    uint32_t want = 0;
    for (uint32_t r = 0; r < a->rows; ++r)
      if (a->degree(r) > iter) want |= 1u << r;
    REQUIRE(i.active_mask == want);
    ++iter;
  }
  REQUIRE(iter == 4);
  for (const auto& i : warps[1]) REQUIRE(!i.is_memory());
}

TEST_CASE("spmv: partial warps and CTAs leave lanes beyond the rows and the CTA inactive") {
  // 45 rows, CTAs of 40 threads: CTA 0 = rows 0..39 (warp 1 has 8 lanes), CTA 1 = rows 40..44.
  auto a = std::make_shared<const CsrGraph>(CsrGraph::from_coo(45, 45, {{44, 0}, {0, 44}, {39, 39}}, true));
  SpmvWorkload::Params p;
  p.threads_per_cta = 40;
  SpmvWorkload w(p, a);
  auto k = w.next_kernel();
  REQUIRE(k->num_ctas() == 2);
  REQUIRE(k->warps_per_cta() == 2);
  const auto warps = drain_kernel(*k);
  check_invariants(w.address_space(), *k, warps);
  // CTA 1 warp 0 stores y[40..44]: lanes 0..4.
  for (const auto& i : warps[2])
    if (i.op == WarpInstr::Op::Store) REQUIRE(i.active_mask == 0x1fu);
  const AccessCount c = count_accesses(w.address_space(), warps);
  REQUIRE(c.stores.at("y").size() == 45);
  REQUIRE(c.load("x", 0) == 1);
  REQUIRE(c.load("x", 44) == 1);
  REQUIRE(c.load("x", 39) == 1);
}
