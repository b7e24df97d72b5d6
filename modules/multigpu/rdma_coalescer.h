// RdmaCoalescer: the coalescer half of the RDMA CoDec at the serving GPU (paper 004 §4.1.3,
// Fig. 7(e), Fig. 9; Table 1: "3 64-entry buffer, buffer timeout = 30"). Fine-grained read
// responses leaving for other GPUs are staged in n - 1 per-destination buffers and merged into
// coalesced packets (multigpu/rdma_packet.h) of up to 10 transactions of 6 B (4 B data + 2 B
// response ID); buffers are drained round-robin, and a buffer idle for `timeout` cycles is
// flushed even if its packet is partly full. Everything else that leaves through the RDMA (a
// conventional line reply, a write ack, a request) passes through unchanged.
//
//   in --> fine-grained read reply (valid RdmaIdExt)? --yes--> buffer[dst] (one per other GPU) --+
//               |no (or wider than a packet)                                                      +--> round-robin --> out
//               +--> pass-through queue ---------------------------------------------------------+
//
// Timing, in cycles of clk: a message handed over on `in` in cycle c is latched in c + 1. In a
// cycle t, a buffer is ready when the responses latched by t fill a packet (the packet formed
// from its head, whole responses in arrival order while they fit, has per_packet transactions or
// the next latched response did not fit) or when it holds latched responses and t >= L + timeout,
// L the latch cycle of its most recent response (the timer restarts with every arrival: "idle").
// The pass-through queue is ready when its head is latched. When `out` is free, the first ready
// participant in round-robin order (buffers by destination GPU id, then the pass-through queue;
// the pointer moves past the one served) sends one message, and again while `out` is free, up to
// per_cycle messages (default 1; a GPU with B boundary nodes hands over up to B per cycle). So ten
// responses handed over in c .. c + 9 leave as one packet in c + 10, and one alone in c leaves in
// c + 1 + timeout. A response takes buffer room from acceptance until its packet is sent; a full
// buffer (or pass-through queue) withholds END_REQ on `in`, which holds back everything behind
// the refused message. A packet withheld by the receiver keeps `out` busy until it is taken.
// Ticks only while a buffer or the queue holds a message (at latch, ready and timeout cycles).
//
// Choices the paper leaves open:
//   * a transaction is one transfer unit of data_bytes (004: 4 B, one word; §6.2: 8 and 16 B):
//     a response whose word mask names k units (k x data_bytes / 4 aligned mask bits,
//     the requester widens its masks to whole units: multigpu/mask_mshr_stage.h) is k
//     transactions with the same ID; a response is never split across packets (the de-coalescer
//     needs no reassembly); one wider than per_packet leaves uncoalesced through the
//     pass-through queue (per_packet = 1: fine-grained transfer without coalescing);
//   * a buffer entry holds one transaction (64 entries = 64 units);
//   * "idle" = no response arrived in the buffer for `timeout` cycles; a full packet leaves at
//     once without waiting;
//   * the destination is MemExt::dst, a GPU id of the fabric (0 .. gpus - 1, not self); on a
//     fabric that routes by node id (MemExt::dst of a response is its requester's platform id),
//     set_gpu_of() maps that id to its GPU, and the packet's dst is then its first response's
//     dst (a node of the destination GPU, so the fabric routes the packet as it would the reply);
//   * the packet's MemExt: kind Read, is_reply, src = self, dst = the buffer's GPU, address of its
//     first response; kernel, warp and timestamps are not meaningful for a packet;
//   * a fine-grained response whose data length is not 4 B per mask bit, or whose mask
//     names part of a unit, is an error.
// Stats: packets, full_packets, timeout_packets, responses (coalesced), transactions, passthrough,
// refused, and transactions_per_packet.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include <systemc>

#include "common/clock_domain.h"
#include "common/msg_port.h"
#include "common/params.h"
#include "common/payload_pool.h"
#include "common/stats.h"

