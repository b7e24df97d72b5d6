// Shared set-up for NoC testbenches: a Network with scripted initiators on every node's
// in[0] and scripted targets on every node's out[0]. It is a module, so one test may build
// several benches (one per configuration) in the same design and run them together:
// SystemC cannot elaborate a second design in one process.
#pragma once
#include <memory>

#include "common/payload_pool.h"
#include "harness/scripted_initiator.h"
#include "harness/scripted_target.h"
#include "noc/network.h"

namespace gpusc::tb {

struct NocBench : sc_core::sc_module {
  ClockDomain clk{"clk", 1000.0};
  PayloadPool pool{512};
  std::unique_ptr<noc::Network> net;
  sc_core::sc_vector<ScriptedInitiator> src{"src"};
  sc_core::sc_vector<ScriptedTarget> dst{"dst"};

  // vnet 0 of every node is wired to src[node] / dst[node].
  NocBench(sc_core::sc_module_name name, const noc::Network::Params& p, unsigned target_depth = 4);
  // Schedules a write of `flits` flits from node s to node d at `cycle` (header_bytes = 0).
  void send(unsigned s, unsigned d, uint64_t cycle, unsigned flits, uint64_t tag = 0);
  void run(uint64_t cycles) { sc_core::sc_start(clk.time_of(cycles)); }
};

}  // namespace gpusc::tb
