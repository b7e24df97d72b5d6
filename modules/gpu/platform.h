// Platform: the thin top of a platform built from GPU blocks (DESIGN §6). It owns what is one
// per platform: the CTA scheduler that runs the workload on every block's SMs (in the order its
// CtaPolicy decides), the L1 flush at kernel boundaries (the L1s are not coherent), run() with
// its max-cycles stop, and the summary of paper-style figures. The blocks, their clocks, the
// address mapper and whatever joins the blocks (bridges, bandwidth links) are the caller's and
// must outlive the platform; a platform class (platforms/mesh_gpu) owns them next to it.
// SM numbering: the platform's SM s is block b's SM i for the blocks in the order given; CTA
// groups (cta.policy = contiguous-groups) are the blocks unless group_of_sm says otherwise.
// Summary: the figures below over all blocks, then the lines each memory-partition stage adds
// (McStage::summarize), those the SM-side stages add (SmFrontStage::summarize) and those
// mechanisms register with add_summary(); the platform names no mechanism.
// Memory contents (issue 19): when a block needs them (GpuBlock::needs_values: a memory-partition
// stage reads line contents), the platform owns the memory image: a BackingStore sourced lazily
// from the workload's AddressSpace contents, after enable_values() so the stores carry their
// words, attached to every block. A workload without values (Workload::has_values false) is
// then an error at construction, naming the workload and the stage's need. Otherwise nothing is
// built and nothing carries data.
// SM-side stages (gpu/sm_front_stage.h): when any SM has one, a kernel boundary also waits until
// every SM-side stage and every L1 is idle (a probe may still be looking up a peer L1), before the
// L1 flush; without them the boundary is as before.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "common/clock_domain.h"
#include "common/params.h"
#include "gpu/gpu_block.h"
#include "mem/backing_store.h"
#include "sm/cta_scheduler.h"
#include "workload/kernel.h"

namespace gpusc {

class Platform {
 public:
  // `core`: the clock cycles are counted in. group_of_sm: the CTA group of each platform SM
  // (empty: its block's index).
  Platform(ClockDomain& core, Workload& workload, std::vector<GpuBlock*> blocks, const CtaScheduler::Params& cta,
           std::vector<unsigned> group_of_sm = {});
  Platform(const Platform&) = delete;
  Platform& operator=(const Platform&) = delete;

  // Where a run is, for a progress display.
  struct Progress {
    uint64_t cycle;                  // core cycles simulated
    unsigned kernel;                 // launches started (the running one is kernel - 1)
    unsigned ctas_done, ctas_total;  // of the running kernel (0, 0 between kernels)
  };
  using ProgressFn = std::function<void(const Progress&)>;

  // Why run() returned: the workload finished; max_cycles came first; or a deadlock, i.e.
  // nothing was left to simulate before the end (every unit waits for another), or, with a stall
  // limit, no SM issued an instruction or received a reply for that many core cycles while units
  // still ticked (e.g. flits circling or blocked in a routing deadlock: they keep their routers
  // awake, so the simulation would otherwise run on to max_cycles).
  enum class Stop { finished, max_cycles, deadlock };

  // Runs until the workload has finished and every write ack is back, core cycle max_cycles, or
  // a deadlock (above; stall_cycles = 0: only the nothing-left-to-simulate kind). Returns true
  // when the workload finished; may be called again to go on (to a later max_cycles). With `progress`, the simulation pauses about every half second
  // of wall time (at a cycle boundary; the results do not change) to call it.
  bool run(uint64_t max_cycles, const ProgressFn& progress = {}, uint64_t stall_cycles = 0);
  Stop stop() const { return stop_; }                // after run()
  uint64_t cycles() const { return finish_cycle_; }  // after run()

  unsigned blocks() const { return static_cast<unsigned>(blocks_.size()); }
  GpuBlock& block(unsigned b) { return *blocks_[b]; }
  unsigned sm_count() const { return static_cast<unsigned>(cores_.size()); }
  SmCore& sm(unsigned s) { return *cores_[s]; }
  CtaScheduler& cta() { return *cta_; }
  // The memory image when a block needs values, else nullptr.
  const BackingStore* values() const { return values_.get(); }
  ClockDomain& core_clock() { return core_; }

  // Called at every kernel boundary, after the L1 flush, with the finished kernel's id (a
  // mechanism's caches that are flushed with the L1s, e.g. paper 003's L1.5). In order added.
  void add_kernel_boundary_listener(std::function<void(unsigned kernel)> f) { boundary_.push_back(std::move(f)); }
  // A mechanism's summary lines: f adds its keys to the summary (called by summary()).
  void add_summary(std::function<void(json&)> f) { summaries_.push_back(std::move(f)); }
  // The summary the command lines print (also in the stats JSON): the platform's figures and
  // mechanism_summary()'s lines.
  json summary() const;
  json mechanism_summary() const;

 private:
  ClockDomain& core_;
  std::vector<GpuBlock*> blocks_;
  std::vector<SmCore*> cores_;
  std::unique_ptr<BackingStore> values_;
  std::unique_ptr<CtaScheduler> cta_;
  std::vector<std::function<void(json&)>> summaries_;
  std::vector<std::function<void(unsigned)>> boundary_;
  uint64_t forward_progress() const;  // SmCore::progress() summed over every SM
  uint64_t finish_cycle_ = 0;
  Stop stop_ = Stop::max_cycles;
};

}  // namespace gpusc
