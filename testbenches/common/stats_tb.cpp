// Stats: counter/average/histogram/derived values, hierarchical dump keys, reset, invariants,
// duplicate names and unwritable output paths.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>

#include <unistd.h>

#include "common/stats.h"

using namespace gpusc;
using Catch::Contains;

namespace {

// A cache-like unit with one stat of every kind.
struct L1 : sc_core::sc_module {
  StatGroup stats;
  Counter& hits = stats.counter("hits", Unit::Count, "read hits");
  Counter& misses = stats.counter("misses", Unit::Count, "read misses");
  Counter& accesses = stats.counter("accesses", Unit::Count, "reads");
  Average& latency = stats.average("latency", Unit::Cycles, "read latency");
  Histogram& lat_hist = stats.histogram("lat_hist", Unit::Cycles, "read latency distribution", 10, 5);
  explicit L1(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    stats.derived("hit_rate", Unit::Ratio, "hits / accesses", [this] {
      return static_cast<double>(hits.value()) / static_cast<double>(accesses.value());
    });
    stats.invariant("hits + misses == accesses",
                    [this] { return hits.value() + misses.value() == accesses.value(); });
  }
};
struct Sm : sc_core::sc_module {
  L1 l1{"l1"};
  explicit Sm(sc_core::sc_module_name n) : sc_core::sc_module(n) {}
};
struct Gpu : sc_core::sc_module {
  Sm sm3{"sm3"}, sm4{"sm4"};
  explicit Gpu(sc_core::sc_module_name n) : sc_core::sc_module(n) {}
};

std::set<std::string> keys_of(const json& j) {
  std::set<std::string> s;
  for (auto it = j.begin(); it != j.end(); ++it) s.insert(it.key());
  return s;
}

}  // namespace

TEST_CASE("Stats: counter average and histogram values") {
  L1 l1("l1");
  ++l1.hits;
  l1.hits += 4;
  CHECK(l1.hits.value() == 5);
  for (double x : {2.0, 4.0, 9.0}) l1.latency.add(x);
  CHECK(l1.latency.samples() == 3);
  CHECK(l1.latency.sum() == 15.0);
  CHECK(l1.latency.mean() == 5.0);  // 15 / 3

  // Buckets of width 10: [0,10) [10,20) [20,30) [30,40) [40,50); 95 is past the last one.
  Histogram& h = l1.lat_hist;
  CHECK(h.percentile(0.5) == 0.0);  // empty
  for (double x : {5.0, 15.0, 15.0, 25.0, 95.0}) h.add(x);
  CHECK(h.samples() == 5);
  CHECK(h.counts() == std::vector<uint64_t>{1, 2, 1, 0, 0});
  CHECK(h.overflow() == 1);
  CHECK(h.mean() == 31.0);  // 155 / 5
  CHECK(h.max() == 95.0);
  CHECK(h.percentile(0.2) == 10.0);   // 1st of 5 samples: bucket [0,10), upper edge 10
  CHECK(h.percentile(0.5) == 20.0);   // ceil(2.5) = 3rd sample: bucket [10,20)
  CHECK(h.percentile(0.8) == 30.0);   // 4th sample: bucket [20,30)
  CHECK(h.percentile(0.99) == 95.0);  // ceil(4.95) = 5th sample is in overflow: max
  CHECK(h.percentile(1.0) == 95.0);
  REQUIRE_THROWS_WITH(Histogram(0, 4), Contains("positive bucket width"));
  REQUIRE_THROWS_WITH(Histogram(1, 0), Contains("at least one bucket"));
}

TEST_CASE("Stats: dump keys are the module path plus the stat name") {
  Gpu gpu("gpu");
  L1& l1 = gpu.sm3.l1;
  CHECK(l1.stats.path() == "gpu.sm3.l1");
  l1.hits += 3;
  l1.misses += 1;
  l1.accesses += 4;
  l1.latency.add(10);
  l1.latency.add(20);
  l1.lat_hist.add(12);
  gpu.sm4.l1.misses += 2;
  gpu.sm4.l1.accesses += 2;

  const auto groups = find_stat_groups();
  REQUIRE(groups.size() == 2);
  CHECK(groups[0] == &gpu.sm3.l1.stats);  // hierarchy order
  CHECK(groups[1] == &gpu.sm4.l1.stats);
  CHECK(find_stat_groups(&gpu.sm4).size() == 1);

  const json all = collect_stats();
  const json& s = all["stats"];
  std::set<std::string> want;
  for (const char* sm : {"gpu.sm3.l1.", "gpu.sm4.l1."})
    for (const char* k : {"hits", "misses", "accesses", "latency", "latency.samples", "lat_hist", "hit_rate"})
      want.insert(std::string(sm) + k);
  CHECK(keys_of(s) == want);
  CHECK(s["gpu.sm3.l1.hits"] == 3);
  CHECK(s["gpu.sm3.l1.latency"] == 15.0);        // (10 + 20) / 2
  CHECK(s["gpu.sm3.l1.latency.samples"] == 2);
  CHECK(s["gpu.sm3.l1.hit_rate"] == 0.75);       // 3 / 4
  CHECK(s["gpu.sm4.l1.hit_rate"] == 0.0);        // 0 / 2
  CHECK(s["gpu.sm3.l1.lat_hist"]["counts"] == json::array({0, 1, 0, 0, 0}));
  CHECK(s["gpu.sm3.l1.lat_hist"]["samples"] == 1);
  CHECK(s["gpu.sm3.l1.lat_hist"]["bucket_width"] == 10.0);
  CHECK(s["gpu.sm3.l1.lat_hist"]["p99"] == 20.0);
  CHECK(all["meta"]["gpu.sm3.l1.latency"]["unit"] == "cycles");
  CHECK(all["meta"]["gpu.sm3.l1.hits"]["desc"] == "read hits");
  CHECK(all["meta"]["gpu.sm3.l1.hit_rate"]["unit"] == "ratio");
  CHECK(all["invariant_failures"].empty());

  json row;
  l1.stats.sample_counters(row);
  CHECK(row == json{{"gpu.sm3.l1.hits", 3}, {"gpu.sm3.l1.misses", 1}, {"gpu.sm3.l1.accesses", 4}});
}

