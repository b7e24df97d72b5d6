#include "mem/locality_monitor.h"

#include <algorithm>
#include <string>

#include "common/report.h"

namespace gpusc {

LocalityMonitor::LocalityMonitor(sc_core::sc_module_name name, const Params& p, ClockDomain& clk)
    : sc_core::sc_module(name),
      p_(p),
      clk_(clk),
      longest_(p.windows.empty() ? 0 : *std::max_element(p.windows.begin(), p.windows.end())),
      shared_(p.windows.size(), 0),
      reads_(stats_.counter("reads", Unit::Count, "read requests observed at the memory controller")) {
  validate(p_, this->name());
  if (p_.windows.empty()) error(this->name(), "needs at least one time window");
  for (size_t i = 0; i < p_.windows.size(); ++i) {
    const std::string w = std::to_string(p_.windows[i]);
    stats_.derived("shared_accesses_w" + w, Unit::Count,
                   "reads in blocks accessed more than once within " + w + " cycles (001 §2.2)",
                   [this, i] { return static_cast<double>(shared_accesses(i)); });
    stats_.derived("locality_ratio_w" + w, Unit::Ratio, "inter-core locality ratio, window " + w + " cycles",
                   [this, i] { return ratio(i); });
    stats_.invariant("shared accesses <= reads (window " + w + ")", [this, i] { return shared_accesses(i) <= reads(); });
  }
}

void LocalityMonitor::sweep(uint64_t cycle) {
  const size_t n = p_.windows.size();
  for (auto it = slot_of_.begin(); it != slot_of_.end();) {
    const Entry* e = &entries_[size_t{it->second} * n];
    bool open = false;
    for (size_t w = 0; w < n && !open; ++w) open = cycle - e[w].start < p_.windows[w];
    if (open) {
      ++it;
    } else {
      free_slots_.push_back(it->second);
      it = slot_of_.erase(it);
    }
  }
}

void LocalityMonitor::observe(uint64_t addr, uint64_t cycle) {
  ++reads_;
  if (cycle >= next_sweep_) {
    sweep(cycle);
    next_sweep_ = cycle + longest_;
  }
  const size_t n = p_.windows.size();
  const auto [it, fresh] = slot_of_.try_emplace(addr / p_.block_bytes, 0);
  if (fresh) {
    if (free_slots_.empty()) {
      it->second = static_cast<uint32_t>(entries_.size() / n);
      entries_.resize(entries_.size() + n);
    } else {
      it->second = free_slots_.back();
      free_slots_.pop_back();
    }
  }
  Entry* e = &entries_[size_t{it->second} * n];
  for (size_t w = 0; w < n; ++w) {
    if (fresh || cycle - e[w].start >= p_.windows[w]) {  // no entry, or it has closed: open one
      e[w] = Entry{cycle, 1};
    } else if (++e[w].count == 2) {
      shared_[w] += 2;
    } else {
      shared_[w] += 1;
    }
  }
}

uint64_t LocalityMonitor::shared_accesses(size_t w) const { return shared_[w]; }

double LocalityMonitor::ratio(size_t w) const {
  return reads() ? static_cast<double>(shared_accesses(w)) / static_cast<double>(reads()) : 0.0;
}

}  // namespace gpusc
