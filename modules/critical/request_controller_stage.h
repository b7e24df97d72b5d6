// RequestControllerStage: the per-SM request controller and windows manager of paper 002 §4.1
// (Figure 4.2: "RC" and "WM" beside the L1 of every SM) as an SM-side stage (gpu/sm_front_stage.h),
// registered as "request_controller" by critical_stages.h. It owns one RequestController
// (request_controller.h) and attaches it to the node's L1 when built: the controller sets the
// L1's fetch-map policy and observes its fills and evictions (Cache hooks), so its per-miss
// decision (whole line or the missing sectors) is the sector map the L1's fetch carries to the
// MC. The L1 must fetch by sector (l1.fetch_granularity = sector: the critical data tracker),
// an error otherwise.
// Messages cross the stage unchanged and at once: a request from the L1 goes on to the network
// in the same call, a reply to the L1 likewise. Choices (the thesis has no such stage: the RC
// sits in the L1's miss path):
//   * back-pressure: a message the next unit cannot take at once is held in this stage's one
//     slot per direction (the next unit withholds END_REQ); while it is held, the stage takes no
//     other message in that direction, and it retries the held one in the cycle after the next
//     unit frees (so the chain adds one message of buffering and, under back-pressure only, one
//     cycle);
//   * no peer traffic (peer_in / peer_out: none).
// summarize() adds rc_partial_share: partial decisions / all decisions, over every SM.
#pragma once
#include <memory>
#include <vector>

#include <systemc>

#include "common/clock_domain.h"
#include "common/msg_port.h"
#include "critical/request_controller.h"
#include "gpu/sm_front_stage.h"

namespace gpusc {

class RequestControllerStage : public sc_core::sc_module, public SmFrontStage, private Tickable {
 public:
  MsgIn l1_in{"l1_in"};      // requests from the L1 (from_l1)
  MsgOut net_out{"net_out"}; // requests toward the network (to_net)
  MsgIn net_in{"net_in"};    // replies from the network (from_net)
  MsgOut l1_out{"l1_out"};   // replies toward the L1 (to_l1)

  // Builds the controller (named "rc", sectors = l1's line_bytes / 32) and attaches it to l1.
  RequestControllerStage(sc_core::sc_module_name name, const RequestController::Params& p, ClockDomain& clk, Cache& l1);
  RequestControllerStage(const RequestControllerStage&) = delete;
  RequestControllerStage& operator=(const RequestControllerStage&) = delete;

  RequestController& controller() { return *rc_; }
  const RequestController& controller() const { return *rc_; }

  // SmFrontStage
  MsgIn& from_l1() override { return l1_in; }
  MsgOut& to_net() override { return net_out; }
  MsgIn& from_net() override { return net_in; }
  MsgOut& to_l1() override { return l1_out; }
  bool idle() const override { return !net_out.busy() && !l1_out.busy() && !l1_in.has_pending() && !net_in.has_pending(); }
  void summarize(json& summary, const std::vector<const SmFrontStage*>& all) const override;

 private:
  bool tick(uint64_t cycle) override;
  ClockDomain& clk_;
  std::unique_ptr<RequestController> rc_;
};

}  // namespace gpusc
