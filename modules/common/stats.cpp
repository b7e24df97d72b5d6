#include "common/stats.h"

#include <cmath>
#include <fstream>

namespace gpusc {

const char* to_string(Unit u) {
  switch (u) {
    case Unit::Count: return "count";
    case Unit::Cycles: return "cycles";
    case Unit::Bytes: return "bytes";
    case Unit::Flits: return "flits";
    case Unit::Packets: return "packets";
    case Unit::Ratio: return "ratio";
    case Unit::PerCycle: return "per_cycle";
    case Unit::Seconds: return "seconds";
    case Unit::None: return "";
  }
  return "";
}

Histogram::Histogram(double bucket_width, unsigned buckets) : width_(bucket_width), counts_(buckets) {
  if (!(bucket_width > 0) || buckets == 0)
    error("gpusc.stats", "histogram needs a positive bucket width and at least one bucket");
}

void Histogram::add(double x) {
  const double b = x / width_;
  if (b >= 0 && b < static_cast<double>(counts_.size())) ++counts_[static_cast<size_t>(b)];
  else ++overflow_;
  sum_ += x;
  if (n_ == 0 || x > max_) max_ = x;
  ++n_;
}

double Histogram::percentile(double p) const {
  if (n_ == 0) return 0;
  const uint64_t want = static_cast<uint64_t>(std::ceil(p * static_cast<double>(n_)));
  uint64_t seen = 0;
  for (size_t i = 0; i < counts_.size(); ++i) {
    seen += counts_[i];
    if (seen >= want) return width_ * static_cast<double>(i + 1);
  }
  return max_;
}

void Histogram::reset() {
  std::fill(counts_.begin(), counts_.end(), 0);
  overflow_ = n_ = 0;
  sum_ = max_ = 0;
}

StatGroup::StatGroup() : sc_core::sc_object("stats") {}

std::string StatGroup::path() const {
  const sc_core::sc_object* p = get_parent_object();
  return p ? p->name() : "";
}

void StatGroup::add_entry(const std::string& name, Unit u, const std::string& desc, Kind k, size_t index) {
  for (const auto& e : entries_)
    if (e.name == name) error(path(), "statistic '", name, "' is declared twice");
  entries_.push_back(Entry{name, u, desc, k, index});
}

Counter& StatGroup::counter(const std::string& name, Unit u, const std::string& desc) {
  add_entry(name, u, desc, Kind::Counter, counters_.size());
  return counters_.emplace_back();
}

Average& StatGroup::average(const std::string& name, Unit u, const std::string& desc) {
  add_entry(name, u, desc, Kind::Average, averages_.size());
  return averages_.emplace_back();
}

Histogram& StatGroup::histogram(const std::string& name, Unit u, const std::string& desc, double w,
                                unsigned buckets) {
  add_entry(name, u, desc, Kind::Histogram, histograms_.size());
  return histograms_.emplace_back(w, buckets);
}

void StatGroup::derived(const std::string& name, Unit u, const std::string& desc, std::function<double()> f) {
  add_entry(name, u, desc, Kind::Derived, derived_.size());
  derived_.push_back(std::move(f));
}

void StatGroup::invariant(const std::string& desc, std::function<bool()> holds) {
  invariants_.emplace_back(desc, std::move(holds));
}

void StatGroup::reset() {
  for (auto& c : counters_) c.reset();
  for (auto& a : averages_) a.reset();
  for (auto& h : histograms_) h.reset();
}

void StatGroup::dump(json& values, json& meta, std::vector<std::string>& failures) const {
  const std::string base = path();
  for (const auto& e : entries_) {
    const std::string key = base.empty() ? e.name : base + "." + e.name;
    switch (e.kind) {
      case Kind::Counter: values[key] = counters_[e.index].value(); break;
      case Kind::Average: {
        const Average& a = averages_[e.index];
        values[key] = a.mean();
        values[key + ".samples"] = a.samples();
        break;
      }
      case Kind::Histogram: {
        const Histogram& h = histograms_[e.index];
        values[key] = {{"samples", h.samples()}, {"mean", h.mean()},           {"max", h.max()},
                       {"p99", h.percentile(0.99)}, {"bucket_width", h.bucket_width()},
                       {"counts", h.counts()},      {"overflow", h.overflow()}};
        break;
      }
      case Kind::Derived: {
        const double v = derived_[e.index]();
        values[key] = std::isfinite(v) ? json(v) : json(nullptr);
        break;
      }
    }
    meta[key] = {{"unit", to_string(e.unit)}, {"desc", e.desc}};
  }
  for (const auto& [desc, holds] : invariants_)
    if (!holds()) failures.push_back(base + ": " + desc);
}

void StatGroup::sample_counters(json& row) const {
  const std::string base = path();
  for (const auto& e : entries_)
    if (e.kind == Kind::Counter)
      row[base.empty() ? e.name : base + "." + e.name] = counters_[e.index].value();  // same key as dump()
}

namespace {
void walk(sc_core::sc_object* o, std::vector<StatGroup*>& out) {
  if (auto* g = dynamic_cast<StatGroup*>(o)) out.push_back(g);
  for (sc_core::sc_object* c : o->get_child_objects()) walk(c, out);
}
}  // namespace

std::vector<StatGroup*> find_stat_groups(sc_core::sc_object* top) {
  std::vector<StatGroup*> out;
  if (top) walk(top, out);
  else
    for (sc_core::sc_object* o : sc_core::sc_get_top_level_objects()) walk(o, out);
  return out;
}

json collect_stats() {
  json values = json::object(), meta = json::object();
  std::vector<std::string> failures;
  for (StatGroup* g : find_stat_groups()) g->dump(values, meta, failures);
  for (const auto& f : failures) warning("gpusc.stats", "invariant violated: ", f);
  return json{{"stats", values}, {"meta", meta}, {"invariant_failures", failures}};
}

void reset_all_stats() {
  for (StatGroup* g : find_stat_groups()) g->reset();
}

void write_json_file(const std::string& path, const json& j) {
  std::ofstream out(path);
  if (!out) error("gpusc.stats", "cannot write '", path, "': check that the folder exists and is writable");
  out << json_text(j, 1) << '\n';
  out.close();  // flushes: a full device fails here, not earlier
  if (out.fail()) error("gpusc.stats", "writing '", path, "' failed (device full or write error)");
}

}  // namespace gpusc
