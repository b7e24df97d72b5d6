// DramChannel: one GDDR5 channel behind an L2 slice (issue 4 item 3), with the bank count,
// bank groups, FR-FCFS scheduling and Hynix GDDR5 timing of paper 000 Table II. It runs in
// its own ClockDomain (924 MHz in the paper); every timing parameter is in DRAM cycles.
//
// Requests arrive on `in` (Read of a line, or Write = L2 write-back of a line). A read leaves
// on `out` as its reply (same payload, MemExt::is_reply = true) after its last data beat; a
// write gets no reply: its payload is released when its write burst has completed.
//
// Model: a fixed-latency pipeline in front of the scheduler, then per bank an open row (or none)
// and the earliest cycle of its next ACT / PRE / column command; one command per cycle; one
// shared data bus. A request latched in cycle L = accept cycle + 1 reaches the scheduler queue
// in L + fixed_latency (later only if the queue is full), then needs ACT (bank closed), PRE then
// ACT (other row open), then one column command (RD/WR) that moves the whole line in
// `burst_cycles` data cycles. Constraints:
//   ACT  >= PRE + tRP, previous ACT same bank + tRC, previous ACT any bank + tRRD
//   RD/WR>= ACT + tRCD, previous RD/WR + tCCD (any bank) / + tCCDL (same bank group);
//          data bus: RD data [RD + tCL, + burst), WR data [WR + tWL, + burst), never overlapping
//   RD   >= end of the last write data + tCDLR (write-to-read turnaround)
//   PRE  >= ACT + tRAS, RD + burst_cycles, end of write data + tWR
// Idle latency, accept to reply (DRAM cycles; F = fixed_latency, B = burst_cycles, the 1 is the
// input latch; the figures with F = 0, the bank timing alone):
//   row hit       1 + F + tCL + B               F = 0: 21 cycles = 22.7 ns at 924 MHz
//   closed bank   1 + F + tRCD + tCL + B        F = 0: 33 cycles = 35.7 ns
//   row conflict  1 + F + tRP + tRCD + tCL + B  F = 0: 45 cycles = 48.7 ns (tRAS, tRC permitting)
// With the default F = 132 (and B = 4, as in MemoryPartition): 149, 161 and 173 cycles.
//
// fixed_latency is everything on a DRAM access that is not bank timing or the data burst: the
// controller's front end, the PHY and I/O, and the wires from and back to the L2. GPGPU-Sim, which
// papers 000 and 001 used, models it the same way, as a delay queue in front of the DRAM
// scheduler (dram_latency = 100 core cycles at 700 MHz in its Fermi GTX480 config, which that
// config converts to 100 x 924 / 700 = 132 DRAM cycles); paper 001 Table 1 quotes a minimum DRAM
// latency of 220 cycles. The default, 132 DRAM cycles = 142.9 ns, gives an idle row hit of 149
// DRAM cycles = 161 ns = 226 core cycles at 1400 MHz, above the paper's minimum. It is a pipeline
// (one request per stage, so at most fixed_latency requests in it, not counted in `queue`):
// a long fixed latency does not cut the channel's throughput; when the queue is full its head
// waits, and when every stage is taken acceptance is withheld. The reply path has no further
// fixed delay (as in GPGPU-Sim): the fixed latency is the round trip's.
//
// Choices the paper left open:
//   * burst_cycles = 8: an x32 GDDR5 channel moves 4 B per beat, 4 beats per command clock
//     (WCK = 2 x CK, double data rate), 16 B per DRAM cycle, so a 128 B line is 4 BL8 bursts =
//     8 cycles. The line is one column command; its 4 bursts are implied (hence read-to-
//     precharge = burst_cycles; the paper gives no tRTP).
//   * tWL = 4 (write latency; not in Table II), tCCDL = tCCD (no extra same-group column
//     penalty unless configured), no tFAW, no read-to-write turnaround beyond the data bus,
//     no refresh.
//   * row_bytes = 2048 (GDDR5 x32 page). Address decoding of the partition-local address
//     (set_address_map; default identity), low to high bits: line offset | bank group | column
//     | bank within group | row. Consecutive lines alternate bank groups; 4 x 16 consecutive
//     lines share the open rows of 4 banks. Bank id = group * (banks / bank_groups) + bank in
//     group. Field widths are divisions, so counts need not be powers of two.
//   * FR-FCFS: among latched requests, the oldest row hit whose column command is legal now;
//     else the oldest request whose ACT / PRE is legal now. A bank is not precharged while a
//     latched request hits its open row (hits can starve a conflicting request; no cap).
//     FCFS: requests to one bank are served in arrival order (only the oldest of each bank may
//     issue), banks proceed in parallel, oldest legal command first.
//   * Open-page policy: a row stays open until a conflicting request precharges it.
//   * A queue entry is held from leaving the fixed-latency pipeline (from acceptance when
//     fixed_latency = 0) until the read reply is handed to `out` or the write burst completes;
//     a full queue (with fixed_latency > 0: a full pipeline) withholds acceptance. Completed
//     requests leave in column-command order; a reply withheld by `out` blocks those behind it.
//   * Row-buffer outcome is counted when the column command issues: hit (no ACT/PRE issued for
//     this request), miss (an ACT), conflict (a PRE). reads/writes also count there, so
//     reads + writes == row_hits + row_misses + row_conflicts at every instant.
//   * b_transport: functional, no timing, no stats: a read returns with is_reply = true.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include <systemc>

