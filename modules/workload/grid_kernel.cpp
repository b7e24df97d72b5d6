#include "workload/grid_kernel.h"

#include "common/report.h"

namespace gpusc {

GridKernel::GridKernel(std::string name, unsigned ctas, unsigned threads_per_cta)
    : name_(std::move(name)), ctas_(ctas), threads_(threads_per_cta) {
  if (threads_ == 0 || threads_ > 1024)
    error("gpusc.workload", "kernel '", name_, "': ", threads_,
          " threads per CTA is outside the allowed range [1, 1024]");
}

std::unique_ptr<WarpStream> GridKernel::warp(unsigned cta, unsigned warp_in_cta) const {
  if (cta >= ctas_ || warp_in_cta >= warps_per_cta())
    error("gpusc.workload", "kernel '", name_, "': warp ", warp_in_cta, " of CTA ", cta,
          " does not exist (", ctas_, " CTAs of ", warps_per_cta(), " warps)");
  return make_warp(cta, warp_in_cta);
}

unsigned ctas_for(uint64_t threads, unsigned threads_per_cta) {
  const uint64_t ctas = (threads + threads_per_cta - 1) / threads_per_cta;
  if (ctas > UINT32_MAX) error("gpusc.workload", threads, " threads need more than 2^32-1 CTAs");
  return static_cast<unsigned>(ctas);
}

}  // namespace gpusc
