#include "workload/kmeans.h"

#include "common/report.h"
#include "workload/seeded_rng.h"

namespace gpusc {

struct KmeansWorkload::Data {
  Params p;
  uint64_t features, centroids, membership;
  std::shared_ptr<const std::vector<int32_t>> member;  // the stored membership, when values are on
};

namespace {

enum Pc : uint32_t { kTid = 0x00, kBound = 0x10, kInit = 0x20, kLdFeature = 0x30, kLdCentroid = 0x40,
                     kSub = 0x50, kFma = 0x60, kCmp = 0x70, kSel = 0x80, kStMember = 0x90 };

class KmeansWarp final : public BufferedWarpStream {
 public:
  using Data = KmeansWorkload::Data;
  KmeansWarp(std::shared_ptr<const Data> d, unsigned cta, unsigned warp)
      : d_(std::move(d)),
        exist_(cta_lane_mask(d_->p.threads_per_cta, warp)),
        first_(uint64_t(cta) * d_->p.threads_per_cta + uint64_t(warp) * kWarpSize),
        valid_(lanes_below(exist_, first_, d_->p.points)) {}

 private:
  bool refill() override {
    const KmeansWorkload::Params& p = d_->p;
    if (!started_) {  // pt = tid; if (pt < npoints) { min = FLT_MAX;
      started_ = true;
      compute(kTid, exist_);
      compute(kBound, exist_);
      compute(kInit, valid_);
      return valid_ != 0;
    }
    if (c_ < p.clusters) {  // diff = features[f * n + pt] - centroids[c * F + f]; dist += diff * diff
      load(kLdFeature, 4, valid_, [&](unsigned l) { return d_->features + 4 * (uint64_t(f_) * p.points + first_ + l); });
      if (!p.centroids_in_constant)
        load(kLdCentroid, 4, valid_, [&](unsigned) { return d_->centroids + 4 * (uint64_t(c_) * p.features + f_); });
      compute(kSub, valid_);
      compute(kFma, valid_);
      if (++f_ == p.features) {  // if (dist < min) { min = dist; index = c; }
        compute(kCmp, valid_);
        compute(kSel, valid_);
        f_ = 0;
        ++c_;
      }
      return true;
    }
    store(kStMember, 4, valid_, [&](unsigned l) { return d_->membership + 4 * (first_ + l); }, d_->member != nullptr,
          [&](unsigned l) { return (*d_->member)[first_ + l]; });
    return false;
  }

  std::shared_ptr<const Data> d_;
  uint32_t exist_;
  uint64_t first_;
  uint32_t valid_;
  bool started_ = false;
  unsigned c_ = 0, f_ = 0;  // cluster, feature
};

}  // namespace

KmeansWorkload::KmeansWorkload(const Params& p, uint64_t seed) : p_(p) {
  validate(p_, "kmeans");
  SeededRng rng(seed);
  std::vector<float> centre(size_t(p.clusters) * p.features);
  for (auto& x : centre) x = static_cast<float>(rng.uniform());
  data_ = std::make_shared<std::vector<float>>(size_t(p.points) * p.features);
  std::vector<float>& data = *data_;
  for (unsigned i = 0; i < p.points; ++i) {
    const auto b = rng.below(p.clusters);
    for (unsigned f = 0; f < p.features; ++f)
      data[size_t(i) * p.features + f] = static_cast<float>(centre[b * p.features + f] + 0.05 * rng.normal());
  }
  init();
}

KmeansWorkload::KmeansWorkload(const Params& p, std::vector<float> data) : p_(p), data_(std::make_shared<std::vector<float>>(std::move(data))) {
  validate(p_, "kmeans");
  if (data_->size() != size_t(p.points) * p.features)
    error("gpusc.workload", "kmeans: ", data_->size(), " data values given, expected points * features = ",
          size_t(p.points) * p.features);
  init();
}

void KmeansWorkload::init() {
  if (p_.clusters > p_.points)
    error("gpusc.workload", "kmeans.clusters = ", p_.clusters, " exceeds kmeans.points = ", p_.points);
  centroids_.assign(data_->begin(), data_->begin() + size_t(p_.clusters) * p_.features);
  membership_.assign(p_.points, -1);
  auto d = std::make_shared<Data>();
  d->p = p_;
  d->features = space_.allocate("features", 4 * uint64_t(p_.points) * p_.features);
  d->centroids = space_.allocate("centroids", 4 * uint64_t(p_.clusters) * p_.features);
  d->membership = space_.allocate("membership", 4 * uint64_t(p_.points));
  const std::shared_ptr<const std::vector<float>> pts = data_;
  const uint64_t n = p_.points, nf = p_.features;
  space_.set_contents("features", AddressSpace::floats([pts, n, nf](uint64_t i) { return (*pts)[(i % n) * nf + i / n]; }));
  space_.set_contents("centroids", AddressSpace::floats([pts](uint64_t i) { return (*pts)[i]; }));
  space_.set_contents("membership", AddressSpace::words([](uint64_t) { return static_cast<uint32_t>(-1); }));
  d_ = std::move(d);
}

void KmeansWorkload::assign_and_update() {
  const unsigned n = p_.points, k = p_.clusters, nf = p_.features;
  unsigned delta = 0;
  for (unsigned i = 0; i < n; ++i) {
    int32_t best = 0;
    float best_dist = 0;
    for (unsigned c = 0; c < k; ++c) {
      float dist = 0;
      for (unsigned f = 0; f < nf; ++f) {
        const float diff = (*data_)[size_t(i) * nf + f] - centroids_[size_t(c) * nf + f];
        dist += diff * diff;
      }
      if (c == 0 || dist < best_dist) {
        best_dist = dist;
        best = static_cast<int32_t>(c);
      }
    }
    if (membership_[i] != best) ++delta;
    membership_[i] = best;
  }
  std::vector<double> sum(size_t(k) * nf, 0.0);
  std::vector<unsigned> count(k, 0);
  for (unsigned i = 0; i < n; ++i) {
    ++count[membership_[i]];
    for (unsigned f = 0; f < nf; ++f) sum[size_t(membership_[i]) * nf + f] += (*data_)[size_t(i) * nf + f];
  }
  for (unsigned c = 0; c < k; ++c)
    if (count[c])
      for (unsigned f = 0; f < nf; ++f) centroids_[size_t(c) * nf + f] = static_cast<float>(sum[size_t(c) * nf + f] / count[c]);
  converged_ = delta == 0;
}

std::unique_ptr<Kernel> KmeansWorkload::next_kernel() {
  if (converged_ || launched_ == p_.max_iterations) return nullptr;
  assign_and_update();
  std::shared_ptr<const Data> d = d_;
  if (values_) {
    auto dv = std::make_shared<Data>(*d_);
    dv->member = std::make_shared<const std::vector<int32_t>>(membership_);
    d = std::move(dv);
  }
  auto k = std::make_unique<KernelOf<KmeansWarp, Data>>("kmeans.iter" + std::to_string(launched_),
                                                        ctas_for(p_.points, p_.threads_per_cta), p_.threads_per_cta, d);
  ++launched_;
  return k;
}

}  // namespace gpusc
