// RdmaDecoalescer: the de-coalescer half of the RDMA CoDec at the destination GPU (paper 004
// §4.1.3, Fig. 7(e)). It tells a coalesced packet from a regular message by the packet header's
// compression-algorithm field (RdmaPacketExt::format, multigpu/rdma_packet.h) and splits it back
// into the original fine-grained responses, in packet order; every other message passes through
// unchanged.
// Each response leaves as its original payload (the requester matches replies by payload) with
// its data rebuilt from the packet's wire image: its k transactions' data words, packed in mask
// order into its data buffer (left alone when it has none). The ID of every transaction on the
// wire must equal the response's RdmaIdExt (an error otherwise: a corrupted or misrouted packet).
//
// Timing, in cycles of clk: a message handed over in cycle c is latched in c + 1 into a queue of
// `queue` messages (full: END_REQ withheld). In each cycle in which `out` is free, the head sends
// one message, and again while `out` is free, up to per_cycle messages: with per_cycle = 1 a
// coalesced packet latched in a sends its responses in a, a + 1, ..., a + k - 1 and is released
// after the last; a regular message leaves in its latch cycle. A response withheld by the
// receiver keeps `out` busy (and the rest waiting) until it is taken.
// Choices the paper leaves open:
//   * per_cycle responses per cycle through one output port into the GPU (default 1; a receiver
//     that takes several per cycle, such as a GPU with several boundary nodes, can use more);
//   * the responses keep the MemExt they had at the serving GPU's coalescer; a fabric that
//     renumbers nodes needs a Bridge after this unit (the Bridge before it only sees the packet);
//   * the RdmaIdExt stays valid on the responses: the requester's RDMA engine maps the ID back
//     and clears it.
#pragma once
#include <cstdint>
#include <deque>

#include <systemc>

#include "common/clock_domain.h"
#include "common/msg_port.h"
#include "common/params.h"
#include "common/stats.h"

namespace gpusc::multigpu {

class RdmaDecoalescer : public sc_core::sc_module, private Tickable {
 public:
  struct Params {
    unsigned queue = 2;      // messages latched, waiting to be split or forwarded [messages] (not in the paper)
    unsigned per_cycle = 1;  // messages sent into the GPU per cycle [count] (not in the paper)
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(queue, 1, 65536, "incoming messages waiting to be split or forwarded [messages]");
      GPUSC_PARAM_R(per_cycle, 1, 64,
                    "messages (responses of a packet, or regular messages) sent into the GPU per cycle, while the "
                    "receiver takes them at once [count]");
    }
  };

  MsgIn in{"in"};    // from the fabric: coalesced packets and regular messages
  MsgOut out{"out"}; // into the GPU: the original responses and regular messages

  RdmaDecoalescer(sc_core::sc_module_name name, const Params& p, ClockDomain& clk);
  RdmaDecoalescer(const RdmaDecoalescer&) = delete;
  RdmaDecoalescer& operator=(const RdmaDecoalescer&) = delete;

  size_t occupancy() const { return q_.size(); }
  bool idle() const { return q_.empty() && !out.busy() && !in.has_pending(); }

 private:
  struct Msg {
    tlm::tlm_generic_payload* gp;
    uint64_t at;           // latch cycle
    unsigned next = 0;     // next response of a coalesced packet
    unsigned txn = 0;      // its first transaction
  };
  bool accept(tlm::tlm_generic_payload& gp);
  bool tick(uint64_t cycle) override;
  tlm::tlm_generic_payload& rebuild(Msg& m);

  const Params p_;
  ClockDomain& clk_;
  std::deque<Msg> q_;

  StatGroup stats_;
  Counter &packets_, &responses_, &passthrough_, &refused_;
};

}  // namespace gpusc::multigpu
