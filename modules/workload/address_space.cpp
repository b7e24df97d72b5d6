#include "workload/address_space.h"

#include <algorithm>
#include <cstring>

#include "common/report.h"

namespace gpusc {

AddressSpace::AddressSpace(uint64_t first_base) : next_(first_base) {
  if (first_base % kAlign != 0)
    error("gpusc.workload.address_space", "first base 0x", std::hex, first_base,
          " is not a multiple of ", std::dec, kAlign, " bytes");
}

uint64_t AddressSpace::allocate(const std::string& name, uint64_t bytes) {
  const uint64_t base = next_;
  allocate_at(name, base, bytes);
  return base;
}

void AddressSpace::allocate_at(const std::string& name, uint64_t base, uint64_t bytes) {
  for (const auto& a : arrays_)
    if (a.name == name) error("gpusc.workload.address_space", "array '", name, "' is allocated twice");
  if (base % kAlign != 0 || base < next_)
    error("gpusc.workload.address_space", "array '", name, "' at 0x", std::hex, base, ": the base must be a multiple of ",
          std::dec, kAlign, " bytes at or past 0x", std::hex, next_);
  const uint64_t slot = std::max<uint64_t>(bytes, 1);
  next_ = (base + slot + kAlign - 1) / kAlign * kAlign;
  arrays_.push_back(ArrayRecord{name, base, bytes, {}});
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

void AddressSpace::set_contents(const std::string& name, Contents c) {
  for (auto& a : arrays_)
    if (a.name == name) {
      a.contents = std::move(c);
      return;
    }
  array(name);  // the error listing the known arrays
}

AddressSpace::Contents AddressSpace::words(std::function<uint32_t(uint64_t)> word) {
  return [word = std::move(word)](uint64_t offset, unsigned len, unsigned char* dst) {
    for (uint64_t i = offset / 4; i * 4 < offset + len; ++i) {
      const uint32_t w = word(i);
      unsigned char b[4];
      std::memcpy(b, &w, 4);  // little-endian hosts, as the GPU
      for (unsigned k = 0; k < 4; ++k) {
        const uint64_t a = i * 4 + k;
        if (a >= offset && a < offset + len) dst[a - offset] = b[k];
      }
    }
  };
}

AddressSpace::Contents AddressSpace::floats(std::function<float(uint64_t)> value) {
  return words([value = std::move(value)](uint64_t i) {
    const float f = value(i);
    uint32_t w;
    std::memcpy(&w, &f, 4);
    return w;
  });
}

AddressSpace::Contents AddressSpace::bytes_of(std::function<uint8_t(uint64_t)> byte) {
  return [byte = std::move(byte)](uint64_t offset, unsigned len, unsigned char* dst) {
    for (unsigned k = 0; k < len; ++k) dst[k] = byte(offset + k);
  };
}

AddressSpace::Contents AddressSpace::zeros() {
  return [](uint64_t, unsigned len, unsigned char* dst) { std::memset(dst, 0, len); };
}

bool AddressSpace::has_contents() const {
  for (const auto& a : arrays_)
    if (!a.contents && a.bytes) return false;
  return true;
}

void AddressSpace::read_contents(uint64_t addr, unsigned len, unsigned char* dst) const {
  std::memset(dst, 0, len);
  const uint64_t end = addr + len;
  auto it = std::upper_bound(arrays_.begin(), arrays_.end(), addr,
                             [](uint64_t a, const ArrayRecord& r) { return a < r.base; });
  if (it != arrays_.begin()) --it;
  for (; it != arrays_.end() && it->base < end; ++it) {
    const uint64_t lo = std::max(addr, it->base), hi = std::min(end, it->base + it->bytes);
    if (lo >= hi) continue;
    if (!it->contents)
      error("gpusc.workload.address_space", "array '", it->name, "' has no contents: this workload cannot give the ",
            "real bytes at 0x", std::hex, lo, std::dec, " (has_values() is false)");
    it->contents(lo - it->base, static_cast<unsigned>(hi - lo), dst + (lo - addr));
  }
}

const ArrayRecord& AddressSpace::array(const std::string& name) const {
  for (const auto& a : arrays_)
    if (a.name == name) return a;
  std::string known;
  for (const auto& a : arrays_) known += (known.empty() ? "" : ", ") + a.name;
  error("gpusc.workload.address_space", "no array named '", name, "'; arrays: ", known);
}

}  // namespace gpusc
