// WarpScheduler: one warp scheduler of an SM (issue stage), choosing at most one warp per cycle
// among its ready warps. Policies (paper 001 Table 1 and paper 002 use GTO):
//   * gto (greedy-then-oldest): keep issuing the warp issued last while it is ready; otherwise
//     the oldest ready warp by launch order, which then becomes the greedy warp;
//   * lrr (loose round-robin): the first ready warp in slot order starting after the warp issued
//     last (starting at slot 0 before anything issued).
// Open choices: age is the launch sequence number (launched() order; a CTA's warps launch in
// warp order), so a slot reused by a later CTA is younger than every warp still resident; a
// warp that finishes stops being GTO's greedy warp; LRR keeps its position across finishes.
// Pure C++, the SmCore owns one per scheduler and passes the ready set as a bit mask over the
// scheduler's local warp ids (so at most 64 warps per scheduler).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace gpusc {

class WarpScheduler {
 public:
  enum class Policy { Gto, Lrr };
  static constexpr unsigned kMaxWarps = 64;

  // `warps` local warp ids 0..warps-1; `who` names the owner in error messages.
  WarpScheduler(Policy policy, unsigned warps, const std::string& who = "gpusc.warp_scheduler");
  // Policy from its config name, "gto" or "lrr" (anything else is an error naming `who`).
  static Policy policy_from(const std::string& name, const std::string& who);

  // Warp w started (a new warp in that slot): it is younger than every warp launched before.
  void launched(unsigned w);
  // Warp w finished.
  void finished(unsigned w);
  // The warp to issue among `ready` (bit w = warp w can issue now), or -1 when none is ready.
  // The pick counts as issued: it becomes the last-issued warp.
  int pick(uint64_t ready);

  Policy policy() const { return policy_; }
  unsigned warps() const { return n_; }
  int last() const { return last_; }

 private:
  const Policy policy_;
  const unsigned n_;
  std::vector<uint64_t> age_;  // launch sequence number per warp
  uint64_t seq_ = 0;
  int last_ = -1;              // last issued warp (-1: none)
};

}  // namespace gpusc
