// PageViewCount (workload/page_view_count.h, Mars PageViewCount): on a four-entry log with one
// duplicate, written out here, the dedup job's hashes, reduce and output, the count job's NUL
// stores, URL hashes and emits, and the views per page, worked out by hand (the hash by Mars's
// formula, recomputed here).
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "workload/page_view_count.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;
using Catch::Matchers::Contains;

namespace {
// Four entries of 28 bytes each (offsets 0, 28, 56, 84); entry 2 repeats entry 0. In each:
// URL bytes 0..14, tab at 15, IP 16..22, tab at 23, "100"/"101" 24..26, newline (NUL) at 27.
const std::string kLog =
    "http://a/1.html\t1.2.3.4\t100\n"
    "http://a/2.html\t5.6.7.8\t100\n"
    "http://a/1.html\t1.2.3.4\t100\n"
    "http://a/1.html\t9.9.9.9\t101\n";

// Mars's hash_func, written out from its definition: h = len; h = (h << 4) ^ (h >> 28) ^ c.
int32_t hash_of(const std::string& s) {
  int32_t h = static_cast<int32_t>(s.size());
  for (char c : s) h = static_cast<int32_t>(uint32_t(h) << 4) ^ (h >> 28) ^ int32_t(c);
  return h;
}

struct Access {
  std::map<uint64_t, unsigned> loads;
  std::map<uint64_t, uint32_t> stores;
};
Access accesses(const Kernel& k) {
  Access a;
  for (const Stream& s : drain_kernel(k))
    for (const WarpInstr& in : s)
      for (unsigned l = 0; l < kWarpSize; ++l) {
        if (!in.lane_active(l)) continue;
        if (in.op == WarpInstr::Op::Load) ++a.loads[in.addr[l]];
        if (in.op == WarpInstr::Op::Store) a.stores[in.addr[l]] = in.data[l];
      }
  return a;
}
}  // namespace

TEST_CASE("page-view-count: dedup removes the repeated entry, count gives the distinct views per page",
          "[workload][page-view-count]") {
  PageViewCountWorkload w(PageViewCountWorkload::Params{}, kLog);
  CHECK(w.views() == std::map<std::string, uint32_t>{{"http://a/1.html", 2}, {"http://a/2.html", 1}});
  REQUIRE(w.dedup().records() == 4);
  REQUIRE(w.dedup().groups().size() == 3);
  REQUIRE(w.dedup().output().size() == 3);
  REQUIRE(w.count().records() == 3);
  // Dedup's keys carry the hash of the whole entry with its NUL (28 bytes); reduce sets phase 1.
  const std::string e0 = std::string("http://a/1.html\t1.2.3.4\t100") + '\0';
  std::set<uint32_t> kept;
  for (const MarsPair& p : w.dedup().output()) {
    kept.insert(mars_word(p.key.data(), 16, 8));
    CHECK(mars_word(p.val.data(), 8, 0) == 28u);
    CHECK(mars_word(p.val.data(), 8, 4) == 1u);
  }
  CHECK(kept.size() == 3);
  CHECK((kept.count(0) + kept.count(56)) == 1u);  // one of the two equal entries
  CHECK(kept.count(28) == 1u);
  CHECK(kept.count(84) == 1u);
  for (const MarsPair& p : w.dedup().intermediate())
    if (mars_word(p.key.data(), 16, 8) == 0) CHECK(int32_t(mars_word(p.key.data(), 16, 12)) == hash_of(e0));
  // Count's keys: the URL's hash over its 15 bytes and the NUL written over the tab; values: the
  // IP's offset (entry + 16).
  for (const MarsPair& p : w.count().intermediate()) {
    const uint32_t off = mars_word(p.key.data(), 16, 8);
    CHECK(mars_word(p.val.data(), 4, 0) == off + 16);
    const std::string url = kLog.substr(off, 15) + '\0';
    CHECK(int32_t(mars_word(p.key.data(), 16, 12)) == hash_of(url));
  }
}

