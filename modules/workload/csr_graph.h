// CsrGraph: a sparse matrix or directed graph in compressed sparse row form, the input of the
// graph and sparse kernels (BFS, PageRank, SpMV). Row r's entries are col_idx[row_ptr[r] ..
// row_ptr[r+1]), columns ascending within a row; values are optional (empty = pattern).
// A graph is a square matrix: row = source vertex, column = destination (an arc u -> v).
// Indices are 32-bit, as the GPU kernels store them; more than 2^32-1 entries is an error.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace gpusc {

struct CooEntry {
  uint32_t row = 0, col = 0;
  float value = 1.0f;
};

struct CsrGraph {
  uint32_t rows = 0, cols = 0;
  std::vector<uint32_t> row_ptr{0};  // rows + 1 offsets
  std::vector<uint32_t> col_idx;     // nnz column indices
  std::vector<float> values;         // nnz values, or empty for a pattern matrix

  // Builds from entries in any order; rows sorted by column, equal (row, col) entries kept in
  // input order, or only the first one of them with `dedup`. Indices must be in range.
  static CsrGraph from_coo(uint32_t rows, uint32_t cols, std::vector<CooEntry> entries,
                           bool has_values, bool dedup = false);

  uint64_t nnz() const { return col_idx.size(); }
  bool has_values() const { return !values.empty(); }
  uint32_t degree(uint32_t r) const { return row_ptr[r + 1] - row_ptr[r]; }
  // The lanes of `lanes` (bit l: row first + l) whose row has more than j entries: in a warp of
  // one thread per row, the lanes still in iteration j of their row loop.
  uint32_t rows_longer_than(uint32_t j, uint64_t first, uint32_t lanes) const {
    uint32_t m = 0;
    for (unsigned l = 0; l < 32; ++l)
      if (((lanes >> l) & 1u) && j < degree(static_cast<uint32_t>(first + l))) m |= 1u << l;
    return m;
  }
  float value(uint64_t e) const { return values.empty() ? 1.0f : values[e]; }

  CsrGraph transposed() const;          // in-edge form: arc v -> u for every u -> v
  CsrGraph symmetrized() const;         // union with the transpose, duplicates removed
  CsrGraph without_self_loops() const;  // drops every (r, r) entry
  std::vector<CooEntry> to_coo() const;

  // Checks the invariants (sizes, monotone row_ptr, indices in range, sorted rows) and raises a
  // gpusc::error naming `what` and the first violation. Kernels call it on their input.
  void validate(const std::string& what) const;
};

}  // namespace gpusc
