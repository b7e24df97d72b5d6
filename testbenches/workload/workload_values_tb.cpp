// Real memory values (issue 19, "real data first"): a workload's arrays hold their real contents
// at their addresses (AddressSpace contents sourcing a BackingStore), its stores carry the values
// the algorithm computes, and a platform whose stage needs values refuses a workload without.
// Expected values are worked out by hand for tiny inputs.
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

#include <catch2/catch.hpp>

#include "common/params.h"
#include "mem/backing_store.h"
#include "platforms/mesh_gpu/mesh_gpu.h"
#include "platforms/mesh_gpu/presets.h"
#include "workload/barnes_hut.h"
#include "workload/bfs.h"
#include "workload/spmv.h"
#include "workload/sssp.h"
#include "workload/stencil2d.h"
#include "workload/stencil3d.h"
#include "workload/transpose.h"
#include "workload/workload_factory.h"

using namespace gpusc;
using Catch::Matchers::Contains;

namespace {

// 3 x 3:  [2 0 1]
//         [0 3 0]
//         [4 5 6]
std::shared_ptr<const CsrGraph> tiny_matrix() {
  std::vector<CooEntry> e = {{0, 0, 2}, {0, 2, 1}, {1, 1, 3}, {2, 0, 4}, {2, 1, 5}, {2, 2, 6}};
  return std::make_shared<const CsrGraph>(CsrGraph::from_coo(3, 3, e, true));
}

BackingStore store_of(const Workload& w) {
  return BackingStore([space = w.address_space()](uint64_t a, unsigned n, unsigned char* d) {
    space.read_contents(a, n, d);
  });
}

uint32_t word_at(const BackingStore& s, uint64_t addr) {
  uint32_t w;
  unsigned char b[4];
  s.read(addr, 4, b);
  std::memcpy(&w, b, 4);
  return w;
}
float float_at(const BackingStore& s, uint64_t addr) {
  const uint32_t w = word_at(s, addr);
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}

// Every store of a launch: address -> word written (last writer in stream order).
std::map<uint64_t, uint32_t> stores_of(const Kernel& k) {
  std::map<uint64_t, uint32_t> out;
  for (unsigned c = 0; c < k.num_ctas(); ++c)
    for (unsigned w = 0; w < k.warps_per_cta(); ++w) {
      auto s = k.warp(c, w);
      WarpInstr in;
      while (s->next(in))
        if (in.op == WarpInstr::Op::Store)
          for (unsigned l = 0; l < kWarpSize; ++l)
            if (in.lane_active(l)) out[in.addr[l]] = in.data[l];
    }
  return out;
}

float as_float(uint32_t w) {
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}

}  // namespace

TEST_CASE("values: the BackingStore holds a tiny matrix's CSR row pointers, column indices and values at their addresses",
          "[values][spmv]") {
  SpmvWorkload w(SpmvWorkload::Params{}, tiny_matrix());
  REQUIRE(w.has_values());
  const BackingStore s = store_of(w);
  const AddressSpace& as = w.address_space();
  const uint32_t row_ptr[] = {0, 2, 3, 6}, col_idx[] = {0, 2, 1, 0, 1, 2};
  const float vals[] = {2, 1, 3, 4, 5, 6};
  for (unsigned i = 0; i < 4; ++i) CHECK(word_at(s, as.base("row_ptr") + 4 * i) == row_ptr[i]);
  for (unsigned i = 0; i < 6; ++i) {
    CHECK(word_at(s, as.base("col_idx") + 4 * i) == col_idx[i]);
    CHECK(float_at(s, as.base("vals") + 4 * i) == vals[i]);
  }
  for (unsigned i = 0; i < 3; ++i) {
    CHECK(float_at(s, as.base("x") + 4 * i) == SpmvWorkload::x_value(i));
    CHECK(float_at(s, as.base("y") + 4 * i) == 0.0f);
  }
  CHECK(word_at(s, as.base("row_ptr") + 16) == 0u);  // padding after the array reads as zero
  CHECK(s.pages() == 0);                             // nothing materialised by reads
}

