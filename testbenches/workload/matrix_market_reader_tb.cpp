// Matrix Market reader: fields, symmetry, tolerated layout, and the errors for malformed files.
#include <catch2/catch.hpp>

#include <sstream>

#include "workload/matrix_market_reader.h"
#include "workload_test_util.h"

using namespace gpusc;
using Catch::Matchers::Contains;

namespace {
CsrGraph parse(const std::string& text, MatrixMarketInfo* info = nullptr) {
  std::istringstream in(text);
  return read_matrix_market(in, "m.mtx", info);
}
std::vector<uint32_t> row(const CsrGraph& g, uint32_t r) {
  return std::vector<uint32_t>(g.col_idx.begin() + g.row_ptr[r], g.col_idx.begin() + g.row_ptr[r + 1]);
}
}  // namespace

TEST_CASE("Matrix Market: real general with comments, CRLF and a trailing blank line") {
  const std::string text =
      "%%MatrixMarket matrix coordinate real general\r\n"
      "% a comment\r\n"
      "%\r\n"
      "3 4 4\r\n"
      "1 2 1.5\r\n"
      "3 4 -2e-1\r\n"
      "% comment between entries\r\n"
      "1 1 .25\r\n"
      "2 3 7\r\n"
      "\r\n";
  MatrixMarketInfo info;
  const CsrGraph g = parse(text, &info);
  REQUIRE(info.field == "real");
  REQUIRE(info.symmetry == "general");
  REQUIRE(info.stored == 4);
  REQUIRE(g.rows == 3);
  REQUIRE(g.cols == 4);
  REQUIRE(g.nnz() == 4);
  REQUIRE(row(g, 0) == std::vector<uint32_t>{0, 1});
  REQUIRE(g.values[0] == 0.25f);
  REQUIRE(g.values[1] == 1.5f);
  REQUIRE(row(g, 1) == std::vector<uint32_t>{2});
  REQUIRE(g.values[2] == 7.f);
  REQUIRE(row(g, 2) == std::vector<uint32_t>{3});
  REQUIRE(g.values[3] == Approx(-0.2f));
}

TEST_CASE("Matrix Market: pattern symmetric mirrors off-diagonal entries, integer values") {
  const CsrGraph g = parse(
      "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n2 1\n3 3\n3 2\n");
  REQUIRE(!g.has_values());
  REQUIRE(g.nnz() == 5);  // (2,1),(1,2),(3,3),(3,2),(2,3)
  REQUIRE(row(g, 0) == std::vector<uint32_t>{1});
  REQUIRE(row(g, 1) == std::vector<uint32_t>{0, 2});
  REQUIRE(row(g, 2) == std::vector<uint32_t>{1, 2});
  const CsrGraph h = parse("%%MATRIXMARKET Matrix Coordinate Integer General\n2 2 1\n2 1 -3\n");
  REQUIRE(h.values == std::vector<float>{-3.f});
}

TEST_CASE("Matrix Market: a missing file is an error naming it") {
  REQUIRE_THROWS_WITH(read_matrix_market("/nonexistent/dir/none.mtx"),
                      Contains("cannot open") && Contains("/nonexistent/dir/none.mtx"));
}

TEST_CASE("Matrix Market: malformed files give errors naming file and line") {
  test::TempFile f("bad_header.mtx", "3 3 1\n1 1 1\n");
  REQUIRE_THROWS_WITH(read_matrix_market(f.path()), Contains(f.path() + ":1: missing Matrix Market header"));
  REQUIRE_THROWS_WITH(parse(""), Contains("m.mtx:1: empty file"));
  REQUIRE_THROWS_WITH(parse("%%MatrixMarket matrix coordinate real\n"), Contains("m.mtx:1: invalid header"));
  REQUIRE_THROWS_WITH(parse("%%MatrixMarket matrix array real general\n2 2\n"), Contains("only 'coordinate'"));
  REQUIRE_THROWS_WITH(parse("%%MatrixMarket matrix coordinate complex general\n"), Contains("field 'complex'"));
  REQUIRE_THROWS_WITH(parse("%%MatrixMarket matrix coordinate real hermitian\n"), Contains("symmetry 'hermitian'"));
  REQUIRE_THROWS_WITH(parse("%%MatrixMarket matrix coordinate real general\n% only comments\n\n"),
                      Contains("missing size line"));
  REQUIRE_THROWS_WITH(parse("%%MatrixMarket matrix coordinate real general\n%c\n3 3\n"),
                      Contains("m.mtx:3: invalid size line"));
  REQUIRE_THROWS_WITH(parse("%%MatrixMarket matrix coordinate real general\n3 x 1\n"),
                      Contains("m.mtx:2: invalid size line"));
  REQUIRE_THROWS_WITH(parse("%%MatrixMarket matrix coordinate real symmetric\n3 4 1\n1 1 1\n"),
                      Contains("must be square"));
}

