// MarsLaunch, MarsKernel, MarsWorkload: the launch list of a Mars MapReduce application (He et
// al., PACT 2008; mars_runtime.h) and the workload that replays it. A launch is a grid in which
// every thread runs its own LaneProgram (lane_program_warp.h), so a kernel's streams follow each
// thread's data-dependent control flow in SIMT lock step. The whole list is planned on the host
// when the workload is built (every result and every store value computed from the real input);
// a launch's `prepare` runs when next_kernel() makes it, for host state that exists only per
// launch (the bitonic sort's index before each pass), so a multi-pass launch list holds one pass's
// state at a time.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "workload/grid_kernel.h"
#include "workload/lane_program_warp.h"

namespace gpusc {

struct MarsLaunch {
  std::string name;
  unsigned ctas = 0, threads = 0;  // grid [CTAs], CTA size [threads]
  // Thread tid's program (tid = cta * threads + thread in CTA); every thread of the grid has one.
  std::function<std::unique_ptr<LaneProgram>(uint64_t tid)> program;
  // Run once when the launch is made, before its first stream (host state for this launch).
  std::function<void()> prepare;
};

class MarsKernel final : public GridKernel {
 public:
  MarsKernel(const MarsLaunch& l, bool values)
      : GridKernel(l.name, l.ctas, l.threads), program_(l.program), values_(values) {}

 protected:
  std::unique_ptr<WarpStream> make_warp(unsigned cta, unsigned warp) const override;

 private:
  std::function<std::unique_ptr<LaneProgram>(uint64_t)> program_;
  bool values_;
};

// A workload whose launches are a planned MarsLaunch list (filled by the derived constructor).
class MarsWorkload : public Workload {
 public:
  std::string name() const override { return name_; }
  std::unique_ptr<Kernel> next_kernel() override;
  const AddressSpace& address_space() const override { return space_; }
  bool has_values() const override { return true; }
  void enable_values() override { values_ = true; }
  size_t launches() const { return launches_.size(); }
  // The planned launches' names, in order (before they are made).
  std::vector<std::string> launch_names() const;

 protected:
  explicit MarsWorkload(std::string name) : name_(std::move(name)) {}
  AddressSpace space_;
  std::vector<MarsLaunch> launches_;

 private:
  std::string name_;
  bool values_ = false;
  size_t next_ = 0;
};

}  // namespace gpusc
