// SmCore: a streaming multiprocessor's issue stage and load/store path, driven by kernel
// models' warp streams (DESIGN §6). Defaults: paper 000 Table II (1536 threads = 48 warps per
// core, SIMT 16x2, 128 B lines) and paper 001 Table 1 (GTO warp scheduler); 8 CTAs per SM as
// in GPGPU-Sim's Fermi configurations.
//
// Behaviour, per cycle c (one tick):
//   1. replies latched this cycle are taken: a load/atomic line reply unblocks its warp by one
//      line, a write ack is just released;
//   2. one line request leaves mem_queue through mem_out, unless mem_out still waits for the
//      L1 to take the previous one (back-pressure);
//   3. warps whose stream ended, with no load outstanding and their last latency elapsed,
//      finish; a CTA whose warps all finished retires and every CTA-done listener runs, in the
//      order they were added;
//   4. each warp scheduler issues at most one instruction of its own warps (slot % schedulers)
//      whose fetched instruction is ready: compute -> the warp's next instruction may issue
//      compute_cycles later (at least 1); load/atomic -> its line requests (Coalescer) enter
//      mem_queue and the warp blocks until every line's reply came back; store -> same, but
//      the warp goes on at c + 1. A memory instruction issues only when mem_queue has room
//      for all its lines, else that cycle can be a stall_mem_queue cycle.
// Requests follow docs/gpu-model.md: READ for loads, WRITE for stores and atomics
// (MemExt::kind Atomic), address = line address, data_length = line_bytes for reads and
// atomics and 4 x popcount(word_mask) for writes, data_ptr nullptr, MemExt src = node, dst 0
// (the L1 routes), warp = SM-local warp slot, pc, masks, kernel_id, cta_id, t_issue.
// Store data (set_store_data, off by default; a platform turns it on when it attaches a memory
// image, issue 19): a write then carries data_ptr = its payload's buffer holding one 4 B word per
// set bit of word_mask, in word order (mem/cache.h's packing): the WarpInstr::data of the lane
// that writes the word (the highest such lane when several lanes write one word, one of the
// values CUDA allows). Only 4-byte, 4-aligned stores can carry data (every kernel's stores are);
// another store with store data on is an error. Timing does not depend on it.
// IPC: GPGPU-Sim reports IPC = thread instructions per cycle (the sum of active lanes of all
// issued warp instructions over the cycles); both counts are stats here.
// Open choices:
//   * launch() at cycle c makes the warps issuable from c + 1 (input latch); a line request
//     leaves at the earliest the cycle after its instruction issued; a reply handed over in
//     cycle c unblocks the warp so its next instruction can issue at c + 1;
//   * an instruction needing more lines than mem_queue holds issues when the queue is empty
//     (it then holds the queue alone, as GPGPU-Sim's single LD/ST pipeline register would);
//   * schedulers are served in index order each cycle, so scheduler 0 sees mem_queue room
//     first; a warp issues at most one instruction per cycle;
//   * warp slots are given lowest-free-first; a warp finishes only after its last
//     instruction's latency elapsed; stores may still be in flight when a CTA retires;
//   * idle() means no resident CTA and no request waiting or in flight (write acks included),
//     so a kernel boundary sees drained memory traffic;
//   * cycle stats (active_cycles = cycles with a resident warp = issue_cycles +
//     stall_mem_queue + stall_all_waiting) are accounted up to the SM's last tick, including
//     the cycles it slept through; stall_mem_queue counts cycles where nothing issued and a
//     warp was held back only by a full mem_queue; stall_all_waiting counts cycles where
//     nothing issued and every warp waited for a reply or a latency.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "common/clock_domain.h"
#include "common/msg_port.h"
#include "common/params.h"
#include "common/payload_pool.h"
#include "common/stats.h"
#include "common/trace.h"
#include "mem/coalescer.h"
#include "sm/warp_scheduler.h"
#include "workload/kernel.h"

namespace gpusc {

class SmCore : public sc_core::sc_module, private Tickable {
 public:
  struct Params {
    unsigned max_warps = 48;        // resident warps (000 Table II: 48 wavefronts)
    unsigned max_ctas = 8;          // resident CTAs (GPGPU-Sim Fermi: 8)
    unsigned max_threads = 1536;    // resident threads (000 Table II: 1536 work-items)
    unsigned schedulers = 2;        // warp schedulers, each issues <= 1 instruction per cycle
    std::string scheduler = "gto";  // warp scheduling policy (001 Table 1: GTO)
    unsigned line_bytes = 128;      // L1 line size [bytes] (000 Table II: 128 B)
    unsigned mem_queue = 8;         // line requests waiting to leave for the L1 [requests]
    unsigned shared_bytes = 49152;  // shared memory [bytes] (GPGPU-Sim Fermi: 48 KB)
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(max_warps, 1, 1024, "resident warps per SM [warps]; at most 64 per scheduler");
      GPUSC_PARAM_R(max_ctas, 1, 1024, "resident CTAs per SM [CTAs]");
      GPUSC_PARAM_R(max_threads, 1, 1 << 20, "resident threads per SM [threads]");
      GPUSC_PARAM_R(schedulers, 1, 16, "warp schedulers; warp slot w belongs to scheduler w % schedulers");
      GPUSC_PARAM_C(scheduler, "gto|lrr", "warp scheduling policy: greedy-then-oldest or loose round-robin");
      GPUSC_PARAM_R(line_bytes, 32, 128, "line size [bytes], a power of two (MemExt::word_mask has 32 bits)");
      GPUSC_PARAM_R(mem_queue, 1, 4096, "line requests waiting to leave for the L1 [requests]");
      GPUSC_PARAM_R(shared_bytes, 0, 1 << 24, "shared memory [bytes]: resident CTAs' shared_bytes_per_cta() fit in it");
    }
  };
  // One issued instruction, for the optional issue hook (tracing, tests).
  struct IssueEvent {
    uint64_t cycle;
    unsigned warp;  // SM-local warp slot
    unsigned kernel_id, cta_id;
    const WarpInstr& instr;
  };
  using CtaDone = std::function<void(SmCore&, unsigned cta_id)>;
  using IssueHook = std::function<void(const IssueEvent&)>;

