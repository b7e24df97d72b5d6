#include "probe/two_level_probing.h"

#include <algorithm>

#include "common/report.h"
#include "common/stats.h"

namespace gpusc::probe {

namespace {
constexpr const char* kWho = "gpusc.probe.two_level";
}

TwoLevelProbing::TwoLevelProbing(const Params& p, unsigned self, unsigned cores, uint64_t seed)
    : p_(p), self_(self), cores_(cores), rng_(seed), route_(p.visit_order == "route") {
  validate(p_, "probe");
  if (cores < 2) error(kWho, "two-level probing needs at least 2 cores, got ", cores);
  if (self >= cores) error(kWho, "core ", self, " does not exist: there are ", cores, " cores");
  if (p_.c > cores - 1)
    error(kWho, "parameter 'probe.c' = ", p_.c, " is more target cores than there are remote cores: it must be <= ",
          cores - 1, " (cores - 1)");
  if (p_.s > p_.c)
    error(kWho, "parameter 'probe.s' = ", p_.s, " probes cannot split C = ", p_.c,
          " targets disjointly: it must be <= probe.c");
  if (cores > (1u << 8)) error(kWho, "at most 256 cores fit the probe header's core ids, got ", cores);
}

void TwoLevelProbing::set_hops(const Hops& hops) {
  hops_.resize(size_t{cores_} * cores_);
  for (unsigned a = 0; a < cores_; ++a)
    for (unsigned b = 0; b < cores_; ++b) hops_[size_t{a} * cores_ + b] = hops(a, b);
}

void TwoLevelProbing::order_by_route(ProbeHeader& h) const {
  unsigned at = self_;
  for (unsigned i = 0; i < h.n_targets; ++i) {
    const unsigned* from = &hops_[size_t{at} * cores_];
    unsigned best = i, best_hops = from[h.targets[i]];
    for (unsigned j = i + 1; j < h.n_targets; ++j) {
      const unsigned d = from[h.targets[j]];
      if (d < best_hops) best = j, best_hops = d;
    }
    std::rotate(h.targets.begin() + i, h.targets.begin() + best, h.targets.begin() + best + 1);  // keeps ties in order
    at = h.targets[i];
  }
}

unsigned TwoLevelProbing::draw_probes() {
  // P = 1 and P = 0 are exact; otherwise a 53-bit uniform draw.
  return p_.p >= 1.0 || (p_.p > 0.0 && rng_.uniform() < p_.p) ? p_.s : p_.s - 1;
}

std::vector<unsigned> TwoLevelProbing::shares(unsigned c, unsigned probes) {
  if (probes < 1 || probes > c) error(kWho, probes, " probes cannot split ", c, " targets disjointly");
  std::vector<unsigned> v(probes, c / probes);
  for (unsigned i = 0; i < c % probes; ++i) ++v[i];
  return v;
}

uint32_t TwoLevelProbing::start(uint64_t address, const std::vector<unsigned>& targets, unsigned probes,
                                std::vector<ProbeHeader>& out) {
  if (full()) error(kWho, "core ", self_, ": ", groups_.size(), " probed requests are already tracked (max_requests)");
  if (targets.empty() || targets.size() > ProbeHeader::kMaxSlots)
    error(kWho, "core ", self_, ": ", targets.size(), " targets; a probe group takes 1..", ProbeHeader::kMaxSlots);
  for (unsigned t : targets)
    if (t >= cores_ || t == self_) error(kWho, "core ", self_, ": target ", t, " is not a remote core");
  if (route_ && hops_.empty())
    error(kWho, "core ", self_, ": visit_order = route needs the request network's hop counts (set_hops)");
  const uint32_t id = next_group_++;
  const auto sizes = shares(static_cast<unsigned>(targets.size()), probes);
  size_t k = 0;
  for (unsigned i = 0; i < probes; ++i) {
    ProbeHeader h;
    h.leader = i == 0;
    h.group = id;
    h.requester = static_cast<uint8_t>(self_);
    h.address = address;
    for (unsigned n = 0; n < sizes[i]; ++n) h.add_target(targets[k++]);
    if (route_) order_by_route(h);
    out.push_back(h);
  }
  groups_.emplace(id, ProbeGroup(id, self_, address, probes));
  ++started_;
  probes_sent_ += probes;
  return id;
}

const ProbeGroup* TwoLevelProbing::group(uint32_t id) const {
  auto it = groups_.find(id);
  return it == groups_.end() ? nullptr : &it->second;
}

TwoLevelProbing::Outcome TwoLevelProbing::on_data(uint32_t id) {
  auto it = groups_.find(id);
  if (it == groups_.end()) {
    ++stale_;
    return Outcome::Stale;
  }
  it->second.on_data();
  groups_.erase(it);
  ++found_;
  return Outcome::Found;
}

TwoLevelProbing::Outcome TwoLevelProbing::on_return(const ProbeHeader& h, ProbeHeader* second) {
  if (h.requester != self_) error(kWho, "core ", self_, ": got a returning probe of requester ", unsigned(h.requester));
  auto it = groups_.find(h.group);
  if (it == groups_.end()) {
    ++stale_;
    return Outcome::Stale;
  }
  switch (it->second.on_return(h)) {
    case ProbeGroup::Next::Wait:
    case ProbeGroup::Next::Ignored:
      return Outcome::Wait;
    case ProbeGroup::Next::SecondLevel:
      if (second) *second = it->second.second_level_probe();
      ++second_levels_;
      ++probes_sent_;
      return Outcome::SecondLevel;
    case ProbeGroup::Next::Failed:
      groups_.erase(it);
      ++failed_;
      return Outcome::Failed;
    case ProbeGroup::Next::Found:  // only on_data() finds
      break;
  }
  error(kWho, "core ", self_, ": group ", h.group, " was found by a returning probe");
}

void TwoLevelProbing::finish(uint32_t id) {
  if (groups_.erase(id)) ++by_l2_;
}

void TwoLevelProbing::add_stats(StatGroup& g) const {
  g.derived("probing_requests", Unit::Count, "read misses probed (two-level groups started)", [this] { return double(started_); });
  g.derived("probing_probes", Unit::Count, "probes injected, first and second level", [this] { return double(probes_sent_); });
  g.derived("probing_second_levels", Unit::Count, "second-level probes over scout candidates",
            [this] { return double(second_levels_); });
  g.derived("probing_found", Unit::Count, "probed misses answered by a remote L1", [this] { return double(found_); });
  g.derived("probing_failed", Unit::Count, "probed misses nobody could supply (early release)", [this] { return double(failed_); });
  g.derived("probing_finished_by_l2", Unit::Count, "groups the L2 answered while probes were still out",
            [this] { return double(by_l2_); });
  g.derived("probing_stale_returns", Unit::Count, "probe returns after their group was decided", [this] { return double(stale_); });
}

}  // namespace gpusc::probe
