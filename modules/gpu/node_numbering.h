// NodeNumbering: the platform-wide node ids of a platform built from blocks (DESIGN §6). Every
// block's network numbers its own nodes 0..n-1; MemExt::src, dst and dests carry platform ids,
// so that a request leaving one block still names its requester and its memory partition. A
// block registers its node count (it gets ids base..base+n-1, blocks in construction order) and
// its memory partitions' platform ids (partition indices follow in the same order, which is the
// numbering AddressMapper::map(...).partition uses). A platform of one block has base 0, and its
// ids are its network's.
// Lifetime: the blocks' routes consult it during simulation, so it must outlive them; every
// block must be registered before the simulation starts.
#pragma once
#include <string>
#include <vector>

namespace gpusc {

class NodeNumbering {
 public:
  // Registers a block of `nodes` network nodes; returns its first platform id.
  unsigned add_block(unsigned nodes);
  // Registers the next memory partition, at platform id `node`; returns its partition index.
  unsigned add_partition(unsigned node);

  unsigned nodes() const { return nodes_; }
  unsigned blocks() const { return static_cast<unsigned>(bases_.size()); }
  unsigned base(unsigned block) const { return bases_.at(block); }
  // The block that owns platform id `id` (an id past the last block is an error naming `who`).
  unsigned block_of(unsigned id, const char* who) const;
  unsigned partitions() const { return static_cast<unsigned>(partition_node_.size()); }
  // The platform id of partition p; an unregistered partition is an error naming `who`.
  unsigned partition_node(unsigned p, const char* who) const;

 private:
  unsigned nodes_ = 0;
  std::vector<unsigned> bases_;
  std::vector<unsigned> partition_node_;
};

}  // namespace gpusc
