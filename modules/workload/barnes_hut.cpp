#include "workload/barnes_hut.h"

#include <cmath>

#include "common/report.h"

namespace gpusc {

struct BarnesHutWorkload::Data {
  Octree t;
  std::vector<float> dq;
  float epssq = 0;
  unsigned threads_per_cta = 256;
  bool values = false;  // the launch carries store values (enable_values)
  uint64_t posx, posy, posz, mass, child, sort, accx, accy, accz, velx, vely, velz;  // array bases
};

namespace {

enum Pc : uint32_t {
  kTid = 0x000, kBound = 0x010, kDqSetup = 0x020, kBar1 = 0x030, kDqCopy = 0x040, kBar2 = 0x050,
  kLdSort = 0x060, kLdPx = 0x070, kLdPy = 0x080, kLdPz = 0x090, kInitAcc = 0x0a0, kStackInit = 0x0b0,
  kLdsPos = 0x0c0, kLdsNode = 0x0d0,
  kLdChild = 0x0e0, kPdInc = 0x0f0, kNullTest = 0x100, kLdNx = 0x110, kLdNy = 0x120, kLdNz = 0x130,
  kDx = 0x140, kDy = 0x150, kDz = 0x160, kDist1 = 0x170, kDist2 = 0x180, kDist3 = 0x190, kIsBody = 0x1a0,
  kLdsDq = 0x1b0, kVote = 0x1c0, kRsqrt = 0x1d0, kLdMass = 0x1e0, kMul1 = 0x1f0, kMul2 = 0x200,
  kMul3 = 0x210, kAccX = 0x220, kAccY = 0x230, kAccZ = 0x240, kPushPos = 0x250, kPushNode = 0x260,
  kDescend = 0x270, kPop = 0x280, kOuterTest = 0x290,
  // per dimension d (unrolled: its own static instructions): + d * kDimStep
  kLdAcc = 0x2a0, kLdVel = 0x2b0, kSub = 0x2c0, kFma = 0x2d0, kStVel = 0x2e0, kDimStep = 0x50,
  kStAcc = 0x390,  // + d * 0x10
};

class BarnesHutWarp final : public BufferedWarpStream {
 public:
  using Data = BarnesHutWorkload::Data;
  BarnesHutWarp(std::shared_ptr<const Data> d, unsigned cta, unsigned warp)
      : d_(std::move(d)),
        warp_(warp),
        exist_(cta_lane_mask(d_->threads_per_cta, warp)),
        first_(uint64_t(cta) * d_->threads_per_cta + uint64_t(warp) * kWarpSize),
        valid_(lanes_below(exist_, first_, d_->t.nbodies)),
        leader_(valid_ & (~valid_ + 1)) {
    for (unsigned l = 0; l < kWarpSize; ++l)
      if ((valid_ >> l) & 1u) {
        body_[l] = d_->t.sort[first_ + l];
        px_[l] = d_->t.posx[body_[l]], py_[l] = d_->t.posy[body_[l]], pz_[l] = d_->t.posz[body_[l]];
      }
  }

