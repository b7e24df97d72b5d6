// InvertedIndex (workload/inverted_index.h, Mars InvertedIndex): on two documents written out here,
// the state machine's byte loads (the "href" test, the link scan, the hash), the NUL over each
// closing quote, the emitted keys and the index, worked out by hand.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "workload/inverted_index.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;
using Catch::Matchers::Contains;

namespace {
// Document 0 (html offset 0): "<html>\n" (0..6), then line 1 at 7: within it '<' at 6, 'a' 7,
// "href=" 9..13, '"' 14, the URL http://x/a 15..24, the closing quote 25.
const std::vector<std::string> kDocs = {
    "<html>\n<p>go <a href=\"http://x/a\">a b</a> end</p>\n</html>\n",
    "<p><a name=\"n\">n</a> <a href=\"http://x/b\">b c</a> <img src=\"i.gif\"></p>\n<p><a href=\"http://x/a\">z</a></p>\n"};
const std::string kLine1 = "<p>go <a href=\"http://x/a\">a b</a> end</p>\n";

int32_t hash_of(const std::string& s) {  // Mars's hash_func, from its definition
  int32_t h = static_cast<int32_t>(s.size());
  for (char c : s) h = static_cast<int32_t>(uint32_t(h) << 4) ^ (h >> 28) ^ int32_t(c);
  return h;
}

std::map<uint64_t, unsigned> loads_in(const Kernel& k, uint64_t lo, uint64_t hi) {
  std::map<uint64_t, unsigned> m;
  for (const Stream& s : drain_kernel(k))
    for (const WarpInstr& in : s)
      if (in.op == WarpInstr::Op::Load)
        for (unsigned l = 0; l < kWarpSize; ++l)
          if (in.lane_active(l) && in.addr[l] >= lo && in.addr[l] < hi) ++m[in.addr[l] - lo];
  return m;
}
}  // namespace

TEST_CASE("inverted-index: each link's URL maps to the documents linking to it", "[workload][inverted-index]") {
  InvertedIndexWorkload w(InvertedIndexWorkload::Params{}, kDocs);
  CHECK(w.index() == std::map<std::string, std::set<uint32_t>>{{"http://x/a", {0, 1}}, {"http://x/b", {1}}});
  // Records: one per line: 3 in document 0, 2 in document 1.
  REQUIRE(w.job().records() == 5);
  const auto& inter = w.job().intermediate();
  REQUIRE(inter.size() == 3);
  // Pair 0 (document 0, line 1): key {file_buf = html base, url_offset 7 + 15, hash of the URL},
  // value file_id 0.
  const uint64_t html = w.address_space().base("html");
  CHECK(mars_key_buf(inter[0].key.data()) == html);
  CHECK(mars_key_offset(inter[0].key.data()) == 22u);
  CHECK(int32_t(mars_word(inter[0].key.data(), 16, 12)) == hash_of("http://x/a"));
  CHECK(mars_word(inter[0].val.data(), 4, 0) == 0u);
  CHECK(mars_key_buf(inter[1].key.data()) == html + 256);  // document 1's own buffer
  CHECK(mars_word(inter[2].val.data(), 4, 0) == 1u);
  REQUIRE(w.job().groups().size() == 2);
}

TEST_CASE("inverted-index: the map's byte loads, the NUL over the quote, url_offset and url_hash stores",
          "[workload][inverted-index]") {
  InvertedIndexWorkload w(InvertedIndexWorkload::Params{}, kDocs);
  w.enable_values();
  const AddressSpace& sp = w.address_space();
  const uint64_t line = sp.base("html") + 7;
  auto mc = w.next_kernel();
  REQUIRE(mc->name() == "inverted-index.map_count");
  std::map<uint64_t, unsigned> want;
  for (uint64_t b = 0; b < kLine1.size(); ++b) want[b] = 1;
  want[9] = 2;   // plain read, then the "href" test's first byte
  want[13] = 2;  // the test's fifth byte ('='), then the plain read after j += 3
  CHECK(loads_in(*mc, line, line + kLine1.size()) == want);
  for (int i = 0; i < 3; ++i) w.next_kernel();
  auto map = w.next_kernel();
  REQUIRE(map->name() == "inverted-index.map");
  for (uint64_t b = 15; b < 25; ++b) want[b] = 2;  // the URL: scan, then hash_func
  CHECK(loads_in(*map, line, line + kLine1.size()) == want);
  std::map<uint64_t, uint32_t> st;
  for (const Stream& s : drain_kernel(*map))
    for (const WarpInstr& in : s)
      if (in.op == WarpInstr::Op::Store)
        for (unsigned l = 0; l < kWarpSize; ++l)
          if (in.lane_active(l)) st[in.addr[l]] = in.data[l];
  // The closing quote (html byte 32) becomes NUL: the aligned word 32..35 is "\0>a ".
  CHECK(st.at(sp.base("html") + 32) == mars_word(reinterpret_cast<const uint8_t*>("\0>a "), 4, 0));
  const uint64_t key1 = sp.base("ii.input_keys") + 16;  // record 1's key
  CHECK(st.at(key1 + 8) == 22u);
  CHECK(int32_t(st.at(key1 + 12)) == hash_of("http://x/a"));
}

TEST_CASE("inverted-index: the generated corpus is seeded HTML with skewed links; bad input is an error",
          "[workload][inverted-index]") {
  const auto a = generated_html(50000, 1000, 3), b = generated_html(50000, 1000, 3);
  CHECK(a == b);
  CHECK(a != generated_html(50000, 1000, 4));
  size_t bytes = 0;
  for (const auto& d : a) {
    bytes += d.size();
    CHECK(d.rfind("<html>\n", 0) == 0);
    CHECK(d.size() >= 2048);
    CHECK(d.size() < 8192 + 512);
  }
  CHECK(bytes >= 50000);
  InvertedIndexWorkload::Params p;
  p.bytes = 50000;
  p.urls = 1000;
  InvertedIndexWorkload w(p, 3);
  // Popular targets are linked from many documents.
  size_t most = 0, links = 0;
  for (const auto& [url, docs] : w.index()) most = std::max(most, docs.size()), links += docs.size();
  CHECK(most >= 5);
  CHECK(w.index().size() < links);
  REQUIRE_THROWS_WITH(InvertedIndexWorkload(InvertedIndexWorkload::Params{}, std::vector<std::string>{"<p>\n", ""}),
                      Contains("document 1"));
  REQUIRE_THROWS_WITH(InvertedIndexWorkload(InvertedIndexWorkload::Params{}, std::vector<std::string>{"<a href=\"x\n"}),
                      Contains("closing quote"));
}
