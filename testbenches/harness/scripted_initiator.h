// ScriptedInitiator: a testbench master that sends scripted messages through a MsgOut at given
// cycles, honours back-pressure (waits while END_REQ is withheld) and records, per message,
// the cycle it was offered and the cycle the target took it.
#pragma once
#include <deque>
#include <functional>
#include <vector>

#include "common/clock_domain.h"
#include "common/msg_port.h"
#include "common/payload_pool.h"

namespace gpusc::tb {

class ScriptedInitiator : public sc_core::sc_module, private Tickable {
 public:
  using Fill = std::function<void(tlm::tlm_generic_payload&, MemExt&)>;
  struct Sent {
    uint64_t offered;   // cycle BEGIN_REQ was sent
    uint64_t accepted;  // cycle the target took it (END_REQ or immediate completion)
  };
  MsgOut out{"out"};

  ScriptedInitiator(sc_core::sc_module_name name, ClockDomain& clk, PayloadPool& pool);
  // Queue a message to send no earlier than `cycle`; messages go out in queue order.
  void at(uint64_t cycle, Fill fill);
  const std::vector<Sent>& sent() const { return sent_; }
  size_t queued() const { return script_.size(); }

 private:
  bool tick(uint64_t cycle) override;
  ClockDomain& clk_;
  PayloadPool& pool_;
  std::deque<std::pair<uint64_t, Fill>> script_;
  std::vector<Sent> sent_;
};

}  // namespace gpusc::tb
