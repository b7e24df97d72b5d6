#include "probe/probe_fabric.h"

#include "common/report.h"
#include "mem/cache.h"
#include "noc/flit.h"
#include "noc/network.h"
#include "probe/probe_ext.h"

namespace gpusc::probe {

ProbeFabric::ProbeFabric(const SmFrontBlockContext& ctx, bool deflection)
    : req_net_(ctx.request_net), vnet_(ctx.request_vnet), base_(ctx.base), deflection_(deflection),
      levels_(ctx.request_net.params().escape_vcs),
      node_of_core_(ctx.sm_nodes), core_of_local_(ctx.request_net.nodes(), kNone),
      l1s_(ctx.sm_nodes.size(), nullptr), handlers_(ctx.sm_nodes.size(), nullptr),
      deflections_(ctx.request_net.nodes(), 0) {
  if (node_of_core_.size() < 2) error("gpusc.probe.fabric", "probing needs at least 2 SMs in a block, got ", node_of_core_.size());
  if (node_of_core_.size() > 256) error("gpusc.probe.fabric", "at most 256 cores fit the probe header's core ids");
  for (unsigned c = 0; c < node_of_core_.size(); ++c) core_of_local_.at(node_of_core_[c] - base_) = c;
  if (deflection_ && levels_ == 0)
    error("gpusc.probe.fabric", "deflection = router needs an escape VC on the request network (noc.escape_vcs >= 1, "
          "one per deflection a probe may take, and noc.router.vcs_per_vnet above it): a deflected probe may "
          "turn where dimension-order routing may not, which deadlocked hpca6x6's single VC (2mm, spmv, conv2d)");
  if (deflection_) req_net_.set_head_hook(this);
}

ProbeFabric::~ProbeFabric() {
  if (deflection_ && req_net_.router(0).head_hook() == this) req_net_.set_head_hook(nullptr);
}

void ProbeFabric::attach(unsigned core, ProbeHandler& h, const Cache& l1) {
  if (core >= cores()) error("gpusc.probe.fabric", "core ", core, " is not a core of this block (", cores(), " cores)");
  if (handlers_[core]) error("gpusc.probe.fabric", "core ", core, " has two probe handlers");
  handlers_[core] = &h;
  l1s_[core] = &l1;
}

bool ProbeFabric::shared_elsewhere(unsigned core, uint64_t addr) const {
  for (unsigned c = 0; c < l1s_.size(); ++c)
    if (c != core && l1s_[c] && l1s_[c]->present(addr)) return true;
  return false;
}

unsigned ProbeFabric::hops(unsigned a, unsigned b) const {
  return req_net_.hops(node_of_core_.at(a) - base_, node_of_core_.at(b) - base_);
}

unsigned ProbeFabric::nearest_sharer(unsigned core, uint64_t addr) const {
  unsigned best = kNone, best_hops = ~0u;
  const unsigned from = node_of_core_.at(core) - base_;
  for (unsigned c = 0; c < l1s_.size(); ++c) {
    if (c == core || !l1s_[c] || !l1s_[c]->present(addr)) continue;
    const unsigned h = req_net_.hops(from, node_of_core_[c] - base_);
    if (h < best_hops) {
      best = c;
      best_hops = h;
    }
  }
  return best;
}

void ProbeFabric::set_refusing(unsigned core, bool refuse) {
  req_net_.ni(node_of_core_[core] - base_).set_refusing(vnet_, refuse);
}

uint64_t ProbeFabric::deflections() const {
  uint64_t n = 0;
  for (uint64_t d : deflections_) n += d;
  return n;
}

unsigned ProbeFabric::redirect(unsigned router, const noc::Flit& head) {
  const noc::Packet* pk = head.pkt;
  if (!pk || !pk->payload || head.vnet != vnet_) return head.dest;
  const ProbeExt* x = probe_ext(*pk->payload);
  if (!x || x->role != ProbeExt::Role::Probe) return head.dest;
  const unsigned core = router < core_of_local_.size() ? core_of_local_[router] : kNone;
  if (core == kNone || core == x->h.requester || !req_net_.ni(router).refusing(vnet_)) return head.dest;
  if (pk->redirects >= levels_) return head.dest;  // as often as there are escape VCs: taken here (see the header)
  const ProbeHeader& h = x->h;
  unsigned next = h.requester;
  for (unsigned i = 0; i < h.n_targets; ++i)
    if (h.targets[i] == core) {
      if (i + 1 < h.n_targets) next = h.targets[i + 1];
      break;
    }
  ++deflections_[router];
  return node_of_core_[next] - base_;
}

}  // namespace gpusc::probe
