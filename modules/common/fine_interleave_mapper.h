// FineInterleaveMapper: the global address space dealt round-robin over all memory partitions
// in fixed chunks (paper 000 Table II: 256 B), whoever asks (DESIGN §6). The baseline of papers
// 000 and 001, and of paper 003 §3.2 before first-touch placement.
//   partition = (addr / chunk) mod P          (xor_hash: permuted per row, ChunkInterleave)
//   local     = (addr / chunk / P) * chunk + addr mod chunk   (the partition digit removed)
// Open choice: plain modulo by default, no address hashing, so a stride of P x chunk bytes lands
// on one partition, as in the papers' GPGPU-Sim baselines; xor_hash spreads such strides.
// Stateless: every address is placed from the start.
#pragma once
#include <cstdint>

#include "common/address_mapper.h"

namespace gpusc {

class FineInterleaveMapper final : public AddressMapper {
 public:
  // partitions >= 1 (a power of two with xor_hash); chunk_bytes a power of two. `who` names the
  // owner in errors.
  FineInterleaveMapper(unsigned partitions, unsigned chunk_bytes = 256, const std::string& who = "FineInterleaveMapper",
                       bool xor_hash = false);

  unsigned partitions() const override { return parts_; }
  unsigned chunk_bytes() const { return chunk_; }
  Target map(uint64_t addr, unsigned) override { return {partition(addr), local(addr)}; }
  unsigned partition(uint64_t addr) const override { return deal_.index(addr >> shift_); }
  uint64_t local(uint64_t addr) const override { return (deal_.row(addr >> shift_) << shift_) | (addr & mask_); }
  uint64_t global(unsigned p, uint64_t local_addr) const override;
  bool placed(uint64_t) const override { return true; }

 private:
  const unsigned parts_, chunk_;
  ChunkInterleave deal_;
  unsigned shift_ = 0;  // log2(chunk)
  uint64_t mask_ = 0;   // chunk - 1
};

}  // namespace gpusc
