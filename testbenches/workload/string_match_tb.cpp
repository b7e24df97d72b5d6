// StringMatch (workload/string_match.h, Mars StringMatch's map phase): on a text written out in the
// test, each thread scans its own line in aligned 4-byte words between its two line offsets and
// stores the first match's offset (or kNoMatch), as worked out by hand; the generated text is
// deterministic, seeded, line-structured and skewed towards the first vocabulary words.
#include <catch2/catch.hpp>

#include <cstring>
#include <map>
#include <set>

#include "workload/string_match.h"

using namespace gpusc;
using Catch::Matchers::Contains;

namespace {
// Lines: "ab memory\n" (0..9), "no\n" (10..12), "memory memory x\n" (13..28), "xmemoryz\n" (29..37).
const std::string kText = "ab memory\nno\nmemory memory x\nxmemoryz\n";
}  // namespace

TEST_CASE("string-match: each thread scans its line word by word and stores its first match", "[workload][string-match]") {
  StringMatchWorkload::Params p;
  p.keyword = "memory";
  StringMatchWorkload w(p, kText);
  REQUIRE(w.lines() == 4);
  CHECK(w.first_match(0) == 3u);
  CHECK(w.first_match(1) == StringMatchWorkload::kNoMatch);
  CHECK(w.first_match(2) == 0u);
  CHECK(w.first_match(3) == 1u);
  w.enable_values();
  auto k = w.next_kernel();
  REQUIRE(k);
  REQUIRE(k->num_ctas() == 1);
  const AddressSpace& sp = w.address_space();
  const uint64_t text = sp.base("text"), result = sp.base("result");
  // Aligned words each line covers: line 0 bytes 0..9 -> words 0, 4, 8; line 1 10..12 -> 8, 12
  // (word 8 holds byte 10, word 12 byte 12); line 2 13..28 -> 12 .. 28; line 3 29..37 -> 28 .. 36.
  const std::map<unsigned, std::set<uint64_t>> expected_words = {
      {0, {0, 4, 8}}, {1, {8, 12}}, {2, {12, 16, 20, 24, 28}}, {3, {28, 32, 36}}};
  std::map<unsigned, std::set<uint64_t>> words;
  std::map<unsigned, uint32_t> stored;
  auto s = k->warp(0, 0);
  unsigned loads = 0;
  for (WarpInstr in; s->next(in);) {
    unsigned first = 0;
    while (first < kWarpSize && !in.lane_active(first)) ++first;
    if (in.op == WarpInstr::Op::Load && first < kWarpSize && in.addr[first] >= text &&
        in.addr[first] < text + kText.size() + 4) {
      ++loads;
      for (unsigned l = 0; l < kWarpSize; ++l)
        if (in.lane_active(l)) words[l].insert(in.addr[l] - text);
    }
    if (in.op == WarpInstr::Op::Store)
      for (unsigned l = 0; l < kWarpSize; ++l)
        if (in.lane_active(l)) {
          CHECK(in.addr[l] == result + 4 * l);
          stored[l] = in.data[l];
        }
  }
  CHECK(words == expected_words);
  CHECK(loads == 5);  // the longest line has 5 words; shorter lines drop out of the mask
  CHECK(stored == std::map<unsigned, uint32_t>{{0, 3u}, {1, StringMatchWorkload::kNoMatch}, {2, 0u}, {3, 1u}});
  // The memory contents hold the text and the line offsets.
  unsigned char buf[6];
  sp.read_contents(text + 3, 6, buf);
  CHECK(std::memcmp(buf, "memory", 6) == 0);
  uint32_t off;
  sp.read_contents(sp.base("line_offsets") + 8, 4, reinterpret_cast<unsigned char*>(&off));
  CHECK(off == 13u);
}

TEST_CASE("string-match: the generated text is seeded, whole lines of vocabulary words, skewed", "[workload][string-match]") {
  const std::string a = generated_text(20000, 1), b = generated_text(20000, 1), c = generated_text(20000, 2);
  CHECK(a == b);
  CHECK(a != c);
  REQUIRE(a.size() >= 20000);
  CHECK(a.size() < 20000 + 200);  // cut at the first line end past the size
  CHECK(a.back() == '\n');
  // 6 to 14 words a line; "the" (word 0) far more often than "entry" (word 63).
  size_t lines = 0, the = 0, entry = 0;
  size_t start = 0;
  while (start < a.size()) {
    const size_t end = a.find('\n', start);
    const std::string line = a.substr(start, end - start);
    size_t words = 1;
    for (char ch : line) words += ch == ' ';
    CHECK(words >= 6);
    CHECK(words <= 14);
    for (size_t p = 0; (p = line.find("the", p)) != std::string::npos; ++p)
      if ((p == 0 || line[p - 1] == ' ') && (p + 3 == line.size() || line[p + 3] == ' ')) ++the;
    for (size_t p = 0; (p = line.find("entry", p)) != std::string::npos; ++p) ++entry;
    ++lines;
    start = end + 1;
  }
  CHECK(lines > 200);
  CHECK(the > 4 * entry);
}

TEST_CASE("string-match: a bad keyword or text is an error", "[workload][string-match]") {
  StringMatchWorkload::Params p;
  p.keyword = "";
  REQUIRE_THROWS_WITH(StringMatchWorkload(p, kText), Contains("string-match.keyword"));
  p.keyword = "a\nb";
  REQUIRE_THROWS_WITH(StringMatchWorkload(p, kText), Contains("string-match.keyword"));
  p.keyword = "memory";
  REQUIRE_THROWS_WITH(StringMatchWorkload(p, std::string("no newline")), Contains("end with a newline"));
}
