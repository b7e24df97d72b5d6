#include "workload/matrix_market_reader.h"

#include <algorithm>
#include <fstream>

#include "common/report.h"
#include "workload/text_parse.h"

namespace gpusc {
namespace {

constexpr const char* kWho = "gpusc.workload.matrix_market";
constexpr uint64_t kReserveCap = 1 << 20;  // entries reserved up front; more grow as they are read
constexpr const char* kHeaderForm =
    "'%%MatrixMarket matrix coordinate <real|integer|pattern> <general|symmetric>'";

struct Header {
  std::string field, symmetry;
};

Header parse_header(const std::string& line, const std::string& name) {
  std::vector<std::string_view> t;
  text::split(line, t);
  if (t.empty() || text::lower(t[0]) != "%%matrixmarket")
    error(kWho, name, ":1: missing Matrix Market header; the first line must be ", kHeaderForm);
  if (t.size() != 5)
    error(kWho, name, ":1: invalid header '", line, "'; expected ", kHeaderForm);
  const std::string object = text::lower(t[1]), format = text::lower(t[2]);
  Header h{text::lower(t[3]), text::lower(t[4])};
  if (object != "matrix") error(kWho, name, ":1: object '", t[1], "' is not supported, only 'matrix'");
  if (format != "coordinate")
    error(kWho, name, ":1: format '", t[2], "' is not supported, only 'coordinate' (sparse)");
  if (h.field != "real" && h.field != "integer" && h.field != "pattern")
    error(kWho, name, ":1: field '", t[3], "' is not supported; use real, integer or pattern");
  if (h.symmetry != "general" && h.symmetry != "symmetric")
    error(kWho, name, ":1: symmetry '", t[4], "' is not supported; use general or symmetric");
  return h;
}

uint32_t parse_index(std::string_view s, uint64_t limit, const char* what, const std::string& name,
                     uint64_t line) {
  uint64_t v = 0;
  if (!text::to_u64(s, v))
    error(kWho, name, ":", line, ": ", what, " index '", s, "' is not a positive integer");
  if (v < 1 || v > limit)
    error(kWho, name, ":", line, ": ", what, " index ", v, " is out of range 1..", limit);
  return static_cast<uint32_t>(v - 1);
}

}  // namespace

CsrGraph read_matrix_market(const std::string& path, MatrixMarketInfo* info) {
  std::ifstream in;
  const uint64_t bytes = text::open_input(in, path, kWho, "Matrix Market file");
  return read_matrix_market(in, path, info, bytes);
}

CsrGraph read_matrix_market(std::istream& in, const std::string& name, MatrixMarketInfo* info, uint64_t bytes) {
  std::string line;
  uint64_t lineno = 0;
  if (!std::getline(in, line)) error(kWho, name, ":1: empty file; expected the header ", kHeaderForm);
  ++lineno;
  const Header h = parse_header(line, name);
  const bool pattern = h.field == "pattern", symmetric = h.symmetry == "symmetric";

  std::vector<std::string_view> t;
  uint64_t rows = 0, cols = 0, declared = 0;
  bool have_size = false;
  while (!have_size && std::getline(in, line)) {
    ++lineno;
    if (text::blank(line) || line[0] == '%') continue;
    text::split(line, t);
    if (t.size() != 3 || !text::to_u64(t[0], rows) || !text::to_u64(t[1], cols) ||
        !text::to_u64(t[2], declared))
      error(kWho, name, ":", lineno, ": invalid size line '", line, "'; expected '<rows> <cols> <entries>'");
    have_size = true;
  }
  if (!have_size) error(kWho, name, ":", lineno, ": missing size line '<rows> <cols> <entries>'");
  if (rows > UINT32_MAX || cols > UINT32_MAX)
    error(kWho, name, ":", lineno, ": ", rows, " x ", cols, " exceeds the 32-bit index limit");
  if (symmetric && rows != cols)
    error(kWho, name, ":", lineno, ": a symmetric matrix must be square, but the size line says ",
          rows, " x ", cols);
  // Checked before anything is allocated: a size line is only a claim.
  if (rows > kMaxRows || cols > kMaxRows)
    error(kWho, name, ":", lineno, ": ", rows, " x ", cols, " exceeds the reader's limit of ", kMaxRows,
          " rows and columns (row pointers alone would take ", (rows + 1) * 4 / (1 << 20), " MiB)");
  const uint64_t cells = rows * cols;  // < 2^56: no overflow
  if (declared > (symmetric ? rows * (rows + 1) / 2 : cells))
    error(kWho, name, ":", lineno, ": the size line declares ", declared, " entries, more than a ", rows, " x ", cols,
          symmetric ? " symmetric matrix stores" : " matrix has");
  const uint64_t min_line = pattern ? 4 : 6;  // "1 1\n", "1 1 1\n"
  if (bytes != UINT64_MAX && declared > bytes / min_line)
    error(kWho, name, ":", lineno, ": the size line declares ", declared, " entries, but the file has only ", bytes,
          " bytes (an entry line takes at least ", min_line, ")");

  const size_t want_tokens = pattern ? 2 : 3;
  std::vector<CooEntry> coo;
  coo.reserve(std::min<uint64_t>(symmetric ? 2 * declared : declared, kReserveCap));
  uint64_t stored = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (text::blank(line) || line[0] == '%') continue;
    if (stored == declared)
      error(kWho, name, ":", lineno, ": more entries than the ", declared, " declared in the size line");
    text::split(line, t);
    if (t.size() != want_tokens)
      error(kWho, name, ":", lineno, ": expected ", want_tokens, " fields (", pattern ? "row col" : "row col value",
            ") for a ", h.field, " matrix, got '", line, "'");
    CooEntry e;
    e.row = parse_index(t[0], rows, "row", name, lineno);
    e.col = parse_index(t[1], cols, "column", name, lineno);
    if (h.field == "real") {
      double v = 0;
      if (!text::to_double(t[2], v)) error(kWho, name, ":", lineno, ": value '", t[2], "' is not a number");
      e.value = static_cast<float>(v);
    } else if (h.field == "integer") {
      int64_t v = 0;
      if (!text::to_i64(t[2], v)) error(kWho, name, ":", lineno, ": value '", t[2], "' is not an integer");
      e.value = static_cast<float>(v);
    }
    coo.push_back(e);
    if (symmetric && e.row != e.col) coo.push_back(CooEntry{e.col, e.row, e.value});
    ++stored;
  }
  if (stored != declared)
    error(kWho, name, ":", lineno, ": the size line declares ", declared, " entries but the file has ", stored);
  if (info) *info = MatrixMarketInfo{h.field, h.symmetry, stored};
  return CsrGraph::from_coo(static_cast<uint32_t>(rows), static_cast<uint32_t>(cols), std::move(coo), !pattern);
}

}  // namespace gpusc
