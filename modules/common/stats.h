// Statistics (DESIGN §5, STYLE P10/P11). A module owns one StatGroup, a child sc_object named
// "stats", and declares its counters, averages and histograms there with a unit and a
// description. The group's path is the module's hierarchical name, so a counter "read_misses"
// of gpu.sm12.l1 is dumped as "gpu.sm12.l1.read_misses". The reporter finds groups by type
// while walking the SystemC object tree: no global registry, no name matching.
// Invariants ("hits + misses == accesses") are registered next to the stats they tie together
// and evaluated at every dump; failures are listed in the JSON and reported as warnings.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include <systemc>

#include "common/params.h"

namespace gpusc {

enum class Unit { Count, Cycles, Bytes, Flits, Packets, Ratio, PerCycle, Seconds, None };
const char* to_string(Unit u);

class Counter {
 public:
  Counter& operator++() { ++v_; return *this; }
  Counter& operator+=(uint64_t d) { v_ += d; return *this; }
  uint64_t value() const { return v_; }
  void reset() { v_ = 0; }
 private:
  uint64_t v_ = 0;
};

class Average {
 public:
  void add(double x) { sum_ += x; ++n_; }
  void merge(const Average& o) { sum_ += o.sum_; n_ += o.n_; }  // the samples of both
  double mean() const { return n_ ? sum_ / static_cast<double>(n_) : 0.0; }
  double sum() const { return sum_; }
  uint64_t samples() const { return n_; }
  void reset() { sum_ = 0; n_ = 0; }
 private:
  double sum_ = 0;
  uint64_t n_ = 0;
};

// Fixed-width buckets [0,w), [w,2w), ...; values past the last bucket count as overflow but
// still enter mean and max.
class Histogram {
 public:
  Histogram(double bucket_width, unsigned buckets);
  void add(double x);
  uint64_t samples() const { return n_; }
  double mean() const { return n_ ? sum_ / static_cast<double>(n_) : 0.0; }
  double max() const { return max_; }
  // Upper edge of the bucket holding the p-quantile (0 < p <= 1); max() if in overflow.
  double percentile(double p) const;
  const std::vector<uint64_t>& counts() const { return counts_; }
  uint64_t overflow() const { return overflow_; }
  double bucket_width() const { return width_; }
  void reset();
 private:
  double width_;
  std::vector<uint64_t> counts_;
  uint64_t overflow_ = 0, n_ = 0;
  double sum_ = 0, max_ = 0;
};

class StatGroup : public sc_core::sc_object {
 public:
  // Create as a member of the owning module: the group takes the module's path.
  StatGroup();
  StatGroup(const StatGroup&) = delete;
  StatGroup& operator=(const StatGroup&) = delete;
  const char* kind() const override { return "gpusc_stat_group"; }

  Counter& counter(const std::string& name, Unit u, const std::string& desc);
  Average& average(const std::string& name, Unit u, const std::string& desc);
  Histogram& histogram(const std::string& name, Unit u, const std::string& desc, double bucket_width,
                       unsigned buckets);
  // A value computed at dump time from other stats (a ratio, a per-cycle rate).
  void derived(const std::string& name, Unit u, const std::string& desc, std::function<double()> f);
  void invariant(const std::string& desc, std::function<bool()> holds);

  std::string path() const;  // owning module's hierarchical name
  void reset();
  // Adds "path.name": value to `values` and {unit, desc} to `meta`; appends failed invariants.
  void dump(json& values, json& meta, std::vector<std::string>& failures) const;
  // Current value of every counter, keyed by full name (for time series).
  void sample_counters(json& row) const;

 private:
  enum class Kind { Counter, Average, Histogram, Derived };
  struct Entry {
    std::string name;
    Unit unit;
    std::string desc;
    Kind kind;
    size_t index;
  };
  void add_entry(const std::string& name, Unit u, const std::string& desc, Kind k, size_t index);
  std::vector<Entry> entries_;
  std::deque<Counter> counters_;
  std::deque<Average> averages_;
  std::deque<Histogram> histograms_;
  std::vector<std::function<double()>> derived_;
  std::vector<std::pair<std::string, std::function<bool()>>> invariants_;
};

// All StatGroups below `top` (nullptr: the whole design), in hierarchy order.
std::vector<StatGroup*> find_stat_groups(sc_core::sc_object* top = nullptr);
// {"stats": {...}, "meta": {...}, "invariant_failures": [...]} for the whole design.
json collect_stats();
void reset_all_stats();
// Writes JSON to a file; an unwritable path is an SC_REPORT_ERROR naming it.
void write_json_file(const std::string& path, const json& j);

}  // namespace gpusc
