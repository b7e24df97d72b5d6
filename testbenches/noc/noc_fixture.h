// Shared set-up for NoC testbenches. Each bench is a module, so one test may build several
// benches (one per configuration) in the same design and run them together: SystemC cannot
// elaborate a second design in one process.
//   NocBench     : a Network with scripted initiators on every node's in[0] and scripted
//                  targets on every node's out[0] (exact timing, back-pressure, multicast).
//   TrafficBench : a Network with a TrafficTerminal on every node's vnet 0 (random load,
//                  conservation checks).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "common/payload_pool.h"
#include "harness/scripted_initiator.h"
#include "harness/scripted_target.h"
#include "noc/network.h"
#include "noc/traffic_terminal.h"

namespace gpusc::tb {

struct NocBench : sc_core::sc_module {
  ClockDomain clk{"clk", 1000.0};
  PayloadPool pool{512};
  std::unique_ptr<noc::Network> net;
  sc_core::sc_vector<ScriptedInitiator> src{"src"};
  sc_core::sc_vector<ScriptedTarget> dst{"dst"};

  // vnet 0 of every node is wired to src[node] / dst[node]. lanes > 1 splits the clock domain
  // (see noc::Network); the scripted units stay in lane 0, so only lane 0's nodes may use them.
  NocBench(sc_core::sc_module_name name, const noc::Network::Params& p, unsigned target_depth = 4,
           unsigned lanes = 1);
  // Schedules a write of `flits` flits from node s to node d at `cycle` (header_bytes = 0).
  void send(unsigned s, unsigned d, uint64_t cycle, unsigned flits, uint64_t tag = 0);
  // Same, to every node of `dests` (one multicast packet).
  void multicast(unsigned s, const DestSet& dests, uint64_t cycle, unsigned flits, uint64_t tag = 0);
  void run(uint64_t cycles) { sc_core::sc_start(clk.time_of(cycles)); }
};

struct TrafficBench : sc_core::sc_module {
  ClockDomain clk{"clk", 1000.0};
  PayloadPool pool{512};
  std::unique_ptr<noc::Network> net;
  sc_core::sc_vector<noc::TrafficTerminal> term{"term"};

  // lanes > 1: the clock domain is split into that many lanes (see noc::Network).
  TrafficBench(sc_core::sc_module_name name, const noc::Network::Params& p, const noc::TrafficTerminal::Params& t,
               uint64_t seed, unsigned lanes = 1);
  uint64_t created() const;
  uint64_t received() const;
  uint64_t backlog() const;  // packets still waiting in the terminals' source queues
  // Every created packet has left its source and arrived.
  bool drained() const { return backlog() == 0 && received() == created(); }
};

// A one-virtual-network mesh with XY routing, 16 B flits and no header bytes, so a payload of
// n * 16 bytes is an n-flit packet.
noc::Network::Params mesh_params(unsigned k, unsigned m, unsigned pipeline = 3, unsigned vcs = 2, unsigned depth = 8);

// Cycle at which the message tagged `tag` (MemExt::pc) reached node d's target (UINT64_MAX: never).
uint64_t arrival(NocBench& b, unsigned d, uint64_t tag);

// Output ports of router r that are wired to a link (the others have no credits).
std::vector<unsigned> connected_out_ports(noc::Network& net, unsigned r);

}  // namespace gpusc::tb
