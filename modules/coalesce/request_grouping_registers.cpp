#include "coalesce/request_grouping_registers.h"

#include <stdexcept>
#include <string>

namespace gpusc {

RequestGroupingRegisters::RequestGroupingRegisters(unsigned entries, unsigned max_nodes)
    : valid_(entries, false), block_(entries, 0), dests_(entries), max_nodes_(max_nodes) {
  if (entries == 0) throw std::invalid_argument("request grouping registers: at least one RGR is needed");
  if (max_nodes == 0 || max_nodes > DestSet::kMaxNodes)
    throw std::invalid_argument("request grouping registers: destination bits for " + std::to_string(max_nodes) +
                                " nodes; use 1.." + std::to_string(DestSet::kMaxNodes));
}

int RequestGroupingRegisters::find(uint64_t block) const {
  for (unsigned i = 0; i < valid_.size(); ++i)
    if (valid_[i] && block_[i] == block) return static_cast<int>(i);
  return -1;
}

RequestGroupingRegisters::RequestResult RequestGroupingRegisters::request(uint64_t block, unsigned src) {
  if (src >= max_nodes_)
    throw std::invalid_argument("request grouping registers: source node " + std::to_string(src) +
                                " has no destination bit (nodes 0.." + std::to_string(max_nodes_ - 1) + ")");
  RequestResult r;
  const int hit = find(block);
  if (hit >= 0) {
    r.hit = true;
    r.index = static_cast<unsigned>(hit);
    if (dests_[r.index].contains(src)) r.dup = true;
    else dests_[r.index].add(src);
    return r;
  }
  for (unsigned i = 0; i < valid_.size(); ++i)
    if (!valid_[i]) {
      valid_[i] = true;
      block_[i] = block;
      dests_[i] = DestSet::single(src);
      ++valid_count_;
      r.index = i;
      return r;
    }
  r.full = true;
  return r;
}

RequestGroupingRegisters::ReleaseResult RequestGroupingRegisters::release(uint64_t block) {
  ReleaseResult r;
  const int i = find(block);
  if (i < 0) return r;
  r.found = true;
  r.index = static_cast<unsigned>(i);
  r.dests = dests_[r.index];
  valid_[r.index] = false;
  dests_[r.index].clear();
  --valid_count_;
  return r;
}

}  // namespace gpusc
