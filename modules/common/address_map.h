// AddressMap: which memory partition owns a global address, and the partition-local address an
// L2 slice and its DRAM channel index with (DESIGN §6). Paper 000 Table II: the global linear
// address space is interleaved among partitions in chunks of 256 bytes.
// Open choice: plain modulo interleave (no address hashing), so a stride of partitions x chunk
// bytes lands on one partition, as in the papers' baseline.
#pragma once
#include <cstdint>

#include "common/report.h"

namespace gpusc {

class AddressMap {
 public:
  AddressMap(unsigned partitions, unsigned chunk_bytes = 256) : parts_(partitions), chunk_(chunk_bytes) {
    if (parts_ == 0) error("AddressMap", "needs at least one memory partition");
    if (chunk_ == 0 || (chunk_ & (chunk_ - 1)) != 0)
      error("AddressMap", "interleave chunk must be a power of two bytes, got ", chunk_);
  }
  unsigned partitions() const { return parts_; }
  unsigned chunk_bytes() const { return chunk_; }
  unsigned partition(uint64_t addr) const { return static_cast<unsigned>((addr / chunk_) % parts_); }
  // addr with the partition digit removed: dense within one partition.
  uint64_t local(uint64_t addr) const { return (addr / chunk_ / parts_) * chunk_ + addr % chunk_; }
  // Inverse of local() for partition p.
  uint64_t global(unsigned p, uint64_t local_addr) const {
    return ((local_addr / chunk_) * parts_ + p) * chunk_ + local_addr % chunk_;
  }

 private:
  unsigned parts_, chunk_;
};

}  // namespace gpusc