 private:
  bool refill() override {
    const Octree& t = d_->t;
    if (phase_ == 0) {
      compute(kTid, exist_);
      compute(kBound, exist_);
      compute(kDqSetup, warp_ == 0 ? 1u : 0u);  // thread 0: dq[] from radiusd and theta
      compute(kBar1, exist_);
      compute(kDqCopy, exist_);                 // each warp's copy of dq[]
      compute(kBar2, exist_);
      phase_ = valid_ ? 1 : 3;
      if (!valid_) return false;
      load(kLdSort, 4, valid_, [&](unsigned l) { return d_->sort + 4 * (first_ + l); });
      load(kLdPx, 4, valid_, [&](unsigned l) { return d_->posx + 4 * uint64_t(body_[l]); });
      load(kLdPy, 4, valid_, [&](unsigned l) { return d_->posy + 4 * uint64_t(body_[l]); });
      load(kLdPz, 4, valid_, [&](unsigned l) { return d_->posz + 4 * uint64_t(body_[l]); });
      compute(kInitAcc, valid_);
      compute(kStackInit, leader_);  // pos[0] = 0; node[0] = root
      compute(kLdsPos, valid_);
      compute(kLdsNode, valid_);
      cell_ = t.root();
      return true;
    }
    if (phase_ == 1 && pd_ < 8) return child_step();
    if (phase_ == 1) {  // depth--; } while (depth >= 0): pop or leave the walk
      compute(kPop, valid_);
      compute(kOuterTest, valid_);
      if (depth_-- == 0) {
        phase_ = 2;
        return true;
      }
      compute(kLdsPos, valid_);
      compute(kLdsNode, valid_);
      pd_ = stack_[depth_].pd;
      cell_ = stack_[depth_].cell;
      return true;
    }
    // vel[i] += (acc_new - acc[i]) * dthf; acc[i] = acc_new, per dimension
    const uint64_t acc[3] = {d_->accx, d_->accy, d_->accz}, vel[3] = {d_->velx, d_->vely, d_->velz};
    const float* acc_new[3] = {ax_, ay_, az_};
    const bool v = d_->values;
    for (unsigned dim = 0; dim < 3; ++dim) {
      auto at = [&](uint64_t base) { return [&, base](unsigned l) { return base + 4 * uint64_t(body_[l]); }; };
      const uint32_t o = dim * kDimStep;
      load(kLdAcc + o, 4, valid_, at(acc[dim]));
      load(kLdVel + o, 4, valid_, at(vel[dim]));
      compute(kSub + o, valid_);
      compute(kFma + o, valid_);
      // vel and acc start at 0 (the values' choice): vel = 0 + (acc_new - 0) * dthf
      store(kStVel + o, 4, valid_, at(vel[dim]), v,
            [&](unsigned l) { return std::fma(acc_new[dim][l] - 0.0f, BarnesHutWorkload::kDthf, 0.0f); });
    }
    for (unsigned dim = 0; dim < 3; ++dim)
      store(kStAcc + 0x10 * dim, 4, valid_, [&](unsigned l) { return acc[dim] + 4 * uint64_t(body_[l]); }, v,
            [&](unsigned l) { return acc_new[dim][l]; });
    return false;
  }

  // One child slot of the cell on top of the walk: n = child[nd + pd]; pd++; if (n >= 0) ...
  bool child_step() {
    const Octree& t = d_->t;
    const uint64_t slot = t.child_slot(cell_, pd_);
    const int32_t n = t.child[slot];
    load(kLdChild, 4, valid_, [&](unsigned) { return d_->child + 4 * slot; });
    compute(kPdInc, valid_);
    compute(kNullTest, valid_);
    ++pd_;
    if (n < 0) {  // the remaining slots are empty too (compacted)
      pd_ = 8;
      return true;
    }
    const uint64_t node = uint64_t(n);
    load(kLdNx, 4, valid_, [&](unsigned) { return d_->posx + 4 * node; });
    load(kLdNy, 4, valid_, [&](unsigned) { return d_->posy + 4 * node; });
    load(kLdNz, 4, valid_, [&](unsigned) { return d_->posz + 4 * node; });
    compute(kDx, valid_);
    compute(kDy, valid_);
    compute(kDz, valid_);
    compute(kDist1, valid_);
    compute(kDist2, valid_);
    compute(kDist3, valid_);
    compute(kIsBody, valid_);
    compute(kLdsDq, valid_);
    compute(kVote, valid_);
    bool all_far = true;
    for (unsigned l = 0; l < kWarpSize && all_far; ++l) {
      if (!((valid_ >> l) & 1u)) continue;
      const float dx = t.posx[n] - px_[l], dy = t.posy[n] - py_[l], dz = t.posz[n] - pz_[l];
      const float d2 = dx * dx + (dy * dy + (dz * dz + d_->epssq));
      all_far = d2 >= d_->dq[depth_];
    }
    if (t.is_body(n) || all_far) {  // interact: tmp = rsqrtf(d2); tmp = mass[n] * tmp^3; acc += d * tmp
      if (d_->values)
        for (unsigned l = 0; l < kWarpSize; ++l) {
          if (!((valid_ >> l) & 1u)) continue;
          const float dx = t.posx[n] - px_[l], dy = t.posy[n] - py_[l], dz = t.posz[n] - pz_[l];
          float tmp = dx * dx + (dy * dy + (dz * dz + d_->epssq));
          tmp = 1.0f / std::sqrt(tmp);
          tmp = t.mass[n] * tmp * tmp * tmp;
          ax_[l] += dx * tmp;
          ay_[l] += dy * tmp;
          az_[l] += dz * tmp;
        }
      compute(kRsqrt, valid_, kSfuCycles);
      load(kLdMass, 4, valid_, [&](unsigned) { return d_->mass + 4 * node; });
      compute(kMul1, valid_);
      compute(kMul2, valid_);
      compute(kMul3, valid_);
      compute(kAccX, valid_);
      compute(kAccY, valid_);
      compute(kAccZ, valid_);
      return true;
    }
    // Open the cell: push (pd, nd) by the warp's first lane, descend.
    compute(kPushPos, leader_);
    compute(kPushNode, leader_);
    compute(kDescend, valid_);
    stack_[depth_] = {pd_, cell_};
    ++depth_;
    pd_ = 0;
    cell_ = uint32_t(n);
    return true;
  }