namespace gpusc::multigpu {

class RdmaCoalescer : public sc_core::sc_module, private Tickable {
 public:
  struct Params {
    unsigned gpus = 4;              // GPUs on the fabric, n: n - 1 buffers (004 §5: 4)
    unsigned self = 0;              // this GPU's id on the fabric
    unsigned buffer_entries = 64;   // transactions per destination buffer [entries] (004 Table 1: 64)
    unsigned per_packet = 10;       // transactions per coalesced packet [count] (004 §4.1.3: up to 10)
    unsigned data_bytes = 4;        // data per transaction = the transfer unit [bytes] (004: 4 B; §6.2: 4, 8, 16)
    unsigned id_bytes = 2;          // response ID per transaction [bytes] (004: 2 B)
    unsigned timeout = 30;          // idle cycles before a partly full buffer is flushed [cycles] (004: 30)
    unsigned passthrough_queue = 4; // other messages waiting for `out` [messages] (not in the paper)
    unsigned per_cycle = 1;         // messages sent per cycle while `out` takes them [count] (not in the paper)
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(gpus, 2, 1024, "GPUs on the inter-GPU fabric; the coalescer has gpus - 1 buffers (004: 4)");
      GPUSC_PARAM_R(self, 0, 1023, "this GPU's id on the fabric");
      GPUSC_PARAM_R(buffer_entries, 1, 65536, "transactions per destination buffer [entries] (004 Table 1: 64)");
      GPUSC_PARAM_R(per_packet, 1, 255, "transactions per coalesced packet [count] (004 §4.1.3: 10)");
      GPUSC_PARAM_R(data_bytes, 1, 128, "data bytes per transaction = the fine-grained transfer unit [bytes], a power "
                                        "of two multiple of the 4 B mask word, at most a 128 B line (MemExt::word_mask "
                                        "holds 32 words) (004: 4; §6.2: 8, 16)");
      GPUSC_PARAM_R(id_bytes, 1, 2, "response ID bytes per transaction [bytes] (004: 2)");
      GPUSC_PARAM_R(timeout, 1, 1000000, "idle cycles after the last arrival before a buffer is flushed [cycles] "
                                         "(004: 30; §6.2: 10, 30, 50)");
      GPUSC_PARAM_R(passthrough_queue, 1, 65536, "messages that are not coalesced, waiting for the output [messages]");
      GPUSC_PARAM_R(per_cycle, 1, 64, "messages (packets or pass-through messages) sent per cycle, while the receiver "
                                      "takes them at once [count]; a GPU with several boundary nodes hands over that "
                                      "many per cycle");
    }
  };

  static constexpr unsigned kWordBytes = 4;  // bytes per word-mask bit (MemExt::word_mask counts 4 B words)

  MsgIn in{"in"};    // responses (and other messages) leaving this GPU for the fabric
  MsgOut out{"out"}; // coalesced packets and pass-through messages, to the fabric

  RdmaCoalescer(sc_core::sc_module_name name, const Params& p, ClockDomain& clk);
  RdmaCoalescer(const RdmaCoalescer&) = delete;
  RdmaCoalescer& operator=(const RdmaCoalescer&) = delete;

  const Params& params() const { return p_; }
  // Maps a response's MemExt::dst to its destination GPU (default: dst is the GPU id). Set
  // before the simulation starts.
  void set_gpu_of(std::function<unsigned(unsigned dst)> f) { gpu_of_ = std::move(f); }
  // Transactions held for destination GPU `gpu` (accepted, not yet sent).
  unsigned buffered(unsigned gpu) const;
  size_t passthrough_waiting() const { return pass_.size(); }
  bool idle() const;
  uint64_t packets() const { return packets_.value(); }
  uint64_t responses() const { return responses_.value(); }

 private:
  struct Resp {
    tlm::tlm_generic_payload* gp;
    uint16_t id;
    unsigned txns;  // its transactions: transfer units of data_bytes
    uint64_t at;    // latch cycle
  };
  struct Buffer {
    unsigned gpu = 0;
    std::deque<Resp> q;
    unsigned txns = 0;  // transactions in q
  };
  struct Pass {
    tlm::tlm_generic_payload* gp;
    uint64_t at;
  };
  struct Plan {  // the packet a buffer would send in a cycle
    unsigned responses = 0, txns = 0;
    bool full = false, timed_out = false;
    uint64_t last_at = 0;       // latch cycle of the newest latched response
    bool any = false;           // some response is latched
    uint64_t next_latch = UINT64_MAX;  // latch cycle of the first response not latched yet
  };

  bool accept(tlm::tlm_generic_payload& gp);
  bool tick(uint64_t cycle) override;
  Plan plan(const Buffer& b, uint64_t cycle) const;
  bool whole_units(uint64_t mask) const;  // every aligned group of data_bytes / 4 mask bits all set or all clear
  void send_packet(Buffer& b, const Plan& pl);
  unsigned slot_of(unsigned gpu) const { return gpu < p_.self ? gpu : gpu - 1; }

  const Params p_;
  ClockDomain& clk_;
  std::function<unsigned(unsigned)> gpu_of_;
  PayloadPool pool_;
  std::vector<Buffer> buf_;  // n - 1, by destination GPU id (self skipped)
  std::deque<Pass> pass_;
  unsigned rr_ = 0;          // round-robin pointer over buffers 0 .. n-2, then pass-through (n - 1)

  StatGroup stats_;
  Counter &packets_, &full_packets_, &timeout_packets_, &responses_, &transactions_, &passthrough_, &refused_;
};

}  // namespace gpusc::multigpu
