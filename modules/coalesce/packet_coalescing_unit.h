// PacketCoalescingUnit (PCU): request grouping and reply merging in front of one memory
// partition's L2 (paper 001 §3.2, Figure 3; 128 RGRs per PCU in §5.1, 64..1024 in §5.4).
// A memory-partition stage (mem/mc_stage.h) on both paths, registered as "pcu" by
// coalesce_stages.h: in() = req_in, to_l2() = to_mem, from_l2() = from_mem, out() = reply_out;
// idle() = drained(), stall_cycles() = mc_stall_cycles(). With `mc.stages: ["pcu"]` it is the
// partition's first stage, its parameters under mc.stage_params.pcu.
//
//   req_in --> stage 1 (RGRs + pointer ring | write buffer) --> stage 2 (request selector) --> to_mem
//   reply_out <-- reply queue <-- merge unit (RGR lookup) <------------------------------ from_mem
//
// Stage 1, one request per cycle. A read is accepted only while an RGR is free ("When there is
// an available RGR, a read request is accepted"), even one that would match a valid RGR;
// otherwise req_in withholds END_REQ. A read whose block matches a valid RGR sets the
// requester's destination bit (MemExt::src) and is dropped (payload released); a miss takes a
// free RGR, stores its index at the pointer ring's head, and keeps its payload as the request
// for the L2. Writes and atomics go to the write buffer unchanged (full: END_REQ withheld).
// Stage 2, one request per cycle, while the reply queue has a free slot: the request selector
// takes the read of the RGR at the ring's tail or the write-buffer head, round-robin, and sends
// it on to_mem (honouring back-pressure). The RGR stays valid after its request left: the
// grouping window lasts until the block returns.
// Merge unit: a read reply takes the destination bits of the valid RGR with its block: several
// nodes -> MemExt::dests (one multicast message; dst keeps the first requester), one node ->
// dst = that node and dests empty. The RGR is cleared and the reply enters the reply queue;
// write acks and atomic replies pass through unchanged. A full reply queue withholds END_REQ on
// from_mem. reply_out sends one reply per cycle (back-pressure from the NI = MC stall, §2.1).
//
// Timing (cycles of clk): a message handed over in cycle c is latched at c + 1 (one pipeline
// register before stage 1 and one before the merge unit). Per cycle the unit works back to
// front: reply_out, merge, stage 2, stage 1. So an uncontended read handed over in c is sent to
// the L2 in c + 2, and a reply handed over by the L2 in r leaves on reply_out in r + 2. A read
// whose stage 1 falls in the cycle its block's reply is merged is past the window and allocates
// a new RGR.
// Choices the paper left open:
//   * the RGR search ("all valid RGRs are sequentially accessed") fits in the stage-1 cycle;
//   * "MC reply queue has available space" = occupancy < reply_queue after this cycle's send
//     and merge; no room is reserved for replies still in the L2 (if the queue fills, they wait
//     at from_mem). With a PCU the MC reply queue sits after the merge unit: it is this unit's;
//   * round-robin priority starts with reads and passes the kind just granted;
//   * grouping is by block (address / line_bytes); a read reply carries the whole block, so
//     every grouped requester gets it whatever its sector mask; the reply keeps the first
//     requester's fields (warp, pc, masks): L1s match fills by address (docs/gpu-model.md).
//     Its timestamps too, but every grouped requester's own issue timestamps (t_issue,
//     t_req_inject, t_mem_accept) travel in MemExt::grouped, so latencies are per requester;
//   * protocol errors: a second read from one node to a block it already waits for (the L1's
//     MSHRs merge those, §3.2), a read reply with no valid RGR or before its request was sent,
//     a write/atomic reply with none outstanding, a read from a node >= max_nodes;
//   * b_transport (loosely-timed) passes through to to_mem without grouping.
// RGRs (RgrAccess, coalesce/rgr_access.h): the RGR search, allocation, destination bits and
// release are the RequestGroupingRegisters model (rgr_model = cpp) or rtl/pcu_rgr.v verilated
// behind pin adapters (rgr_model = rtl, coalesce/rtl_grouping_registers.h). The RTL answers in
// the cycle it was asked, in the delta cycles after its edge, so both give the same results
// cycle for cycle: stage 1 reserves an RGR while its read is being looked up (the count
// accept_request checks), the merge unit's reply takes its reply-queue slot when it asks, a read
// refused meanwhile is retried when the answer comes, still in that cycle, and a tick that
// waits for an answer holds its place in the next cycle (ClockDomain::hold) and resolves it as the
// C++ tick's return value would have, so both tick in the same order among the units. The RTL needs
// max_nodes <= 64 and blocks below 2^41 (its fields, 001 §3.2).
// Stats: coalescing_ratio = grouped_requests / reads, the reply packets saved per read (each
// grouped read would have been one reply packet). The paper's §5.3 "actual inter-core locality
// ratio" (coalesced packets / reply packets of the baseline, which sends one per read) counts
// every read of a multi-destination group, including its first: inter_core_locality_ratio =
// (grouped_requests + multicast_replies) / reads.
// Summary lines (summarize(), over the PCUs of every partition): coalescing_ratio = the sum of
// grouped_requests / the sum of reads, and multicast_replies = their sum.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "common/clock_domain.h"
#include "common/dest_set.h"
#include "common/mem_ext.h"
#include "common/msg_port.h"
#include "common/params.h"
#include "common/stats.h"
#include "coalesce/rgr_access.h"
#include "mem/mc_stage.h"

