#include "workload/mars_launch.h"

namespace gpusc {

std::unique_ptr<WarpStream> MarsKernel::make_warp(unsigned cta, unsigned warp) const {
  const uint32_t exist = cta_lane_mask(threads_per_cta(), warp);
  const uint64_t first = uint64_t(cta) * threads_per_cta() + uint64_t(warp) * kWarpSize;
  return std::make_unique<LaneProgramWarp>(
      [&](unsigned l) -> std::unique_ptr<LaneProgram> {
        if (!((exist >> l) & 1u)) return nullptr;
        return program_(first + l);
      },
      values_);
}

std::unique_ptr<Kernel> MarsWorkload::next_kernel() {
  if (next_ >= launches_.size()) return nullptr;
  MarsLaunch& l = launches_[next_++];
  if (l.prepare) l.prepare();
  auto k = std::make_unique<MarsKernel>(l, values_);
  l = MarsLaunch{};  // the kernel holds the launch's programs (and their per-launch state) from now on
  return k;
}

std::vector<std::string> MarsWorkload::launch_names() const {
  std::vector<std::string> v;
  for (const auto& l : launches_) v.push_back(l.name);
  return v;
}

}  // namespace gpusc
