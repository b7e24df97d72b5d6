#include "workload/cfd.h"

#include <algorithm>

#include "common/report.h"
#include "workload/matrix_market_reader.h"

namespace gpusc {

struct CfdWorkload::Data {
  std::shared_ptr<const CellMesh> mesh;
  uint32_t nelr = 0;  // cells rounded up to the block size
  unsigned block_size = 192;
  uint64_t variables, old_variables, fluxes, step_factors, areas, ess, normals;  // array bases
};

namespace {

constexpr unsigned kVars = 5;  // density, momentum x, y, z, density energy
constexpr unsigned kRk = 3;    // Runge-Kutta stages per iteration

enum class Kind { StepFactor, Flux, TimeStep };

struct Launch {
  std::shared_ptr<const CfdWorkload::Data> d;
  Kind kind;
};

// Static instructions: block b (0 = outside the neighbour loop, 1 + j = neighbour slot j of the
// unrolled loop) at b * 0x10000; inside a block the paths start at these offsets.
enum PathBase : uint32_t { kCommon = 0x0000, kNbPath = 0x1000, kWallPath = 0x2000, kFarPath = 0x3000, kEnd = 0x4000 };

// ALU / SFU counts per source statement group (our reading of euler3d's kernels).
constexpr unsigned kStateAlu = 23, kStateSfu = 6;  // velocity, speed, pressure, sound, flux contributions
constexpr unsigned kNormalAlu = 4, kNormalSfu = 1;  // |normal| (3 FMA, sqrt) and the branch on nb
constexpr unsigned kNbAlu = 65, kNbSfu = 6;         // neighbour state, factor, 15 flux updates
constexpr unsigned kWallAlu = 4, kFarAlu = 34;      // wall: pressure on momentum; far field: 15 updates

class CfdWarp final : public BufferedWarpStream {
 public:
  CfdWarp(std::shared_ptr<const Launch> l, unsigned cta, unsigned warp)
      : l_(std::move(l)),
        exist_(cta_lane_mask(l_->d->block_size, warp)),
        first_(uint64_t(cta) * l_->d->block_size + uint64_t(warp) * kWarpSize),
        valid_(lanes_below(exist_, first_, l_->d->nelr)) {}

 private:
  const CfdWorkload::Data& d() const { return *l_->d; }
  uint64_t var(uint64_t base, uint64_t cell, unsigned v) const { return base + 4 * (cell + uint64_t(v) * d().nelr); }
  // The mesh row a thread reads: its own, or the last real cell's for the padding.
  uint32_t row(unsigned l) const {
    const uint64_t i = first_ + l;
    return static_cast<uint32_t>(std::min<uint64_t>(i, d().mesh->cells - 1));
  }
  void ops(uint32_t pc, uint32_t mask, unsigned alu, unsigned sfu) {
    for (unsigned t = 0; t < alu; ++t) compute(pc + 0x10 * t, mask);
    for (unsigned t = 0; t < sfu; ++t) compute(pc + 0x10 * (alu + t), mask, kSfuCycles);
  }
  void own_vars(uint64_t base, uint32_t pc) {
    for (unsigned v = 0; v < kVars; ++v)
      load(pc + 0x10 * v, 4, valid_, [&](unsigned l) { return var(base, first_ + l, v); });
  }

  bool refill() override {
    switch (l_->kind) {
      case Kind::StepFactor: return step_factor();
      case Kind::Flux: return flux();
      case Kind::TimeStep: return time_step();
    }
    return false;
  }

  // step_factors[i] = 0.5 / (sqrt(areas[i]) * (speed + speed_of_sound))
  bool step_factor() {
    compute(0x000, exist_);
    own_vars(d().variables, 0x010);
    ops(0x100, valid_, kStateAlu - 10, kStateSfu);  // no flux contributions here
    load(0x300, 4, valid_, [&](unsigned l) { return d().areas + 4 * (first_ + l); });
    ops(0x310, valid_, 2, 2);  // sqrt(area), (speed + c) * ..., division
    store(0x400, 4, valid_, [&](unsigned l) { return d().step_factors + 4 * (first_ + l); });
    return false;
  }

  // variables = old_variables + step_factor / (RK + 1 - j) * fluxes
  bool time_step() {
    compute(0x000, exist_);
    load(0x010, 4, valid_, [&](unsigned l) { return d().step_factors + 4 * (first_ + l); });
    compute(0x020, valid_);
    for (unsigned v = 0; v < kVars; ++v) {
      const uint32_t pc = 0x100 + 0x40 * v;
      load(pc, 4, valid_, [&](unsigned l) { return var(d().old_variables, first_ + l, v); });
      load(pc + 0x10, 4, valid_, [&](unsigned l) { return var(d().fluxes, first_ + l, v); });
      compute(pc + 0x20, valid_);
      store(pc + 0x30, 4, valid_, [&](unsigned l) { return var(d().variables, first_ + l, v); });
    }
    return false;
  }