namespace gpusc {

class PacketCoalescingUnit : public sc_core::sc_module, public McStage, private Tickable {
 public:
  struct Params {
    unsigned rgrs = 128;         // request grouping registers (001 §5.1: 128; §5.4 sweeps 64..1024)
    unsigned write_buffer = 8;   // writes/atomics waiting for stage 2 [entries] (size not in the paper)
    unsigned reply_queue = 8;    // MC reply queue after the merge unit [replies] (size not in the paper)
    unsigned max_nodes = 64;     // destination bits per RGR: node ids 0..max_nodes-1 (001 §3.2: 64 bits)
    unsigned line_bytes = 128;   // cache block size; reads group on address / line_bytes [bytes]
    std::string rgr_model = "cpp";  // cpp | rtl: the RGRs as the C++ model or rtl/pcu_rgr.v (co-simulation)
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(rgrs, 64, 1024, "request grouping registers per PCU [count] (001 §5.1: 128, §5.4: 64..1024)");
      GPUSC_PARAM_R(write_buffer, 1, 4096, "write/atomic buffer before the request selector [entries]");
      GPUSC_PARAM_R(reply_queue, 1, 4096, "MC reply queue after the merge unit [replies]");
      GPUSC_PARAM_R(max_nodes, 1, DestSet::kMaxNodes, "destination bits per RGR = highest node id + 1 (001 §3.2: 64)");
      GPUSC_PARAM_R(line_bytes, 1, 4096, "cache block size reads are grouped by [bytes]");
      GPUSC_PARAM_C(rgr_model, "cpp|rtl",
                    "the request grouping registers: the C++ model, or rtl/pcu_rgr.v verilated behind pin adapters "
                    "(same results cycle for cycle; needs a build with Verilator, docs/rtl-cosim.md)");
    }
  };

  MsgIn req_in{"req_in"};        // requests from the NI: reads, writes, atomics
  MsgOut to_mem{"to_mem"};       // requests to the L2 (the MC request queue)
  MsgIn from_mem{"from_mem"};    // replies from the L2
  MsgOut reply_out{"reply_out"}; // replies to the NI (reply network)

  PacketCoalescingUnit(sc_core::sc_module_name name, const Params& p, ClockDomain& clk);
  PacketCoalescingUnit(const PacketCoalescingUnit&) = delete;
  PacketCoalescingUnit& operator=(const PacketCoalescingUnit&) = delete;

