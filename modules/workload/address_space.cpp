#include "workload/address_space.h"

#include <algorithm>

#include "common/report.h"

namespace gpusc {

AddressSpace::AddressSpace(uint64_t first_base) : next_(first_base) {
  if (first_base % kAlign != 0)
    error("gpusc.workload.address_space", "first base 0x", std::hex, first_base,
          " is not a multiple of ", std::dec, kAlign, " bytes");
}

uint64_t AddressSpace::allocate(const std::string& name, uint64_t bytes) {
  for (const auto& a : arrays_)
    if (a.name == name) error("gpusc.workload.address_space", "array '", name, "' is allocated twice");
  const uint64_t base = next_;
  const uint64_t slot = std::max<uint64_t>(bytes, 1);
  next_ = (base + slot + kAlign - 1) / kAlign * kAlign;
  arrays_.push_back(ArrayRecord{name, base, bytes});
  return base;
}

const ArrayRecord* AddressSpace::find(uint64_t addr) const {
  auto it = std::upper_bound(arrays_.begin(), arrays_.end(), addr,
                             [](uint64_t a, const ArrayRecord& r) { return a < r.base; });
  if (it == arrays_.begin()) return nullptr;
  --it;
  return it->contains(addr) ? &*it : nullptr;
}

uint64_t AddressSpace::bytes() const {
  uint64_t sum = 0;
  for (const auto& a : arrays_) sum += a.bytes;
  return sum;
}

const ArrayRecord& AddressSpace::array(const std::string& name) const {
  for (const auto& a : arrays_)
    if (a.name == name) return a;
  std::string known;
  for (const auto& a : arrays_) known += (known.empty() ? "" : ", ") + a.name;
  error("gpusc.workload.address_space", "no array named '", name, "'; arrays: ", known);
}

}  // namespace gpusc
