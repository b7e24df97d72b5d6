// Barnes-Hut: the octree of a hand-placed body set (cell ids, compaction, centres of mass, sort
// order), the warp's tree walk over it step by step, and on Plummer sets: the nodes a warp
// interacts with cover every body exactly once, the walk matches a per-body recursive walk,
// determinism under the seed and the footprint.
#include <catch2/catch.hpp>

#include <functional>

#include "workload/barnes_hut.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;
using Op = WarpInstr::Op;

namespace {
// b0 at (-1,-1,-1), b1 at (1,1,1), b2 at (0.9,0.9,0.9): b1 and b2 share octant 7 of the root
// and of three more cells before they separate (cell centres 0.5, 0.75, 0.875, 0.9375).
Bodies three_bodies() {
  Bodies b;
  b.x = {-1, 1, 0.9f}, b.y = b.x, b.z = b.x;
  b.mass = {1.0f / 3, 1.0f / 3, 1.0f / 3};
  return b;
}

// Every body under node n.
void bodies_under(const Octree& t, int32_t n, std::vector<uint32_t>& out) {
  if (t.is_body(n)) {
    out.push_back(uint32_t(n));
    return;
  }
  for (unsigned s = 0; s < 8 && t.child_of(uint32_t(n), s) >= 0; ++s) bodies_under(t, t.child_of(uint32_t(n), s), out);
}
}  // namespace

TEST_CASE("octree: cells numbered from the top, children compacted, centres of mass, depth-first sort") {
  const Octree t = build_octree(three_bodies());
  REQUIRE(t.nbodies == 3);
  REQUIRE(t.ncells == 5);
  REQUIRE(t.root() == 7);  // nnodes = 3 bodies + 5 cells - 1
  REQUIRE(t.radius == 1.0f);
  REQUIRE(t.depth == 5);   // cell levels 0 (root) .. 4
  REQUIRE(t.child.size() == 5 * 8);
  // Root: b0 in octant 0, the first split cell (id 6) in octant 7, compacted to slots 0 and 1.
  REQUIRE(t.child_of(7, 0) == 0);
  REQUIRE(t.child_of(7, 1) == 6);
  for (unsigned s = 2; s < 8; ++s) REQUIRE(t.child_of(7, s) == -1);
  REQUIRE(t.child_of(6, 0) == 5);
  REQUIRE(t.child_of(5, 0) == 4);
  REQUIRE(t.child_of(4, 0) == 3);
  // Cell 3 (centre 0.9375): b2 in octant 0, b1 in octant 7.
  REQUIRE(t.child_of(3, 0) == 2);
  REQUIRE(t.child_of(3, 1) == 1);
  REQUIRE(t.child_of(3, 2) == -1);
  REQUIRE(t.child_slot(7, 1) == 4 * 8 + 1);  // the child array starts at the first cell id (3)
  REQUIRE(t.mass[3] == Approx(2.0 / 3));
  REQUIRE(t.posx[3] == Approx(0.95));
  REQUIRE(t.mass[7] == Approx(1.0));
  REQUIRE(t.posy[7] == Approx(0.3));
  REQUIRE(t.sort == std::vector<uint32_t>{0, 2, 1});
  REQUIRE_THROWS(build_octree(Bodies{}));
  Bodies same = three_bodies();
  same.x[2] = same.y[2] = same.z[2] = 1;  // coincides with b1
  REQUIRE_THROWS_WITH(build_octree(same), Catch::Matchers::Contains("too close to separate"));
}

TEST_CASE("barnes-hut: the warp walk over the three-body tree, load by load") {
  BarnesHutWorkload::Params p;
  p.theta = 2, p.epsilon = 0, p.threads_per_cta = 32;  // dq[0] = (2 * 1)^2 / 2^2 = 1
  BarnesHutWorkload w(p, three_bodies());
  REQUIRE(w.dq() == std::vector<float>{1, 0.25f, 0.0625f, 0.015625f, 0.00390625f});
  auto ks = all_kernels(w);
  REQUIRE(ks.size() == 1);
  REQUIRE(ks[0]->num_ctas() == 1);
  const AddressSpace& as = w.address_space();
  const Stream s = drain(*ks[0]->warp(0, 0));
  check_invariants(as, *ks[0], {s});
  // Child slots read, in order: root 0 (b0, used) and 1 (cell 6: b2 is too close, open), then
  // cells 6, 5, 4 slot 0 (each opened: b2 is 0.087 from their centres of mass), cell 3 slots 0,
  // 1 (the bodies b2, b1) and 2 (-1), then the next slot of every cell on the way back up.
  std::vector<uint64_t> slots, masses;
  for (const auto& i : on_array(as, s, "child", Op::Load)) {
    REQUIRE(i.active_mask == 0x7);
    REQUIRE(i.addr[1] == i.addr[0]);  // broadcast
    REQUIRE(i.addr[2] == i.addr[0]);
    slots.push_back(element(as, "child", i, 0));
  }
  REQUIRE(slots == std::vector<uint64_t>{32, 33, 24, 16, 8, 0, 1, 2, 9, 17, 25, 34});
  for (const auto& i : on_array(as, s, "mass", Op::Load)) masses.push_back(element(as, "mass", i, 0));
  REQUIRE(masses == std::vector<uint64_t>{0, 2, 1});
  // Prologue gathers: sort[k] then posx[sort[k]].
  const Stream px = on_array(as, s, "posx", Op::Load);
  REQUIRE(element(as, "posx", px[0], 1) == 2);  // lane 1 has body sort[1] = 2
  REQUIRE(element(as, "posx", px[1], 0) == 0);  // then the walk: node b0 for every lane
  REQUIRE(element(as, "posx", px[2], 2) == 6);  // then cell 6
  // Instructions: prologue 6 + 8; 3 per slot, + 3 loads and 9 Compute per non-empty slot, + 8 to
  // interact or + 3 to open; a pop 2 (+2 to reload the frame); the velocity/acceleration update 18.
  const size_t used = 3, opened = 4, empty = 5;
  REQUIRE(s.size() == 14 + used * 23 + opened * 18 + empty * 3 + (4 * 4 + 2) + 18);
  // Thread 0's dq setup and the stack writes come from the first lane only.
  size_t leader_only = 0;
  for (const auto& i : s) leader_only += i.active_mask == 0x1;
  REQUIRE(leader_only == 1 + 1 + 2 * opened);  // dq setup, stack init, two stores per push
  const AccessCount c = count_accesses(as, {s});
  REQUIRE(c.stored() == std::set<std::string>{"accx", "accy", "accz", "velx", "vely", "velz"});
  for (uint64_t b = 0; b < 3; ++b) REQUIRE(c.store("velz", b) == 1);
}

