// Octree: the Barnes-Hut tree of a body set in Lonestar BH's device layout, built on the host
// (deterministically: bodies inserted in index order) by the algorithm of its BoundingBox,
// BuildTree, Summarization and Sort kernels (Burtscher & Pingali, GPU Computing Gems, 2011).
// Layout (node ids, as Lonestar): bodies are nodes 0 .. nbodies-1; cells are numbered from the
// top down, the root is node nnodes() and the k-th cell created (root: k = 0) is nnodes() - k.
// Structure-of-arrays per node: posx, posy, posz, mass (a body's own values; a cell's centre of
// mass and total mass). A cell's 8 child slots hold node ids or -1, the non-empty ones moved to
// the front in slot order (Summarization's compaction, so a walk stops at the first -1).
// Choices: nnodes() + 1 = bodies + cells exactly (Lonestar allocates 2 x nbodies nodes and uses
// the top ones); the child array holds cells only, child(c, s) at (c - nbodies) * 8 + s
// (Lonestar indexes childd[c * 8 + s] and leaves the bodies' slots unused). Octant of a point:
// bit 0 x > centre.x, bit 1 y > centre.y, bit 2 z > centre.z, as Lonestar's `if (x < px) j = 1`.
// sort[k] is the body at position k of the depth-first order of the tree (Sort kernel), so
// consecutive threads get nearby bodies. Two bodies closer than float precision allows to
// separate (more than kMaxDepth levels) are an error.
#pragma once
#include <cstdint>
#include <vector>

#include "workload/plummer.h"

namespace gpusc {

struct Octree {
  static constexpr unsigned kMaxDepth = 32;  // Lonestar's MAXDEPTH [levels]

  uint32_t nbodies = 0, ncells = 0;
  std::vector<float> posx, posy, posz, mass;  // nnodes() + 1 entries, indexed by node id
  std::vector<int32_t> child;                 // 8 per cell, see child()
  std::vector<uint32_t> sort;                 // nbodies: body at depth-first position k
  float radius = 0;                           // half the root's side (Lonestar radiusd)
  unsigned depth = 0;                         // levels below the root (Lonestar maxdepthd)

  uint32_t nnodes() const { return nbodies + ncells - 1; }  // the root's id
  uint32_t root() const { return nnodes(); }
  bool is_body(int64_t n) const { return n >= 0 && n < int64_t(nbodies); }
  // Child slot s (0..7) of cell c; -1 = empty.
  int32_t child_of(uint32_t c, unsigned s) const { return child[child_slot(c, s)]; }
  // Index of that slot in `child` (the element a kernel reads).
  uint64_t child_slot(uint32_t c, unsigned s) const { return uint64_t(c - nbodies) * 8 + s; }
};

// Builds the tree of `b` (at least one body).
Octree build_octree(const Bodies& b);

}  // namespace gpusc
