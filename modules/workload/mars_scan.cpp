#include "workload/mars_scan.h"

#include <algorithm>

#include "common/report.h"

namespace gpusc {

namespace {

bool pow2(uint64_t n) { return n && !(n & (n - 1)); }
uint64_t floor_pow2(uint64_t n) {
  uint64_t p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}
unsigned log2u(uint64_t n) {
  unsigned l = 0;
  while ((uint64_t(1) << l) < n) ++l;
  return l;
}

// One prescan launch: `blocks` blocks of `nt` threads; block b covers elements [base(b), base(b) + 2 nt)
// of which the first `n_valid` exist; its sum goes to sums[sum_index(b)] when sums != 0.
struct PrescanLaunch {
  uint64_t in, out, sums;
  uint64_t base0;       // first element of block 0
  uint64_t n_valid;     // elements per block (the guard of the last, non-full block)
  bool np2;             // the guard is needed
  uint64_t sum_index0;  // block index of block 0 in the sums array
  unsigned nt;
  std::shared_ptr<const std::vector<uint32_t>> local;  // per-element exclusive scan within its block
  std::shared_ptr<const std::vector<uint32_t>> total;  // per-block sums (by sum index)
};

std::unique_ptr<LaneProgram> prescan_thread(const PrescanLaunch& p, uint64_t tid) {
  using namespace mars_pc;
  const uint64_t b = tid / p.nt, t = tid % p.nt;
  const uint64_t base = p.base0 + b * 2 * p.nt;
  const uint64_t ai = base + t, bi = ai + p.nt;
  const bool has_b = !p.np2 || t + p.nt < p.n_valid;
  const unsigned levels = log2u(p.nt) + 1;
  return std::make_unique<StepProgram>([=](unsigned s, uint32_t& loop, OpList& o) {
    if (s == 0) {  // load the chunk into shared memory
      loop = 0;
      o.load(kScan, 4, p.in + 4 * ai);
      o.compute(kScan + 0x10);
      if (has_b) {
        o.load(kScan + 0x20, 4, p.in + 4 * bi);
        o.compute(kScan + 0x30);
      }
      return true;
    }
    if (s <= 2 * levels) {  // up-sweep (widths nt .. 1), then down-sweep (widths 1 .. nt)
      const bool up = s <= levels;
      const unsigned lvl = up ? s - 1 : s - 1 - levels;
      const uint64_t width = up ? (uint64_t(p.nt) >> lvl) : (uint64_t(1) << lvl);
      loop = up ? 1 : 3;
      const uint32_t pc = up ? kScan + 0x100 : kScan + 0x300;
      o.compute(pc);  // __syncthreads
      if (t < width)
        for (unsigned k = 1; k <= 4; ++k) o.compute(pc + 0x10 * k);
      if (up && lvl + 1 == levels && t == 0) {  // clearLastElement, after the up-sweep
        o.set_order(16);
        if (p.sums) o.store(kScan + 0x200, p.sums + 4 * (p.sum_index0 + b), (*p.total)[p.sum_index0 + b]);
        o.compute(kScan + 0x210);
      }
      return true;
    }
    if (s == 2 * levels + 1) {  // write the results
      loop = 4;
      o.compute(kScan + 0x400);
      o.store(kScan + 0x410, p.out + 4 * ai, (*p.local)[ai]);
      if (has_b) o.store(kScan + 0x420, p.out + 4 * bi, (*p.local)[bi]);
      return true;
    }
    return false;
  });
}

struct UniformAddLaunch {
  uint64_t data, sums;
  uint64_t base0, n_valid, sum_index0;
  bool np2;
  unsigned nt;
  std::shared_ptr<const std::vector<uint32_t>> final_values;
};

std::unique_ptr<LaneProgram> uniform_add_thread(const UniformAddLaunch& p, uint64_t tid) {
  using namespace mars_pc;
  const uint64_t b = tid / p.nt, t = tid % p.nt;
  const uint64_t a = p.base0 + b * 2 * p.nt + t, a2 = a + p.nt;
  const bool has_b = !p.np2 || t + p.nt < p.n_valid;
  return std::make_unique<StepProgram>([=](unsigned s, uint32_t& loop, OpList& o) {
    if (s > 0) return false;
    loop = 0;
    if (t == 0) {
      o.load(kUniformAdd, 4, p.sums + 4 * (p.sum_index0 + b));
      o.compute(kUniformAdd + 0x10);
    } else {
      o.skip(2);
    }
    o.compute(kUniformAdd + 0x20);  // __syncthreads
    o.load(kUniformAdd + 0x30, 4, p.data + 4 * a);
    o.compute(kUniformAdd + 0x40);
    o.store(kUniformAdd + 0x50, p.data + 4 * a, (*p.final_values)[a]);
    if (has_b) {
      o.load(kUniformAdd + 0x60, 4, p.data + 4 * a2);
      o.compute(kUniformAdd + 0x70);
      o.store(kUniformAdd + 0x80, p.data + 4 * a2, (*p.final_values)[a2]);
    }
    return true;
  });
}

template <class L, class F> void add_launch(std::vector<MarsLaunch>& launches, const std::string& name, unsigned ctas,
                                            unsigned nt, const L& l, F thread) {
  MarsLaunch m;
  m.name = name;
  m.ctas = ctas;
  m.threads = nt;
  m.program = [l, thread](uint64_t tid) { return thread(l, tid); };
  launches.push_back(std::move(m));
}

std::vector<uint32_t> scan_level(AddressSpace& space, const std::string& name, const std::string& kname, uint64_t in,
                                 uint64_t out,
                                 const std::vector<uint32_t>& v, unsigned level, std::vector<MarsLaunch>& launches) {
  const uint64_t n = v.size();
  if (n == 0) error("gpusc.workload", name, ": a Mars prefix sum over no elements");
  const uint64_t per = 512;
  const uint64_t blocks = std::max<uint64_t>(1, (n + per - 1) / per);
  auto local = std::make_shared<std::vector<uint32_t>>(n);
  auto totals = std::make_shared<std::vector<uint32_t>>(blocks);
  for (uint64_t b = 0; b < blocks; ++b) {
    uint32_t run = 0;
    for (uint64_t i = b * per; i < std::min(n, (b + 1) * per); ++i) {
      (*local)[i] = run;
      run += v[i];
    }
    (*totals)[b] = run;
  }
  const std::string lv = kname + (level ? ".l" + std::to_string(level) : "");
  if (blocks == 1) {
    const unsigned nt = static_cast<unsigned>(std::max<uint64_t>(1, pow2(n) ? n / 2 : floor_pow2(n)));
    add_launch(launches, lv + ".prescan", 1, nt, PrescanLaunch{in, out, 0, 0, n, !pow2(n), 0, nt, local, totals},
               prescan_thread);
    return *local;
  }
  const uint64_t last = n - (blocks - 1) * per;
  const bool np2 = last != per;
  const uint64_t full = blocks - (np2 ? 1 : 0);
  unsigned nt_last = static_cast<unsigned>(std::max<uint64_t>(1, last / 2));
  if (!pow2(last)) nt_last = static_cast<unsigned>(floor_pow2(last));
  const uint64_t sums = space.allocate(name + ".sums" + std::to_string(level), 4 * blocks);
  space.set_contents(name + ".sums" + std::to_string(level), AddressSpace::zeros());
  if (full)
    add_launch(launches, lv + ".prescan", static_cast<unsigned>(full), 256,
               PrescanLaunch{in, out, sums, 0, per, false, 0, 256, local, totals}, prescan_thread);
  if (np2)
    add_launch(launches, lv + ".prescan_np2", 1, nt_last,
               PrescanLaunch{in, out, sums, n - last, last, true, blocks - 1, nt_last, local, totals}, prescan_thread);
  const std::vector<uint32_t> scanned = scan_level(space, name, kname, sums, sums, *totals, level + 1, launches);
  auto final_values = std::make_shared<std::vector<uint32_t>>(n);
  for (uint64_t i = 0; i < n; ++i) (*final_values)[i] = (*local)[i] + scanned[i / per];
  auto sums_scanned = std::make_shared<std::vector<uint32_t>>(scanned);
  if (full)
    add_launch(launches, lv + ".uniform_add", static_cast<unsigned>(full), 256,
               UniformAddLaunch{out, sums, 0, per, 0, false, 256, final_values}, uniform_add_thread);
  if (np2)
    add_launch(launches, lv + ".uniform_add_np2", 1, nt_last,
               UniformAddLaunch{out, sums, n - last, last, blocks - 1, true, nt_last, final_values}, uniform_add_thread);
  return *final_values;
}

}  // namespace

std::vector<uint32_t> mars_scan(AddressSpace& space, const std::string& array_name, const std::string& kernel_name,
                                uint64_t in, uint64_t out, const std::vector<uint32_t>& in_values,
                                std::vector<MarsLaunch>& launches) {
  return scan_level(space, array_name, kernel_name, in, out, in_values, 0, launches);
}

}  // namespace gpusc