TEST_CASE("Matrix Market: index out of range, wrong fields and wrong entry count") {
  const std::string h = "%%MatrixMarket matrix coordinate real general\n2 3 2\n";
  REQUIRE_THROWS_WITH(parse(h + "1 1 1\n3 1 1\n"), Contains("m.mtx:4: row index 3 is out of range 1..2"));
  REQUIRE_THROWS_WITH(parse(h + "1 4 1\n"), Contains("m.mtx:3: column index 4 is out of range 1..3"));
  REQUIRE_THROWS_WITH(parse(h + "0 1 1\n"), Contains("row index 0 is out of range"));
  REQUIRE_THROWS_WITH(parse(h + "1 1\n"), Contains("m.mtx:3: expected 3 fields"));
  REQUIRE_THROWS_WITH(parse(h + "1 1 abc\n"), Contains("m.mtx:3: value 'abc' is not a number"));
  REQUIRE_THROWS_WITH(parse(h + "1 1 1\n"), Contains("declares 2 entries but the file has 1"));
  REQUIRE_THROWS_WITH(parse(h + "1 1 1\n2 2 2\n1 3 3\n"), Contains("m.mtx:5: more entries than the 2 declared"));
  REQUIRE_THROWS_WITH(parse("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2 5\n"),
                      Contains("expected 2 fields"));
}

TEST_CASE("Matrix Market: a directory or an empty file is an error naming the path") {
  test::TempFile empty("empty.mtx", "");
  REQUIRE_THROWS_WITH(read_matrix_market(empty.path()), Contains("'" + empty.path() + "' is empty"));
  const std::string dir = empty.path().substr(0, empty.path().rfind('/'));
  REQUIRE_THROWS_WITH(read_matrix_market(dir), Contains("'" + dir + "': it is a directory"));
}

TEST_CASE("Matrix Market: a size line claiming more than the matrix or the file holds fails before allocating") {
  const std::string h = "%%MatrixMarket matrix coordinate real general\n";
  // 10^18 entries in a 2 x 2 matrix: more than its 4 cells.
  REQUIRE_THROWS_WITH(parse(h + "2 2 1000000000000000000\n1 1 1\n"),
                      Contains("m.mtx:2: the size line declares 1000000000000000000 entries, more than a 2 x 2 matrix has"));
  REQUIRE_THROWS_WITH(parse("%%MatrixMarket matrix coordinate real symmetric\n3 3 7\n"),
                      Contains("declares 7 entries, more than a 3 x 3 symmetric matrix stores"));
  // 2^31 rows: past the reader's 2^28 limit, refused before the row pointers are allocated.
  REQUIRE_THROWS_WITH(parse(h + "2147483648 1 1\n1 1 1\n"), Contains("exceeds the reader's limit of 268435456"));
  // A file of 86 bytes (46 + 34 + 6) cannot hold 10^12 entries of at least 6 bytes each.
  test::TempFile f("claims.mtx", h + "100000000 100000000 1000000000000\n1 1 1\n");
  REQUIRE_THROWS_WITH(read_matrix_market(f.path()),
                      Contains("declares 1000000000000 entries, but the file has only 86 bytes"));
  // Without a known size (a stream), a large claim reserves a bounded amount and fails on the count.
  REQUIRE_THROWS_WITH(parse(h + "100000000 100000000 1000000000000\n1 1 1\n"),
                      Contains("declares 1000000000000 entries but the file has 1"));
}
