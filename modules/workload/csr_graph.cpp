#include "workload/csr_graph.h"

#include <algorithm>

#include "common/report.h"

namespace gpusc {

CsrGraph CsrGraph::from_coo(uint32_t rows, uint32_t cols, std::vector<CooEntry> entries,
                            bool has_values, bool dedup) {
  if (entries.size() > UINT32_MAX)
    error("gpusc.workload.csr", entries.size(), " entries exceed the 32-bit index limit (", UINT32_MAX, ")");
  for (const auto& e : entries)
    if (e.row >= rows || e.col >= cols)
      error("gpusc.workload.csr", "entry (", e.row, ", ", e.col, ") is outside a ", rows, " x ", cols, " matrix");
  std::stable_sort(entries.begin(), entries.end(), [](const CooEntry& a, const CooEntry& b) {
    return a.row != b.row ? a.row < b.row : a.col < b.col;
  });
  if (dedup) {
    auto last = std::unique(entries.begin(), entries.end(), [](const CooEntry& a, const CooEntry& b) {
      return a.row == b.row && a.col == b.col;
    });
    entries.erase(last, entries.end());
  }
  CsrGraph g;
  g.rows = rows;
  g.cols = cols;
  g.row_ptr.assign(size_t(rows) + 1, 0);
  g.col_idx.reserve(entries.size());
  if (has_values) g.values.reserve(entries.size());
  for (const auto& e : entries) {
    ++g.row_ptr[e.row + 1];
    g.col_idx.push_back(e.col);
    if (has_values) g.values.push_back(e.value);
  }
  for (uint32_t r = 0; r < rows; ++r) g.row_ptr[r + 1] += g.row_ptr[r];
  return g;
}

std::vector<CooEntry> CsrGraph::to_coo() const {
  std::vector<CooEntry> out;
  out.reserve(nnz());
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t e = row_ptr[r]; e < row_ptr[r + 1]; ++e) out.push_back(CooEntry{r, col_idx[e], value(e)});
  return out;
}

CsrGraph CsrGraph::transposed() const {
  auto coo = to_coo();
  for (auto& e : coo) std::swap(e.row, e.col);
  return from_coo(cols, rows, std::move(coo), has_values());
}

CsrGraph CsrGraph::symmetrized() const {
  if (rows != cols)
    error("gpusc.workload.csr", "cannot symmetrize a non-square ", rows, " x ", cols, " matrix");
  auto coo = to_coo();
  const size_t n = coo.size();
  for (size_t i = 0; i < n; ++i)
    if (coo[i].row != coo[i].col) coo.push_back(CooEntry{coo[i].col, coo[i].row, coo[i].value});
  return from_coo(rows, cols, std::move(coo), has_values(), /*dedup=*/true);
}

CsrGraph CsrGraph::without_self_loops() const {
  auto coo = to_coo();
  coo.erase(std::remove_if(coo.begin(), coo.end(), [](const CooEntry& e) { return e.row == e.col; }),
            coo.end());
  return from_coo(rows, cols, std::move(coo), has_values());
}

void CsrGraph::validate(const std::string& what) const {
  auto fail = [&](const auto&... parts) { error("gpusc.workload.csr", what, ": ", parts...); };
  if (row_ptr.size() != size_t(rows) + 1)
    fail("row_ptr has ", row_ptr.size(), " entries, expected rows + 1 = ", size_t(rows) + 1);
  if (row_ptr.front() != 0) fail("row_ptr[0] is ", row_ptr.front(), ", expected 0");
  if (row_ptr.back() != col_idx.size())
    fail("row_ptr[rows] is ", row_ptr.back(), " but col_idx has ", col_idx.size(), " entries");
  if (!values.empty() && values.size() != col_idx.size())
    fail("values has ", values.size(), " entries but col_idx has ", col_idx.size());
  for (uint32_t r = 0; r < rows; ++r)
    if (row_ptr[r + 1] < row_ptr[r]) fail("row_ptr decreases at row ", r);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t e = row_ptr[r]; e < row_ptr[r + 1]; ++e) {
      if (col_idx[e] >= cols) fail("row ", r, " has column ", col_idx[e], " >= cols = ", cols);
      if (e > row_ptr[r] && col_idx[e] < col_idx[e - 1]) fail("row ", r, " is not sorted by column");
    }
  }
}

}  // namespace gpusc
