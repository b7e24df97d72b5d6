// SmNode: one SM as a network node (DESIGN §6): an SmCore and its L1 data cache, bound to each
// other, with the L1's memory side as the node's boundary: req_out() sends line requests (and
// write-throughs) to memory, rep_in() takes their replies. Units that sit in front of the L1 for
// a mechanism (a bypass policy, a peer-lookup port, a probe handler) attach through the L1's
// hook points (mem/cache.h) and the SM's listeners, reached with core() and l1(); the node
// itself names no mechanism.
// `node` is the platform id requests carry as MemExt::src (gpu/node_numbering.h).
#pragma once
#include <systemc>

#include "common/clock_domain.h"
#include "common/msg_port.h"
#include "mem/cache.h"
#include "sm/sm_core.h"

namespace gpusc {

class SmNode : public sc_core::sc_module {
 public:
  SmNode(sc_core::sc_module_name name, const SmCore::Params& sm, const Cache::Params& l1, ClockDomain& clk,
         unsigned node);
  SmNode(const SmNode&) = delete;
  SmNode& operator=(const SmNode&) = delete;

  SmCore& core() { return core_; }
  const SmCore& core() const { return core_; }
  Cache& l1() { return l1_; }
  const Cache& l1() const { return l1_; }
  MsgOut& req_out() { return l1_.down_out; }
  MsgIn& rep_in() { return l1_.down_in; }
  unsigned node() const { return node_; }

 private:
  const unsigned node_;
  SmCore core_;
  Cache l1_;
};

}  // namespace gpusc
