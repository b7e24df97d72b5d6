// GridKernel and SequenceWorkload: the shared skeleton of the kernel models. GridKernel holds a
// launch's shape (CTAs x threads per CTA), checks the warp index and asks the concrete kernel
// for the stream; Block2D maps 2-D CTAs (block_x x block_y threads, x fastest, as CUDA's
// threadIdx.x) onto lanes; SequenceWorkload is a workload whose launch count is known up front.
#pragma once
#include <memory>
#include <string>

#include "workload/buffered_warp_stream.h"
#include "workload/kernel.h"

namespace gpusc {

class GridKernel : public Kernel {
 public:
  std::string name() const override { return name_; }
  unsigned num_ctas() const override { return ctas_; }
  unsigned threads_per_cta() const override { return threads_; }
  unsigned warps_per_cta() const override { return warps_for(threads_); }
  std::unique_ptr<WarpStream> warp(unsigned cta, unsigned warp_in_cta) const final;

 protected:
  // threads_per_cta must be 1..1024 (CUDA's limit).
  GridKernel(std::string name, unsigned ctas, unsigned threads_per_cta);
  virtual std::unique_ptr<WarpStream> make_warp(unsigned cta, unsigned warp_in_cta) const = 0;

 private:
  std::string name_;
  unsigned ctas_, threads_;
};

// The usual concrete kernel: a launch's read-only data shared by all its streams, each stream a
// Warp(data, cta, warp_in_cta).
template <class Warp, class Data>
class KernelOf final : public GridKernel {
 public:
  KernelOf(std::string name, unsigned ctas, unsigned threads_per_cta, std::shared_ptr<const Data> d)
      : GridKernel(std::move(name), ctas, threads_per_cta), d_(std::move(d)) {}

 protected:
  std::unique_ptr<WarpStream> make_warp(unsigned cta, unsigned warp_in_cta) const override {
    return std::make_unique<Warp>(d_, cta, warp_in_cta);
  }

 private:
  std::shared_ptr<const Data> d_;
};

// CTAs of `threads_per_cta` threads needed for `threads` threads (1-D launch).
unsigned ctas_for(uint64_t threads, unsigned threads_per_cta);

// 2-D launch geometry covering a width x height domain with block_x x block_y CTAs.
struct Block2D {
  unsigned block_x = 1, block_y = 1;  // CTA shape [threads]
  unsigned grid_x = 0, grid_y = 0;    // grid shape [CTAs]

  static Block2D covering(unsigned width, unsigned height, unsigned block_x, unsigned block_y) {
    return Block2D{block_x, block_y, (width + block_x - 1) / block_x, (height + block_y - 1) / block_y};
  }
  unsigned ctas() const { return grid_x * grid_y; }
  unsigned threads() const { return block_x * block_y; }
  // Global (x, y) of lane `lane` of warp `warp` of CTA `cta` (the lane must exist in the CTA).
  void thread_xy(unsigned cta, unsigned warp, unsigned lane, unsigned& x, unsigned& y) const {
    const unsigned t = warp * kWarpSize + lane;
    x = (cta % grid_x) * block_x + t % block_x;
    y = (cta / grid_x) * block_y + t / block_x;
  }
};

class SequenceWorkload : public Workload {
 public:
  std::string name() const override { return name_; }
  std::unique_ptr<Kernel> next_kernel() final {
    return next_ < launches_ ? launch(next_++) : nullptr;
  }
  const AddressSpace& address_space() const override { return space_; }
  void enable_values() override { values_ = true; }

 protected:
  SequenceWorkload(std::string name, unsigned launches) : name_(std::move(name)), launches_(launches) {}
  virtual std::unique_ptr<Kernel> launch(unsigned index) = 0;  // index 0 .. launches-1

  AddressSpace space_;
  bool values_ = false;  // enable_values() was called: launches carry store values

 private:
  std::string name_;
  unsigned launches_;
  unsigned next_ = 0;
};

}  // namespace gpusc
