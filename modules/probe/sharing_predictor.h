// SharingPredictor: the PC-based two-bit sharing predictor of paper 000 §III-E (Figure 11) with
// the window sizes of §III-F ("Overhead"). One per core, consulted on every L1 read miss after
// MSHR allocation: decide(pc) says whether this miss probes remote L1s (predicted shared) or goes
// straight to the L2 (predicted non-shared).
//
// Per PC entry: a 2-bit state i (0 Strong Shared, 1 Weak Shared, 2 Weak Non-shared, 3 Strong
// Non-shared), starting at Strong Shared. State i observes a window of W_i read misses of its PC,
// of which S_i are probed; R_i counts the probed misses that brought remote data. At the end of
// the window R_i >= T_i moves one state toward sharing (Strong Shared stays), else one state
// toward Strong Non-shared (Strong Non-shared stays). With window_base = 32 and
// threshold_div = 8 (the paper's values):
//   W_i = 32 * 2^i, S_i = W_i / 4^i, T_i = ceil(S_i / 8)  ->  (W,S,T) = (32,32,4), (64,16,2),
//   (128,8,1), (256,4,1).
// Precision and recall (§IV-B, footnote 4) are counted against an oracle bit the caller supplies
// (was the line in some other L1 at miss time): precision = true shared predictions / shared
// predictions, recall = true shared predictions / truly shared misses.
//
// Choices the paper left open:
//   * which misses of a window are probed: the FIRST S_i of the window (positions 0..S_i-1); the
//     other W_i - S_i go to the L2;
//   * when the window ends: at the W_i-th miss, with the replies reported so far. A report that
//     arrives after its window ended counts in the window that is current when it arrives (one
//     R counter per entry, reset at each window end, no per-window tags). So in Strong Shared
//     (W = S) the last few probes of a window usually report into the next one;
//   * the 64 entries are fully associative, tagged by the full PC, LRU replacement; a PC that
//     misses in the table takes the least recently used entry, reset to Strong Shared with an
//     empty window. A report for a PC not in the table is ignored (counted in stale_reports);
//   * a probe the caller decided not to send after all (IP(C,1,P) with P < 1 sends S - 1 = 0
//     probes) is simply never reported: it counts as a probed miss that found nothing;
//   * decide(pc) without an oracle bit does not enter the precision/recall counts.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/params.h"

namespace gpusc {
class StatGroup;

namespace probe {

class SharingPredictor {
 public:
  struct Params {
    unsigned entries = 64;        // PC entries (000 §III-F: 64)
    unsigned window_base = 32;    // W_0; W_i = window_base * 2^i, S_i = W_i / 4^i [misses]
    unsigned threshold_div = 8;   // T_i = ceil(S_i / threshold_div) (000 §III-F: 8)
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(entries, 1, 4096, "PC entries of the sharing predictor [count] (000 §III-F: 64)");
      GPUSC_PARAM_R(window_base, 8, 1 << 20,
                    "window of Strong Shared W_0, a multiple of 8; W_i = W_0*2^i, S_i = W_i/4^i [misses] (000: 32)");
      GPUSC_PARAM_R(threshold_div, 1, 1 << 20, "remote-data threshold T_i = ceil(S_i / threshold_div) (000: 8)");
    }
  };
  enum State : uint8_t { StrongShared = 0, WeakShared = 1, WeakNonShared = 2, StrongNonShared = 3 };
  struct Window {
    unsigned w, s, t;  // misses observed, misses probed, remote-data replies needed
  };

  SharingPredictor() : SharingPredictor(Params{}) {}
  explicit SharingPredictor(const Params& p);
  SharingPredictor(const SharingPredictor&) = delete;
  SharingPredictor& operator=(const SharingPredictor&) = delete;

  // An L1 read miss of `pc`: true = probe remote L1s, false = go to the L2.
  bool decide(uint64_t pc);
  // The same, and counts the prediction against the oracle bit (line in another L1 at miss time).
  bool decide(uint64_t pc, bool oracle_shared);
  // A probed miss of `pc` finished: `remote_data` = a remote L1 supplied the line.
  void report(uint64_t pc, bool remote_data);

  // Observers.
  const Params& params() const { return p_; }
  Window window(unsigned state) const;          // (W_i, S_i, T_i)
  bool tracked(uint64_t pc) const { return find(pc) >= 0; }
  State state(uint64_t pc) const;               // Strong Shared for an untracked PC
  unsigned misses_in_window(uint64_t pc) const; // of the current window
  unsigned replies_in_window(uint64_t pc) const;
  uint64_t decisions() const { return decisions_; }
  uint64_t probed() const { return probed_; }
  uint64_t true_pos() const { return tp_; }     // predicted shared, oracle shared
  uint64_t false_pos() const { return fp_; }    // predicted shared, oracle not shared
  uint64_t false_neg() const { return fn_; }    // predicted non-shared, oracle shared
  uint64_t true_neg() const { return tn_; }
  double precision() const;                     // tp / (tp + fp), 0 if no shared prediction
  double recall() const;                        // tp / (tp + fn), 0 if nothing was shared
  uint64_t stale_reports() const { return stale_; }
  uint64_t transitions() const { return transitions_; }
  uint64_t evictions() const { return evictions_; }
  // Registers this predictor's counts and ratios as derived stats of `g` (name prefix "predictor_").
  void add_stats(StatGroup& g) const;

 private:
  struct Entry {
    uint64_t pc = 0;
    uint64_t lru = 0;  // last use stamp
    bool valid = false;
    uint8_t state = StrongShared;
    unsigned misses = 0, replies = 0;
  };
  int find(uint64_t pc) const;
  Entry& lookup(uint64_t pc);  // finds or allocates (LRU)

  const Params p_;
  Window windows_[4];
  std::vector<Entry> table_;
  uint64_t stamp_ = 0;
  uint64_t decisions_ = 0, probed_ = 0, tp_ = 0, fp_ = 0, fn_ = 0, tn_ = 0;
  uint64_t stale_ = 0, transitions_ = 0, evictions_ = 0;
};

}  // namespace probe
}  // namespace gpusc