TEST_CASE("values: a write materialises its page from the source and keeps the rest of the page", "[values][store]") {
  SpmvWorkload w(SpmvWorkload::Params{}, tiny_matrix());
  BackingStore s = store_of(w);
  const uint64_t y = w.address_space().base("y");
  const unsigned char one[4] = {1, 0, 0, 0};
  s.write(y, 4, one);
  CHECK(s.pages() == 1);
  CHECK(word_at(s, y) == 1u);
  CHECK(word_at(s, w.address_space().base("col_idx") + 4) == 2u);  // same page, from the source
}

TEST_CASE("values: SpMV's stores write y = A x as computed by hand", "[values][spmv]") {
  SpmvWorkload w(SpmvWorkload::Params{}, tiny_matrix());
  w.enable_values();
  auto k = w.next_kernel();
  const auto st = stores_of(*k);
  const uint64_t y = w.address_space().base("y");
  auto x = SpmvWorkload::x_value;
  REQUIRE(st.size() == 3);
  CHECK(as_float(st.at(y + 0)) == 2.0f * x(0) + 1.0f * x(2));
  CHECK(as_float(st.at(y + 4)) == 3.0f * x(1));
  CHECK(as_float(st.at(y + 8)) == 4.0f * x(0) + 5.0f * x(1) + 6.0f * x(2));
}

TEST_CASE("values: without enable_values the same stores carry no data", "[values][spmv]") {
  SpmvWorkload w(SpmvWorkload::Params{}, tiny_matrix());
  const auto st = stores_of(*w.next_kernel());
  REQUIRE(st.size() == 3);
  for (const auto& [a, v] : st) CHECK(v == 0u);
}

TEST_CASE("values: BFS stores each level's depth and the changed flag (path 0-1-2 and arc 0-3)", "[values][bfs]") {
  std::vector<CooEntry> e = {{0, 1}, {1, 0}, {1, 2}, {2, 1}, {0, 3}, {3, 0}};
  auto g = std::make_shared<const CsrGraph>(CsrGraph::from_coo(4, 4, e, false));
  BfsWorkload w(BfsWorkload::Params{}, g);
  REQUIRE(w.has_values());
  const BackingStore s = store_of(w);
  const uint64_t level = w.address_space().base("level"), changed = w.address_space().base("changed");
  CHECK(word_at(s, level) == 0u);
  CHECK(word_at(s, level + 4) == BfsWorkload::kUnreached);
  CHECK(word_at(s, w.address_space().base("col_idx") + 8) == 0u);  // row 1 = {0, 2}: col_idx[2] = 0
  w.enable_values();
  const auto l0 = stores_of(*w.next_kernel());
  CHECK(l0.at(level + 4) == 1u);
  CHECK(l0.at(level + 12) == 1u);
  CHECK(l0.at(changed) == 1u);
  CHECK(l0.count(level + 8) == 0);
  const auto l1 = stores_of(*w.next_kernel());
  CHECK(l1.at(level + 8) == 2u);
}

TEST_CASE("values: the 9-point stencil adds 0.05 of its clamped diagonals' difference, by hand on 3 x 3",
          "[values][stencil2d]") {
  Stencil2dWorkload::Params p;
  p.rows = p.cols = 3, p.iterations = 1, p.block_x = p.block_y = 4, p.points = 9;
  Stencil2dWorkload w(p);
  w.enable_values();
  const auto st = stores_of(*w.next_kernel());
  const uint64_t dst = w.address_space().base("temp1");
  REQUIRE(st.size() == 9);
  auto t = [](unsigned x, unsigned y) { return Stencil2dWorkload::temp0_value(3 * y + x); };
  auto pw = [](unsigned x, unsigned y) { return Stencil2dWorkload::power_value(3 * y + x); };
  // Centre (1,1): every neighbour inside the grid.
  const float c = t(1, 1);
  const float centre = c + 0.1f * (t(1, 0) + t(1, 2) + t(0, 1) + t(2, 1) - 4 * c) +
                       0.05f * (t(0, 0) + t(2, 0) + t(0, 2) + t(2, 2) - 4 * c) + 0.01f * pw(1, 1);
  CHECK(as_float(st.at(dst + 4 * 4)) == Approx(centre).epsilon(1e-6));
  // Corner (0,0): N, W and NW clamp onto itself, NE onto (1,0), SW onto (0,1).
  const float k = t(0, 0);
  const float corner = k + 0.1f * (k + t(0, 1) + k + t(1, 0) - 4 * k) +
                       0.05f * (k + t(1, 0) + t(0, 1) + t(1, 1) - 4 * k) + 0.01f * pw(0, 0);
  CHECK(as_float(st.at(dst)) == Approx(corner).epsilon(1e-6));
}

