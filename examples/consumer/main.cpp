// consumer: the smallest outside program on an installed gpusc (find_package(gpusc), links
// gpusc::noc). A 4x4 mesh with a uniform-random TrafficTerminal at every node runs 2000 cycles
// and prints how many packets were delivered; exits 1 if none were.
#include <cstdint>
#include <cstdio>

#include <systemc>

#include "common/clock_domain.h"
#include "common/payload_pool.h"
#include "noc/network.h"
#include "noc/traffic_terminal.h"

int sc_main(int, char*[]) {
  using namespace gpusc;
  noc::Network::Params np;
  np.k = 4;
  np.m = 4;
  np.routing = "xy";
  np.router.vnets = 1;
  noc::TrafficTerminal::Params tp;
  tp.rate = 0.1;
  tp.flit_bytes = np.ni.flit_bytes;
  tp.header_bytes = np.ni.header_bytes;
  tp.warmup = 0;
  tp.cycles = 2000;

  ClockDomain clk("noc_clk", 1000.0);
  noc::Network net("noc", np, clk);
  PayloadPool pool(tp.packet_flits * np.ni.flit_bytes);
  sc_core::sc_vector<noc::TrafficTerminal> terms("term", net.nodes(), [&](const char* name, size_t i) {
    return new noc::TrafficTerminal(name, tp, static_cast<unsigned>(i), np.k, np.m, /*seed=*/1, clk, pool);
  });
  for (unsigned i = 0; i < net.nodes(); ++i) {
    terms[i].out.bind(net.ni(i).in[0]);
    net.ni(i).out[0].bind(terms[i].in);
  }

  sc_core::sc_start(clk.time_of(tp.cycles));
  uint64_t created = 0, delivered = 0;
  for (auto& t : terms) { created += t.created(); delivered += t.received(); }
  std::printf("4x4 mesh, %llu cycles: %llu packets created, %llu delivered\n",
              static_cast<unsigned long long>(clk.now()), static_cast<unsigned long long>(created),
              static_cast<unsigned long long>(delivered));
  return delivered > 0 ? 0 : 1;
}
