// DecisionEngine: classifies the workload once per run from the requests arriving at the L1
// caches and declares DUALOPT's optimization (paper 004 §4.3, Fig. 11; §5: "starts operating
// after a warm up period ... collects statistics for the first 20K remote memory accesses";
// Table 1: remote_thresh = 2%, block_thresh = 0.2, hit_thresh = 0.4).
//   remote ratio < remote_thresh                           -> LocalDominated (no change)
//   else block use < block_thresh and remote hit rate < hit_thresh -> Coalescing (remote access coalescing)
//   else                                                   -> Caching (remote data caching)
// Comparisons are strict, as the paper's "below": a statistic equal to its threshold is not below.
//
// Definitions (ours, where the paper names a statistic without defining it):
//   * accesses: every request arriving at an observed L1 (reads, writes, atomics); remote: its
//     address is not in the local GPU's memory. remote ratio = remote / accesses in the window;
//   * remote hit rate = remote reads that hit / remote reads in the window (an MSHR merge is not
//     a hit);
//   * block use (the "cache block utilization of remote reads", Fig. 5 and 10: a 64 B line is
//     16 pieces of 4 B, a CU can consume up to 16): a residency of a remote line in one L1 starts
//     at the first remote read of that line in the window that finds it untracked, and ends when
//     that L1 evicts the line. Its use is the number of distinct words (bits of the ORed word
//     masks of the remote reads to it during the residency) over words_per_line. Block use =
//     words used over all residencies / (residencies x words_per_line), i.e. the mean fraction
//     of a remote line's words read while it is cached. Residencies still open when the window
//     closes count with the words used so far;
//   * a window without remote reads (transpose: its remote accesses are stores) is declared
//     LocalDominated whatever its remote ratio: its block use and hit rate are 0 / 0, and neither
//     mode changes remote writes or atomics (§4: they stay conventional), so there is nothing to
//     optimize (before 2026-11-28 it counted as block use 0 and chose coalescing, whose
//     de-coalescer then only delayed the write acks: transpose -7%);
//   * the window: after warmup_accesses L1 accesses (all kinds), it lasts until window_remote
//     remote accesses have been seen, or until window_remote / remote_thresh accesses (1M with
//     the defaults), whichever comes first; the second bound makes a local-dominated run decide
//     (its remote ratio is then below remote_thresh by construction);
//   * one engine watches every L1 it is fed (the platform's choice: all L1s of all GPUs, or one
//     engine per GPU); the decision is taken once, and later observations are ignored. A run that
//     ends before the window closes stays Undecided (the baseline behaviour).
// It is a monitor with listeners, not a timed unit: the platform feeds it from the L1s' hooks
// and applies the decision (SCBU mode register, RDMA cache, L2 size) in on_decision listeners.
#pragma once
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "common/params.h"
#include "common/stats.h"

namespace gpusc::multigpu {

class DecisionEngine : public sc_core::sc_module {
 public:
  struct Params {
    uint64_t warmup_accesses = 20000;  // L1 accesses before monitoring starts [count] (not in the paper)
    uint64_t window_remote = 20000;    // remote accesses monitored [count] (004 §4.3: 20K)
    double remote_thresh = 0.02;       // remote ratio below it: local-dominated (004 Table 1: 2%)
    double block_thresh = 0.2;         // block use below it ... (004 Table 1: 0.2)
    double hit_thresh = 0.4;           // ... and remote hit rate below it: coalescing (004 Table 1: 0.4)
    unsigned words_per_line = 16;      // 4 B words per line (004: 64 B / 4 B)
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM(warmup_accesses, "L1 accesses (all kinds) before monitoring starts [count] (004 §5 gives no value)");
      GPUSC_PARAM_R(window_remote, 1, 1e12, "remote L1 accesses in the monitoring window [count] (004 §4.3: 20K)");
      GPUSC_PARAM_R(remote_thresh, 1e-9, 1, "remote_thresh: remote ratio below it is local-dominated (004: 0.02)");
      GPUSC_PARAM_R(block_thresh, 0, 1, "block_thresh: block use below it (and hit rate below hit_thresh) is "
                                        "cache-insensitive (004: 0.2)");
      GPUSC_PARAM_R(hit_thresh, 0, 1, "hit_thresh: remote L1 hit rate threshold (004: 0.4)");
      GPUSC_PARAM_R(words_per_line, 1, 64, "words per cache line for block use [count] (004: 16)");
    }
  };
  enum class Mode { Undecided, LocalDominated, Coalescing, Caching };
  // What the window measured.
  struct Window {
    uint64_t accesses = 0, remote = 0;
    uint64_t remote_reads = 0, remote_read_hits = 0;
    uint64_t residencies = 0, words_used = 0;  // block use = words_used / (residencies x words_per_line)
    double remote_ratio() const { return accesses ? double(remote) / double(accesses) : 0.0; }
    double hit_rate() const { return remote_reads ? double(remote_read_hits) / double(remote_reads) : 0.0; }
    double block_use(unsigned words_per_line) const {
      return residencies ? double(words_used) / (double(residencies) * words_per_line) : 0.0;
    }
  };
  // One request arriving at L1 `cache`.
  struct Access {
    unsigned cache = 0;       // which L1
    uint64_t line = 0;        // line address
    uint64_t word_mask = 0;   // words it reads (reads only)
    bool remote = false;
    bool read = true;
    bool hit = false;         // reads only: tag hit with the data valid
  };

  DecisionEngine(sc_core::sc_module_name name, const Params& p);
  DecisionEngine(const DecisionEngine&) = delete;
  DecisionEngine& operator=(const DecisionEngine&) = delete;

  void observe(const Access& a);
  // L1 `cache` evicted `line` (any line; only remote residencies being tracked matter).
  void observe_eviction(unsigned cache, uint64_t line);
  // Called once, with the mode, when the window closes.
  void on_decision(std::function<void(Mode)> f) { listeners_.push_back(std::move(f)); }

  // Fig. 11 on measured statistics (a pure function: the thresholds' edges are tested on it).
  static Mode classify(double remote_ratio, double block_use, double hit_rate, const Params& p);

  Mode mode() const { return mode_; }
  const Params& params() const { return p_; }
  bool monitoring() const { return seen_ >= p_.warmup_accesses && mode_ == Mode::Undecided; }
  const Window& window() const { return w_; }  // while monitoring: so far (open residencies not yet in it)

 private:
  struct Key {
    unsigned cache;
    uint64_t line;
    bool operator==(const Key& o) const { return cache == o.cache && line == o.line; }
  };
  struct KeyHash {
    size_t operator()(const Key& k) const { return std::hash<uint64_t>()(k.line * 1000003u + k.cache); }
  };
  void close_residency(uint64_t mask);
  void decide();

  const Params p_;
  const uint64_t window_accesses_;  // the second bound: window_remote / remote_thresh
  uint64_t seen_ = 0;               // accesses observed before and during the window
  Window w_;
  std::unordered_map<Key, uint64_t, KeyHash> open_;  // remote residencies being tracked -> word mask
  Mode mode_ = Mode::Undecided;
  std::vector<std::function<void(Mode)>> listeners_;
  StatGroup stats_;
};

const char* to_string(DecisionEngine::Mode m);

}  // namespace gpusc::multigpu
