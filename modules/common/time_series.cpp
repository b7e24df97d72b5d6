#include "common/time_series.h"

#include "common/report.h"
#include "common/stats.h"

namespace gpusc {

namespace {
uint64_t checked_every(uint64_t every, const char* who) {
  if (every == 0) error(who, "time series interval every_cycles must be at least 1 cycle, got 0");
  return every;
}
}  // namespace

TimeSeries::TimeSeries(sc_core::sc_module_name name, ClockDomain& clk, uint64_t every_cycles)
    : sc_core::sc_module(name), clk_(clk), every_(checked_every(every_cycles, this->name())) {
  SC_METHOD(take_row);
  sensitive << sample_;
  dont_initialize();
  clk_.wake(*this, every_);
}

bool TimeSeries::tick(uint64_t cycle) {
  if (stopped_) return false;
  sample_cycle_ = cycle;
  sample_.notify(sc_core::SC_ZERO_TIME);  // after the rest of this edge's ticks
  clk_.wake(*this, cycle + every_);
  return false;
}

void TimeSeries::take_row() {
  if (stopped_) return;
  json row = {{"cycle", sample_cycle_}};
  for (const StatGroup* g : find_stat_groups()) g->sample_counters(row);
  rows_.push_back(std::move(row));
}

}  // namespace gpusc
