#include "common/first_touch_page_mapper.h"

#include "common/report.h"

namespace gpusc {

namespace {
bool power_of_two(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }
unsigned log2_of(uint64_t x) {
  unsigned s = 0;
  while ((uint64_t{1} << s) < x) ++s;
  return s;
}
}  // namespace

FirstTouchPageMapper::FirstTouchPageMapper(std::vector<std::vector<unsigned>> partitions_of_block,
                                           uint64_t page_bytes, unsigned chunk_bytes, const std::string& who,
                                           bool xor_hash)
    : who_(who), parts_of_block_(std::move(partitions_of_block)) {
  if (!power_of_two(page_bytes)) error(who_, "page_bytes must be a power of two, got ", page_bytes);
  if (!power_of_two(chunk_bytes)) error(who_, "the interleave chunk must be a power of two bytes, got ", chunk_bytes);
  if (chunk_bytes > page_bytes)
    error(who_, "the interleave chunk (", chunk_bytes, " B) must not be larger than page_bytes (", page_bytes, " B)");
  if (parts_of_block_.empty()) error(who_, "needs at least one block, got 0");
  page_shift_ = log2_of(page_bytes);
  chunk_shift_ = log2_of(chunk_bytes);
  unsigned total = 0;
  for (const auto& ps : parts_of_block_) total += static_cast<unsigned>(ps.size());
  block_of_part_.assign(total, ~0u);
  index_in_block_.assign(total, ~0u);
  for (unsigned b = 0; b < parts_of_block_.size(); ++b) {
    if (parts_of_block_[b].empty()) error(who_, "block ", b, " has no memory partition; every block needs one");
    deal_.emplace_back(static_cast<unsigned>(parts_of_block_[b].size()), xor_hash, who_);
    for (unsigned i = 0; i < parts_of_block_[b].size(); ++i) {
      const unsigned p = parts_of_block_[b][i];
      if (p >= total)
        error(who_, "block ", b, " lists partition ", p, ", but the blocks hold ", total,
              " partitions, which must be numbered 0 .. ", total - 1);
      if (block_of_part_[p] != ~0u)
        error(who_, "partition ", p, " is listed twice (blocks ", block_of_part_[p], " and ", b, ")");
      block_of_part_[p] = b;
      index_in_block_[p] = i;
    }
  }
  frames_.resize(parts_of_block_.size());
}

AddressMapper::Target FirstTouchPageMapper::map(uint64_t addr, unsigned requester_block) {
  if (requester_block >= blocks())
    error(who_, "a request from block ", requester_block, ", but there are ", blocks(), " blocks");
  const uint64_t page = addr >> page_shift_;
  auto [it, first] = pages_.try_emplace(page, Page{requester_block, frames_[requester_block].size()});
  if (first) frames_[requester_block].push_back(page);
  return target(addr, it->second);
}

void FirstTouchPageMapper::move(uint64_t addr, unsigned to_block) {
  if (to_block >= blocks()) error(who_, "move to block ", to_block, ", but there are ", blocks(), " blocks");
  const uint64_t page = addr >> page_shift_;
  const auto it = pages_.find(page);
  if (it == pages_.end())
    error(who_, "move of address 0x", std::hex, addr, std::dec, ": its page is not placed; only placed pages move");
  Page& pg = it->second;
  if (pg.block == to_block) return;
  frames_[pg.block][pg.frame] = kHole;  // the old frame stays empty: its local addresses map to no page
  pg = Page{to_block, frames_[to_block].size()};
  frames_[to_block].push_back(page);
  ++moves_;
}

const FirstTouchPageMapper::Page& FirstTouchPageMapper::page_of(uint64_t addr) const {
  const auto it = pages_.find(addr >> page_shift_);
  if (it == pages_.end())
    error(who_, "address 0x", std::hex, addr, std::dec,
          " is on a page no request has touched yet; only map() (the requester's route) places pages");
  return it->second;
}

AddressMapper::Target FirstTouchPageMapper::target(uint64_t addr, const Page& pg) const {
  const ChunkInterleave& deal = deal_[pg.block];
  const uint64_t block_local = (pg.frame << page_shift_) | (addr & ((uint64_t{1} << page_shift_) - 1));
  const uint64_t chunk = block_local >> chunk_shift_;
  const uint64_t in_chunk = block_local & ((uint64_t{1} << chunk_shift_) - 1);
  return {parts_of_block_[pg.block][deal.index(chunk)], (deal.row(chunk) << chunk_shift_) | in_chunk};
}

uint64_t FirstTouchPageMapper::global(unsigned p, uint64_t local_addr) const {
  if (p >= partitions()) error(who_, "partition ", p, " out of range (", partitions(), " partitions)");
  const unsigned b = block_of_part_[p];
  const uint64_t block_local = (deal_[b].chunk(local_addr >> chunk_shift_, index_in_block_[p]) << chunk_shift_) |
                               (local_addr & ((uint64_t{1} << chunk_shift_) - 1));
  const uint64_t frame = block_local >> page_shift_;
  if (frame >= frames_[b].size())
    error(who_, "local address 0x", std::hex, local_addr, std::dec, " of partition ", p, " is in frame ", frame,
          " of block ", b, ", which holds only ", frames_[b].size(), " pages");
  if (frames_[b][frame] == kHole)
    error(who_, "local address 0x", std::hex, local_addr, std::dec, " of partition ", p, " is in frame ", frame,
          " of block ", b, ", whose page has moved to another block");
  return (frames_[b][frame] << page_shift_) | (block_local & ((uint64_t{1} << page_shift_) - 1));
}

}  // namespace gpusc
