#include "common/port_split.h"

#include "common/report.h"

namespace gpusc {

PortSplit::PortSplit(sc_core::sc_module_name name, unsigned ports, Route route)
    : sc_core::sc_module(name), out("out"), route_(std::move(route)) {
  if (ports == 0) error(this->name(), "a port split needs at least one output");
  if (!route_) error(this->name(), "a port split needs a route");
  out.init(ports);
  for (unsigned j = 0; j < ports; ++j) out[j].on_accept([this] { free_.notify(sc_core::SC_ZERO_TIME); });
  in.set_accept([this](tlm::tlm_generic_payload& gp) { return take(gp); });
  SC_METHOD(retry_held);
  sensitive << free_;
  dont_initialize();
}

bool PortSplit::take(tlm::tlm_generic_payload& gp) {
  const unsigned j = route_(gp);
  if (j >= ports()) error(name(), "route sent a message to port ", j, " of ", ports());
  if (out[j].busy()) return false;
  out[j].send(gp);
  return true;
}

void PortSplit::retry_held() {
  if (in.has_pending()) in.retry();
}

}  // namespace gpusc
