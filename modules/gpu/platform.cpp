#include "gpu/platform.h"

#include <algorithm>
#include <chrono>
#include <string>

#include "common/report.h"
#include "common/stats.h"

namespace gpusc {

namespace {

std::vector<unsigned> block_groups(const std::vector<GpuBlock*>& blocks) {
  std::vector<unsigned> g;
  for (unsigned b = 0; b < blocks.size(); ++b) g.insert(g.end(), blocks[b]->sm_count(), b);
  return g;
}

}  // namespace

Platform::Platform(ClockDomain& core, Workload& workload, std::vector<GpuBlock*> blocks,
                   const CtaScheduler::Params& cta, std::vector<unsigned> group_of_sm)
    : core_(core), blocks_(std::move(blocks)) {
  if (blocks_.empty()) error("platform", "a platform needs at least one block");
  for (GpuBlock* b : blocks_)
    for (unsigned i = 0; i < b->sm_count(); ++i) cores_.push_back(&b->sm(i).core());
  if (group_of_sm.empty()) group_of_sm = block_groups(blocks_);
  if (group_of_sm.size() != cores_.size())
    error("platform", "group_of_sm has ", group_of_sm.size(), " entries but the blocks have ", cores_.size(), " SMs");
  bool need = false;
  for (const GpuBlock* b : blocks_) need |= b->needs_values();
  if (need) {
    if (!workload.has_values())
      error("platform", "a memory-partition stage reads line contents (e.g. DPC's data_filter), but workload '",
            workload.name(), "' gives no real memory contents (has_values() is false); run a kernel that has ",
            "values (docs/workloads.md) or remove the stage: a run on made-up zeros would be meaningless");
    workload.enable_values();
    values_ = std::make_unique<BackingStore>(
        [space = workload.address_space()](uint64_t a, unsigned n, unsigned char* d) { space.read_contents(a, n, d); });
    for (GpuBlock* b : blocks_) b->attach_values(*values_);
  }
  cta_ = std::make_unique<CtaScheduler>("cta", cta, core_, workload, cores_, group_of_sm);
  bool front = false;
  for (GpuBlock* b : blocks_)
    for (unsigned i = 0; i < b->sm_count(); ++i) front |= b->sm(i).front_count() > 0;
  if (front)  // SM-side stages may still have messages in flight (peer lookups into L1s)
    cta_->set_drain_check([this] {
      for (GpuBlock* b : blocks_)
        for (unsigned i = 0; i < b->sm_count(); ++i)
          if (!b->sm(i).front_idle() || !b->sm(i).l1().idle()) return false;
      return true;
    });
  cta_->set_on_kernel_boundary([this](unsigned k) {
    for (GpuBlock* b : blocks_) b->flush_l1s();  // L1s are not coherent: invalidate between kernels
    for (const auto& f : boundary_) f(k);
  });
}

bool Platform::run(uint64_t max_cycles, const ProgressFn& progress, uint64_t stall_cycles) {
  // Event-driven: once the workload is done and every write ack is back, nothing is scheduled
  // and sc_start returns on its own.
  bool stalled = false;
  uint64_t reached = 0;  // sliced: the end of the last slice run
  if (!progress && stall_cycles == 0) {
    if (core_.now() < max_cycles)
      sc_core::sc_start(core_.time_of(max_cycles) - sc_core::sc_time_stamp(), sc_core::SC_EXIT_ON_STARVATION);
  } else {
    // Slices of simulated time: for the display, sized so that each takes about half a second
    // of wall time; for the watchdog, at most a quarter of the stall limit, so that a stall is
    // found between stall_cycles and 1.25 stall_cycles after the last progress.
    constexpr double kInterval = 0.5;  // [s] of wall time between progress calls
    const uint64_t watch = stall_cycles ? std::max<uint64_t>(1, stall_cycles / 4) : UINT64_MAX;
    uint64_t slice = progress ? std::min<uint64_t>(1000, watch) : watch, at = core_.now();
    uint64_t seen = forward_progress(), seen_at = at;
    while (at < max_cycles) {
      const uint64_t to = std::min(max_cycles, at + slice);
      const auto t0 = std::chrono::steady_clock::now();
      // Starting the kernel when nothing happens before the slice's end would leave the time where
      // it is (exit on starvation) and only warn: the slice passes without events.
      const sc_core::sc_time end = core_.time_of(to);
      if (!sc_core::sc_start_of_simulation_invoked() ||
          sc_core::sc_time_stamp() + sc_core::sc_time_to_pending_activity() <= end)
        sc_core::sc_start(end - sc_core::sc_time_stamp(), sc_core::SC_EXIT_ON_STARVATION);
      const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      at = reached = to;
      if (!sc_core::sc_pending_activity()) break;
      if (stall_cycles) {
        const uint64_t now = forward_progress();
        if (now != seen) seen = now, seen_at = at;
        else if (at - seen_at >= stall_cycles) {
          stalled = true;
          break;
        }
      }
      if (progress) {
        progress(Progress{at, cta_->kernels_started(), cta_->ctas_retired(), cta_->ctas_total()});
        const double scale = took > 0 ? kInterval / took : 4.0;
        slice = std::max<uint64_t>(100, static_cast<uint64_t>(static_cast<double>(slice) * std::min(4.0, std::max(0.25, scale))));
      }
      slice = std::min(slice, watch);
    }
  }
  const bool done = cta_->done();
  // Not done: the cycle the run reached. Sliced, that is the last slice's end, which the time
  // itself may not show when no event fell there; without pending activity, the last event.
  finish_cycle_ = done ? cta_->finish_cycle() : sc_core::sc_pending_activity() ? std::max(core_.now(), reached) : core_.now();
  stop_ = done ? Stop::finished : (stalled || !sc_core::sc_pending_activity()) ? Stop::deadlock : Stop::max_cycles;
  return done;
}

uint64_t Platform::forward_progress() const {
  uint64_t n = 0;
  for (const SmCore* c : cores_) n += c->progress();
  return n;
}

json Platform::mechanism_summary() const {
  json s = json::object();
  std::vector<const MemoryPartition*> partitions;
  for (const GpuBlock* b : blocks_)
    for (unsigned i = 0; i < b->mc_count(); ++i) partitions.push_back(&b->mc(i));
  MemoryPartition::summarize_stages(s, partitions);
  // SM-side stages: per stage name, in the first SM's chain order, over every SM of the platform.
  const SmNode& first = blocks_[0]->sm(0);
  for (size_t k = 0; k < first.front_count(); ++k) {
    std::vector<const SmFrontStage*> all;
    for (const GpuBlock* b : blocks_)
      for (unsigned i = 0; i < b->sm_count(); ++i) {
        const SmNode& n = b->sm(i);
        for (size_t j = 0; j < n.front_count(); ++j)
          if (n.front_names()[j] == first.front_names()[k]) all.push_back(&n.front(j));
      }
    first.front(k).summarize(s, all);
  }
  for (const auto& f : summaries_) f(s);
  return s;
}

json Platform::summary() const {
  const json all = collect_stats();
  const json& v = all.at("stats");
  auto get = [&](const std::string& key) -> double {
    const auto it = v.find(key);
    if (it == v.end()) error("platform", "summary: statistic '", key, "' not found");
    return it->get<double>();
  };
  double thread_instr = 0, warp_instr = 0, l1_reads = 0, l1_hits = 0, l2_reads = 0, l2_hits = 0, stall = 0;
  double req_sum = 0, req_n = 0, reply_bytes = 0;
  uint64_t req_packets = 0, rep_packets = 0, flit_hops = 0;
  Average amat, mem_lat, rep_lat;
  unsigned mcs = 0;
  for (const GpuBlock* b : blocks_) {
    for (unsigned i = 0; i < b->sm_count(); ++i) {
      const std::string core = b->sm(i).core().name(), l1 = b->sm(i).l1().name();
      thread_instr += get(core + ".thread_instructions");
      warp_instr += get(core + ".warp_instructions");
      l1_reads += get(l1 + ".reads");
      l1_hits += get(l1 + ".read_hits");
    }
    for (unsigned i = 0; i < b->mc_count(); ++i) {
      const MemoryPartition& mc = b->mc(i);
      req_sum += mc.request_latency().sum();
      req_n += static_cast<double>(mc.request_latency().samples());
      l2_reads += get(std::string(mc.name()) + ".l2.reads");
      l2_hits += get(std::string(mc.name()) + ".l2.read_hits");
      stall += static_cast<double>(mc.mc_stall_cycles());
    }
    mcs += b->mc_count();
    amat.merge(b->amat());
    mem_lat.merge(b->memory_latency());
    rep_lat.merge(b->reply_latency());
    reply_bytes += static_cast<double>(b->reply_data_bytes());
    req_packets += b->requests_injected();
    rep_packets += b->replies_injected();
    flit_hops += b->request_net().flit_hops() + (b->separate_reply_net() ? b->separate_reply_net()->flit_hops() : 0);
  }
  const double cycles = static_cast<double>(std::max<uint64_t>(finish_cycle_, 1));

  json s;
  s["cycles"] = finish_cycle_;
  s["thread_instructions"] = thread_instr;
  s["warp_instructions"] = warp_instr;
  s["ipc"] = thread_instr / cycles;
  s["amat"] = amat.mean();
  const double req_lat = req_n > 0 ? req_sum / req_n : 0.0;
  s["request_latency"] = req_lat;
  s["memory_latency"] = mem_lat.mean();
  s["reply_latency"] = rep_lat.mean();
  s["l1_miss_penalty"] = req_lat + mem_lat.mean() + rep_lat.mean();
  s["l1_hit_rate"] = l1_reads > 0 ? l1_hits / l1_reads : 0.0;
  s["l2_hit_rate"] = l2_reads > 0 ? l2_hits / l2_reads : 0.0;
  s["mc_stall_ratio"] = stall / (cycles * mcs);
  s["reply_bytes_per_core_cycle"] = reply_bytes / (cycles * sm_count());

  // Link utilization of router-to-router links, per class when the classes have networks of
  // their own, in each network's clock cycles.
  struct Util {
    double max = 0, sum = 0;
    unsigned n = 0;
    double mean() const { return n ? sum / n : 0.0; }
  };
  // Per link, for link maps (scripts/plot): [block, network, up router, down router, utilization].
  json per_link = json::array();
  auto add_links = [&](Util& u, const noc::Network& net, ClockDomain& clk, unsigned block, const char* name) {
    const double noc_cycles = std::max(1.0, static_cast<double>(clk.cycle_of(core_.time_of(finish_cycle_))));
    for (const noc::FlitLink& l : net.links()) {
      const auto* up = dynamic_cast<const noc::Router*>(l.up);
      const auto* down = dynamic_cast<const noc::Router*>(l.down);
      if (!up || !down) continue;
      const double x = static_cast<double>(l.flits) / noc_cycles;
      u.max = std::max(u.max, x);
      u.sum += x;
      ++u.n;
      per_link.push_back({block, name, up->id(), down->id(), x});
    }
  };
  Util req, rep;
  const bool separate = blocks_[0]->separate_reply_net() != nullptr;
  for (unsigned b = 0; b < blocks_.size(); ++b) {
    add_links(req, blocks_[b]->request_net(), blocks_[b]->noc_clock(), b, separate ? "request" : "all");
    if (blocks_[b]->separate_reply_net()) add_links(rep, *blocks_[b]->separate_reply_net(), blocks_[b]->noc_clock(), b, "reply");
  }
  s["links"] = std::move(per_link);
  s["request_packets"] = req_packets;
  s["reply_packets"] = rep_packets;
  if (separate) {
    s["link_util_max_request"] = req.max;
    s["link_util_mean_request"] = req.mean();
    s["link_util_max_reply"] = rep.max;
    s["link_util_mean_reply"] = rep.mean();
    s["link_util_max"] = std::max(req.max, rep.max);
    s["link_util_mean"] = (req.mean() + rep.mean()) / 2;
  } else {
    s["link_util_max_all"] = req.max;
    s["link_util_mean_all"] = req.mean();
    s["link_util_max"] = req.max;
    s["link_util_mean"] = req.mean();
  }
  s["flit_hops"] = flit_hops;

  json loc = json::object();
  const auto& windows = blocks_[0]->params().mc.locality.windows;
  for (size_t w = 0; w < windows.size(); ++w) {
    double shared = 0, reads = 0;
    for (const GpuBlock* b : blocks_)
      for (unsigned i = 0; i < b->mc_count(); ++i) {
        if (w >= b->params().mc.locality.windows.size()) continue;
        shared += static_cast<double>(b->mc(i).locality().shared_accesses(w));
        reads += static_cast<double>(b->mc(i).locality().reads());
      }
    loc[std::to_string(windows[w])] = reads > 0 ? shared / reads : 0.0;
  }
  s["locality_ratio"] = loc;
  s.update(mechanism_summary());
  s["invariant_failures"] = all.at("invariant_failures");
  return s;
}

}  // namespace gpusc
