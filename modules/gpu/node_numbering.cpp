#include "gpu/node_numbering.h"

#include <algorithm>

#include "common/report.h"

namespace gpusc {

unsigned NodeNumbering::add_block(unsigned nodes) {
  if (nodes == 0) error("NodeNumbering", "a block needs at least one node");
  bases_.push_back(nodes_);
  nodes_ += nodes;
  return bases_.back();
}

unsigned NodeNumbering::add_partition(unsigned node) {
  if (node >= nodes_) error("NodeNumbering", "partition at node ", node, " but only ", nodes_, " nodes are registered");
  partition_node_.push_back(node);
  return static_cast<unsigned>(partition_node_.size() - 1);
}

unsigned NodeNumbering::block_of(unsigned id, const char* who) const {
  if (id >= nodes_) error(who, "node id ", id, " is not a platform id (", nodes_, " ids registered)");
  const auto it = std::upper_bound(bases_.begin(), bases_.end(), id);
  return static_cast<unsigned>(it - bases_.begin()) - 1;
}

unsigned NodeNumbering::partition_node(unsigned p, const char* who) const {
  if (p >= partition_node_.size())
    error(who, "address maps to memory partition ", p, " but the platform has ", partition_node_.size(),
          " (does the address mapper count the same partitions as the blocks?)");
  return partition_node_[p];
}

}  // namespace gpusc
