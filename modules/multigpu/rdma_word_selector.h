// RdmaWordSelector: the serving GPU's RDMA engine picking the requested words out of a line
// (paper 004 §4.1.1 and §4.1.3: "we do not apply fine-grained memory accesses at L2 cache and
// DRAM": the serving GPU's L2 and DRAM answer a fine-grained read with its whole line, and the
// transfer is fine-grained on the inter-GPU link only). It sits on the serving GPU's outgoing
// reply path, in front of the RDMA coalescer: a read reply carrying a response ID (RdmaIdExt,
// multigpu/rdma_packet.h) leaves with data_length = its word mask's words x word_bytes and, when
// it has data, those words packed in mask order at the start of its buffer (in place); every
// other message passes unchanged.
// Timing: combinational (what it takes in a cycle it offers on `out` at once); `out` busy holds
// the next message back (END_REQ withheld) until the receiver takes the current one.
// Choices the paper leaves open: a mask of 0 is an error (the requester always sets one); a mask
// with bits past the line's words is an error.
// Stats: selected (fine-grained replies), passthrough, bytes_saved (line bytes not sent).
#pragma once
#include <cstdint>

#include <systemc>

#include "common/msg_port.h"
#include "common/params.h"
#include "common/stats.h"

namespace gpusc::multigpu {

class RdmaWordSelector : public sc_core::sc_module {
 public:
  struct Params {
    unsigned line_bytes = 64;  // line the L2 returns [bytes] (004 Table 1: 64)
    unsigned word_bytes = 4;   // bytes per word-mask bit (004 §4.1.1: 4; MemExt::word_mask counts 4 B)
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(line_bytes, 4, 128, "line size of the replies [bytes] (004: 64)");
      GPUSC_PARAM_R(word_bytes, 4, 4, "bytes per word-mask bit [bytes]");
    }
  };

  MsgIn in{"in"};
  MsgOut out{"out"};

  RdmaWordSelector(sc_core::sc_module_name name, const Params& p);
  RdmaWordSelector(const RdmaWordSelector&) = delete;
  RdmaWordSelector& operator=(const RdmaWordSelector&) = delete;

  bool idle() const { return !out.busy() && !in.has_pending(); }
  uint64_t selected() const { return selected_.value(); }

 private:
  bool accept(tlm::tlm_generic_payload& gp);
  const Params p_;
  StatGroup stats_;
  Counter &selected_, &passthrough_, &bytes_saved_;
};

}  // namespace gpusc::multigpu
