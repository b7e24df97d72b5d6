// LastSharerLlc: the locality-aware last-level cache (LA-LLC) comparison point of paper 000 §IV-B
// (its ref. [44]), a memory-partition stage (mem/mc_stage.h, registered as "la_llc" by
// probe_stages.h) in front of the partition's L2. The L2 keeps the last sharer of each line; a
// read that hits in the L2 and whose line has a recorded last sharer other than the requester is
// not served: it is forwarded to that core, whose probe handler (probe_handler.h) looks the line
// up in its L1 through the peer-lookup port. Hit: the sharer sends the line to the requester
// (reply network). Miss (the sharer evicted it meanwhile): the sharer sends the read back to this
// partition, which serves it from the L2 without forwarding it again. Every read is answered
// exactly once, by the sharer or by the L2; the requester's own fetch payload travels the whole way.
// Paper 000 gives only the idea (the L2 "records the last sharer core" and forwards "in case of a
// hit"); our choices:
//   * the last sharer is recorded per line at every read this stage sees (forwarded or served):
//     the requester will hold the line either way; writes leave it (L1s are write-through and not
//     coherent within a kernel); the record is the L2 tag's field, kept here in a map and used only
//     while the L2 holds the line (Cache::present at the moment the read passes this stage: the
//     "L2 hit" test, before the read queues at the L2);
//   * the forward is a one-flit control message on the reply network (MemKind::Probe, header only),
//     the miss return a normal read on the request network;
//   * the forwarded read's L1 lookup at the sharer waits for a free L1 port like a probe;
//   * L1 flushes at kernel boundaries are not seen: a sharer recorded in an earlier kernel is a
//     miss (part of LA-LLC's imprecision; the paper reports precision 60%, 40% on 3MM / GEMM);
//   * the L2 reply path and the forwards share this stage's single output, round robin.
// Precision = forwarded reads the sharer answered / forwarded reads.
// The stage sits between the NI and the L2 with its own queues (`queue` latched requests, L2
// replies and forwards): capacity LA-LLC's hardware, a field in the L2 tags, does not add. They
// let a partition take more requests out of the request network (histogram, small input: 7.6%
// faster with no read forwarded); `forward = false` keeps them without the forwards, the control
// that LA-LLC's own effect is measured against (docs/validation/probe.md).
// stall_cycles() is the L2's own up_blocked_cycles (waits of the forwards are not added).
#pragma once
#include <cstdint>
#include <deque>
#include <unordered_map>

#include <systemc>

#include "common/clock_domain.h"
#include "common/msg_port.h"
#include "common/params.h"
#include "common/stats.h"
#include "mem/mc_stage.h"

namespace gpusc {
class Cache;

namespace probe {

class LastSharerLlc : public sc_core::sc_module, public McStage, private Tickable {
 public:
  struct Params {
    unsigned queue = 4;  // latched requests / replies / forwards waiting [messages]
    bool forward = true;  // false: a control, the stage's queues and latches without the forwards
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(queue, 1, 4096, "requests, L2 replies and forwards waiting in the stage, each [messages]");
      GPUSC_PARAM(forward, "forward L2-hit reads to the line's last sharer; false: a control that keeps the "
                           "stage's queues and latches and serves every read from the L2 (what the stage itself "
                           "adds to the partition, not LA-LLC's)");
    }
  };

  LastSharerLlc(sc_core::sc_module_name name, const Params& p, const McStageContext& ctx);

  MsgIn* in() override { return &in_; }
  MsgOut* to_l2() override { return &to_l2_; }
  MsgIn* from_l2() override { return &from_l2_; }
  MsgOut* out() override { return &out_; }
  bool idle() const override;
  uint64_t stall_cycles() const override;
  void summarize(json& summary, const std::vector<const McStage*>& all) const override;

  uint64_t forwards() const { return forwards_.value(); }
  uint64_t returned() const { return returned_.value(); }

 private:
  using Payload = tlm::tlm_generic_payload;
  struct Timed {
    uint64_t ready;
    Payload* gp;
  };
  bool tick(uint64_t cycle) override;
  bool latch(std::deque<Timed>& q, Payload& gp);

  const Params p_;
  ClockDomain& clk_;
  const Cache& l2_;
  MsgIn in_{"in"}, from_l2_{"from_l2"};
  MsgOut to_l2_{"to_l2"}, out_{"out"};
  std::deque<Timed> req_q_, rep_q_;
  std::deque<Payload*> fwd_q_;
  std::unordered_map<uint64_t, unsigned> last_;  // line -> platform id of its last reader
  bool fwd_turn_ = false;
  StatGroup stats_;
  Counter &reads_, &forwards_, &returned_, &self_;
};

}  // namespace probe
}  // namespace gpusc
