#include "workload/stencil3d.h"

#include <algorithm>

#include "common/report.h"

namespace gpusc {

struct Stencil3dWorkload::Data {
  unsigned nx, ny, nz;
  bool z_in_registers;
  Block2D grid;
  uint64_t src, dst, power;
  std::shared_ptr<const std::vector<float>> result;  // values on: the grid this step stores
};

namespace {

// Per-column set-up, then per layer a code segment at kFirst, kBody or kLast plus an offset.
enum Pc : uint32_t {
  kX = 0x00, kY = 0x10, kBound = 0x20, kClampNS = 0x30, kClampWE = 0x40,
  kFirst = 0x100, kBody = 0x300, kLast = 0x500,  // hotspotOpt1's peeled first layer, loop body, peeled last layer
  kLdC = 0x00, kLdT = 0x10, kLdB = 0x20, kLdN = 0x30, kLdS = 0x40, kLdW = 0x50, kLdE = 0x60, kLdPower = 0x70,
  kClampTB = 0x80, kMath = 0x90, kStDst = 0x130, kAdvance = 0x140,
};
constexpr unsigned kMathOps = 9;  // 1 FMUL (cc c), 7 FFMA (6 points and power), 1 FADD (the hoisted ct amb)

class Stencil3dWarp final : public BufferedWarpStream {
 public:
  using Data = Stencil3dWorkload::Data;
  Stencil3dWarp(std::shared_ptr<const Data> d, unsigned cta, unsigned warp)
      : d_(std::move(d)), exist_(cta_lane_mask(d_->grid.threads(), warp)) {
    for (unsigned l = 0; l < kWarpSize; ++l) {
      if (!((exist_ >> l) & 1u)) continue;
      d_->grid.thread_xy(cta, warp, l, x_[l], y_[l]);
      if (x_[l] < d_->nx && y_[l] < d_->ny) valid_ |= 1u << l;
    }
  }

 private:
  uint64_t cell(unsigned x, unsigned y, unsigned z) const {
    return (uint64_t(z) * d_->ny + y) * d_->nx + x;
  }

  bool refill() override {
    if (z_ == 0) {
      compute(kX, exist_);
      compute(kY, exist_);
      compute(kBound, exist_);
      if (!valid_) return false;
      compute(kClampNS, valid_);  // N = y ? c - nx : c, S = y < ny - 1 ? c + nx : c
      compute(kClampWE, valid_);  // W = x ? c - 1 : c, E = x < nx - 1 ? c + 1 : c
    }
    const unsigned z = z_, nz = d_->nz, last_x = d_->nx - 1, last_y = d_->ny - 1;
    auto at = [&](uint64_t base, int dx, int dy, int dz) {
      return [this, base, dx, dy, dz, z, nz, last_x, last_y](unsigned l) {
        const unsigned x = dx < 0 ? (x_[l] ? x_[l] - 1 : 0) : dx > 0 ? std::min(x_[l] + 1, last_x) : x_[l];
        const unsigned y = dy < 0 ? (y_[l] ? y_[l] - 1 : 0) : dy > 0 ? std::min(y_[l] + 1, last_y) : y_[l];
        const unsigned zz = dz < 0 ? (z ? z - 1 : 0) : dz > 0 ? std::min(z + 1, nz - 1) : z;
        return base + 4 * cell(x, y, zz);
      };
    };
    const uint64_t src = d_->src;
    uint32_t seg = kBody;
    if (d_->z_in_registers) {  // temp1 (below), temp2 (centre), temp3 (above) roll through registers
      seg = z == 0 ? kFirst : z == nz - 1 ? kLast : kBody;
      if (z == 0) load(seg + kLdC, 4, valid_, at(src, 0, 0, 0));
      if (z + 1 < nz) load(seg + kLdT, 4, valid_, at(src, 0, 0, 1));
      load(seg + kLdW, 4, valid_, at(src, -1, 0, 0));
      load(seg + kLdE, 4, valid_, at(src, 1, 0, 0));
      load(seg + kLdS, 4, valid_, at(src, 0, 1, 0));
      load(seg + kLdN, 4, valid_, at(src, 0, -1, 0));
    } else {  // computeTempCPU's reads: c, n, s, e, w, t, b
      compute(seg + kClampTB, valid_);  // B = z ? c - nx ny : c, T = z < nz - 1 ? c + nx ny : c
      load(seg + kLdC, 4, valid_, at(src, 0, 0, 0));
      load(seg + kLdN, 4, valid_, at(src, 0, -1, 0));
      load(seg + kLdS, 4, valid_, at(src, 0, 1, 0));
      load(seg + kLdE, 4, valid_, at(src, 1, 0, 0));
      load(seg + kLdW, 4, valid_, at(src, -1, 0, 0));
      load(seg + kLdT, 4, valid_, at(src, 0, 0, 1));
      load(seg + kLdB, 4, valid_, at(src, 0, 0, -1));
    }
    load(seg + kLdPower, 4, valid_, at(d_->power, 0, 0, 0));
    for (unsigned i = 0; i < kMathOps; ++i) compute(seg + kMath + 0x10 * i, valid_);
    store(seg + kStDst, 4, valid_, at(d_->dst, 0, 0, 0), d_->result != nullptr,
          [&](unsigned l) { return (*d_->result)[cell(x_[l], y_[l], z)]; });
    ++z_;
    if (z_ == nz) return false;
    compute(seg + kAdvance, valid_);  // c, W, E, N, S += nx ny; next layer
    return true;
  }

