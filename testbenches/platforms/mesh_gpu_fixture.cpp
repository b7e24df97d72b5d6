#include "platforms/mesh_gpu_fixture.h"

#include <set>
#include <sstream>
#include <utility>

#include <catch2/catch.hpp>

#include "coalesce/packet_coalescing_unit.h"

#include "platforms/mesh_gpu/presets.h"
#include "workload/workload_factory.h"

namespace gpusc::test {

MeshGpu::Params small_params(const std::string& preset, const json& patch) {
  json cfg = mesh_gpu::preset(preset);
  cfg["sms"] = kSms;
  cfg["mcs"] = kMcs;
  cfg["noc"]["k"] = kK;
  cfg["noc"]["m"] = kM;
  if (cfg.value("placement", "") == "gpgpusim") cfg["placement"] = "top-bottom";
  cfg.merge_patch(patch);
  return params_from_json<MeshGpu::Params>(cfg, "");
}

namespace {
std::string hex(uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}
}  // namespace

MessageLog::MessageLog(MeshGpu& gpu)
    : gpu_(gpu),
      open_(gpu.sm_count()),
      requests_(gpu.sm_count()),
      replies_(gpu.sm_count()),
      reads_(gpu.sm_count()),
      atomics_(gpu.sm_count()) {
  MeshGpu::Observers o;
  o.sm_request = [this](unsigned sm, const tlm::tlm_generic_payload& gp) {
    const MemExt* e = gp.get_extension<MemExt>();
    const auto [it, fresh] = open_[sm].try_emplace(&gp, Req{gp.get_address(), e->kind});
    if (!fresh) errors_.push_back("SM " + std::to_string(sm) + " issued payload for " + hex(gp.get_address()) +
                                  " while it still waits for its reply");
    ++requests_[sm];
    if (e->kind == MemKind::Read) ++reads_[sm];
    if (e->kind == MemKind::Atomic) ++atomics_[sm];
  };
  o.sm_reply = [this](unsigned sm, const tlm::tlm_generic_payload& gp) {
    const MemExt* e = gp.get_extension<MemExt>();
    ++replies_[sm];
    const auto it = open_[sm].find(&gp);
    if (it == open_[sm].end()) {
      errors_.push_back("SM " + std::to_string(sm) + " got a reply for " + hex(gp.get_address()) +
                        " that it has no outstanding request for (lost, duplicated or misrouted)");
      return;
    }
    if (it->second.addr != gp.get_address() || it->second.kind != e->kind || !e->is_reply ||
        e->dst != gpu_.sm_node(sm))
      errors_.push_back("SM " + std::to_string(sm) + " reply for " + hex(it->second.addr) +
                        " does not match its request (address " + hex(gp.get_address()) + ", is_reply " +
                        std::to_string(e->is_reply) + ", dst " + std::to_string(e->dst) + ")");
    open_[sm].erase(it);
  };
  o.injected = [this](unsigned node, const tlm::tlm_generic_payload& gp) {
    const MemExt* e = gp.get_extension<MemExt>();
    injected_.push_back(InjectedMsg{node, e->kind, e->is_reply, gp.get_data_length(),
                                    e->dests.empty() ? DestSet::single(e->dst) : e->dests,
                                    e->is_reply ? e->t_reply_inject - e->t_mem_accept : sc_core::SC_ZERO_TIME,
                                    gp.get_address(), e->sector_mask});
  };
  gpu.set_observers(std::move(o));
}

uint64_t MessageLog::outstanding() const {
  uint64_t n = 0;
  for (const auto& m : open_) n += m.size();
  return n;
}

GpuBench::GpuBench(const MeshGpu::Params& p, const std::string& kernel, const json& kparams, uint64_t seed,
                   const McStageRegistry& stages)
    : workload(make_workload(kernel, kparams, seed)), gpu("gpu", p, *workload, stages), log(gpu) {}

bool GpuBench::run(uint64_t max_cycles) {
  const bool done = gpu.run(max_cycles);
  stats = collect_stats();
  return done;
}

double GpuBench::stat(const std::string& key) const {
  const json& v = stats.at("stats");
  const auto it = v.find(key);
  INFO("statistic " << key);
  REQUIRE(it != v.end());
  return it->get<double>();
}

double GpuBench::sum_over_sms(const std::string& suffix) const {
  double s = 0;
  for (unsigned i = 0; i < gpu.sm_count(); ++i) s += stat("gpu.sm_" + std::to_string(i) + ".core" + suffix);
  return s;
}

double GpuBench::sum_over_l1s(const std::string& suffix) const {
  double s = 0;
  for (unsigned i = 0; i < gpu.sm_count(); ++i) s += stat("gpu.sm_" + std::to_string(i) + ".l1" + suffix);
  return s;
}

double GpuBench::sum_over_mcs(const std::string& suffix) const {
  double s = 0;
  for (unsigned i = 0; i < gpu.mc_count(); ++i) s += stat("gpu.mc_" + std::to_string(i) + suffix);
  return s;
}

void require_drained_and_answered_once(GpuBench& b) {
  MeshGpu& g = b.gpu;
  for (const auto& e : b.log.errors()) FAIL_CHECK(e);
  REQUIRE(b.log.errors().empty());
  REQUIRE(b.log.outstanding() == 0);
  for (unsigned i = 0; i < g.sm_count(); ++i) {
    INFO("SM " << i);
    const std::string sm = "gpu.sm_" + std::to_string(i) + ".core";
    const double lines = b.stat(sm + ".line_requests");
    REQUIRE(double(b.log.requests()[i]) == lines);
    REQUIRE(double(b.log.replies()[i]) == lines);
    REQUIRE(b.stat(sm + ".replies") == lines);
    REQUIRE(g.sm(i).outstanding() == 0);
    REQUIRE(g.sm(i).idle());
    REQUIRE(g.sm(i).pool().in_use() == 0);
    REQUIRE(g.l1(i).idle());
    REQUIRE(g.l1(i).mshrs_in_use() == 0);
  }
  for (unsigned j = 0; j < g.mc_count(); ++j) {
    INFO("MC " << j);
    REQUIRE(g.mc(j).idle());
    REQUIRE(g.mc(j).l2().idle());
    REQUIRE(g.mc(j).memory_pending() == 0);
    for (size_t k = 0; k < g.mc(j).stage_count(); ++k) {
      INFO("stage " << g.mc(j).params().stages[k]);
      REQUIRE(g.mc(j).stage(k).idle());
      if (const auto* pcu = dynamic_cast<const PacketCoalescingUnit*>(&g.mc(j).stage(k)))
        REQUIRE(pcu->valid_rgrs() == 0);
    }
  }
  for (noc::Network* net : {&g.request_net(), &g.reply_net()}) {
    REQUIRE(net->packets_in_flight() == 0);
    for (unsigned r = 0; r < net->routers(); ++r) REQUIRE(net->router(r).occupancy() == 0);
    for (unsigned n = 0; n < net->nodes(); ++n)
      for (unsigned v = 0; v < net->params().router.vnets; ++v) REQUIRE(net->ni(n).inject_backlog(v) == 0);
  }
  const json& failures = b.stats.at("invariant_failures");
  INFO("invariant failures: " << failures.dump());
  REQUIRE(failures.empty());
}

unsigned flits_of(const InjectedMsg& m, unsigned flit_bytes, unsigned header_bytes) {
  const bool carries = m.is_reply ? m.kind == MemKind::Read : (m.kind == MemKind::Write || m.kind == MemKind::Atomic);
  const unsigned bytes = header_bytes + (carries ? m.data_bytes : 0);
  return (bytes + flit_bytes - 1) / flit_bytes;
}

unsigned dor_switch_traversals(unsigned src, const DestSet& dests, bool yx, unsigned k) {
  std::set<std::pair<unsigned, int>> used;  // (router, direction); -1 = local (ejection) port
  dests.for_each([&](unsigned d) {
    unsigned x = src % k, y = src / k;
    const unsigned dx = d % k, dy = d / k;
    while (x != dx || y != dy) {
      const bool move_x = yx ? (y == dy) : (x != dx);
      if (move_x) {
        used.emplace(y * k + x, dx > x ? 0 : 1);
        x = dx > x ? x + 1 : x - 1;
      } else {
        used.emplace(y * k + x, dy > y ? 2 : 3);
        y = dy > y ? y + 1 : y - 1;
      }
    }
    used.emplace(d, -1);
  });
  return static_cast<unsigned>(used.size());
}

}  // namespace gpusc::test
