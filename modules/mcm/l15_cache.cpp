#include "mcm/l15_cache.h"

#include "common/mem_ext.h"
#include "common/report.h"

namespace gpusc::mcm {

Cache::Params L15Cache::defaults() {
  Cache::Params c;
  c.line_bytes = 128;
  c.ways = 16;
  c.sets = 4 * 1024 * 1024 / 128 / 16;  // 4 MB per GPM: 16 MB in four GPMs
  c.hit_latency = 10;
  c.lookup_latency = 2;
  c.mshrs = 512;
  c.mshr_merge = 16;
  c.write_policy = "write-through";
  c.in_queue = 64;
  c.out_queue = 64;
  c.miss_queue = 64;
  c.fill_queue = 64;
  c.accesses_per_cycle = 4;
  return c;
}

L15Cache::L15Cache(sc_core::sc_module_name name, const Cache::Params& p, ClockDomain& clk, std::vector<unsigned> nodes,
                   const AddressMapper& mapper, const NodeNumbering& ids, std::vector<unsigned> own_partitions)
    : sc_core::sc_module(name),
      mapper_(mapper),
      ids_(ids),
      nodes_(nodes.empty() ? std::vector<unsigned>{0} : nodes),
      cache_("cache", p, clk, nodes_[0]),
      flushes_(stats_.counter("flushes", Unit::Count, "invalidations, one per kernel boundary")) {
  if (nodes.empty()) error(this->name(), "needs at least one node id (the GPM's boundary ids)");
  if (p.write_policy != "write-through")
    error(this->name(), "the L1.5 is write-through (paper 003 footnote 4: software coherence); got "
          "write_policy = ", p.write_policy);
  own_.assign(mapper_.partitions(), false);
  for (unsigned q : own_partitions) {
    if (q >= own_.size()) error(this->name(), "own partition ", q, " but the mapper has ", own_.size());
    own_[q] = true;
  }
  cache_.set_route([this](tlm::tlm_generic_payload& gp, MemExt& e) {
    const unsigned part = mapper_.partition(gp.get_address());
    if (own_[part])
      error(this->name(), "a request for address 0x", std::hex, gp.get_address(), std::dec, " of its own GPM's partition ",
            part, " reached the remote-only L1.5 (only remote traffic may leave a GPM)");
    e.dst = ids_.partition_node(part, "mcm.l15");
    if (e.src == nodes_[0]) e.src = nodes_[gp.get_address() / cache_.params().line_bytes % nodes_.size()];  // a fetch
  });
}

void L15Cache::flush() {
  cache_.flush();
  ++flushes_;
}

uint64_t L15Cache::capacity_bytes() const {
  return uint64_t{cache_.params().sets} * cache_.params().ways * cache_.params().line_bytes;
}

}  // namespace gpusc::mcm
