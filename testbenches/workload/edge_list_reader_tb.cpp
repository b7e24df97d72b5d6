// SNAP edge-list reader: comments, CRLF, id remapping, symmetrize and self-loop options, errors.
#include <catch2/catch.hpp>

#include <sstream>

#include "workload/edge_list_reader.h"
#include "workload_test_util.h"

using namespace gpusc;
using Catch::Matchers::Contains;

namespace {
const char* kFile =
    "# Directed graph: test\r\n"
    "# FromNodeId\tToNodeId\r\n"
    "100\t7\r\n"
    "7\t100\r\n"
    "\r\n"
    "100 42\r\n"
    "42\t42\r\n"
    "9\t100\t3.5\r\n";  // extra column ignored
std::vector<uint32_t> row(const CsrGraph& g, uint32_t r) {
  return std::vector<uint32_t>(g.col_idx.begin() + g.row_ptr[r], g.col_idx.begin() + g.row_ptr[r + 1]);
}
}  // namespace

TEST_CASE("edge list: comments, CRLF and first-seen remapping of non-contiguous ids") {
  test::TempFile f("g.txt", kFile);
  std::vector<uint64_t> ids;
  const CsrGraph g = read_edge_list(f.path(), {}, &ids);
  REQUIRE(ids == std::vector<uint64_t>{100, 7, 42, 9});  // 100->0, 7->1, 42->2, 9->3
  REQUIRE(g.rows == 4);
  REQUIRE(g.cols == 4);
  REQUIRE(g.nnz() == 5);
  REQUIRE(row(g, 0) == std::vector<uint32_t>{1, 2});
  REQUIRE(row(g, 1) == std::vector<uint32_t>{0});
  REQUIRE(row(g, 2) == std::vector<uint32_t>{2});  // self loop kept by default
  REQUIRE(row(g, 3) == std::vector<uint32_t>{0});
  REQUIRE(!g.has_values());
}

TEST_CASE("edge list: symmetrize adds reverse arcs once, self loops dropped by flag") {
  std::istringstream in1(kFile), in2(kFile), in3(kFile);
  EdgeListOptions o;
  o.keep_self_loops = false;
  const CsrGraph a = read_edge_list(in1, "g", o);
  REQUIRE(a.rows == 4);  // 42 still exists (it also has the arc 100 -> 42)
  REQUIRE(a.nnz() == 4);
  REQUIRE(row(a, 2).empty());
  o.symmetrize = true;
  const CsrGraph s = read_edge_list(in2, "g", o);
  REQUIRE(row(s, 0) == std::vector<uint32_t>{1, 2, 3});
  REQUIRE(row(s, 1) == std::vector<uint32_t>{0});  // 7 <-> 100 was in the file both ways: once
  REQUIRE(row(s, 2) == std::vector<uint32_t>{0});
  REQUIRE(row(s, 3) == std::vector<uint32_t>{0});
  o.keep_self_loops = true;
  REQUIRE(row(read_edge_list(in3, "g", o), 2) == std::vector<uint32_t>{0, 2});
}

TEST_CASE("edge list: a missing file and malformed lines are errors naming file and line") {
  REQUIRE_THROWS_WITH(read_edge_list("/nonexistent/g.txt"), Contains("cannot open") && Contains("/nonexistent/g.txt"));
  std::istringstream one("# c\n1 2\n3\n");
  REQUIRE_THROWS_WITH(read_edge_list(one, "g.txt"), Contains("g.txt:3: expected two vertex ids"));
  std::istringstream bad("1 2\r\n1 x\r\n");
  REQUIRE_THROWS_WITH(read_edge_list(bad, "g.txt"), Contains("g.txt:2: vertex ids must be non-negative integers"));
  std::istringstream neg("-1 2\n");
  REQUIRE_THROWS_WITH(read_edge_list(neg, "g.txt"), Contains("g.txt:1:"));
}

TEST_CASE("edge list: a directory or an empty file is an error naming the path") {
  test::TempFile empty("empty.txt", "");
  REQUIRE_THROWS_WITH(read_edge_list(empty.path()), Contains("'" + empty.path() + "' is empty"));
  const std::string dir = empty.path().substr(0, empty.path().rfind('/'));
  REQUIRE_THROWS_WITH(read_edge_list(dir), Contains("it is a directory"));
}
