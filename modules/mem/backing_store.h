// BackingStore: the real bytes of a memory image, for mechanisms that need line contents (the DPC
// compression of paper 002). Not a hardware unit and not an sc_module: a sparse byte array that
// caches and DRAM models can share. Pages of 4 KB are allocated on the first write that touches
// them; bytes never written read as zero.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>

namespace gpusc {

class BackingStore {
 public:
  static constexpr uint64_t kPageBytes = 4096;

  BackingStore() = default;
  BackingStore(const BackingStore&) = delete;
  BackingStore& operator=(const BackingStore&) = delete;

  // Copies len bytes starting at addr into dst (zeros where nothing was written).
  void read(uint64_t addr, unsigned len, unsigned char* dst) const;
  // Copies len bytes from src to addr, allocating the pages it touches.
  void write(uint64_t addr, unsigned len, const unsigned char* src);
  size_t pages() const { return pages_.size(); }  // 4 KB pages allocated so far

 private:
  using Page = std::array<unsigned char, kPageBytes>;
  std::unordered_map<uint64_t, std::unique_ptr<Page>> pages_;  // key: addr / kPageBytes
};

}  // namespace gpusc
