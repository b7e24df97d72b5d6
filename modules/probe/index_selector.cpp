#include "probe/index_selector.h"

namespace gpusc::probe {

IndexSelector::IndexSelector(const Params& p, unsigned self, unsigned cores)
    : CoreSelector(self, cores), ring_((validate(p, "selector"), p.index_order == "ring")) {}

void IndexSelector::select(unsigned c, uint64_t, std::vector<unsigned>& out) {
  check_c(c);
  out.clear();
  const unsigned start = ring_ ? self() + 1 : 0;
  for (unsigned k = 0; out.size() < c; ++k) {
    const unsigned j = (start + k) % cores();
    if (j != self()) out.push_back(j);
  }
}

void IndexSelector::data_reply_from(unsigned supplier, uint64_t) { check_core(supplier, "data reply from"); }

}  // namespace gpusc::probe