TEST_CASE("page-view-count: the map threads' loads, hash stores, NUL stores and emits", "[workload][page-view-count]") {
  PageViewCountWorkload w(PageViewCountWorkload::Params{}, kLog);
  w.enable_values();
  const AddressSpace& sp = w.address_space();
  const uint64_t log = sp.base("log");
  std::map<std::string, Access> by_name;
  std::vector<std::string> order;
  while (auto k = w.next_kernel()) {
    check_invariants(sp, *k, drain_kernel(*k));
    if (by_name.count(k->name())) continue;  // the first launch of each name
    by_name[k->name()] = accesses(*k);
    order.push_back(k->name());
  }
  REQUIRE(order.front() == "page-view-count.dedup.map_count");
  // Dedup's map: each thread hashes its entry byte by byte (all 112 bytes once), stores the hash
  // into its record's key and copies key (16 B) and value (8 B).
  const Access& m1 = by_name.at("page-view-count.dedup.map");
  for (uint64_t b = 0; b < 112; ++b) CHECK(m1.loads.at(log + b) == 1u);
  const uint64_t k1 = sp.base("pvc1.input_keys");
  CHECK(int32_t(m1.stores.at(k1 + 12)) == hash_of(std::string("http://a/1.html\t1.2.3.4\t100") + '\0'));
  CHECK(m1.stores.at(sp.base("pvc1.inter_vals") + 8) == 28u);     // pair 1's entry size
  CHECK(m1.stores.at(sp.base("pvc1.inter_keys") + 16 + 8) == 28u);  // pair 1's entry offset
  // Reduce: phase = 1 into each group's first value, then one pair per group.
  const Access& rd = by_name.at("page-view-count.dedup.reduce");
  CHECK(rd.stores.at(sp.base("pvc1.output_vals") + 4) == 1u);
  CHECK(rd.stores.at(sp.base("pvc1.output_vals") + 8 * 2 + 4) == 1u);
  // Count's map: NUL over both tabs of each unique entry (aligned words as tokenized), the URL
  // read twice (scan, hash), the IP once plus the NUL at the first tab again.
  const Access& m2 = by_name.at("page-view-count.count.map");
  CHECK(m2.stores.at(log + 28 + 12) == mars_word(reinterpret_cast<const uint8_t*>("tml\0"), 4, 0));
  CHECK(m2.stores.at(log + 28 + 20) == mars_word(reinterpret_cast<const uint8_t*>("7.8\0"), 4, 0));
  for (uint64_t b = 0; b < 15; ++b) CHECK(m2.loads.at(log + 28 + b) == 2u);
  CHECK(m2.loads.at(log + 28 + 15) == 3u);  // the first tab: URL loop, IP loop (as NUL), hash (as NUL)
  for (uint64_t b = 16; b < 24; ++b) CHECK(m2.loads.at(log + 28 + b) == 1u);
  CHECK(m2.loads.count(log + 28 + 24) == 0);  // the timestamp is never read
}

TEST_CASE("page-view-count: the generated log is seeded, Mars's format, with repeated entries", "[workload][page-view-count]") {
  const std::string a = generated_web_log(20000, 1024, 4096, 0.1, 1), b = generated_web_log(20000, 1024, 4096, 0.1, 1);
  CHECK(a == b);
  CHECK(a != generated_web_log(20000, 1024, 4096, 0.1, 2));
  REQUIRE(a.size() >= 20000);
  std::set<std::string> lines;
  size_t n = 0, start = 0;
  while (start < a.size()) {
    const size_t end = a.find('\n', start);
    const std::string line = a.substr(start, end - start);
    CHECK(line.rfind("http://www.abcdefg.com/", 0) == 0);
    CHECK(std::count(line.begin(), line.end(), '\t') == 2);
    lines.insert(line);
    ++n;
    start = end + 1;
  }
  CHECK(lines.size() < n);           // repeats exist
  CHECK(lines.size() > n * 8 / 10);  // about 10% of them
  REQUIRE_THROWS_WITH(PageViewCountWorkload(PageViewCountWorkload::Params{}, std::string("no tabs here\n")),
                      Contains("URL<tab>IP<tab>"));
}
