#include "common/port_merge.h"

#include "common/report.h"

namespace gpusc {

PortMerge::PortMerge(sc_core::sc_module_name name, unsigned ports) : sc_core::sc_module(name), in("in") {
  if (ports == 0) error(this->name(), "a port merge needs at least one input");
  in.init(ports);
  for (unsigned j = 0; j < ports; ++j)
    in[j].set_accept([this, j](tlm::tlm_generic_payload& gp) { return take(j, gp); });
  out.on_accept([this] { free_.notify(sc_core::SC_ZERO_TIME); });
  SC_METHOD(retry_held);
  sensitive << free_;
  dont_initialize();
}

bool PortMerge::take(unsigned j, tlm::tlm_generic_payload& gp) {
  if (out.busy()) return false;
  if (!retrying_)
    for (const MsgIn& i : in)
      if (i.has_pending()) {  // held inputs go first: refuse, and offer them now
        free_.notify(sc_core::SC_ZERO_TIME);
        return false;
      }
  last_ = j;
  out.send(gp);  // taken, or held by the receiver: either way the merge is done with it
  return true;
}

void PortMerge::retry_held() {
  const unsigned n = ports(), from = last_;
  retrying_ = true;
  for (unsigned k = 1; k <= n && !out.busy(); ++k) {
    const unsigned j = (from + k) % n;
    if (in[j].has_pending()) in[j].retry();
  }
  retrying_ = false;
}

}  // namespace gpusc
