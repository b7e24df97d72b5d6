#include "common/address_mapper.h"

#include "common/fine_interleave_mapper.h"
#include "common/first_touch_page_mapper.h"
#include "common/report.h"

namespace gpusc {

ChunkInterleave::ChunkInterleave(unsigned k, bool xor_hash, const std::string& who) : k_(k) {
  if (k_ == 0) error(who, "needs at least one memory partition, got 0");
  if (!xor_hash) return;
  if (k_ & (k_ - 1))
    error(who, "hash = xor needs a power-of-two number of partitions to interleave over, got ", k_,
          "; use hash = none");
  while ((1u << bits_) < k_) ++bits_;
}

std::unique_ptr<AddressMapper> make_address_mapper(const AddressMapper::Params& p, unsigned chunk_bytes,
                                                   const std::vector<std::vector<unsigned>>& partitions_of_block,
                                                   const std::string& where) {
  validate(p, where);
  if (partitions_of_block.empty()) error(where, "needs at least one block, got 0");
  if (p.kind == "first-touch")
    return std::make_unique<FirstTouchPageMapper>(partitions_of_block, p.page_bytes, chunk_bytes, where,
                                                  p.hash == "xor");
  if (p.kind == "fine-interleave") {
    unsigned total = 0;
    for (const auto& ps : partitions_of_block) total += static_cast<unsigned>(ps.size());
    return std::make_unique<FineInterleaveMapper>(total, chunk_bytes, where, p.hash == "xor");
  }
  error(where, "kind '", p.kind, "' is unknown; known kinds: fine-interleave, first-touch");
}

}  // namespace gpusc
