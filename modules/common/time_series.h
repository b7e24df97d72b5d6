// TimeSeries: samples every counter of every StatGroup in the design each N cycles of one
// ClockDomain, for plots of how a run evolves (DESIGN §5 "optional time series"). Each sample
// is a row {"cycle": c, "<module path>.<counter>": value, ...} in an in-memory JSON array;
// the caller writes it out (write_json_file) next to the end-of-run stats.
// Open choices:
//   * rows are taken at cycles N, 2N, 3N, ... (no row at cycle 0, where every counter is 0);
//   * a row for cycle c holds the counters after every tick of this domain at edges <= c:
//     the sampler's tick only requests the row, which is taken one delta later, once the
//     domain's edge process has run all units of edge c, whatever their wake order. Units of
//     other domains whose edge falls at the same time may or may not be included;
//   * only counters are sampled (averages and histograms are end-of-run values);
//   * sampling keeps the domain busy, so stop() must end it before sc_start() without a time
//     limit can return.
#pragma once
#include <cstdint>

#include <systemc>

#include "common/clock_domain.h"
#include "common/params.h"

namespace gpusc {

class TimeSeries : public sc_core::sc_module, private Tickable {
 public:
  SC_HAS_PROCESS(TimeSeries);
  // every_cycles == 0 is an SC_REPORT_ERROR.
  TimeSeries(sc_core::sc_module_name name, ClockDomain& clk, uint64_t every_cycles);
  TimeSeries(const TimeSeries&) = delete;
  TimeSeries& operator=(const TimeSeries&) = delete;

  const json& rows() const { return rows_; }
  uint64_t every_cycles() const { return every_; }
  // No rows after this call; the next scheduled sample edge becomes the domain's last.
  void stop() { stopped_ = true; }

 private:
  bool tick(uint64_t cycle) override;
  void take_row();

  ClockDomain& clk_;
  const uint64_t every_;
  sc_core::sc_event sample_;
  uint64_t sample_cycle_ = 0;  // cycle of the row requested by the last tick
  bool stopped_ = false;
  json rows_ = json::array();
};

}  // namespace gpusc
