// RequestGroupingRegisters: the request grouping registers (RGRs) of one packet coalescing unit
// (paper 001 §3.2, Figure 3: "RGR has 1-bit valid field, 41-bit block address field, and 64-bit
// destination bits field"; 128 per PCU in §5.1, 64..1024 in §5.4), as a plain C++ model of the
// three operations stage 1 and the merge unit perform on them. The PacketCoalescingUnit uses it
// directly (rgr_model = cpp) or drives rtl/pcu_rgr.v through RtlGroupingRegisters (rgr_model =
// rtl); both give the same answers, which testbenches/rtl/pcu_rgr_equivalence_tb.cpp checks.
//   request(block, src)  a read at stage 1. A valid RGR holding the block is a hit: src's
//                        destination bit is set (already set: dup, nothing changes). Otherwise
//                        the lowest-numbered free RGR is allocated with the block and src alone;
//                        none free: full, nothing changes.
//   release(block)       a read reply at the merge unit: the valid RGR holding the block is
//                        cleared and its destination bits returned (found = false if none).
// A block is held by at most one valid RGR (a hit never allocates). When a release and a request
// happen in one cycle the release goes first (the PCU's merge unit works before its stage 1).
// Choices the paper leaves open: "all valid RGRs are sequentially accessed" is a CAM search (same
// result); the free RGR taken is the lowest-numbered one (which one is invisible outside).
#pragma once
#include <cstdint>
#include <vector>

#include "common/dest_set.h"

namespace gpusc {

class RequestGroupingRegisters {
 public:
  struct RequestResult {
    bool hit = false;    // the block was held: src joined it (or dup)
    bool dup = false;    // src's bit was already set: nothing changed
    bool full = false;   // a miss with no free RGR: nothing changed
    unsigned index = 0;  // the hit or allocated RGR (meaningless when full)
    bool operator==(const RequestResult& o) const {
      return hit == o.hit && dup == o.dup && full == o.full && (full || index == o.index);
    }
  };
  struct ReleaseResult {
    bool found = false;
    unsigned index = 0;  // the cleared RGR (0 when not found)
    DestSet dests;       // its destination bits (empty when not found)
  };

  // `entries` RGRs; destination bits for node ids 0..max_nodes-1.
  RequestGroupingRegisters(unsigned entries, unsigned max_nodes);

  RequestResult request(uint64_t block, unsigned src);
  ReleaseResult release(uint64_t block);

  unsigned entries() const { return static_cast<unsigned>(valid_.size()); }
  unsigned valid_count() const { return valid_count_; }
  unsigned free_count() const { return entries() - valid_count_; }
  bool valid(unsigned i) const { return valid_[i]; }
  uint64_t block(unsigned i) const { return block_[i]; }
  const DestSet& dests(unsigned i) const { return dests_[i]; }

 private:
  int find(uint64_t block) const;
  std::vector<bool> valid_;
  std::vector<uint64_t> block_;
  std::vector<DestSet> dests_;
  unsigned max_nodes_;
  unsigned valid_count_ = 0;
};

}  // namespace gpusc
