#include "common/fine_interleave_mapper.h"

#include "common/report.h"

namespace gpusc {

FineInterleaveMapper::FineInterleaveMapper(unsigned partitions, unsigned chunk_bytes, const std::string& who,
                                           bool xor_hash)
    : parts_(partitions), chunk_(chunk_bytes), deal_(partitions, xor_hash, who) {
  if (chunk_ == 0 || (chunk_ & (chunk_ - 1)) != 0)
    error(who, "interleave chunk must be a power of two bytes, got ", chunk_);
  while ((1u << shift_) < chunk_) ++shift_;
  mask_ = chunk_ - 1;
}

uint64_t FineInterleaveMapper::global(unsigned p, uint64_t local_addr) const {
  if (p >= parts_) error("FineInterleaveMapper", "partition ", p, " out of range (", parts_, " partitions)");
  return (deal_.chunk(local_addr >> shift_, p) << shift_) | (local_addr & mask_);
}

}  // namespace gpusc
