// Matrix Market reader: coordinate matrices ("%%MatrixMarket matrix coordinate <field>
// <symmetry>") with field real, integer or pattern and symmetry general or symmetric, the
// format of the SuiteSparse collection (SpMV matrices, and graphs as adjacency matrices).
// Choices: symmetric files store one triangle, so every off-diagonal entry (i, j) is mirrored
// to (j, i); integer values become floats; % comment lines and blank lines are skipped
// anywhere after the header (SuiteSparse files end with a blank line); lines may end in CRLF;
// keywords are case-insensitive. Unsupported (array format, complex, skew-symmetric, hermitian)
// and malformed files are a gpusc::error naming the file and the line. Duplicate entries are
// kept as they are. A size line is checked before anything is allocated: at most kMaxRows rows
// and columns, no more entries than the matrix has cells, and no more than the file's bytes
// could hold; a directory or an empty file is an error naming the path.
#pragma once
#include <cstdint>
#include <istream>
#include <string>

#include "workload/csr_graph.h"

namespace gpusc {

struct MatrixMarketInfo {
  std::string field;     // real | integer | pattern
  std::string symmetry;  // general | symmetric
  uint64_t stored = 0;   // entries in the file (before mirroring)
};

// Rows and columns a file may declare: 2^28 (1 GiB of 32-bit row pointers).
constexpr uint64_t kMaxRows = uint64_t{1} << 28;

// Reads `path`; a missing file is an error naming it.
CsrGraph read_matrix_market(const std::string& path, MatrixMarketInfo* info = nullptr);
// Reads from a stream; `name` stands for the file in error messages; `bytes`, when known, is
// the stream's size (it bounds the entries a size line may declare).
CsrGraph read_matrix_market(std::istream& in, const std::string& name, MatrixMarketInfo* info = nullptr,
                            uint64_t bytes = UINT64_MAX);

}  // namespace gpusc