TEST_CASE("values: transpose stores out[x][y] = in[y][x]", "[values][transpose]") {
  TransposeWorkload::Params p;
  p.width = 3;
  p.height = 2;
  TransposeWorkload w(p);
  w.enable_values();
  const auto st = stores_of(*w.next_kernel());
  const uint64_t out = w.address_space().base("out");
  REQUIRE(st.size() == 6);
  for (unsigned y = 0; y < 2; ++y)
    for (unsigned x = 0; x < 3; ++x)
      CHECK(as_float(st.at(out + 4 * (x * 2 + y))) == TransposeWorkload::in_value(y * 3 + x));
}

namespace {

// A workload that gives no memory contents (has_values() is false).
class NoValues final : public Workload {
 public:
  NoValues() { space_.allocate("a", 4096); }
  std::string name() const override { return "no_values"; }
  std::unique_ptr<Kernel> next_kernel() override { return nullptr; }
  const AddressSpace& address_space() const override { return space_; }

 private:
  AddressSpace space_;
};

}  // namespace

TEST_CASE("values: a data-filter platform on a workload without values is a clear error", "[values][platform]") {
  NoValues w;
  CHECK_FALSE(w.has_values());
  CHECK_THROWS_WITH(w.address_space().read_contents(w.address_space().base("a"), 4, std::vector<unsigned char>(4).data()),
                    Contains("has no contents"));
  json cfg = mesh_gpu::preset("ics8x8");
  apply_override(cfg, "mc.stages=[\"data_filter\"]");
  const auto p = params_from_json<MeshGpu::Params>(cfg, "");
  CHECK_THROWS_WITH(MeshGpu("gpu", p, w), Contains("has_values() is false") && Contains("no_values"));
}

namespace {
// Every store of every launch of w, in launch order (values on).
std::vector<std::map<uint64_t, uint32_t>> all_stores(Workload& w) {
  w.enable_values();
  std::vector<std::map<uint64_t, uint32_t>> out;
  while (auto k = w.next_kernel()) out.push_back(stores_of(*k));
  return out;
}
}  // namespace

// The naive products on 2 x 2 matrices: PolyBench's init forms, alpha = 32412, beta = 2123.
// Every operand and sum below is exact in float, so the expected values are the hand results.
TEST_CASE("values: polybench-gemm stores C = alpha A B + beta C, by hand on 2 x 2", "[values][polybench]") {
  auto w = make_workload("polybench-gemm", {{"ni", 2}, {"nj", 2}, {"nk", 2}}, 1);
  REQUIRE(w->has_values());
  const BackingStore s = store_of(*w);
  const uint64_t a = w->address_space().base("A"), c = w->address_space().base("C");
  CHECK(float_at(s, a + 12) == 0.5f);  // A[1][1] = 1 * 1 / 2
  CHECK(float_at(s, c + 12) == 0.5f);  // C[1][1]
  const auto st = all_stores(*w);
  REQUIRE(st.size() == 1);
  REQUIRE(st[0].size() == 4);
  // C[1][1] = 2123 * 0.5 + 32412 * A[1][0] B[0][1] + 32412 * A[1][1] B[1][1] = 1061.5 + 0 + 8103
  CHECK(as_float(st[0].at(c + 12)) == 9164.5f);
  CHECK(as_float(st[0].at(c + 0)) == 0.0f);
  CHECK(as_float(st[0].at(c + 4)) == 0.0f);  // row 0 of A and C is 0
  CHECK(as_float(st[0].at(c + 8)) == 0.0f);  // column 0 of B and C is 0
}

