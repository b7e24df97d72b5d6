// BandwidthMemory: a latency-bandwidth model of an HBM-class memory behind an L2 slice, next to
// the GDDR5 bank model DramChannel: no banks or rows, a fixed latency, a data channel of
// bytes_per_cycle and a bounded request queue. Paper 003 §3 and Table 3: 3 TB/s of DRAM in
// total, 768 GB/s per GPM memory partition, 100 ns latency, at 1 GHz; paper 004 Table 1: 4 GB of
// HBM per GPU (bandwidth not given; the R9 Nano MGPUSim models has 512 GB/s at 1 GHz).
//
// Ports and replies exactly as DramChannel (dram_channel.h): requests (Read of a line, or Write =
// L2 write-back) on `in`; a read leaves on `out` as its reply (same payload, MemExt::is_reply =
// true); a write gets no reply, its payload is released when it completes. Other kinds, replies
// and requests longer than line_bytes are errors. So a MemoryPartition uses either:
// `mc.memory = "gddr5" | "bandwidth"` picks DramChannel or this unit (section
// `mc.bandwidth_memory`), bound l2.down_out -> in and out -> l2.down_in alike (set_address_map
// and pending() serve the partition; the address does not affect timing).
//
// Timing, in cycles of the memory's clock (A = bytes moved, R = bytes_per_cycle, L = latency):
// a request taken in cycle a is latched in a + 1 and waits in the queue for the data channel,
// which moves R bytes per cycle for reads and writes alike, requests back to back in arrival
// order (several may share a cycle). Started in cycle s with u bytes of s already used, its last
// byte moves in e = s + (u + A - 1) / R; the read reply is sent, or the write released, in
// e + L. Idle: a + ceil(A / R) + L; 003's 128 B read: 1 + 99 = 100 cycles = 100 ns.
// Choices left open:
//   * A = the request's length rounded up to access_bytes (32: an HBM2 pseudo-channel burst,
//     64 bits x BL4); a write moves its data, a read its line.
//   * FIFO: requests are served and answered in arrival order; a reply withheld by `out` blocks
//     the replies and write releases behind it, and no new transfer starts while it is withheld
//     (the pipeline is full), so a stalled L2 fills the queue and then back-pressures its source.
//   * The queue holds a request from acceptance until its transfer starts; a full queue withholds
//     END_REQ. The latency is a pipeline outside the queue, so it does not cut bandwidth.
//   * queue_full_cycles: cycles from a refused offer until that request is taken (the time its
//     source was blocked).
//   * b_transport: functional, no timing, no stats: a read returns with is_reply = true.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>

#include "common/clock_domain.h"
#include "common/mem_ext.h"
#include "common/msg_port.h"
#include "common/params.h"
#include "common/stats.h"

namespace gpusc {

class BandwidthMemory : public sc_core::sc_module, private Tickable {
 public:
  struct Params {
    unsigned bytes_per_cycle = 768;  // data channel [B/cycle] (003: 768 GB/s per partition at 1 GHz)
    unsigned latency = 99;           // after the data transfer [cycles] (003 Table 3: 100 ns = 1 + 99)
    unsigned access_bytes = 32;      // transfer granularity [bytes] (HBM2 burst)
    unsigned line_bytes = 128;       // largest request [bytes] (003 Table 3: 128 B lines)
    unsigned queue = 64;             // requests waiting for the data channel
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(bytes_per_cycle, 1, 65536,
                    "data channel, reads and writes together [B/cycle] (003 §3: 3 TB/s over 4 partitions = "
                    "768 GB/s each, 768 at 1 GHz)");
      GPUSC_PARAM_R(latency, 0, 1000000,
                    "cycles from a request's last data cycle to its reply [cycles] (003 Table 3: 100 ns at 1 GHz "
                    "= 1 transfer cycle + 99)");
      GPUSC_PARAM_R(access_bytes, 1, 65536, "transfer granularity; requests are rounded up to it [bytes]");
      GPUSC_PARAM_R(line_bytes, 1, 65536, "largest request (cache line) [bytes]");
      GPUSC_PARAM_R(queue, 1, 65536, "requests waiting for the data channel (full: acceptance withheld)");
    }
  };

  MsgIn in{"in"};     // requests from the L2 slice
  MsgOut out{"out"};  // read replies to the L2 slice

  BandwidthMemory(sc_core::sc_module_name name, const Params& p, ClockDomain& clk);
  BandwidthMemory(const BandwidthMemory&) = delete;
  BandwidthMemory& operator=(const BandwidthMemory&) = delete;

  // Interface parity with DramChannel; the address does not affect timing here.
  void set_address_map(std::function<uint64_t(uint64_t)> local) { local_ = std::move(local); }
  unsigned moved_bytes(const tlm::tlm_generic_payload& gp) const;  // A of a request
  size_t occupancy() const { return queue_.size(); }                // held queue entries
  size_t pending() const { return queue_.size() + flight_.size(); }  // accepted, not yet retired

 private:
  struct Req {
    tlm::tlm_generic_payload* gp;
    uint64_t accepted, at;  // cycle taken; latch cycle (queue) or completion cycle (flight)
    bool write;
  };

  bool accept(tlm::tlm_generic_payload& gp);
  bool tick(uint64_t cycle) override;
  void start(uint64_t cycle);
  void retire(uint64_t cycle);

  const Params p_;
  ClockDomain& clk_;
  std::function<uint64_t(uint64_t)> local_;
  std::deque<Req> queue_;   // waiting for the data channel, oldest first
  std::deque<Req> flight_;  // transferred or transferring, by completion cycle
  uint64_t ch_cycle_ = 0;   // next cycle the data channel has room in
  unsigned ch_used_ = 0;    // bytes of ch_cycle_ already taken
  uint64_t blocked_since_ = UINT64_MAX;  // cycle of the refused offer now held at `in`

  StatGroup stats_;
  Counter& reads_;
  Counter& writes_;
  Counter& bytes_;
  Counter& queue_full_;
  Counter& queue_full_cycles_;
  Average& latency_;
  Average& read_latency_;
};

}  // namespace gpusc
