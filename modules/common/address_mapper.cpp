#include "common/address_mapper.h"

#include "common/fine_interleave_mapper.h"
#include "common/first_touch_page_mapper.h"
#include "common/report.h"

namespace gpusc {

std::unique_ptr<AddressMapper> make_address_mapper(const AddressMapper::Params& p, unsigned chunk_bytes,
                                                   const std::vector<std::vector<unsigned>>& partitions_of_block,
                                                   const std::string& where) {
  validate(p, where);
  if (partitions_of_block.empty()) error(where, "needs at least one block, got 0");
  if (p.kind == "first-touch")
    return std::make_unique<FirstTouchPageMapper>(partitions_of_block, p.page_bytes, chunk_bytes, where);
  if (p.kind == "fine-interleave") {
    unsigned total = 0;
    for (const auto& ps : partitions_of_block) total += static_cast<unsigned>(ps.size());
    return std::make_unique<FineInterleaveMapper>(total, chunk_bytes, where);
  }
  error(where, "kind '", p.kind, "' is unknown; known kinds: fine-interleave, first-touch");
}

}  // namespace gpusc
