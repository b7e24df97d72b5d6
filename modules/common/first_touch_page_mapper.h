// FirstTouchPageMapper: page-granular placement by first touch (paper 003 §5.3, DESIGN §6).
// Memory is split into blocks (a GPU module, a GPU) that each own some partitions. The first
// map(addr, requester_block) of a page makes the requester's block its owner; the page never
// moves afterwards, whoever touches it later. Paper 003's example (Figure 11), one partition per
// block: P0 first touched from GPM0 -> MP0; P1, P2 from GPM1 -> MP1; P3 from GPM0 -> MP0.
// Inside its block a page gets the block's next free frame (frames are handed out in
// first-touch order from 0), so the block's memory is a dense "block-local" space
//   block_local = frame * page + addr mod page
// which is interleaved over the block's k partitions in `chunk` bytes, as FineInterleaveMapper
// does over all partitions (003 §5.3: "we will still interleave addresses at a fine granularity
// across the memory channels of each memory partition"):
//   partition = partitions_of_block[b][(block_local / chunk) mod k]   (xor_hash: permuted per
//   local     = (block_local / chunk / k) * chunk + block_local mod chunk   row, ChunkInterleave)
// chunk = page makes the interleave page-granular: the block's n-th page goes to its partition
// n mod k.
// Open choices: the page size (003 gives none; platforms default to 4 KB); frames in touch
// order (a driver's allocator) rather than page number mod k, so a block's partitions fill
// evenly and partition-local addresses stay dense; no capacity limit (a block never runs out
// of frames); pages are never freed.
// Migration (paper 004 §2.3, a page-migration baseline): move(addr, block) gives a placed page
// the next free frame of `block` (the same frame order as a first touch) and leaves its old frame
// empty (a hole: global() of an address in it is an error; holes are not reused). What happens
// around a move (faults, flushes, the transfer) is the caller's; the mapper only remaps.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/address_mapper.h"

namespace gpusc {

class FirstTouchPageMapper final : public AddressMapper {
 public:
  // partitions_of_block[b]: the partitions of block b, in interleave order (at least one block,
  // each with at least one partition; every partition 0 .. P-1 in exactly one block).
  // page_bytes, chunk_bytes: powers of two, chunk_bytes <= page_bytes. `who` names the owner
  // (a config section) in errors. xor_hash: every block's partition count a power of two.
  FirstTouchPageMapper(std::vector<std::vector<unsigned>> partitions_of_block, uint64_t page_bytes,
                       unsigned chunk_bytes, const std::string& who = "FirstTouchPageMapper", bool xor_hash = false);

  unsigned partitions() const override { return static_cast<unsigned>(block_of_part_.size()); }
  Target map(uint64_t addr, unsigned requester_block) override;
  unsigned partition(uint64_t addr) const override { return target(addr, page_of(addr)).partition; }
  uint64_t local(uint64_t addr) const override { return target(addr, page_of(addr)).local; }
  uint64_t global(unsigned p, uint64_t local_addr) const override;
  bool placed(uint64_t addr) const override { return pages_.count(addr >> page_shift_) != 0; }

  unsigned blocks() const { return static_cast<unsigned>(parts_of_block_.size()); }
  uint64_t page_bytes() const { return uint64_t{1} << page_shift_; }
  unsigned block_of_partition(unsigned p) const { return block_of_part_.at(p); }
  unsigned owner(uint64_t addr) const { return page_of(addr).block; }  // placed pages only
  uint64_t pages_of(unsigned block) const { return frames_.at(block).size(); }  // frames handed out (holes included)
  uint64_t pages() const { return pages_.size(); }
  // Moves addr's page (placed) to `block`; nothing when it is there already (see Migration).
  void move(uint64_t addr, unsigned block);
  uint64_t moves() const { return moves_; }  // pages moved so far

 private:
  struct Page {
    unsigned block;
    uint64_t frame;  // index among the block's pages, in first-touch order
  };
  const Page& page_of(uint64_t addr) const;
  Target target(uint64_t addr, const Page& pg) const;

  const std::string who_;
  std::vector<std::vector<unsigned>> parts_of_block_;
  std::vector<unsigned> block_of_part_, index_in_block_;  // [partition]
  std::vector<ChunkInterleave> deal_;                     // [block]: its chunks over its partitions
  unsigned page_shift_ = 0, chunk_shift_ = 0;
  std::unordered_map<uint64_t, Page> pages_;   // page number -> placement
  std::vector<std::vector<uint64_t>> frames_;  // [block][frame] -> page number (kHole: moved away)
  static constexpr uint64_t kHole = ~uint64_t{0};
  uint64_t moves_ = 0;
};

}  // namespace gpusc
