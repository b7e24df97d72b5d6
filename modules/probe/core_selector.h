// CoreSelector: which remote cores a shared read miss probes, and in which order (paper 000
// §III-C). One per core. select() returns C distinct target cores, never the core itself; the
// two-level probing unit then splits them among its probes in that order (two_level_probing.h).
// Two implementations, chosen by Params::selector through make_core_selector():
//   supplier : SupplierSelector (supplier_selector.h), the paper's supplier-based selector;
//   index    : IndexSelector (index_selector.h), ascending core index (n-IP, and CCN as emulated
//              in §IV-B).
// Cores are numbered 0..cores-1 (core index, not network node id: the platform maps them).
// Cycles are the owning core's clock cycles; they must not decrease from call to call.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/params.h"

namespace gpusc::probe {

class CoreSelector {
 public:
  struct Params {
    std::string selector = "supplier";     // which implementation
    uint64_t period = 8192;                // supplier: counting period [core cycles] (000 §III-F: 8192)
    std::string index_order = "ascending"; // index: order of the candidate cores
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_C(selector, "supplier|index", "core selector: supplier-based (000 §III-C) or index-based (n-IP, CCN)");
      GPUSC_PARAM_R(period, 1, uint64_t{1} << 40,
                    "supplier selector: data replies are counted over periods of this length [cycles] (000: 8192)");
      GPUSC_PARAM_C(index_order, "ascending|ring",
                    "index selector: ascending = cores 0,1,.. skipping self (000 §III-C); ring = self+1, self+2, .. mod cores");
    }
  };

  CoreSelector(unsigned self, unsigned cores);
  virtual ~CoreSelector() = default;
  CoreSelector(const CoreSelector&) = delete;
  CoreSelector& operator=(const CoreSelector&) = delete;

  // Replaces `out` with c distinct target cores (c <= cores - 1), none of them self(), in probe
  // order. `cycle` = now.
  virtual void select(unsigned c, uint64_t cycle, std::vector<unsigned>& out) = 0;
  // A data reply to one of this core's probes came from `supplier` at `cycle` (a leader or
  // second-level probe that found the line). The index selector ignores it.
  virtual void data_reply_from(unsigned supplier, uint64_t cycle) = 0;

  unsigned self() const { return self_; }
  unsigned cores() const { return cores_; }

 protected:
  void check_c(unsigned c) const;             // error unless 1 <= c <= cores - 1
  void check_core(unsigned core, const char* what) const;  // error unless core < cores, != self

 private:
  const unsigned self_, cores_;
};

// The selector Params::selector names, for core `self` of `cores`; `seed` feeds its random draws.
std::unique_ptr<CoreSelector> make_core_selector(const CoreSelector::Params& p, unsigned self, unsigned cores,
                                                 uint64_t seed);

}  // namespace gpusc::probe