TEST_CASE("barnes-hut: every walk uses nodes that cover each body exactly once, as a per-body walk does") {
  BarnesHutWorkload::Params p;
  p.bodies = 700, p.threads_per_cta = 64;
  BarnesHutWorkload w(p, 11);
  const Octree& t = w.tree();
  REQUIRE(t.sort.size() == 700);
  std::vector<uint32_t> seen(700, 0);
  for (uint32_t b : t.sort) ++seen[b];
  REQUIRE(std::count(seen.begin(), seen.end(), 1u) == 700);  // sort is a permutation
  auto ks = all_kernels(w);
  REQUIRE(ks[0]->num_ctas() == 11);
  const AddressSpace& as = w.address_space();
  const auto warps = drain_kernel(*ks[0]);
  check_invariants(as, *ks[0], warps);
  size_t walked = 0;
  for (const auto& s : warps) {
    const Stream m = on_array(as, s, "mass", Op::Load);
    if (m.empty()) continue;  // the tail warp of the last CTA has no bodies
    ++walked;
    std::vector<uint32_t> covered;
    for (const auto& i : m) bodies_under(t, int32_t(element(as, "mass", i, __builtin_ctz(i.active_mask))), covered);
    std::sort(covered.begin(), covered.end());
    REQUIRE(covered.size() == 700);
    for (uint32_t b = 0; b < 700; ++b) REQUIRE(covered[b] == b);
  }
  REQUIRE(walked == 22);  // ceil(700 / 32)
  // With one body per warp the walk is that body's own: compare with a recursive walk.
  p.threads_per_cta = 1, p.bodies = 200;
  BarnesHutWorkload one(p, 5);
  const Octree& u = one.tree();
  auto k1 = one.next_kernel();
  const float epssq = float(p.epsilon * p.epsilon);
  for (unsigned k = 0; k < 200; k += 13) {
    const uint32_t b = u.sort[k];
    std::vector<uint64_t> expect;
    std::function<void(uint32_t, unsigned)> walk = [&](uint32_t cell, unsigned depth) {
      for (unsigned s = 0; s < 8 && u.child_of(cell, s) >= 0; ++s) {
        const int32_t n = u.child_of(cell, s);
        const float dx = u.posx[n] - u.posx[b], dy = u.posy[n] - u.posy[b], dz = u.posz[n] - u.posz[b];
        if (u.is_body(n) || dx * dx + (dy * dy + (dz * dz + epssq)) >= one.dq()[depth]) expect.push_back(uint64_t(n));
        else walk(uint32_t(n), depth + 1);
      }
    };
    walk(u.root(), 0);
    std::vector<uint64_t> got;
    for (const auto& i : on_array(one.address_space(), drain(*k1->warp(k, 0)), "mass", Op::Load))
      got.push_back(element(one.address_space(), "mass", i, 0));
    REQUIRE(got == expect);
  }
}

TEST_CASE("barnes-hut: Plummer set is seeded, footprint counts nodes and cells") {
  const Bodies a = plummer_bodies(500, 3), b = plummer_bodies(500, 3), c = plummer_bodies(500, 4);
  REQUIRE(a.x == b.x);
  REQUIRE(a.z == b.z);
  REQUIRE(a.x != c.x);
  float r2max = 0;
  for (uint32_t i = 0; i < 500; ++i) r2max = std::max(r2max, a.x[i] * a.x[i] + a.y[i] * a.y[i] + a.z[i] * a.z[i]);
  REQUIRE(r2max > 0.5f);  // a Plummer sphere has a halo well past its core
  BarnesHutWorkload::Params p;
  p.bodies = 500;
  BarnesHutWorkload w(p, 3);
  const Octree& t = w.tree();
  const uint64_t nodes = t.nbodies + t.ncells;
  REQUIRE(w.address_space().array("posx").bytes == 4 * nodes);
  REQUIRE(w.address_space().array("child").bytes == 32 * uint64_t(t.ncells));
  REQUIRE(w.address_space().bytes() == 16 * nodes + 32 * uint64_t(t.ncells) + 7 * 4 * 500);
}