  MsgOut mem_out{"mem_out"};  // line requests to the L1
  MsgIn mem_in{"mem_in"};     // replies from the L1 (always taken)

  SmCore(sc_core::sc_module_name name, const Params& p, ClockDomain& clk, unsigned node);
  SmCore(const SmCore&) = delete;
  SmCore& operator=(const SmCore&) = delete;

  // Adds a listener to CTA completions; listeners compose (a CTA scheduler, a tracer, a test
  // each add their own), none replaces another.
  void add_cta_done_listener(CtaDone f) { cta_done_listeners_.push_back(std::move(f)); }
  void set_on_issue(IssueHook f) { on_issue_ = std::move(f); }  // off by default
  void set_store_data(bool on) { store_data_ = on; }  // writes carry the stored words (above)

  // A CTA of k fits an empty SM (else no SM of this configuration can ever run k).
  bool fits(const Kernel& k) const;
  // A CTA of k fits now (CTA, warp and thread limits).
  bool can_launch(const Kernel& k) const;
  // Makes CTA `cta` of k resident; the SM shares ownership of k until the CTA retires.
  void launch(std::shared_ptr<const Kernel> k, unsigned kernel_id, unsigned cta);
  bool idle() const { return ctas_ == 0 && outstanding_ == 0; }

  unsigned node() const { return node_; }
  unsigned resident_ctas() const { return ctas_; }
  unsigned resident_warps() const { return warps_used_; }
  size_t mem_queue_occupancy() const { return q_size_; }
  uint64_t outstanding() const { return outstanding_; }  // line requests not yet answered
  // Forward progress so far: warp instructions issued plus replies received (a platform's
  // stall watchdog compares it over time).
  uint64_t progress() const { return warp_instr_.value() + replies_.value(); }
  const PayloadPool& pool() const { return pool_; }
  const Params& params() const { return p_; }

 private:
  struct Warp {
    bool live = false;           // the slot holds a warp that has not finished
    bool has_next = false;       // `next` holds the fetched, not yet issued instruction
    bool ended = false;          // the stream reported its end
    unsigned cta_slot = 0;
    unsigned next_lines = 0;     // line requests of `next`
    unsigned pending = 0;        // load/atomic line replies outstanding
    uint64_t start = 0;          // first cycle the warp may issue
    uint64_t ready_at = 0;       // cycle from which `next` may issue
    WarpInstr next;
    std::unique_ptr<WarpStream> stream;
  };
  struct Cta {
    bool live = false;
    unsigned cta_id = 0, kernel_id = 0, warps_left = 0, threads = 0;
    uint64_t shared = 0;  // shared memory [bytes]
    std::shared_ptr<const Kernel> kernel;
  };
  enum class Gap { Idle, Waiting, MemQueue };  // what the cycles the SM sleeps through count as

  bool tick(uint64_t cycle) override;
  bool accept_reply(tlm::tlm_generic_payload& gp);
  void take_replies(uint64_t cycle);
  void send_one();
  void fetch(Warp& w);
  void retire(uint64_t cycle);
  bool issue_ready(const Warp& w, uint64_t cycle, bool& mem_blocked) const;
  void issue(unsigned slot, uint64_t cycle);
  void account_gap(uint64_t cycle);
  bool room_for(unsigned lines) const { return q_size_ == 0 || q_size_ + lines <= p_.mem_queue; }
  void push_request(tlm::tlm_generic_payload* gp);
  void pack_store_data(const WarpInstr& in, const LineRequest& r, unsigned char* buf) const;

  const Params p_;
  ClockDomain& clk_;
  const unsigned node_;
  Coalescer coalescer_;
  PayloadPool pool_;
  std::vector<WarpScheduler> scheds_;
  std::vector<Warp> warps_;
  std::vector<Cta> cta_slots_;
  unsigned ctas_ = 0, warps_used_ = 0, threads_ = 0;
  uint64_t shared_used_ = 0;  // [bytes]
  LineRequests lines_;                                  // scratch for coalescing
  std::vector<tlm::tlm_generic_payload*> q_;            // mem_queue ring
  size_t q_head_ = 0, q_size_ = 0;
  std::vector<std::pair<uint64_t, tlm::tlm_generic_payload*>> inbox_;  // (latch cycle, reply)
  uint64_t outstanding_ = 0;
  uint64_t last_tick_ = UINT64_MAX;
  Gap gap_ = Gap::Idle;
  std::vector<CtaDone> cta_done_listeners_;
  IssueHook on_issue_;
  bool store_data_ = false;

  TraceHook trace_;  // per warp slot: "load wait" from the first outstanding load line to the last reply
  StatGroup stats_;
  Counter& warp_instr_;
  Counter& thread_instr_;
  Counter& loads_;
  Counter& stores_;
  Counter& atomics_;
  Counter& line_requests_;
  Counter& replies_;
  Counter& active_cycles_;
  Counter& issue_cycles_;
  Counter& stall_mem_queue_;
  Counter& stall_all_waiting_;
  Counter& ctas_completed_;
};

}  // namespace gpusc
