#include "mem/locality_monitor.h"

#include <string>

#include "common/report.h"

namespace gpusc {

LocalityMonitor::LocalityMonitor(sc_core::sc_module_name name, const Params& p, ClockDomain& clk)
    : sc_core::sc_module(name),
      p_(p),
      clk_(clk),
      reads_(stats_.counter("reads", Unit::Count, "read requests observed at the memory controller")) {
  validate(p_, this->name());
  if (p_.windows.empty()) error(this->name(), "needs at least one time window");
  for (unsigned w : p_.windows) tables_.push_back(Table{w, {}, {}, 0, 0});
  for (size_t i = 0; i < tables_.size(); ++i) {
    const std::string w = std::to_string(p_.windows[i]);
    stats_.derived("shared_accesses_w" + w, Unit::Count,
                   "reads in blocks accessed more than once within " + w + " cycles (001 §2.2)",
                   [this, i] { return static_cast<double>(shared_accesses(i)); });
    stats_.derived("locality_ratio_w" + w, Unit::Ratio, "inter-core locality ratio, window " + w + " cycles",
                   [this, i] { return ratio(i); });
    stats_.invariant("shared accesses <= reads (window " + w + ")", [this, i] { return shared_accesses(i) <= reads(); });
  }
}

void LocalityMonitor::expire(Table& t, uint64_t cycle) {
  while (!t.order.empty() && cycle - t.order.front().first >= t.window) {
    const uint64_t block = t.order.front().second;
    t.order.pop_front();
    const auto it = t.open.find(block);
    if (it->second.count >= 2) {
      t.open_shared -= it->second.count;
      t.closed_shared += it->second.count;
    }
    t.open.erase(it);
  }
}

void LocalityMonitor::observe(uint64_t addr, uint64_t cycle) {
  ++reads_;
  const uint64_t block = addr / p_.block_bytes;
  for (Table& t : tables_) {
    expire(t, cycle);
    auto [it, fresh] = t.open.try_emplace(block, Entry{cycle, 0});
    if (fresh) t.order.emplace_back(cycle, block);
    const uint32_t c = ++it->second.count;
    if (c == 2) t.open_shared += 2;
    else if (c > 2) t.open_shared += 1;
  }
}

uint64_t LocalityMonitor::shared_accesses(size_t w) const { return tables_[w].closed_shared + tables_[w].open_shared; }

double LocalityMonitor::ratio(size_t w) const {
  return reads() ? static_cast<double>(shared_accesses(w)) / static_cast<double>(reads()) : 0.0;
}

}  // namespace gpusc
