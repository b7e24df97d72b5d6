// RdmaCache: DUALOPT's RDMA cache (paper 004 §4.2, Fig. 7(a); Table 1: "RDMA$ 1.5MB 16-way,
// writeback", L2 0.5 MB for iso-area): a cache of remote data only, in front of the GPU's RDMA
// engine, that filters the remote requests leaving the GPU (L1 misses, write-throughs) before
// they cross the inter-GPU link. It is the generic Cache (mem/cache.h) as a write-back,
// write-allocate cache with two policies and the kernel-end flush around it:
//   * bypass (Cache::set_bypass): atomics always pass (004 §4.5: globally coherent operations
//     stay conventional); every request passes while the cache is not enabled (set_enabled: the
//     decision engine's caching mode; `caching` alone enables it from the start);
//   * route (Cache::set_route): its misses and write-backs go to the line's home partition;
//   * kernel end (request_flush, 004 §4.5: "invalidates its cache entries and flushes any dirty
//     data back to remote GPU memory on kernel ends"): as soon as the cache is idle, every dirty
//     line is written back to its home and every line invalidated;
//   * the write acks of its own write-backs (replies addressed to its node) end here; every
//     other reply goes up into the GPU.
//   up_in (remote requests from the GPU) -> [Cache] -> down_out (to the request link)
//   up_out (replies into the GPU)        <- [Cache] <- down_in (from the reply link)
// Latency split (GpuBlock): a request entering it is stamped t_mem_accept; a reply it answers
// itself (hit or merge) is stamped t_reply_inject when it leaves, so the split's memory part is
// the time in the RDMA cache (a miss keeps the stamps of the home partition that served it).
// Source ids: the cache owns the GPU's boundary ids (`nodes`: the platform ids of the GPU's
// boundary nodes, the first is its own node). Each fetch and write-back carries one of them as
// its source, by line (line number mod their count), so the home GPU answers through all its
// boundary nodes: a GPU sends a message out by the boundary node its destination id names
// (gpu/gpu_block.h), so with one source id every reply for this cache left the home by one of
// its nodes, whose one flit per cycle capped caching at about a line per cycle per GPU on any
// fabric (kmeans at PCIe-6 speed: 187.7 IPC with one id, 371.2 with four; DCA 304.9).
// Choices the paper leaves open: its latencies (Params::cache: 20-cycle lookup, like an L2
// bank); its MSHRs (1024: every remote miss of the GPU waits in this one cache, so as many as
// the GPU's 16 L2 banks hold; 64 throttled a GPU's remote misses to 64 per ~1000-cycle round
// trip on MGPUSim's tree, spmv 2M rows: 0.08 lines/cycle against DCA's 0.29); its node is the GPU's boundary node, so the fabric brings its fills back to it; a
// flush requested while requests are in flight waits until the cache is idle (checked every
// cycle of its clock); requests that bypass a disabled cache may hit lines it cached before:
// it is enabled once and never disabled.
// Stats: the Cache's own (reads, read_hits, ...), plus flushes, writeback_acks, reads_enabled and
// read_fetches.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include <systemc>

#include "common/clock_domain.h"
#include "common/msg_port.h"
#include "common/params.h"
#include "common/stats.h"
#include "mem/cache.h"

namespace gpusc::multigpu {

class RdmaCache : public sc_core::sc_module {
 public:
  static Cache::Params defaults();  // 004 Table 1: 1.5 MB write-back, 64 B lines (24-way: 16-way needs 1536 sets)

  // nodes: the GPU's boundary ids (at least one; nodes[0] is the cache's own node).
  RdmaCache(sc_core::sc_module_name name, const Cache::Params& p, ClockDomain& clk, std::vector<unsigned> nodes);
  RdmaCache(const RdmaCache&) = delete;
  RdmaCache& operator=(const RdmaCache&) = delete;

  MsgIn& up_in() { return cache_.up_in; }
  MsgOut& down_out() { return cache_.down_out; }
  MsgIn& down_in() { return cache_.down_in; }
  MsgOut up_out{"up_out"};

  // Where a line lives: fills MemExt::dst of the misses and write-backs (Cache::set_route); the
  // cache then sets their source id (see Source ids).
  void set_route(std::function<void(tlm::tlm_generic_payload&, MemExt&)> f);
  void set_enabled(bool on);
  bool enabled() const { return enabled_; }
  // A kernel ended: write back and invalidate as soon as the cache is idle.
  void request_flush();
  bool idle() const { return cache_.idle() && !flush_pending_ && !up_out.busy() && !from_cache_.has_pending(); }

  Cache& cache() { return cache_; }
  const Cache& cache() const { return cache_; }
  uint64_t flushes() const { return flushes_.value(); }
  uint64_t writeback_acks() const { return wb_acks_.value(); }
  // Reads that reached it while enabled, and the fetches they caused (line misses): the reads
  // it served (hits and MSHR merges) are reads() - read_fetches().
  uint64_t reads() const { return reads_.value(); }
  uint64_t read_fetches() const { return fetches_.value(); }

 private:
  SC_HAS_PROCESS(RdmaCache);
  bool accept_reply(tlm::tlm_generic_payload& gp);
  void flusher();
  bool owns(unsigned id) const;

  ClockDomain& clk_;
  const std::vector<unsigned> nodes_;
  Cache cache_;
  MsgIn from_cache_{"from_cache"};
  bool enabled_ = false, flush_pending_ = false;
  sc_core::sc_event flush_ev_;
  StatGroup stats_;
  Counter &flushes_, &wb_acks_, &reads_, &fetches_;
};

}  // namespace gpusc::multigpu