TEST_CASE("values: 2mm's second launch reads the tmp its first one stored, by hand on 2 x 2", "[values][polybench]") {
  auto w = make_workload("2mm", {{"ni", 2}, {"nj", 2}, {"nk", 2}, {"nl", 2}}, 1);
  REQUIRE(w->has_values());
  const uint64_t tmp = w->address_space().base("tmp"), d = w->address_space().base("D");
  const auto st = all_stores(*w);
  REQUIRE(st.size() == 2);
  // tmp = alpha A B: A[1][1] = 0.5, B[1][j] = (j + 1) / 2: tmp[1][0] = 32412 * 0.5 * 0.5, tmp[1][1] = 32412 * 0.5
  CHECK(as_float(st[0].at(tmp + 8)) == 8103.0f);
  CHECK(as_float(st[0].at(tmp + 12)) == 16206.0f);
  CHECK(as_float(st[0].at(tmp + 0)) == 0.0f);
  // D = beta D + tmp C: D[1][l] = (l + 2) / 2, C[1][l] = (l + 3) / 2, C[0][l] = 0
  CHECK(as_float(st[1].at(d + 8)) == 2123.0f * 1.0f + 16206.0f * 1.5f);   // 26432
  CHECK(as_float(st[1].at(d + 12)) == 2123.0f * 1.5f + 16206.0f * 2.0f);  // 35596.5
  CHECK(as_float(st[1].at(d + 0)) == 0.0f);
}

TEST_CASE("values: 3mm's third launch multiplies the E and F the first two stored, by hand on 2 x 2",
          "[values][polybench]") {
  auto w = make_workload("3mm", {{"ni", 2}, {"nj", 2}, {"nk", 2}, {"nl", 2}, {"nm", 2}}, 1);
  REQUIRE(w->has_values());
  const AddressSpace& sp = w->address_space();
  const uint64_t e = sp.base("E"), f = sp.base("F"), g = sp.base("G");
  const auto st = all_stores(*w);
  REQUIRE(st.size() == 3);
  CHECK(as_float(st[0].at(e + 8)) == 0.25f);  // E[1][0] = A[1][1] B[1][0] = 0.5 * 0.5
  CHECK(as_float(st[0].at(e + 12)) == 0.5f);  // E[1][1] = 0.5 * 1
  CHECK(as_float(st[1].at(f + 8)) == 2.0f);   // F[1][0] = C[1][1] D[1][0] = 2 * 1
  CHECK(as_float(st[1].at(f + 12)) == 3.0f);  // F[1][1] = 2 * 1.5
  CHECK(as_float(st[2].at(g + 8)) == 1.0f);   // G[1][0] = E[1][1] F[1][0] = 0.5 * 2
  CHECK(as_float(st[2].at(g + 12)) == 1.5f);  // G[1][1] = 0.5 * 3
  CHECK(as_float(st[2].at(g + 0)) == 0.0f);
}

TEST_CASE("values: polybench-gemm with accumulate_in_memory stores each running sum, the last one the result",
          "[values][polybench]") {
  auto w = make_workload("polybench-gemm", {{"ni", 2}, {"nj", 2}, {"nk", 2}, {"accumulate_in_memory", true}}, 1);
  w->enable_values();
  auto k = w->next_kernel();
  const uint64_t c = w->address_space().base("C");
  std::vector<float> c11;  // every value stored to C[1][1], in order
  for (unsigned cta = 0; cta < k->num_ctas(); ++cta)
    for (unsigned wp = 0; wp < k->warps_per_cta(); ++wp) {
      auto s = k->warp(cta, wp);
      WarpInstr in;
      while (s->next(in))
        if (in.op == WarpInstr::Op::Store)
          for (unsigned l = 0; l < kWarpSize; ++l)
            if (in.lane_active(l) && in.addr[l] == c + 12) c11.push_back(as_float(in.data[l]));
    }
  // beta C = 1061.5, + 32412 * 0 * 0.5, + 32412 * 0.5 * 0.5
  CHECK(c11 == std::vector<float>{1061.5f, 1061.5f, 9164.5f});
}

