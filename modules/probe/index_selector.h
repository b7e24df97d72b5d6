// IndexSelector: the index-based core selector of paper 000 §III-C, used by n-IP = IP(27,1,1)
// and by the CCN emulation RP(27,1,1) of §IV-B: the targets are the remote cores in ascending
// core index ("a probe sequentially searches the cores assigned to it based on the core
// ascending index in order"). Deterministic; data replies are ignored.
// Choice the paper left open: with C < cores - 1 the paper does not say which C cores. With
// index_order = ascending (default) they are the C lowest indices other than self, always the
// same cores for every requester; index_order = ring starts after self (self+1, self+2, ...
// wrapping), a ring walk as in CCN's ring NoC, which spreads the load of small C.
#pragma once
#include <cstdint>
#include <vector>

#include "probe/core_selector.h"

namespace gpusc::probe {

class IndexSelector : public CoreSelector {
 public:
  IndexSelector(const Params& p, unsigned self, unsigned cores);

  void select(unsigned c, uint64_t cycle, std::vector<unsigned>& out) override;
  void data_reply_from(unsigned supplier, uint64_t cycle) override;

 private:
  const bool ring_;
};

}  // namespace gpusc::probe
