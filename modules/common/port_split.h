// PortSplit: one message port split into N by a route function, without delay (DESIGN §6): the
// way from the fabric into a block's several boundary nodes (GpuBlock::Params::boundary_nodes).
// Timing: a message passes to out[route(message)] in the call that offers it. While that output
// is busy (its receiver withholds END_REQ for the message before), the message is refused and
// held in `in`, and the ones behind it wait (one input, in order); when the receiver takes the
// busy one, the held message is retried one delta cycle later.
// Choices: no latency, no buffer; route is the owner's (GpuBlock spreads by destination).
#pragma once
#include <functional>

#include <systemc>

#include "common/msg_port.h"

namespace gpusc {

class PortSplit : public sc_core::sc_module {
 public:
  using Route = std::function<unsigned(const tlm::tlm_generic_payload&)>;  // -> output index

  MsgIn in{"in"};
  sc_core::sc_vector<MsgOut> out;  // [port]

  SC_HAS_PROCESS(PortSplit);
  PortSplit(sc_core::sc_module_name name, unsigned ports, Route route);
  unsigned ports() const { return static_cast<unsigned>(out.size()); }

 private:
  bool take(tlm::tlm_generic_payload& gp);
  void retry_held();  // SC_METHOD on free_
  Route route_;
  sc_core::sc_event free_;
};

}  // namespace gpusc
