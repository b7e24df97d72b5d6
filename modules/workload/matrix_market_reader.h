// Matrix Market reader: coordinate matrices ("%%MatrixMarket matrix coordinate <field>
// <symmetry>") with field real, integer or pattern and symmetry general or symmetric, the
// format of the SuiteSparse collection (SpMV matrices, and graphs as adjacency matrices).
// Choices: symmetric files store one triangle, so every off-diagonal entry (i, j) is mirrored
// to (j, i); integer values become floats; % comment lines and blank lines are skipped
// anywhere after the header (SuiteSparse files end with a blank line); lines may end in CRLF;
// keywords are case-insensitive. Unsupported (array format, complex, skew-symmetric, hermitian)
// and malformed files are a gpusc::error naming the file and the line. Duplicate entries are
// kept as they are.
#pragma once
#include <istream>
#include <string>

#include "workload/csr_graph.h"

namespace gpusc {

struct MatrixMarketInfo {
  std::string field;     // real | integer | pattern
  std::string symmetry;  // general | symmetric
  uint64_t stored = 0;   // entries in the file (before mirroring)
};

// Reads `path`; a missing file is an error naming it.
CsrGraph read_matrix_market(const std::string& path, MatrixMarketInfo* info = nullptr);
// Reads from a stream; `name` stands for the file in error messages.
CsrGraph read_matrix_market(std::istream& in, const std::string& name, MatrixMarketInfo* info = nullptr);

}  // namespace gpusc
