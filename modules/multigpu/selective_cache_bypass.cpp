#include "multigpu/selective_cache_bypass.h"

#include "common/report.h"

namespace gpusc::multigpu {

SelectiveCacheBypass::SelectiveCacheBypass(const Params& p, std::string who)
    : p_(p), who_(std::move(who)), first_(p.local_first), last_(p.local_last) {
  validate(p_, who_);
  set_range(p_.local_first, p_.local_last);
}

void SelectiveCacheBypass::set_range(uint64_t first, uint64_t last) {
  if (first > last)
    error(who_, "local_first = 0x", std::hex, first, " is above local_last = 0x", last, std::dec,
          "; the registers hold the first and the last (inclusive) local byte address");
  first_ = first;
  last_ = last;
}

bool SelectiveCacheBypass::bypass(const tlm::tlm_generic_payload& gp) const {
  const MemExt* e = gp.get_extension<MemExt>();
  if (!e) error(who_, "a request without MemExt reached the L1 (malformed payload)");
  return bypass(gp.get_address(), e->kind);
}

std::function<bool(const tlm::tlm_generic_payload&)> SelectiveCacheBypass::policy() const {
  return [this](const tlm::tlm_generic_payload& gp) { return bypass(gp); };
}

}  // namespace gpusc::multigpu
