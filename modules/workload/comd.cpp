#include "workload/comd.h"

#include <algorithm>
#include <cmath>

#include "common/report.h"
#include "workload/seeded_rng.h"

namespace gpusc {

struct ComdWorkload::Data {
  Params p;
  uint32_t n = 0, slots = 0;            // atoms, list slots (longest list)
  std::vector<float> x, y, z;           // positions, atoms in link-cell order
  std::vector<uint32_t> count;          // list length per atom
  std::vector<uint32_t> list;           // slot-major: list[s * n + i]
  std::vector<uint8_t> inside;          // list entry within the cutoff
  double box[3] = {0, 0, 0};
  uint64_t ax, ay, az, acount, alist, afx, afy, afz, ae;
};

namespace {

enum Pc : uint32_t {
  kTid = 0x00, kBound = 0x10, kLdX = 0x20, kLdY = 0x30, kLdZ = 0x40, kLdCount = 0x50, kLoop = 0x60,
  kLdNbr = 0x70, kLdXj = 0x80, kLdYj = 0x90, kLdZj = 0xa0, kDx = 0xb0, kDy = 0xc0, kDz = 0xd0, kR2 = 0xe0,
  kRcp = 0xf0, kForce = 0x100, kAccum = 0x110, kStFx = 0x120, kStFy = 0x130, kStFz = 0x140, kStE = 0x150
};

double min_image(double d, double box) { return d - box * std::nearbyint(d / box); }

class ComdWarp final : public BufferedWarpStream {
 public:
  using Data = ComdWorkload::Data;
  ComdWarp(std::shared_ptr<const Data> d, unsigned cta, unsigned warp)
      : d_(std::move(d)),
        exist_(cta_lane_mask(d_->p.threads_per_cta, warp)),
        first_(uint64_t(cta) * d_->p.threads_per_cta + uint64_t(warp) * kWarpSize),
        valid_(lanes_below(exist_, first_, d_->n)) {
    for (unsigned l = 0; l < kWarpSize; ++l)
      if ((valid_ >> l) & 1u) longest_ = std::max(longest_, d_->count[first_ + l]);
  }

 private:
  bool refill() override {
    const Data& d = *d_;
    if (step_ == 0) {  // i = tid; if (i < n) { xi, yi, zi, count }
      compute(kTid, exist_);
      compute(kBound, exist_);
      load(kLdX, 4, valid_, [&](unsigned l) { return d.ax + 4 * (first_ + l); });
      load(kLdY, 4, valid_, [&](unsigned l) { return d.ay + 4 * (first_ + l); });
      load(kLdZ, 4, valid_, [&](unsigned l) { return d.az + 4 * (first_ + l); });
      load(kLdCount, 4, valid_, [&](unsigned l) { return d.acount + 4 * (first_ + l); });
    } else if (step_ <= longest_) {  // slot s = step_ - 1 for the lanes whose list is that long
      const uint32_t s = step_ - 1;
      uint32_t m = 0, in = 0;
      for (unsigned l = 0; l < kWarpSize; ++l) {
        if (!((valid_ >> l) & 1u) || d.count[first_ + l] <= s) continue;
        m |= 1u << l;
        if (d.inside[uint64_t(s) * d.n + first_ + l]) in |= 1u << l;
      }
      const auto j = [&](unsigned l) { return uint64_t(d.list[uint64_t(s) * d.n + first_ + l]); };
      compute(kLoop, valid_);
      load(kLdNbr, 4, m, [&](unsigned l) { return d.alist + 4 * (uint64_t(s) * d.n + first_ + l); });
      load(kLdXj, 4, m, [&](unsigned l) { return d.ax + 4 * j(l); });
      load(kLdYj, 4, m, [&](unsigned l) { return d.ay + 4 * j(l); });
      load(kLdZj, 4, m, [&](unsigned l) { return d.az + 4 * j(l); });
      compute(kDx, m);
      compute(kDy, m);
      compute(kDz, m);
      compute(kR2, m);
      if (in) {
        compute(kRcp, in, kSfuCycles);  // 1 / r^2
        for (int k = 0; k < 5; ++k) compute(kForce, in);  // r^-6, (r^-6 - 1/2) r^-8 scaled, energy
        for (int k = 0; k < 3; ++k) compute(kAccum, in);  // f += dr * scale
      }
    } else {
      compute(kLoop, valid_);
      store(kStFx, 4, valid_, [&](unsigned l) { return d.afx + 4 * (first_ + l); });
      store(kStFy, 4, valid_, [&](unsigned l) { return d.afy + 4 * (first_ + l); });
      store(kStFz, 4, valid_, [&](unsigned l) { return d.afz + 4 * (first_ + l); });
      store(kStE, 4, valid_, [&](unsigned l) { return d.ae + 4 * (first_ + l); });
      return false;
    }
    ++step_;
    return true;
  }

