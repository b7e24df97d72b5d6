// PortMerge: N message ports of one class merged into one, without delay (DESIGN §6). A block
// uses them where several network ports feed one unit: its several boundary nodes into the one
// port toward the fabric (GpuBlock::Params::boundary_nodes), or a node's two ejecting virtual
// networks into its SM or memory partition.
// Timing: a message passes in the call that offers it (no cycle, no buffer of its own). The only
// storage is the receiver's withheld END_REQ: while `out` is busy, a message offered to the
// merge is refused and stays held in its input port; when the receiver takes the busy one, the
// held inputs are retried one delta cycle later (not from inside the receiver's call, so that no
// unit is re-entered while it hands out END_REQ), round-robin from the input after the last one
// that passed. A new message finding `out` free passes at once (work-conserving); while inputs
// are held, a new message waits behind them (it is refused and held too), so no input starves.
// The merge never reorders one input's messages.
// Choices: no arbitration latency and no width limit (the receiver's own port sets the rate).
#pragma once
#include <systemc>

#include "common/msg_port.h"

namespace gpusc {

class PortMerge : public sc_core::sc_module {
 public:
  sc_core::sc_vector<MsgIn> in;  // [port]
  MsgOut out{"out"};

  SC_HAS_PROCESS(PortMerge);
  PortMerge(sc_core::sc_module_name name, unsigned ports);
  unsigned ports() const { return static_cast<unsigned>(in.size()); }

 private:
  bool take(unsigned j, tlm::tlm_generic_payload& gp);
  void retry_held();  // SC_METHOD on free_
  unsigned last_ = 0;      // input that passed last (round-robin)
  bool retrying_ = false;  // inside retry_held: held inputs are being offered
  sc_core::sc_event free_;
};

}  // namespace gpusc
