#include "workload/octree.h"

#include <algorithm>

#include "common/report.h"

namespace gpusc {
namespace {

struct TmpCell {
  float cx, cy, cz, half;  // centre, half side
  unsigned level;          // root: 0
  int64_t slot[8];         // -1 empty, >= 0 body id, <= -2 cell -2 - index
};

unsigned octant(const TmpCell& c, float x, float y, float z) {
  return (c.cx < x ? 1u : 0u) | (c.cy < y ? 2u : 0u) | (c.cz < z ? 4u : 0u);
}

int64_t cell_ref(size_t index) { return -2 - int64_t(index); }

}  // namespace

Octree build_octree(const Bodies& b) {
  const uint32_t n = b.size();
  if (n == 0) error("gpusc.workload", "octree: no bodies");
  // BoundingBoxKernel: the root is the bounding cube of all bodies.
  float minx = b.x[0], maxx = b.x[0], miny = b.y[0], maxy = b.y[0], minz = b.z[0], maxz = b.z[0];
  for (uint32_t i = 1; i < n; ++i) {
    minx = std::min(minx, b.x[i]), maxx = std::max(maxx, b.x[i]);
    miny = std::min(miny, b.y[i]), maxy = std::max(maxy, b.y[i]);
    minz = std::min(minz, b.z[i]), maxz = std::max(maxz, b.z[i]);
  }
  Octree t;
  t.nbodies = n;
  t.radius = std::max(maxx - minx, std::max(maxy - miny, maxz - minz)) * 0.5f;
  std::vector<TmpCell> cells;
  cells.push_back({(minx + maxx) * 0.5f, (miny + maxy) * 0.5f, (minz + maxz) * 0.5f, t.radius, 0, {}});
  std::fill(std::begin(cells[0].slot), std::end(cells[0].slot), -1);

  // BuildTreeKernel, one body at a time in index order.
  for (uint32_t i = 0; i < n; ++i) {
    size_t c = 0;
    for (;;) {
      const unsigned j = octant(cells[c], b.x[i], b.y[i], b.z[i]);
      const int64_t ch = cells[c].slot[j];
      if (ch == -1) {
        cells[c].slot[j] = i;
        break;
      }
      if (ch <= -2) {
        c = size_t(-2 - ch);
        continue;
      }
      // Slot holds body ch: split it into a new cell holding ch, then retry body i there.
      const TmpCell& p = cells[c];
      if (p.level + 1 >= Octree::kMaxDepth)
        error("gpusc.workload", "octree: bodies ", ch, " and ", i, " are too close to separate in ",
              Octree::kMaxDepth, " levels");
      const float q = p.half * 0.5f;
      TmpCell s{p.cx + ((j & 1) ? q : -q), p.cy + ((j & 2) ? q : -q), p.cz + ((j & 4) ? q : -q), q, p.level + 1, {}};
      std::fill(std::begin(s.slot), std::end(s.slot), -1);
      s.slot[octant(s, b.x[ch], b.y[ch], b.z[ch])] = ch;
      cells.push_back(s);
      cells[c].slot[j] = cell_ref(cells.size() - 1);
      c = cells.size() - 1;
    }
  }

  t.ncells = static_cast<uint32_t>(cells.size());
  const uint32_t top = t.nnodes();
  auto id = [&](int64_t ref) -> int32_t { return ref >= 0 ? int32_t(ref) : int32_t(top - uint32_t(-2 - ref)); };
  t.posx.assign(top + 1, 0), t.posy.assign(top + 1, 0), t.posz.assign(top + 1, 0), t.mass.assign(top + 1, 0);
  std::copy(b.x.begin(), b.x.end(), t.posx.begin());
  std::copy(b.y.begin(), b.y.end(), t.posy.begin());
  std::copy(b.z.begin(), b.z.end(), t.posz.begin());
  std::copy(b.mass.begin(), b.mass.end(), t.mass.begin());
  t.child.assign(uint64_t(t.ncells) * 8, -1);
  // SummarizationKernel: children before parents (a cell is created after its parent), centre
  // of mass in float as on the GPU, non-empty slots moved to the front in order.
  for (size_t k = cells.size(); k-- > 0;) {
    const uint32_t c = top - uint32_t(k);
    float m = 0, px = 0, py = 0, pz = 0;
    unsigned front = 0;
    for (int64_t ref : cells[k].slot) {
      if (ref == -1) continue;
      const int32_t ch = id(ref);
      t.child[t.child_slot(c, front++)] = ch;
      m += t.mass[ch];
      px += t.posx[ch] * t.mass[ch], py += t.posy[ch] * t.mass[ch], pz += t.posz[ch] * t.mass[ch];
    }
    const float inv = 1.0f / m;
    t.mass[c] = m, t.posx[c] = px * inv, t.posy[c] = py * inv, t.posz[c] = pz * inv;
    t.depth = std::max(t.depth, cells[k].level + 1);
  }
  // SortKernel: bodies in depth-first order, children in slot order.
  t.sort.reserve(n);
  std::vector<std::pair<uint32_t, unsigned>> stack{{top, 0}};  // (cell, next slot)
  while (!stack.empty()) {
    auto& [c, s] = stack.back();
    if (s == 8 || t.child_of(c, s) < 0) {
      stack.pop_back();
      continue;
    }
    const int32_t ch = t.child_of(c, s++);
    if (t.is_body(ch)) t.sort.push_back(uint32_t(ch));
    else stack.emplace_back(uint32_t(ch), 0);
  }
  return t;
}

}  // namespace gpusc
