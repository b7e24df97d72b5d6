// AddressSpace: the device memory of one workload. A bump allocator gives every array a
// 256-byte aligned virtual base, so two arrays never share a 256-byte block (nor a cache line
// or DRAM burst of that size or smaller), and keeps a record of the named arrays so an
// address can be traced back to the array and element it belongs to (tests, address maps).
// Open choices: the first base is 0x1000'0000 (address 0 stays unused, like a null pointer);
// a zero-byte array still consumes one 256-byte slot so every array has a distinct base.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace gpusc {

struct ArrayRecord {
  std::string name;
  uint64_t base = 0;   // first byte
  uint64_t bytes = 0;  // size [bytes]
  bool contains(uint64_t addr) const { return addr >= base && addr - base < bytes; }
};

class AddressSpace {
 public:
  static constexpr uint64_t kAlign = 256;           // base alignment [bytes]
  static constexpr uint64_t kFirstBase = 0x10000000;

  explicit AddressSpace(uint64_t first_base = kFirstBase);

  // Reserves `bytes` for array `name` (unique) and returns its base address.
  uint64_t allocate(const std::string& name, uint64_t bytes);

  const std::vector<ArrayRecord>& arrays() const { return arrays_; }
  // The array holding byte `addr`, or nullptr when addr is outside every array.
  const ArrayRecord* find(uint64_t addr) const;
  // The array called `name`; an unknown name is an error listing the known ones.
  const ArrayRecord& array(const std::string& name) const;
  uint64_t base(const std::string& name) const { return array(name).base; }
  uint64_t end() const { return next_; }  // first address not yet handed out
  // Footprint: the bytes of all arrays (alignment padding not counted) [bytes].
  uint64_t bytes() const;

 private:
  std::vector<ArrayRecord> arrays_;  // in allocation order = ascending base
  uint64_t next_;
};

}  // namespace gpusc
