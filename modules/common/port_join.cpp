#include "common/port_join.h"

#include "common/report.h"

namespace gpusc {

PortJoin::PortJoin(sc_core::sc_module_name name, unsigned ports, Route route)
    : sc_core::sc_module(name), merge_in("merge_in"), split_out("split_out"), route_(std::move(route)) {
  if (ports == 0) error(this->name(), "a port join needs at least one port");
  if (!route_) error(this->name(), "a port join needs a route for split_in");
  merge_in.init(ports);
  split_out.init(ports);
  for (unsigned j = 0; j < ports; ++j) {
    merge_in[j].set_accept([this, j](tlm::tlm_generic_payload& gp) { return take_merge(j, gp); });
    split_out[j].on_accept([this] { split_free_.notify(sc_core::SC_ZERO_TIME); });
  }
  split_in.set_accept([this](tlm::tlm_generic_payload& gp) { return take_split(gp); });
  merge_out.on_accept([this] { merge_free_.notify(sc_core::SC_ZERO_TIME); });
  SC_METHOD(retry_merge);
  sensitive << merge_free_;
  dont_initialize();
  SC_METHOD(retry_split);
  sensitive << split_free_;
  dont_initialize();
}

bool PortJoin::take_merge(unsigned j, tlm::tlm_generic_payload& gp) {
  if (merge_out.busy()) return false;
  if (!retrying_)
    for (const MsgIn& in : merge_in)
      if (in.has_pending()) {  // held inputs go first: refuse, and offer them now
        merge_free_.notify(sc_core::SC_ZERO_TIME);
        return false;
      }
  last_ = j;
  merge_out.send(gp);  // taken, or held by the receiver: either way this join is done with it
  return true;
}

bool PortJoin::take_split(tlm::tlm_generic_payload& gp) {
  const unsigned j = route_(gp);
  if (j >= ports()) error(name(), "route sent a message to port ", j, " of ", ports());
  if (split_out[j].busy()) return false;
  split_out[j].send(gp);
  return true;
}

void PortJoin::retry_merge() {
  const unsigned n = ports(), from = last_;
  retrying_ = true;
  for (unsigned k = 1; k <= n && !merge_out.busy(); ++k) {
    const unsigned j = (from + k) % n;
    if (merge_in[j].has_pending()) merge_in[j].retry();
  }
  retrying_ = false;
}

void PortJoin::retry_split() {
  if (split_in.has_pending()) split_in.retry();
}

}  // namespace gpusc
