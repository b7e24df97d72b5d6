#include "probe/core_selector.h"

#include "common/report.h"
#include "probe/index_selector.h"
#include "probe/supplier_selector.h"

namespace gpusc::probe {

CoreSelector::CoreSelector(unsigned self, unsigned cores) : self_(self), cores_(cores) {
  if (cores < 2) error("gpusc.probe.selector", "a core selector needs at least 2 cores, got ", cores);
  if (self >= cores) error("gpusc.probe.selector", "core ", self, " does not exist: there are ", cores, " cores");
}

void CoreSelector::check_c(unsigned c) const {
  if (c < 1 || c > cores_ - 1)
    error("gpusc.probe.selector", "C = ", c, " target cores cannot be selected: it must be in [1, cores - 1 = ",
          cores_ - 1, "]");
}

void CoreSelector::check_core(unsigned core, const char* what) const {
  if (core >= cores_) error("gpusc.probe.selector", what, " core ", core, " does not exist: there are ", cores_, " cores");
  if (core == self_) error("gpusc.probe.selector", what, " core ", core, " is the selecting core itself");
}

std::unique_ptr<CoreSelector> make_core_selector(const CoreSelector::Params& p, unsigned self, unsigned cores,
                                                 uint64_t seed) {
  validate(p, "selector");
  if (p.selector == "supplier") return std::make_unique<SupplierSelector>(p, self, cores, seed);
  if (p.selector == "index") return std::make_unique<IndexSelector>(p, self, cores);
  error("gpusc.probe.selector", "unknown core selector '", p.selector, "'; known: supplier, index");
}

}  // namespace gpusc::probe
