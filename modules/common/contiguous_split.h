// ContiguousSplit: n items (CTAs of a grid, SMs or memory partitions of a platform) split into
// `groups` contiguous ranges, in order. When n is not a multiple of groups the first
// (n mod groups) ranges hold one item more: 10 over 4 -> 3, 3, 2, 2 (items 0-2, 3-5, 6-7, 8-9);
// 7 over 3 -> 3, 2, 2. With n < groups the last groups are empty. Used by the contiguous-groups
// CTA policy (paper 003 §5.2) and by platforms that form blocks from consecutive ids.
#pragma once
#include <algorithm>

#include "common/report.h"

namespace gpusc {

class ContiguousSplit {
 public:
  ContiguousSplit(unsigned n, unsigned groups) : n_(n), groups_(groups) {
    if (groups_ == 0) error("ContiguousSplit", "cannot split ", n, " items into 0 groups");
  }
  unsigned items() const { return n_; }
  unsigned groups() const { return groups_; }
  unsigned size(unsigned g) const { return n_ / groups_ + (g < n_ % groups_ ? 1 : 0); }
  unsigned begin(unsigned g) const { return g * (n_ / groups_) + std::min(g, n_ % groups_); }
  unsigned end(unsigned g) const { return begin(g) + size(g); }
  // The group item i (< items()) is in.
  unsigned group_of(unsigned i) const {
    if (i >= n_) error("ContiguousSplit", "item ", i, " out of range (", n_, " items)");
    const unsigned q = n_ / groups_, r = n_ % groups_;
    return i < r * (q + 1) ? i / (q + 1) : r + (i - r * (q + 1)) / q;
  }

 private:
  unsigned n_, groups_;
};

}  // namespace gpusc