  bool flux() {
    const CellMesh& m = *d().mesh;
    if (slot_ == 0 && !started_) {  // own state and flux contributions, accumulators = 0
      started_ = true;
      compute(0x000, exist_);
      own_vars(d().variables, 0x010);
      ops(0x100, valid_, kStateAlu, kStateSfu);
      return true;
    }
    if (slot_ < m.nnb) {  // nb = ess[i + j * nelr]; normal = normals[i + (j + d * nnb) * nelr]
      const unsigned j = slot_++;
      const uint32_t b = (1 + j) * 0x10000;
      load(b + kCommon, 4, valid_, [&](unsigned l) { return var(d().ess, first_ + l, j); });
      for (unsigned dim = 0; dim < 3; ++dim)
        load(b + kCommon + 0x10 * (1 + dim), 4, valid_,
             [&](unsigned l) { return var(d().normals, first_ + l, j + dim * m.nnb); });
      ops(b + kCommon + 0x40, valid_, kNormalAlu, kNormalSfu);
      uint32_t nb = 0, wall = 0, far = 0;
      for (unsigned l = 0; l < kWarpSize; ++l) {
        if (!((valid_ >> l) & 1u)) continue;
        const int32_t n = m.neighbour(row(l), j);
        (n >= 0 ? nb : n == CellMesh::kWall ? wall : far) |= 1u << l;
      }
      for (unsigned v = 0; v < kVars; ++v)  // the neighbour's state: variables[nb + v * nelr]
        load(b + kNbPath + 0x10 * v, 4, nb, [&](unsigned l) { return var(d().variables, m.neighbour(row(l), j), v); });
      ops(b + kNbPath + 0x100, nb, kNbAlu, kNbSfu);
      ops(b + kWallPath, wall, kWallAlu, 0);
      ops(b + kFarPath, far, kFarAlu, 0);
      return true;
    }
    for (unsigned v = 0; v < kVars; ++v)
      store(kEnd + 0x10 * v, 4, valid_, [&](unsigned l) { return var(d().fluxes, first_ + l, v); });
    return false;
  }

  std::shared_ptr<const Launch> l_;
  uint32_t exist_;
  uint64_t first_;  // cell of lane 0
  uint32_t valid_;
  bool started_ = false;
  unsigned slot_ = 0;  // flux: next neighbour slot
};

std::shared_ptr<const CellMesh> mesh_for(const CfdWorkload::Params& p) {
  validate(p, "cfd");
  if (p.input.empty()) return std::make_shared<const CellMesh>(box_tet_mesh(p.mesh_x, p.mesh_y, p.mesh_z));
  if (p.input.size() < 4 || p.input.compare(p.input.size() - 4, 4, ".mtx") != 0)
    error("gpusc.workload", "cfd.input = \"", p.input, "\": unknown file type; use a .mtx (Matrix Market) pattern");
  return std::make_shared<const CellMesh>(pattern_mesh(read_matrix_market(p.input)));
}

}  // namespace

CfdWorkload::CfdWorkload(const Params& p) : CfdWorkload(p, mesh_for(p)) {}

CfdWorkload::CfdWorkload(const Params& p, std::shared_ptr<const CellMesh> mesh)
    : SequenceWorkload("cfd", p.iterations * (1 + 2 * kRk)) {
  validate(p, "cfd");
  if (!mesh || mesh->cells == 0) error("gpusc.workload", "cfd: the mesh has no cells");
  auto d = std::make_shared<Data>();
  d->block_size = p.block_size;
  d->nelr = static_cast<uint32_t>(uint64_t(ctas_for(mesh->cells, p.block_size)) * p.block_size);
  const uint64_t n = d->nelr;
  d->variables = space_.allocate("variables", 4 * n * kVars);
  d->old_variables = space_.allocate("old_variables", 4 * n * kVars);
  d->fluxes = space_.allocate("fluxes", 4 * n * kVars);
  d->step_factors = space_.allocate("step_factors", 4 * n);
  d->areas = space_.allocate("areas", 4 * n);
  d->ess = space_.allocate("elements_surrounding_elements", 4 * n * mesh->nnb);
  d->normals = space_.allocate("normals", 4 * n * mesh->nnb * 3);
  d->mesh = std::move(mesh);
  d_ = std::move(d);
}

const CellMesh& CfdWorkload::mesh() const { return *d_->mesh; }
uint32_t CfdWorkload::padded_cells() const { return d_->nelr; }

std::unique_ptr<Kernel> CfdWorkload::launch(unsigned index) {
  const unsigned r = index % (1 + 2 * kRk);
  auto l = std::make_shared<Launch>();
  l->d = d_;
  std::string name;
  if (r == 0) l->kind = Kind::StepFactor, name = "cfd.compute_step_factor";
  else if (r % 2 == 1) l->kind = Kind::Flux, name = "cfd.compute_flux";
  else l->kind = Kind::TimeStep, name = "cfd.time_step";
  return std::make_unique<KernelOf<CfdWarp, Launch>>(name, d_->nelr / d_->block_size, d_->block_size, std::move(l));
}

}  // namespace gpusc
