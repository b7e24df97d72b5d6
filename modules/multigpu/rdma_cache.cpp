#include "multigpu/rdma_cache.h"

#include "common/mem_ext.h"
#include "common/report.h"

namespace gpusc::multigpu {

Cache::Params RdmaCache::defaults() {
  Cache::Params c;
  c.line_bytes = 64;  // 004 Table 1
  c.ways = 24;        // 004 Table 1: 1.5 MB 16-way = 1536 sets, not a power of two (our sets are indexed by
  c.sets = 1024;      // address bits): 1024 sets x 24 ways keeps the 1.5 MB (departure: 24-way)
  c.write_policy = "write-back";
  c.mshrs = 1024;          // open: every remote miss of the GPU waits here, so as many as the GPU's 16
                           // L2 banks hold (16 x 64), past the link's 0.8 lines/cycle x ~1000-cycle round trip
  c.hit_latency = 20;      // open: as the L2 banks of the dca4 preset
  c.lookup_latency = 20;
  c.in_queue = 16;
  c.out_queue = 16;
  c.miss_queue = 16;
  c.fill_queue = 16;
  return c;
}

RdmaCache::RdmaCache(sc_core::sc_module_name name, const Cache::Params& p, ClockDomain& clk,
                     std::vector<unsigned> nodes)
    : sc_core::sc_module(name),
      clk_(clk),
      nodes_(nodes.empty() ? std::vector<unsigned>{0} : nodes),
      cache_("cache", p, clk, nodes_[0]),
      flushes_(stats_.counter("flushes", Unit::Count, "kernel-end write-back and invalidations")),
      wb_acks_(stats_.counter("writeback_acks", Unit::Count, "acks of its own write-backs (ended here)")),
      reads_(stats_.counter("reads_enabled", Unit::Count, "reads that reached it while enabled")),
      fetches_(stats_.counter("read_fetches", Unit::Count, "line fetches for reads (read misses)")) {
  if (nodes.empty()) error(this->name(), "needs at least one node id (the GPU's boundary ids)");
  if (p.write_policy != "write-back")
    error(this->name(), "the RDMA cache is write-back (004 Table 1); write_policy = ", p.write_policy);
  cache_.set_bypass([this](const tlm::tlm_generic_payload& gp) {
    return !enabled_ || gp.get_extension<MemExt>()->kind == MemKind::Atomic;
  });
  cache_.up_in.set_tap([this](tlm::tlm_generic_payload& gp) {
    MemExt& e = *gp.get_extension<MemExt>();
    if (enabled_ && e.kind == MemKind::Read) ++reads_;
    e.t_mem_accept = sc_core::sc_time_stamp();  // the latency split's memory part starts here
  });
  cache_.on_miss([this](const tlm::tlm_generic_payload& gp, uint64_t) {
    if (gp.get_extension<MemExt>()->kind == MemKind::Read) ++fetches_;
  });
  cache_.up_out.bind(from_cache_);
  from_cache_.set_accept([this](tlm::tlm_generic_payload& gp) { return accept_reply(gp); });
  up_out.on_accept([this] { from_cache_.retry(); });
  SC_THREAD(flusher);
}

void RdmaCache::set_enabled(bool on) {
  if (enabled_ && !on) error(name(), "the RDMA cache is enabled once and never disabled (it may hold dirty lines)");
  enabled_ = on;
}

void RdmaCache::set_route(std::function<void(tlm::tlm_generic_payload&, MemExt&)> f) {
  const uint64_t line_bytes = cache_.params().line_bytes;
  cache_.set_route([this, f = std::move(f), line_bytes](tlm::tlm_generic_payload& gp, MemExt& e) {
    f(gp, e);
    if (e.src == nodes_[0]) e.src = nodes_[gp.get_address() / line_bytes % nodes_.size()];  // a fetch or write-back
  });
}

bool RdmaCache::owns(unsigned id) const {
  for (unsigned n : nodes_)
    if (n == id) return true;
  return false;
}

bool RdmaCache::accept_reply(tlm::tlm_generic_payload& gp) {
  const MemExt& e = mem_ext(gp, name());
  if (e.is_reply && e.kind == MemKind::Write && owns(e.dst)) {  // the ack of our own write-back
    ++wb_acks_;
    gp.release();
    return true;
  }
  if (up_out.busy()) return false;
  MemExt& r = mem_ext(gp, name());
  if (r.t_reply_inject < r.t_mem_accept) r.t_reply_inject = sc_core::sc_time_stamp();  // answered here
  up_out.send(gp);
  return true;
}

void RdmaCache::request_flush() {
  if (!enabled_) return;
  if (cache_.idle() && !flush_pending_) {
    cache_.flush();
    ++flushes_;
    return;
  }
  flush_pending_ = true;
  flush_ev_.notify(sc_core::SC_ZERO_TIME);
}

void RdmaCache::flusher() {
  for (;;) {
    sc_core::wait(flush_ev_);
    while (!cache_.idle()) sc_core::wait(clk_.period());
    cache_.flush();
    ++flushes_;
    flush_pending_ = false;
  }
}

}  // namespace gpusc::multigpu
