// AddressSpace: the device memory of one workload. A bump allocator gives every array a
// 256-byte aligned virtual base, so two arrays never share a 256-byte block (nor a cache line
// or DRAM burst of that size or smaller), and keeps a record of the named arrays so an
// address can be traced back to the array and element it belongs to (tests, address maps).
// Open choices: the first base is 0x1000'0000 (address 0 stays unused, like a null pointer);
// a zero-byte array still consumes one 256-byte slot so every array has a distinct base.
// Contents (issue 19, "real data first"): an array may carry a Contents function giving its
// initial bytes, so mechanisms that need line contents (DPC) see the real data at the real
// addresses. A Contents is a pure function of immutable data (it shares ownership of what it
// reads, like a Kernel), evaluated lazily for the bytes asked for: nothing is materialised, so
// a BackingStore sourced from read_contents() holds only the pages the run writes. Helpers make
// one from 4-byte elements (words / floats) or bytes; the initial contents never change when a
// workload's host state advances (a multi-launch workload's results reach memory by its stores).
#pragma once
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gpusc {

struct ArrayRecord {
  std::string name;
  uint64_t base = 0;   // first byte
  uint64_t bytes = 0;  // size [bytes]
  bool contains(uint64_t addr) const { return addr >= base && addr - base < bytes; }
  // Initial contents: fills dst with len bytes from byte `offset` of the array (offset + len <=
  // bytes). Empty: the workload gives no contents for this array.
  std::function<void(uint64_t offset, unsigned len, unsigned char* dst)> contents;
};

class AddressSpace {
 public:
  static constexpr uint64_t kAlign = 256;           // base alignment [bytes]
  static constexpr uint64_t kFirstBase = 0x10000000;

  explicit AddressSpace(uint64_t first_base = kFirstBase);

  // Reserves `bytes` for array `name` (unique) and returns its base address.
  uint64_t allocate(const std::string& name, uint64_t bytes);
  // Places array `name` at a given base (a trace's own addresses): base must be a multiple of
  // kAlign and at or past end(); the bump allocation continues after it.
  void allocate_at(const std::string& name, uint64_t base, uint64_t bytes);

  const std::vector<ArrayRecord>& arrays() const { return arrays_; }
  // The array holding byte `addr`, or nullptr when addr is outside every array.
  const ArrayRecord* find(uint64_t addr) const;
  // The array called `name`; an unknown name is an error listing the known ones.
  const ArrayRecord& array(const std::string& name) const;
  uint64_t base(const std::string& name) const { return array(name).base; }
  uint64_t end() const { return next_; }  // first address not yet handed out
  // Footprint: the bytes of all arrays (alignment padding not counted) [bytes].
  uint64_t bytes() const;

  using Contents = std::function<void(uint64_t offset, unsigned len, unsigned char* dst)>;
  // Gives array `name` its initial contents (replacing any given before).
  void set_contents(const std::string& name, Contents c);
  // Contents of an array of 4-byte elements: element i is word(i) (little-endian), or float(i).
  static Contents words(std::function<uint32_t(uint64_t i)> word);
  static Contents floats(std::function<float(uint64_t i)> value);
  static Contents bytes_of(std::function<uint8_t(uint64_t i)> byte);
  static Contents zeros();  // an output array before the kernel writes it (cudaMemset 0)
  // A float in [0, 1) with 24 random bits, a pure function of (salt, i): the contents of an input
  // the original fills with rand() (vectors, dense matrices, images).
  static float hashed_unit(uint64_t salt, uint64_t i) {
    uint64_t z = salt * 0x9e3779b97f4a7c15ull + i + 0x632be59bd9b4e019ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return static_cast<float>(z >> 40) * (1.0f / 16777216.0f);
  }
  // Contents shared from a host vector of 4-byte elements (no copy).
  template <class T> static Contents vector_of(std::shared_ptr<const std::vector<T>> v) {
    static_assert(sizeof(T) == 4, "4-byte elements");
    return words([v](uint64_t i) {
      uint32_t w;
      std::memcpy(&w, &(*v)[i], 4);
      return w;
    });
  }
  // True when every array has contents (a workload made of them can give real memory values).
  bool has_contents() const;
  // Initial bytes [addr, addr + len): each array's contents, zero in the padding between arrays
  // and outside them; an array without contents is an error naming it.
  void read_contents(uint64_t addr, unsigned len, unsigned char* dst) const;

 private:
  std::vector<ArrayRecord> arrays_;  // in allocation order = ascending base
  uint64_t next_;
};

}  // namespace gpusc