  std::shared_ptr<const Data> d_;
  uint32_t exist_, valid_ = 0;
  unsigned x_[kWarpSize] = {}, y_[kWarpSize] = {};
  unsigned z_ = 0;  // next layer
};

// One step on the host, with the kernel's clamped neighbours, in hotspotOpt1's order of terms.
std::vector<float> step(const std::vector<float>& t, unsigned nx, unsigned ny, unsigned nz) {
  using W = Stencil3dWorkload;
  std::vector<float> out(t.size());
  const uint64_t xy = uint64_t(nx) * ny;
  for (unsigned z = 0; z < nz; ++z)
    for (unsigned y = 0; y < ny; ++y)
      for (unsigned x = 0; x < nx; ++x) {
        const uint64_t c = z * xy + uint64_t(y) * nx + x;
        const uint64_t w = x ? c - 1 : c, e = x + 1 < nx ? c + 1 : c;
        const uint64_t n = y ? c - nx : c, s = y + 1 < ny ? c + nx : c;
        const uint64_t b = z ? c - xy : c, a = z + 1 < nz ? c + xy : c;
        out[c] = W::kCc * t[c] + W::kCw * t[w] + W::kCe * t[e] + W::kCs * t[s] + W::kCn * t[n] + W::kCb * t[b] +
                 W::kCt * t[a] + W::kSdc * W::power_value(c) + W::kCt * W::kAmb;
      }
  return out;
}

}  // namespace

Stencil3dWorkload::Stencil3dWorkload(const Params& p) : SequenceWorkload("stencil3d", p.iterations), p_(p) {
  validate(p_, "stencil3d");
  if (p.z_in_registers && p.nz < 2)
    error("gpusc.workload", "stencil3d.nz = ", p.nz,
          " with z_in_registers: hotspot3D's kernel reads layer 1 before its loop, so it needs nz >= 2 (or set "
          "z_in_registers = false)");
  if (uint64_t(p.block_x) * p.block_y > 1024)
    error("gpusc.workload", "stencil3d.block_x * block_y = ", uint64_t(p.block_x) * p.block_y,
          " exceeds 1024 threads per CTA");
  const uint64_t cells = uint64_t(p.nx) * p.ny * p.nz;
  if (cells > (uint64_t(1) << 32))
    error("gpusc.workload", "stencil3d.nx * ny * nz = ", cells, " cells exceeds 2^32");
  grid_ = Block2D::covering(p.nx, p.ny, p.block_x, p.block_y);
  temp_[0] = space_.allocate("temp0", 4 * cells);
  temp_[1] = space_.allocate("temp1", 4 * cells);
  power_ = space_.allocate("power", 4 * cells);
  space_.set_contents("temp0", AddressSpace::floats(temp0_value));
  space_.set_contents("temp1", AddressSpace::zeros());
  space_.set_contents("power", AddressSpace::floats(power_value));
}

std::unique_ptr<Kernel> Stencil3dWorkload::launch(unsigned i) {
  std::shared_ptr<const std::vector<float>> result;
  if (values_) {  // values on: the host holds the grid of the step running and the next one
    if (!cur_) {
      auto t0 = std::make_shared<std::vector<float>>(uint64_t(p_.nx) * p_.ny * p_.nz);
      for (uint64_t c = 0; c < t0->size(); ++c) (*t0)[c] = temp0_value(c);
      cur_ = std::move(t0);
    }
    auto next = std::make_shared<const std::vector<float>>(step(*cur_, p_.nx, p_.ny, p_.nz));
    result = next;
    cur_ = std::move(next);
  }
  auto d = std::make_shared<const Data>(Data{p_.nx, p_.ny, p_.nz, p_.z_in_registers, grid_, temp_[i % 2],
                                             temp_[(i + 1) % 2], power_, std::move(result)});
  return std::make_unique<KernelOf<Stencil3dWarp, Data>>("stencil3d.step" + std::to_string(i), grid_.ctas(),
                                                         grid_.threads(), std::move(d));
}

}  // namespace gpusc
