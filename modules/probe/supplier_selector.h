// SupplierSelector: the supplier-based core selector of paper 000 §III-C (footnote 2, §III-F).
// Each core counts the data replies it received from every other core during the current period
// of `period` cycles (8192); the counts are reset at the end of each period. The probability of
// core j is count_j / total; a core with no reply in the current period gets half of the lowest
// non-zero probability; C targets are then drawn by weighted sampling without replacement
// (successive draws, each with the remaining weights renormalised), never the core itself.
// Choices the paper left open:
//   * periods are aligned to multiples of `period` (cycles [k*period, (k+1)*period)); the
//     probabilities used in a period are those of the counts collected so far in that same
//     period ("the cores that have not replied with data during the current period"), so right
//     after a reset every core is equally likely (no count at all -> uniform);
//   * the targets are returned in draw order: the first drawn is probed first (the leader's
//     share is the head of the list, two_level_probing.h);
//   * the weights are exact integers: 2 * count_j, and min non-zero count for a core without
//     replies; draws use SeededRng (workload/seeded_rng.h), so a seed fixes every selection.
#pragma once
#include <cstdint>
#include <vector>

#include "probe/core_selector.h"
#include "workload/seeded_rng.h"

namespace gpusc::probe {

class SupplierSelector : public CoreSelector {
 public:
  SupplierSelector(const Params& p, unsigned self, unsigned cores, uint64_t seed);

  void select(unsigned c, uint64_t cycle, std::vector<unsigned>& out) override;
  void data_reply_from(unsigned supplier, uint64_t cycle) override;

  // Observers (at `cycle`, i.e. after the period roll it implies).
  uint64_t count(unsigned core, uint64_t cycle);
  // Probability that `core` is drawn first (the modified, normalised probability).
  double probability(unsigned core, uint64_t cycle);
  uint64_t periods_reset() const { return resets_; }

 private:
  void roll(uint64_t cycle);  // resets the counts when `cycle` is in a later period
  void weights(std::vector<uint64_t>& w) const;

  const uint64_t period_;
  uint64_t period_index_ = 0;
  uint64_t resets_ = 0;
  std::vector<uint64_t> counts_;  // data replies per core in the current period
  std::vector<uint64_t> w_;       // scratch
  SeededRng rng_;
};

}  // namespace gpusc::probe
