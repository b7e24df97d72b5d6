#include "workload/bitonic_sort.h"

#include "common/report.h"

namespace gpusc {

struct BitonicSortWorkload::Data {
  Params p;
  uint64_t array;
};

namespace {

enum Pc : uint32_t { kIds = 0x00, kBound = 0x10, kLdLeft = 0x20, kLdRight = 0x30, kCmp = 0x40, kStLeft = 0x50,
                     kStRight = 0x60 };

class BitonicWarp final : public BufferedWarpStream {
 public:
  struct Launch {
    std::shared_ptr<const BitonicSortWorkload::Data> d;
    unsigned stage, pass;
  };
  using Data = Launch;
  BitonicWarp(std::shared_ptr<const Launch> l, unsigned cta, unsigned warp)
      : l_(std::move(l)),
        exist_(cta_lane_mask(l_->d->p.threads_per_cta, warp)),
        first_(uint64_t(cta) * l_->d->p.threads_per_cta + uint64_t(warp) * kWarpSize) {}

 private:
  uint64_t left(unsigned lane) const {
    const uint64_t t = first_ + lane, dist = uint64_t{1} << (l_->stage - l_->pass);
    return t % dist + (t / dist) * 2 * dist;
  }
  bool refill() override {
    const uint64_t base = l_->d->array, dist = uint64_t{1} << (l_->stage - l_->pass);
    const uint32_t valid = lanes_below(exist_, first_, l_->d->p.length / 2);
    compute(kIds, exist_);
    compute(kBound, exist_);
    load(kLdLeft, 4, valid, [&](unsigned l) { return base + 4 * left(l); });
    load(kLdRight, 4, valid, [&](unsigned l) { return base + 4 * (left(l) + dist); });
    compute(kCmp, valid);
    store(kStLeft, 4, valid, [&](unsigned l) { return base + 4 * left(l); });
    store(kStRight, 4, valid, [&](unsigned l) { return base + 4 * (left(l) + dist); });
    return false;
  }
  std::shared_ptr<const Launch> l_;
  uint32_t exist_;
  uint64_t first_;
};

bool power_of_two(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

}  // namespace

unsigned BitonicSortWorkload::launches(uint64_t length) {
  const unsigned s = static_cast<unsigned>(__builtin_ctzll(length));  // length is a power of two
  return s * (s + 1) / 2;
}

void BitonicSortWorkload::stage_pass(unsigned index, unsigned& stage, unsigned& pass) {
  stage = 0;
  while (index > stage) index -= ++stage;  // stage s has s + 1 passes
  pass = index;
}

BitonicSortWorkload::BitonicSortWorkload(const Params& p)
    : SequenceWorkload("bitonic-sort", power_of_two(p.length) ? launches(p.length) : 0) {
  validate(p, "bitonic-sort");
  if (!power_of_two(p.length))
    error("gpusc.workload", "bitonic-sort.length = ", p.length, " must be a power of two (the SDK sorts 2^k elements)");
  auto d = std::make_shared<Data>();
  d->p = p;
  d->array = space_.allocate("array", 4 * p.length);
  d_ = std::move(d);
}

std::unique_ptr<Kernel> BitonicSortWorkload::launch(unsigned index) {
  auto l = std::make_shared<BitonicWarp::Launch>();
  l->d = d_;
  stage_pass(index, l->stage, l->pass);
  const uint64_t threads = d_->p.length / 2;
  return std::make_unique<KernelOf<BitonicWarp, BitonicWarp::Launch>>(
      "bitonic-sort.s" + std::to_string(l->stage) + "p" + std::to_string(l->pass),
      ctas_for(threads, d_->p.threads_per_cta), d_->p.threads_per_cta, std::move(l));
}

}  // namespace gpusc