TEST_CASE("Stats: a derived value that is not finite is dumped as null") {
  Gpu gpu("gpu");
  // hit_rate = 0 / 0 with no accesses.
  CHECK(collect_stats()["stats"]["gpu.sm3.l1.hit_rate"].is_null());
}

TEST_CASE("Stats: a group outside any module uses bare names in dump and samples alike") {
  StatGroup top;
  top.counter("events", Unit::Count, "events") += 2;
  CHECK(top.path().empty());
  json values, meta;
  std::vector<std::string> failures;
  top.dump(values, meta, failures);
  CHECK(values == json{{"events", 2}});
  json row;
  top.sample_counters(row);
  CHECK(row == json{{"events", 2}});  // same key as the dump
}

TEST_CASE("Stats: declaring a name twice is an error naming the group") {
  Gpu gpu("gpu");
  StatGroup& g = gpu.sm3.l1.stats;
  REQUIRE_THROWS_WITH(g.counter("hits", Unit::Count, "again"),
                      Contains("gpu.sm3.l1") && Contains("statistic 'hits' is declared twice"));
  REQUIRE_THROWS_WITH(g.average("misses", Unit::Cycles, "other kind, same name"),
                      Contains("statistic 'misses' is declared twice"));
  REQUIRE_THROWS_WITH(g.derived("hit_rate", Unit::Ratio, "", [] { return 0.0; }),
                      Contains("statistic 'hit_rate' is declared twice"));
}

TEST_CASE("Stats: reset clears every counter average and histogram") {
  Gpu gpu("gpu");
  L1& l1 = gpu.sm4.l1;
  l1.hits += 7;
  l1.accesses += 7;
  l1.latency.add(3);
  l1.lat_hist.add(44);
  l1.lat_hist.add(500);
  reset_all_stats();
  CHECK(l1.hits.value() == 0);
  CHECK(l1.accesses.value() == 0);
  CHECK(l1.latency.samples() == 0);
  CHECK(l1.latency.mean() == 0.0);
  CHECK(l1.lat_hist.samples() == 0);
  CHECK(l1.lat_hist.overflow() == 0);
  CHECK(l1.lat_hist.max() == 0.0);
  CHECK(l1.lat_hist.counts() == std::vector<uint64_t>(5, 0));
  l1.lat_hist.add(4);  // max restarts from the new samples, not from the old 500
  CHECK(l1.lat_hist.max() == 4.0);
}

TEST_CASE("Stats: failed invariants are listed in collect_stats") {
  Gpu gpu("gpu");
  gpu.sm3.l1.hits += 2;
  gpu.sm3.l1.accesses += 3;  // one access neither hit nor missed
  const int warnings_before = sc_core::sc_report_handler::get_count(sc_core::SC_WARNING);
  const json all = collect_stats();
  CHECK(all["invariant_failures"] == json::array({"gpu.sm3.l1: hits + misses == accesses"}));
  CHECK(sc_core::sc_report_handler::get_count(sc_core::SC_WARNING) == warnings_before + 1);
  gpu.sm3.l1.misses += 1;
  CHECK(collect_stats()["invariant_failures"].empty());
}

TEST_CASE("Stats: write_json_file writes the file or names the unwritable path") {
  REQUIRE_THROWS_WITH(write_json_file("/nonexistent/dir/x.json", json{{"a", 1}}),
                      Contains("/nonexistent/dir/x.json"));
  const std::string file = "gpusc_stats_" + std::to_string(getpid()) + ".json";
  const std::string path = (std::filesystem::temp_directory_path() / file).string();
  const json j = {{"stats", {{"gpu.l1.hits", 3}}}};
  write_json_file(path, j);
  CHECK(load_json_file(path) == j);
  std::remove(path.c_str());
}

TEST_CASE("write_json_file: a write that fails at flush is an error, not a silent empty file", "[stats]") {
  // /dev/full accepts the open and fails every write; the buffered text only reaches it at close.
  REQUIRE_THROWS_WITH(write_json_file("/dev/full", json{{"a", 1}}), Catch::Contains("writing '/dev/full' failed"));
  REQUIRE_THROWS_WITH(write_json_file("/nonexistent_dir/x.json", json{{"a", 1}}), Catch::Contains("cannot write"));
}