#include "common/clock_domain.h"
#include "common/mem_ext.h"
#include "common/msg_port.h"
#include "common/params.h"
#include "common/stats.h"

namespace gpusc {

class DramChannel : public sc_core::sc_module, private Tickable {
 public:
  struct Params {
    unsigned banks = 16;           // banks per channel (000 Table II)
    unsigned bank_groups = 4;      // bank groups per channel (000 Table II)
    unsigned line_bytes = 128;     // bytes moved per request (000 Table II L2 block)
    unsigned row_bytes = 2048;     // row (page) size per bank [bytes]
    unsigned burst_cycles = 8;     // data-bus cycles per line (x32, 16 B per DRAM cycle)
    unsigned fixed_latency = 132;  // controller + PHY + wires, in front of the scheduler [cycles] (GPGPU-Sim)
    unsigned tCL = 12;             // RD to first data [cycles] (000 Table II)
    unsigned tWL = 4;              // WR to first data [cycles] (not in the paper)
    unsigned tRCD = 12;            // ACT to RD/WR [cycles] (000 Table II)
    unsigned tRP = 12;             // PRE to ACT [cycles] (000 Table II)
    unsigned tRAS = 28;            // ACT to PRE [cycles] (000 Table II)
    unsigned tRC = 40;             // ACT to ACT same bank [cycles] (000 Table II)
    unsigned tRRD = 6;             // ACT to ACT any bank [cycles] (000 Table II)
    unsigned tCCD = 2;             // column to column any bank [cycles] (000 Table II)
    unsigned tCCDL = 2;            // column to column same bank group [cycles] (not in the paper)
    unsigned tCDLR = 5;            // end of write data to RD [cycles] (000 Table II)
    unsigned tWR = 12;             // end of write data to PRE [cycles] (000 Table II)
    unsigned queue = 16;           // request queue entries
    std::string scheduler = "fr-fcfs";  // command scheduling policy (000 Table II: FR-FCFS)
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(banks, 1, 1024, "banks per channel [count] (000 Table II: 16)");
      GPUSC_PARAM_R(bank_groups, 1, 1024, "bank groups per channel, must divide banks [count] (000 Table II: 4)");
      GPUSC_PARAM_R(line_bytes, 1, 65536, "bytes per request (cache line) [bytes]");
      GPUSC_PARAM_R(row_bytes, 1, 1 << 20, "row (page) size per bank, a multiple of line_bytes [bytes]");
      GPUSC_PARAM_R(burst_cycles, 1, 1024, "data-bus cycles to move one line [DRAM cycles]");
      GPUSC_PARAM_R(fixed_latency, 0, 100000,
                    "fixed latency of an access on top of bank timing and burst: controller, PHY, wires "
                    "[DRAM cycles] (GPGPU-Sim Fermi dram_latency 100 core cycles at 700 MHz = 132; "
                    "idle row hit 149 DRAM cycles = 226 core cycles, 001 Table 1 minimum 220)");
      GPUSC_PARAM_R(tCL, 0, 1000, "read command to first data [DRAM cycles]");
      GPUSC_PARAM_R(tWL, 0, 1000, "write command to first data [DRAM cycles]");
      GPUSC_PARAM_R(tRCD, 0, 1000, "activate to column command [DRAM cycles]");
      GPUSC_PARAM_R(tRP, 0, 1000, "precharge to activate [DRAM cycles]");
      GPUSC_PARAM_R(tRAS, 0, 1000, "activate to precharge, at most tRC [DRAM cycles]");
      GPUSC_PARAM_R(tRC, 0, 1000, "activate to activate, same bank [DRAM cycles]");
      GPUSC_PARAM_R(tRRD, 0, 1000, "activate to activate, any bank [DRAM cycles]");
      GPUSC_PARAM_R(tCCD, 0, 1000, "column command to column command, any bank [DRAM cycles]");
      GPUSC_PARAM_R(tCCDL, 0, 1000, "column command to column command, same bank group [DRAM cycles]");
      GPUSC_PARAM_R(tCDLR, 0, 1000, "end of write data to read command [DRAM cycles]");
      GPUSC_PARAM_R(tWR, 0, 1000, "end of write data to precharge, same bank [DRAM cycles]");
      GPUSC_PARAM_R(queue, 1, 4096, "request queue entries (full: acceptance withheld) [count]");
      GPUSC_PARAM_C(scheduler, "fr-fcfs|fcfs", "row hits first (fr-fcfs) or per-bank arrival order (fcfs)");
    }
  };