TEST_CASE("values: barnes-hut holds the tree and stores each body's acceleration and velocity (two bodies)",
          "[values][barnes-hut]") {
  // Two bodies of mass 0.5 at x = -1 and x = +1: each feels the other at dx = +-2 (its own
  // interaction has dx = 0 and adds nothing). Lonestar: tmp = rsqrtf(dx^2 + eps^2) ; tmp = m tmp^3 ;
  // ax += dx tmp; vel += (ax - 0) dthf.
  Bodies b;
  b.x = {-1.0f, 1.0f};
  b.y = b.z = {0.0f, 0.0f};
  b.mass = {0.5f, 0.5f};
  BarnesHutWorkload::Params p;
  BarnesHutWorkload w(p, b);
  REQUIRE(w.has_values());
  const BackingStore s = store_of(w);
  const AddressSpace& sp = w.address_space();
  const Octree& t = w.tree();
  CHECK(float_at(s, sp.base("posx") + 4) == 1.0f);
  CHECK(float_at(s, sp.base("mass") + 4 * t.root()) == 1.0f);  // the root cell: total mass
  CHECK(word_at(s, sp.base("child") + 4 * t.child_slot(t.root(), 0)) == uint32_t(t.child_of(t.root(), 0)));
  CHECK(word_at(s, sp.base("child") + 4 * t.child_slot(t.root(), 2)) == 0xffffffffu);  // -1: empty
  const float eps2 = float(p.epsilon * p.epsilon);
  float tmp = 1.0f / std::sqrt(2.0f * 2.0f + (0.0f + (0.0f + eps2)));
  tmp = 0.5f * tmp * tmp * tmp;
  const float ax0 = 2.0f * tmp;  // body 0 is pulled towards +x
  const auto st = all_stores(w);
  REQUIRE(st.size() == 1);
  CHECK(as_float(st[0].at(sp.base("accx"))) == ax0);
  CHECK(as_float(st[0].at(sp.base("accx") + 4)) == -ax0);
  CHECK(as_float(st[0].at(sp.base("accy"))) == 0.0f);
  CHECK(as_float(st[0].at(sp.base("velx"))) == ax0 * BarnesHutWorkload::kDthf);
  CHECK(as_float(st[0].at(sp.base("velx") + 4)) == -ax0 * BarnesHutWorkload::kDthf);
}

TEST_CASE("values: SSSP holds the weights, distances and flags, and its stores clear and set flags and `changed`",
          "[values][sssp]") {
  // Path 0 -(5)- 1 -(2)- 2 and arc 0 -(9)- 2, undirected (values as weights, both directions).
  std::vector<CooEntry> e = {{0, 1, 5}, {1, 0, 5}, {1, 2, 2}, {2, 1, 2}, {0, 2, 9}, {2, 0, 9}};
  auto g = std::make_shared<const CsrGraph>(CsrGraph::from_coo(3, 3, e, true));
  SsspWorkload::Params p;
  p.weights = "values";
  SsspWorkload w(p, g);
  REQUIRE(w.has_values());
  const BackingStore s = store_of(w);
  const AddressSpace& sp = w.address_space();
  const uint64_t dist = sp.base("dist"), flag0 = sp.base("flag0"), flag1 = sp.base("flag1");
  const uint64_t changed = sp.base("changed");
  CHECK(word_at(s, dist) == 0u);
  CHECK(word_at(s, dist + 4) == SsspWorkload::kUnreached);
  CHECK(word_at(s, flag0) == 1u);  // the source starts in the frontier
  CHECK(word_at(s, flag0 + 4) == 0u);
  CHECK(word_at(s, flag1) == 0u);
  CHECK(word_at(s, changed) == 0u);
  CHECK(word_at(s, sp.base("weight") + 4) == 9u);  // row 0 = {1 (5), 2 (9)}
  CHECK(word_at(s, sp.base("col_idx") + 4) == 2u);
  const auto st = all_stores(w);
  REQUIRE(st.size() == 3);  // 0 reaches 1 (5) and 2 (9); then 1 lowers 2 to 7; then nothing
  CHECK(st[0] == std::map<uint64_t, uint32_t>{{flag0, 0u}, {flag1 + 4, 1u}, {flag1 + 8, 1u}, {changed, 1u}});
  // Round 1: 1 and 2 clear their flags; 1 -> 2 (5 + 2 < 9) sets 2's; 1 -> 0, 2 -> 0 and 2 -> 1 do not improve.
  CHECK(st[1] == std::map<uint64_t, uint32_t>{{flag1 + 4, 0u}, {flag1 + 8, 0u}, {flag0 + 8, 1u}, {changed, 1u}});
  CHECK(st[2] == std::map<uint64_t, uint32_t>{{flag0 + 8, 0u}});  // 2 -> 0, 2 -> 1 lower nothing
  CHECK(w.distances() == std::vector<uint32_t>{0, 5, 7});
}

