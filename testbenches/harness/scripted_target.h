// ScriptedTarget: a testbench slave behind a MsgIn with a finite input queue. It consumes one
// message per cycle (unless stalled), records what arrived and when, and releases the payload.
// stall_until(c) makes it stop consuming until cycle c, so its queue fills and END_REQ is
// withheld: the way to test back-pressure.
#pragma once
#include <deque>
#include <vector>

#include "common/clock_domain.h"
#include "common/mem_ext.h"
#include "common/msg_port.h"

namespace gpusc::tb {

class ScriptedTarget : public sc_core::sc_module, private Tickable {
 public:
  struct Arrival {
    uint64_t cycle;      // cycle the message was taken into the queue
    uint64_t consumed;   // cycle it left the queue
    uint64_t address;
    tlm::tlm_command cmd;
    unsigned length;
    MemExt ext;
  };
  MsgIn in{"in"};

  ScriptedTarget(sc_core::sc_module_name name, ClockDomain& clk, unsigned queue_depth = 4);
  void stall_until(uint64_t cycle);
  const std::vector<Arrival>& arrivals() const { return done_; }
  size_t occupancy() const { return queue_.size(); }

 private:
  bool tick(uint64_t cycle) override;
  ClockDomain& clk_;
  const unsigned depth_;
  uint64_t stall_until_ = 0;
  std::deque<std::pair<uint64_t, tlm::tlm_generic_payload*>> queue_;
  std::vector<Arrival> done_;
};

}  // namespace gpusc::tb