  struct Frame {
    unsigned pd = 0;
    uint32_t cell = 0;
  };

  std::shared_ptr<const Data> d_;
  unsigned warp_;
  uint32_t exist_;
  uint64_t first_;  // thread index k of lane 0
  uint32_t valid_, leader_;
  uint32_t body_[kWarpSize] = {};
  float px_[kWarpSize] = {}, py_[kWarpSize] = {}, pz_[kWarpSize] = {};
  float ax_[kWarpSize] = {}, ay_[kWarpSize] = {}, az_[kWarpSize] = {};  // values: acc_new per lane
  int phase_ = 0;  // 0 prologue, 1 tree walk, 2 velocity/acceleration update, 3 done
  int depth_ = 0;
  unsigned pd_ = 0;
  uint32_t cell_ = 0;
  Frame stack_[Octree::kMaxDepth + 1];
};

}  // namespace

BarnesHutWorkload::BarnesHutWorkload(const Params& p, uint64_t seed)
    : BarnesHutWorkload((validate(p, "barnes-hut"), p), plummer_bodies(p.bodies, seed)) {}

BarnesHutWorkload::BarnesHutWorkload(const Params& p, const Bodies& bodies) : SequenceWorkload("barnes-hut", 1) {
  validate(p, "barnes-hut");
  auto d = std::make_shared<Data>();
  d->t = build_octree(bodies);
  d->threads_per_cta = p.threads_per_cta;
  // dq[] as ForceCalculationKernel's thread 0 computes it (float).
  const float itolsq = static_cast<float>(1.0 / (p.theta * p.theta));
  d->epssq = static_cast<float>(p.epsilon * p.epsilon);
  const float side = d->t.radius * 2;
  d->dq.resize(d->t.depth);
  d->dq[0] = side * side * itolsq;
  for (size_t i = 1; i < d->dq.size(); ++i) d->dq[i] = d->dq[i - 1] * 0.25f;
  for (float& q : d->dq) q += d->epssq;
  const Octree& t = d->t;
  const uint64_t nodes = uint64_t(t.nnodes()) + 1, n = t.nbodies;
  d->posx = space_.allocate("posx", 4 * nodes);
  d->posy = space_.allocate("posy", 4 * nodes);
  d->posz = space_.allocate("posz", 4 * nodes);
  d->mass = space_.allocate("mass", 4 * nodes);
  d->child = space_.allocate("child", 4 * uint64_t(t.ncells) * 8);
  d->sort = space_.allocate("sort", 4 * n);
  d->accx = space_.allocate("accx", 4 * n);
  d->accy = space_.allocate("accy", 4 * n);
  d->accz = space_.allocate("accz", 4 * n);
  d->velx = space_.allocate("velx", 4 * n);
  d->vely = space_.allocate("vely", 4 * n);
  d->velz = space_.allocate("velz", 4 * n);
  const std::shared_ptr<const Data> c = d;
  space_.set_contents("posx", AddressSpace::floats([c](uint64_t i) { return c->t.posx[i]; }));
  space_.set_contents("posy", AddressSpace::floats([c](uint64_t i) { return c->t.posy[i]; }));
  space_.set_contents("posz", AddressSpace::floats([c](uint64_t i) { return c->t.posz[i]; }));
  space_.set_contents("mass", AddressSpace::floats([c](uint64_t i) { return c->t.mass[i]; }));
  space_.set_contents("child", AddressSpace::words([c](uint64_t i) { return static_cast<uint32_t>(c->t.child[i]); }));
  space_.set_contents("sort", AddressSpace::words([c](uint64_t i) { return c->t.sort[i]; }));
  for (const char* a : {"accx", "accy", "accz", "velx", "vely", "velz"}) space_.set_contents(a, AddressSpace::zeros());
  d_ = std::move(d);
}

const Octree& BarnesHutWorkload::tree() const { return d_->t; }
const std::vector<float>& BarnesHutWorkload::dq() const { return d_->dq; }

std::unique_ptr<Kernel> BarnesHutWorkload::launch(unsigned) {
  d_->values = values_;
  return std::make_unique<KernelOf<BarnesHutWarp, Data>>(
      "barnes-hut.force", ctas_for(d_->t.nbodies, d_->threads_per_cta), d_->threads_per_cta, d_);
}

}  // namespace gpusc