  const Params& params() const { return p_; }
  const RgrAccess& rgrs() const { return *rgr_; }
  unsigned valid_rgrs() const { return valid_; }
  unsigned reads_waiting() const;  // RGRs in the pointer ring (read not yet sent to the L2)
  size_t write_buffer_size() const { return wbuf_.size(); }
  size_t reply_queue_size() const { return replies_.size(); }
  // Nothing held: no valid RGR, no queued or latched message, no write outstanding at the L2.
  bool drained() const;
  // Cycles a reply waited for reply_out (MC stall time, paper 001 §2.1).
  uint64_t mc_stall_cycles() const { return mc_stall_cycles_.value(); }

  // McStage (mem/mc_stage.h).
  MsgIn* in() override { return &req_in; }
  MsgOut* to_l2() override { return &to_mem; }
  MsgIn* from_l2() override { return &from_mem; }
  MsgOut* out() override { return &reply_out; }
  bool idle() const override { return drained(); }
  uint64_t stall_cycles() const override { return mc_stall_cycles(); }
  // coalescing_ratio and multicast_replies over `all` (PacketCoalescingUnits): see Stats above.
  void summarize(json& summary, const std::vector<const McStage*>& all) const override;

 private:
  struct RgrData {  // what the PCU keeps beside each RGR (the RGR itself is in rgr_)
    tlm::tlm_generic_payload* req = nullptr;   // the allocating read until stage 2 sends it
    std::vector<RequestStamps> grouped;        // timestamps of the reads grouped into it
  };
  struct Latch {
    tlm::tlm_generic_payload* gp = nullptr;
    uint64_t due = 0;  // cycle it may be processed
  };

  bool accept_request(tlm::tlm_generic_payload& gp);
  bool accept_reply(tlm::tlm_generic_payload& gp);
  bool tick(uint64_t cycle) override;
  void send_reply(uint64_t cycle);
  void merge(uint64_t cycle);
  void stage2();
  void stage1(uint64_t cycle);
  bool stage2_ready() const;
  bool stage2_has_work() const;  // stage2_ready() but for to_mem's state
  void requested(tlm::tlm_generic_payload& gp, const RequestGroupingRegisters::RequestResult& r);
  void released(tlm::tlm_generic_payload& gp, const RequestGroupingRegisters::ReleaseResult& r);
  void occupancy_changed(int delta);

  const Params p_;
  ClockDomain& clk_;
  std::unique_ptr<RgrAccess> rgr_;
  std::vector<RgrData> data_;      // per RGR index
  unsigned free_rgrs_;             // RGRs free, less those reserved by reads being looked up
  std::vector<unsigned> ring_;     // PCU pointer ring buffer (rgrs + 1 slots: head == tail is empty)
  unsigned head_ = 0, tail_ = 0;
  std::deque<tlm::tlm_generic_payload*> wbuf_;
  std::deque<tlm::tlm_generic_payload*> replies_;
  Latch in_latch_, mem_latch_;
  bool prefer_write_ = false;      // round-robin pointer of the request selector
  bool tick_again_ = false;        // the last tick asked for the next cycle
  bool held_ = false;              // the last tick held the next cycle until the RTL answers
  bool to_mem_busy_at_tick_ = false;  // to_mem.busy() at the end of that tick
  unsigned valid_ = 0;
  uint64_t writes_at_mem_ = 0;     // writes/atomics sent to the L2 and not replied yet
  bool rgr_wait_ = false;          // a read is being refused for want of an RGR
  uint64_t rgr_wait_from_ = 0, reply_offered_ = 0;
  double occ_area_ = 0;            // integral of valid RGRs over cycles, up to occ_since_
  uint64_t occ_since_ = 0;

  StatGroup stats_;
  Counter& reads_;
  Counter& writes_;
  Counter& allocs_;
  Counter& grouped_;
  Counter& replies_sent_;
  Counter& multicast_;
  Counter& rgr_full_cycles_;
  Counter& mc_stall_cycles_;
};

}  // namespace gpusc