TEST_CASE("values: stencil3d stores hotspot3D's 7-point update, by hand on 3 x 3 x 3, and step 2 reads step 1's",
          "[values][stencil3d]") {
  using W = Stencil3dWorkload;
  W::Params p;
  p.nx = p.ny = p.nz = 3, p.iterations = 2, p.block_x = p.block_y = 4;
  W w(p);
  REQUIRE(w.has_values());
  const BackingStore s = store_of(w);
  const uint64_t t0 = w.address_space().base("temp0"), t1 = w.address_space().base("temp1");
  CHECK(float_at(s, t0 + 4 * 13) == W::temp0_value(13));
  CHECK(float_at(s, w.address_space().base("power") + 4 * 13) == W::power_value(13));
  const auto st = all_stores(w);
  REQUIRE(st.size() == 2);
  REQUIRE(st[0].size() == 27);
  REQUIRE(st[1].size() == 27);
  auto idx = [](unsigned x, unsigned y, unsigned z) { return 9 * z + 3 * y + x; };
  auto t = [&](unsigned x, unsigned y, unsigned z) { return W::temp0_value(idx(x, y, z)); };
  auto pw = [&](unsigned x, unsigned y, unsigned z) { return W::power_value(idx(x, y, z)); };
  // hotspot3D's constants' form: cc = 1 - (2 cw + 2 cn + 3 ct).
  CHECK(W::kCc == Approx(1.0 - (4 * 0.034 + 3 * 0.0005)).epsilon(1e-6));
  const float amb = W::kCt * W::kAmb;
  // Centre (1,1,1): every neighbour inside the grid. Order of terms: c, w, e, s, n, b, t, power, amb.
  const float centre = W::kCc * t(1, 1, 1) + W::kCw * t(0, 1, 1) + W::kCe * t(2, 1, 1) + W::kCs * t(1, 2, 1) +
                       W::kCn * t(1, 0, 1) + W::kCb * t(1, 1, 0) + W::kCt * t(1, 1, 2) + W::kSdc * pw(1, 1, 1) + amb;
  CHECK(as_float(st[0].at(t1 + 4 * idx(1, 1, 1))) == Approx(centre).epsilon(1e-6));
  // Corner (0,0,0): W, N and B clamp onto the cell itself.
  const float k = t(0, 0, 0);
  const float corner = W::kCc * k + W::kCw * k + W::kCe * t(1, 0, 0) + W::kCs * t(0, 1, 0) + W::kCn * k + W::kCb * k +
                       W::kCt * t(0, 0, 1) + W::kSdc * pw(0, 0, 0) + amb;
  CHECK(as_float(st[0].at(t1)) == Approx(corner).epsilon(1e-6));
  // Top face (2,1,2): E and T clamp onto the cell.
  const float f = t(2, 1, 2);
  const float top = W::kCc * f + W::kCw * t(1, 1, 2) + W::kCe * f + W::kCs * t(2, 2, 2) + W::kCn * t(2, 0, 2) +
                    W::kCb * t(2, 1, 1) + W::kCt * f + W::kSdc * pw(2, 1, 2) + amb;
  CHECK(as_float(st[0].at(t1 + 4 * idx(2, 1, 2))) == Approx(top).epsilon(1e-6));
  // Step 2 writes temp0 from the temp1 step 1 stored.
  auto t1v = [&](unsigned x, unsigned y, unsigned z) { return as_float(st[0].at(t1 + 4 * idx(x, y, z))); };
  const float centre2 = W::kCc * t1v(1, 1, 1) + W::kCw * t1v(0, 1, 1) + W::kCe * t1v(2, 1, 1) + W::kCs * t1v(1, 2, 1) +
                        W::kCn * t1v(1, 0, 1) + W::kCb * t1v(1, 1, 0) + W::kCt * t1v(1, 1, 2) + W::kSdc * pw(1, 1, 1) +
                        amb;
  CHECK(as_float(st[1].at(t0 + 4 * idx(1, 1, 1))) == Approx(centre2).epsilon(1e-6));
  // The 7-loads variant stores the same values.
  p.z_in_registers = false;
  W naive(p);
  CHECK(all_stores(naive) == st);
}
