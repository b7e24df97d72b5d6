// L15Cache: paper 003's GPM-side L1.5 cache (§5.1, Figure 5): one per GPM, shared by its SMs,
// between their L1s and the GPM's exit to the inter-GPM ring. It is the generic Cache
// (mem/cache.h) with the policies §5.1 asks for, placed by the platform on the GPM's boundary
// path: the GPM's outgoing requests (boundary out(kRequest)) enter up_in, and what comes back for
// them from the ring enters down_in; the cache's fetches go down to the ring addressed to the
// line's home partition, and its replies go up into the GPM (boundary in(kReply)).
//
//   GPM out(kRequest) --> up_in  [ Cache ] down_out --> ring (request class)
//   GPM in(kReply)    <-- up_out [       ] down_in  <-- ring (reply class, messages for this GPM)
//
// Remote-only (§5.1.1, "all local memory accesses will bypass the L1.5 cache"): by construction.
// A GPM's network sends only requests for other GPMs' partitions to its boundary, so a local
// access never reaches the L1.5: it is neither looked up nor allocated, and costs nothing. A
// request for one of the GPM's own partitions arriving here is a platform wiring error.
// Write-through (footnote 4: software coherence), no write-allocate: the Cache's write-through
// policy; atomics pass through to the home partition. Flushed (invalidated) by flush(), which the
// platform calls once per kernel boundary (§5.1.1: "invalidated only once for each
// synchronization event", however many SMs ask); `flushes` counts them.
// Node ids: the cache's own fetches carry as src one of the GPM's boundary ids (platform ids owned
// by the GPM), the one its line number names (line mod their count), so their replies come back
// through the GPM's ring stop to down_in, and the home GPM sends them out through all its boundary
// nodes (a block sends a message out by the boundary node its destination id names,
// gpu/gpu_block.h; with one id every reply for this L1.5 left the home by one node, a bug until
// 2026-11-29). Requests it passes on (writes, atomics) keep the requesting SM's id, and their
// replies are forwarded up unchanged.
// Routing: a fetch goes to the partition AddressMapper::partition(addr) names (a lookup: the L1
// that sent the request has already placed the page).
// Choices the paper leaves open (defaults, all parameters of the Cache section): 16 ways, 128 B
// lines (the L2's, Table 3); hit_latency 10 and lookup_latency 2 cycles of the clock it is given
// (the platform's GPM fabric clock; paper 003 gives no L1.5 latency); 4 lookups per cycle and
// deep queues and 512 MSHRs so that it can take the GPM's remote traffic at link rate; not
// sectored (the L1s fetch whole lines). Capacity is the platform's (iso-transistor presets).
#pragma once
#include <cstdint>
#include <vector>

#include <systemc>

#include "common/address_mapper.h"
#include "common/clock_domain.h"
#include "common/stats.h"
#include "gpu/node_numbering.h"
#include "mem/cache.h"

namespace gpusc::mcm {

class L15Cache : public sc_core::sc_module {
 public:
  // Paper 003's L1.5 of one GPM of the 16 MB configuration: 4 MB, 16-way, 128 B lines.
  static Cache::Params defaults();

  // nodes: the platform ids its fetches carry (the GPM's boundary ids, at least one).
  // own_partitions: the partitions of its GPM (a request for one of them is an error). The mapper
  // and the numbering must outlive the cache.
  L15Cache(sc_core::sc_module_name name, const Cache::Params& p, ClockDomain& clk, std::vector<unsigned> nodes,
           const AddressMapper& mapper, const NodeNumbering& ids, std::vector<unsigned> own_partitions);
  L15Cache(const L15Cache&) = delete;
  L15Cache& operator=(const L15Cache&) = delete;

  MsgIn& up_in() { return cache_.up_in; }
  MsgOut& up_out() { return cache_.up_out; }
  MsgOut& down_out() { return cache_.down_out; }
  MsgIn& down_in() { return cache_.down_in; }

  // Invalidates the cache (a kernel boundary); call once per boundary, while idle.
  void flush();
  uint64_t flushes() const { return flushes_.value(); }
  uint64_t capacity_bytes() const;
  Cache& cache() { return cache_; }
  const Cache& cache() const { return cache_; }

 private:
  const AddressMapper& mapper_;
  const NodeNumbering& ids_;
  const std::vector<unsigned> nodes_;
  std::vector<bool> own_;  // [partition]
  Cache cache_;
  StatGroup stats_;
  Counter& flushes_;
};

}  // namespace gpusc::mcm