  std::shared_ptr<const Data> d_;
  uint32_t exist_;
  uint64_t first_;
  uint32_t valid_;
  uint32_t longest_ = 0, step_ = 0;
};

}  // namespace

ComdWorkload::ComdWorkload(const Params& p, uint64_t seed) : SequenceWorkload("comd", 1) {
  validate(p, "comd");
  auto d = std::make_shared<Data>();
  d->p = p;
  const double rl = p.cutoff + p.skin;
  const unsigned cells[3] = {p.nx, p.ny, p.nz};
  for (int a = 0; a < 3; ++a) {
    d->box[a] = cells[a] * p.lattice;
    if (d->box[a] < 2 * rl)
      error("gpusc.workload", "comd: the box (", d->box[a], " A along axis ", a, ") must be at least twice cutoff + skin (",
            2 * rl, " A) for minimum-image neighbours; raise nx/ny/nz");
  }
  // FCC lattice with seeded displacements.
  SeededRng rng(seed);
  const double basis[4][3] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
  std::vector<double> px, py, pz;
  for (unsigned k = 0; k < p.nz; ++k)
    for (unsigned j = 0; j < p.ny; ++j)
      for (unsigned i = 0; i < p.nx; ++i)
        for (const auto& b : basis) {
          const double c[3] = {i + b[0], j + b[1], k + b[2]};
          double q[3];
          for (int a = 0; a < 3; ++a) {
            q[a] = (c[a] + p.jitter * (2 * rng.uniform() - 1)) * p.lattice;
            q[a] -= d->box[a] * std::floor(q[a] / d->box[a]);
          }
          px.push_back(q[0]), py.push_back(q[1]), pz.push_back(q[2]);
        }
  const uint32_t n = static_cast<uint32_t>(px.size());
  d->n = n;
  // Link cells of side >= cutoff + skin; atoms renumbered cell by cell (CoMD's order).
  unsigned lc[3];
  for (int a = 0; a < 3; ++a) lc[a] = std::max(1u, static_cast<unsigned>(d->box[a] / rl));
  const auto cell_of = [&](double x, double y, double z) {
    const double q[3] = {x, y, z};
    unsigned c[3];
    for (int a = 0; a < 3; ++a) c[a] = std::min(lc[a] - 1, static_cast<unsigned>(q[a] / d->box[a] * lc[a]));
    return (c[2] * lc[1] + c[1]) * lc[0] + c[0];
  };
  std::vector<uint32_t> order(n);
  for (uint32_t i = 0; i < n; ++i) order[i] = i;
  std::vector<unsigned> cell(n);
  for (uint32_t i = 0; i < n; ++i) cell[i] = cell_of(px[i], py[i], pz[i]);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return cell[a] < cell[b]; });
  d->x.resize(n), d->y.resize(n), d->z.resize(n);
  std::vector<double> sx(n), sy(n), sz(n);
  std::vector<unsigned> scell(n);
  for (uint32_t i = 0; i < n; ++i) {
    sx[i] = px[order[i]], sy[i] = py[order[i]], sz[i] = pz[order[i]], scell[i] = cell[order[i]];
    d->x[i] = float(sx[i]), d->y[i] = float(sy[i]), d->z[i] = float(sz[i]);
  }
  const unsigned ncells = lc[0] * lc[1] * lc[2];
  std::vector<uint32_t> start(ncells + 1, 0);
  for (uint32_t i = 0; i < n; ++i) ++start[scell[i] + 1];
  for (unsigned c = 0; c < ncells; ++c) start[c + 1] += start[c];
  // Verlet lists: every atom within cutoff + skin over the 27 surrounding cells (each cell once).
  std::vector<std::vector<uint32_t>> lists(n);
  std::vector<std::vector<uint8_t>> ins(n);
  const double rl2 = rl * rl, rc2 = p.cutoff * p.cutoff;
  for (uint32_t i = 0; i < n; ++i) {
    const unsigned c0 = scell[i] % lc[0], c1 = (scell[i] / lc[0]) % lc[1], c2 = scell[i] / (lc[0] * lc[1]);
    std::vector<unsigned> near;
    for (int dz = -1; dz <= 1; ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const unsigned a = (c0 + lc[0] + dx) % lc[0], b = (c1 + lc[1] + dy) % lc[1], c = (c2 + lc[2] + dz) % lc[2];
          near.push_back((c * lc[1] + b) * lc[0] + a);
        }
    std::sort(near.begin(), near.end());
    near.erase(std::unique(near.begin(), near.end()), near.end());
    for (unsigned c : near)
      for (uint32_t j = start[c]; j < start[c + 1]; ++j) {
        if (j == i) continue;
        const double ddx = min_image(sx[j] - sx[i], d->box[0]), ddy = min_image(sy[j] - sy[i], d->box[1]),
                     ddz = min_image(sz[j] - sz[i], d->box[2]);
        const double r2 = ddx * ddx + ddy * ddy + ddz * ddz;
        if (r2 < rl2) lists[i].push_back(j);
      }
    std::sort(lists[i].begin(), lists[i].end());
    for (uint32_t j : lists[i]) {
      const double ddx = min_image(sx[j] - sx[i], d->box[0]), ddy = min_image(sy[j] - sy[i], d->box[1]),
                   ddz = min_image(sz[j] - sz[i], d->box[2]);
      ins[i].push_back(ddx * ddx + ddy * ddy + ddz * ddz < rc2 ? 1 : 0);
    }
    d->slots = std::max<uint32_t>(d->slots, static_cast<uint32_t>(lists[i].size()));
  }
  d->count.resize(n);
  d->list.assign(uint64_t(d->slots) * n, 0);
  d->inside.assign(uint64_t(d->slots) * n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    d->count[i] = static_cast<uint32_t>(lists[i].size());
    for (uint32_t s = 0; s < d->count[i]; ++s) {
      d->list[uint64_t(s) * n + i] = lists[i][s];
      d->inside[uint64_t(s) * n + i] = ins[i][s];
    }
  }
  const uint64_t b4 = 4 * uint64_t(n);
  d->ax = space_.allocate("x", b4);
  d->ay = space_.allocate("y", b4);
  d->az = space_.allocate("z", b4);
  d->acount = space_.allocate("count", b4);
  d->alist = space_.allocate("list", b4 * d->slots);
  d->afx = space_.allocate("fx", b4);
  d->afy = space_.allocate("fy", b4);
  d->afz = space_.allocate("fz", b4);
  d->ae = space_.allocate("e", b4);
  d_ = std::move(d);
}

uint32_t ComdWorkload::atoms() const { return d_->n; }

std::vector<uint32_t> ComdWorkload::neighbours(uint32_t i) const {
  std::vector<uint32_t> v;
  for (uint32_t s = 0; s < d_->count.at(i); ++s) v.push_back(d_->list[uint64_t(s) * d_->n + i]);
  return v;
}

bool ComdWorkload::interacts(uint32_t i, uint32_t j) const {
  const Data& d = *d_;
  const double dx = min_image(double(d.x.at(j)) - d.x.at(i), d.box[0]),
               dy = min_image(double(d.y.at(j)) - d.y.at(i), d.box[1]),
               dz = min_image(double(d.z.at(j)) - d.z.at(i), d.box[2]);
  return dx * dx + dy * dy + dz * dz < d.p.cutoff * d.p.cutoff;
}

std::unique_ptr<Kernel> ComdWorkload::launch(unsigned) {
  return std::make_unique<KernelOf<ComdWarp, Data>>("comd", ctas_for(d_->n, d_->p.threads_per_cta),
                                                    d_->p.threads_per_cta, d_);
}

}  // namespace gpusc