  MsgIn in{"in"};    // requests from the L2 slice
  MsgOut out{"out"};  // read replies to the L2 slice

  DramChannel(sc_core::sc_module_name name, const Params& p, ClockDomain& clk);
  DramChannel(const DramChannel&) = delete;
  DramChannel& operator=(const DramChannel&) = delete;

  // Global address -> partition-local address used for decoding (default identity).
  void set_address_map(std::function<uint64_t(uint64_t)> local) { local_ = std::move(local); }

  struct Coord {
    unsigned bank;
    uint64_t row;
    unsigned column;  // line index within the row
  };
  Coord decode(uint64_t global_addr) const;
  unsigned group_of(unsigned bank) const { return bank / banks_per_group_; }
  size_t occupancy() const { return queue_.size() + flight_.size(); }  // held queue entries
  size_t pending() const { return occupancy() + pipe_.size(); }        // accepted, not yet retired

 private:
  enum class Cmd : uint8_t { Act, Pre, Col };
  enum Cause : uint8_t { kHit, kMiss, kConflict };
  struct Req {
    tlm::tlm_generic_payload* gp;
    uint64_t accepted, ready;  // accept cycle; latched (schedulable) from `ready`
    uint64_t row;
    unsigned bank;
    bool write;
    Cause cause;
  };
  struct Flight {
    tlm::tlm_generic_payload* gp;
    uint64_t accepted, done;  // done: cycle after the last data beat
    bool write;
  };
  struct Bank {
    bool open = false;
    uint64_t row = 0;
    uint64_t act_ok = 0, pre_ok = 0, col_ok = 0;  // earliest ACT / PRE / RD-WR
  };

  void check_params() const;
  bool accept(tlm::tlm_generic_payload& gp);
  bool tick(uint64_t cycle) override;
  void retire(uint64_t cycle);
  bool admit(uint64_t cycle);  // pipeline -> queue; true if any moved
  uint64_t scan(uint64_t cycle, bool issue);
  void next_command(const Req& r, Cmd& cmd, uint64_t& at) const;
  void issue(size_t i, Cmd cmd, uint64_t cycle);
  void note_occupancy(uint64_t cycle);

  const Params p_;
  const bool fr_fcfs_;
  const unsigned banks_per_group_, columns_;
  ClockDomain& clk_;
  std::function<uint64_t(uint64_t)> local_;
  std::vector<Bank> banks_;
  std::vector<uint64_t> group_col_ok_;
  std::vector<uint8_t> bank_flag_;     // scan scratch: bank has a hit (fr-fcfs) / was seen (fcfs)
  std::deque<Req> pipe_;                // in the fixed-latency pipeline, `ready` = its end
  std::vector<Req> queue_;              // waiting for their column command, oldest first
  std::deque<Flight> flight_;           // column command issued, in data-bus order
  uint64_t act_any_ = 0, col_any_ = 0, rd_ok_ = 0, bus_free_ = 0;
  double occ_area_ = 0;                 // sum of occupancy x cycles
  uint64_t occ_since_ = 0;

  StatGroup stats_;
  Counter& reads_;
  Counter& writes_;
  Counter& row_hits_;
  Counter& row_misses_;
  Counter& row_conflicts_;
  Counter& activates_;
  Counter& precharges_;
  Counter& bus_busy_;
  Counter& queue_full_;
  Average& read_latency_;
};

}  // namespace gpusc
