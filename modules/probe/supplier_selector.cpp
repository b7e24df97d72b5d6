#include "probe/supplier_selector.h"

#include <algorithm>

#include "common/report.h"

namespace gpusc::probe {

SupplierSelector::SupplierSelector(const Params& p, unsigned self, unsigned cores, uint64_t seed)
    : CoreSelector(self, cores), period_(p.period), counts_(cores, 0), rng_(seed) {
  validate(p, "selector");
}

void SupplierSelector::roll(uint64_t cycle) {
  const uint64_t k = cycle / period_;
  if (k <= period_index_) return;
  period_index_ = k;
  ++resets_;
  std::fill(counts_.begin(), counts_.end(), 0);
}

void SupplierSelector::data_reply_from(unsigned supplier, uint64_t cycle) {
  check_core(supplier, "data reply from");
  roll(cycle);
  ++counts_[supplier];
}

uint64_t SupplierSelector::count(unsigned core, uint64_t cycle) {
  roll(cycle);
  return core < cores() ? counts_[core] : 0;
}

// Probabilities count_j / total scaled by 2 * total: 2 * count_j; a zero count gets half the
// lowest non-zero probability = min_count / total -> min_count. No count at all: all equal.
void SupplierSelector::weights(std::vector<uint64_t>& w) const {
  w.assign(cores(), 0);
  uint64_t min_nz = 0;
  for (unsigned j = 0; j < cores(); ++j)
    if (j != self() && counts_[j] && (!min_nz || counts_[j] < min_nz)) min_nz = counts_[j];
  for (unsigned j = 0; j < cores(); ++j)
    if (j != self()) w[j] = min_nz ? (counts_[j] ? 2 * counts_[j] : min_nz) : 1;
}

double SupplierSelector::probability(unsigned core, uint64_t cycle) {
  roll(cycle);
  weights(w_);
  uint64_t total = 0;
  for (uint64_t x : w_) total += x;
  return core < cores() ? static_cast<double>(w_[core]) / static_cast<double>(total) : 0.0;
}

void SupplierSelector::select(unsigned c, uint64_t cycle, std::vector<unsigned>& out) {
  check_c(c);
  roll(cycle);
  weights(w_);
  uint64_t total = 0;
  for (uint64_t x : w_) total += x;
  out.clear();
  for (unsigned k = 0; k < c; ++k) {
    uint64_t r = rng_.below(total);
    unsigned j = 0;
    while (r >= w_[j]) r -= w_[j++];
    out.push_back(j);
    total -= w_[j];
    w_[j] = 0;  // without replacement
  }
}

}  // namespace gpusc::probe
