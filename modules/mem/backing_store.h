// BackingStore: the real bytes of a memory image, for mechanisms that need line contents (the DPC
// compression of paper 002). Not a hardware unit and not an sc_module: a sparse byte array that
// caches and DRAM models can share. Pages of 4 KB are allocated on the first write that touches
// them; bytes never written read as the source's (zero without one).
// Source: the initial memory image as a function (e.g. a workload's AddressSpace::read_contents,
// issue 19), asked lazily: a read of a page never written asks the source for the bytes read,
// and the first write to a page fills the page from the source before it is written. So the
// store holds one copy of the pages the run writes and nothing else; the source must be a pure
// function (the same bytes every time it is asked).
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>

namespace gpusc {

class BackingStore {
 public:
  static constexpr uint64_t kPageBytes = 4096;

  using Source = std::function<void(uint64_t addr, unsigned len, unsigned char* dst)>;

  BackingStore() = default;
  explicit BackingStore(Source source) : source_(std::move(source)) {}
  BackingStore(const BackingStore&) = delete;
  BackingStore& operator=(const BackingStore&) = delete;

  // Copies len bytes starting at addr into dst (zeros where nothing was written).
  void read(uint64_t addr, unsigned len, unsigned char* dst) const;
  // Copies len bytes from src to addr, allocating the pages it touches.
  void write(uint64_t addr, unsigned len, const unsigned char* src);
  size_t pages() const { return pages_.size(); }  // 4 KB pages allocated so far
  bool has_source() const { return static_cast<bool>(source_); }

 private:
  using Page = std::array<unsigned char, kPageBytes>;
  std::unordered_map<uint64_t, std::unique_ptr<Page>> pages_;  // key: addr / kPageBytes
  Source source_;
};

}  // namespace gpusc
