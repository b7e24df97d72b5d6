// PortJoin: N message ports of one class joined to one, both ways, without delay (DESIGN §6).
// A block whose network has several boundary nodes (GpuBlock::Params::boundary_nodes) uses one
// per traffic class to show the outside one port per class, as with a single boundary node:
//   merge  N -> 1: merge_in[j] (from boundary node j) -> merge_out (toward the fabric);
//   split  1 -> N: split_in (from the fabric) -> split_out[route(message)] (into node j).
// Timing: a message passes in the call that offers it (no cycle, no buffer of its own). The only
// storage is the receiver's withheld END_REQ: while merge_out (or split_out[j]) is busy, a
// message offered to it is refused and stays held in its input port; when the receiver takes the
// busy one, the held inputs are retried one delta cycle later (not from inside the receiver's
// call, so that no unit is re-entered while it hands out END_REQ), merge inputs round-robin from
// the one after the last that passed. A new message finding merge_out free passes at once, so
// the merge is work-conserving; but while inputs are held, a new message waits behind them (it is
// refused and held too), so no input starves. The merge never reorders one input's messages.
// Choices: no arbitration latency and no width limit (the receivers' own ports set the rate);
// route is the owner's (GpuBlock spreads by destination id).
#pragma once
#include <functional>

#include <systemc>

#include "common/msg_port.h"

namespace gpusc {

class PortJoin : public sc_core::sc_module {
 public:
  using Route = std::function<unsigned(const tlm::tlm_generic_payload&)>;  // split_in -> which output

  sc_core::sc_vector<MsgIn> merge_in;    // [port] N -> 1
  MsgOut merge_out{"merge_out"};
  MsgIn split_in{"split_in"};            // 1 -> N
  sc_core::sc_vector<MsgOut> split_out;  // [port]

  SC_HAS_PROCESS(PortJoin);
  PortJoin(sc_core::sc_module_name name, unsigned ports, Route route);
  unsigned ports() const { return static_cast<unsigned>(merge_in.size()); }

 private:
  bool take_merge(unsigned j, tlm::tlm_generic_payload& gp);
  bool take_split(tlm::tlm_generic_payload& gp);
  void retry_merge();  // SC_METHOD on merge_free_
  void retry_split();  // SC_METHOD on split_free_
  Route route_;
  unsigned last_ = 0;      // merge input that passed last (round-robin)
  bool retrying_ = false;  // inside retry_merge: held inputs are being offered
  sc_core::sc_event merge_free_, split_free_;
};

}  // namespace gpusc
