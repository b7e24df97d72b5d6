#include "workload/sssp.h"

#include <algorithm>
#include <cmath>

#include "common/report.h"

namespace gpusc {

struct SsspWorkload::Data {
  std::shared_ptr<const CsrGraph> g;
  std::shared_ptr<const std::vector<uint32_t>> weight;
  std::shared_ptr<const std::vector<uint32_t>> dist;   // at the launch's start
  std::shared_ptr<const std::vector<uint8_t>> active;  // the round's input flags (1: frontier)
  unsigned threads_per_cta;
  uint64_t row_ptr, col_idx, weight_base, dist_base, flag_in, flag_out, changed;
  bool values;  // stores carry flag_in[v] = 0, flag_out[u] = 1 and changed = 1
};

namespace {

enum Pc : uint32_t {
  kTid = 0x00, kBound = 0x10, kLdFlag = 0x20, kIsFrontier = 0x30, kStClear = 0x40, kLdDist = 0x50,
  kLdBegin = 0x60, kLdEnd = 0x70, kLdCol = 0x80, kLdWeight = 0x90, kLdNbrDist = 0xa0, kAdd = 0xb0,
  kIsShorter = 0xc0, kAtomMin = 0xd0, kStFlag = 0xe0, kStChanged = 0xf0, kLoop = 0x100,
};
constexpr uint64_t kWeightSalt = 0x5557;

class SsspWarp final : public LinearWarpStream {
 public:
  using Data = SsspWorkload::Data;
  SsspWarp(std::shared_ptr<const Data> d, unsigned cta, unsigned warp)
      : LinearWarpStream(d->threads_per_cta, cta, warp), d_(std::move(d)) {}

 private:
  uint32_t vertex(unsigned l) const { return static_cast<uint32_t>(first_ + l); }

  bool refill() override {
    const CsrGraph& g = *d_->g;
    const auto& dist = *d_->dist;
    if (phase_ == 0) {  // v = tid; if (v < n && flag_in[v]) { flag_in[v] = 0; dv = dist[v]; ...
      const uint32_t valid = lanes_below(exist_, first_, g.rows);
      compute(kTid, exist_);
      compute(kBound, exist_);
      load(kLdFlag, 4, valid, [&](unsigned l) { return d_->flag_in + 4 * uint64_t(vertex(l)); });
      compute(kIsFrontier, valid);
      for (unsigned l = 0; l < kWarpSize; ++l)
        if (((valid >> l) & 1u) && (*d_->active)[vertex(l)]) frontier_ |= 1u << l;
      if (!frontier_) return false;
      store(kStClear, 4, frontier_, [&](unsigned l) { return d_->flag_in + 4 * uint64_t(vertex(l)); }, d_->values,
            [](unsigned) { return 0u; });
      load(kLdDist, 4, frontier_, [&](unsigned l) { return d_->dist_base + 4 * uint64_t(vertex(l)); });
      load(kLdBegin, 4, frontier_, [&](unsigned l) { return d_->row_ptr + 4 * uint64_t(vertex(l)); });
      load(kLdEnd, 4, frontier_, [&](unsigned l) { return d_->row_ptr + 4 * (uint64_t(vertex(l)) + 1); });
      phase_ = 1;
      return true;
    }
    // One arc per frontier lane: u = col_idx[e]; alt = dv + weight[e];
    // if (alt < dist[u]) { atomicMin(&dist[u], alt); flag_out[u] = 1; changed = 1; }
    const uint32_t m = g.rows_longer_than(j_, first_, frontier_);
    if (!m) return false;
    auto e = [&](unsigned l) { return uint64_t(g.row_ptr[vertex(l)]) + j_; };
    auto nbr = [&](unsigned l) { return uint64_t(g.col_idx[e(l)]); };
    load(kLdCol, 4, m, [&](unsigned l) { return d_->col_idx + 4 * e(l); });
    load(kLdWeight, 4, m, [&](unsigned l) { return d_->weight_base + 4 * e(l); });
    load(kLdNbrDist, 4, m, [&](unsigned l) { return d_->dist_base + 4 * nbr(l); });
    compute(kAdd, m);
    compute(kIsShorter, m);
    uint32_t w = 0;
    for (unsigned l = 0; l < kWarpSize; ++l)
      if (((m >> l) & 1u) && uint64_t(dist[vertex(l)]) + (*d_->weight)[e(l)] < dist[nbr(l)]) w |= 1u << l;
    atomic(kAtomMin, 4, w, [&](unsigned l) { return d_->dist_base + 4 * nbr(l); });
    store(kStFlag, 4, w, [&](unsigned l) { return d_->flag_out + 4 * nbr(l); }, d_->values,
          [](unsigned) { return 1u; });
    store(kStChanged, 4, w, [&](unsigned) { return d_->changed; }, d_->values, [](unsigned) { return 1u; });
    compute(kLoop, m);
    ++j_;
    return true;
  }

  std::shared_ptr<const Data> d_;
  uint32_t frontier_ = 0;  // lanes whose vertex is in the frontier
  int phase_ = 0;
  uint32_t j_ = 0;         // arc loop iteration
};

// The weight of every arc of g (header comment: `weights`).
std::vector<uint32_t> arc_weights(const SsspWorkload::Params& p, const CsrGraph& g) {
  const bool use_values = p.weights == "values" || (p.weights == "auto" && !p.input.empty() && g.has_values());
  if (use_values && !g.has_values())
    error("gpusc.workload", "sssp.weights = values, but the input graph has no values (a pattern matrix, an edge list "
                            "or a generator without values); use weights = hashed or auto");
  std::vector<uint32_t> w(g.nnz());
  for (uint32_t v = 0; v < g.rows; ++v)
    for (uint32_t e = g.row_ptr[v]; e < g.row_ptr[v + 1]; ++e) {
      if (use_values) {
        const double a = std::fabs(double(g.values[e]));
        if (!(a < 4294967295.0))
          error("gpusc.workload", "sssp.weights = values: arc ", v, " -> ", g.col_idx[e], " has value ", g.values[e],
                ", whose magnitude does not fit a 32-bit weight");
        w[e] = std::max<uint32_t>(1u, static_cast<uint32_t>(std::llround(a)));
      } else {
        const uint32_t u = g.col_idx[e];
        const uint64_t key = (uint64_t(std::min(u, v)) << 32) | std::max(u, v);
        const auto h = static_cast<uint32_t>(double(p.max_weight) * AddressSpace::hashed_unit(kWeightSalt, key));
        w[e] = 1 + std::min(h, p.max_weight - 1);
      }
    }
  return w;
}

}  // namespace

SsspWorkload::SsspWorkload(const Params& p, std::shared_ptr<const CsrGraph> graph) : p_(p), g_(std::move(graph)) {
  validate(p_, "sssp");
  if (!g_) error("gpusc.workload", "sssp: no input graph");
  g_->validate("sssp input graph");
  p_.source = search_source(p_, *g_, "sssp");
  weight_ = std::make_shared<const std::vector<uint32_t>>(arc_weights(p_, *g_));
  row_ptr_ = space_.allocate("row_ptr", 4 * (uint64_t(g_->rows) + 1));
  col_idx_ = space_.allocate("col_idx", 4 * g_->nnz());
  weight_base_ = space_.allocate("weight", 4 * g_->nnz());
  dist_base_ = space_.allocate("dist", 4 * uint64_t(g_->rows));
  flag_[0] = space_.allocate("flag0", 4 * uint64_t(g_->rows));
  flag_[1] = space_.allocate("flag1", 4 * uint64_t(g_->rows));
  changed_ = space_.allocate("changed", 4);
  const std::shared_ptr<const CsrGraph> g = g_;
  const uint32_t source = p_.source;
  space_.set_contents("row_ptr", AddressSpace::words([g](uint64_t i) { return g->row_ptr[i]; }));
  space_.set_contents("col_idx", AddressSpace::words([g](uint64_t i) { return g->col_idx[i]; }));
  space_.set_contents("weight", AddressSpace::vector_of(weight_));
  space_.set_contents("dist", AddressSpace::words([source](uint64_t v) { return v == source ? 0u : kUnreached; }));
  space_.set_contents("flag0", AddressSpace::words([source](uint64_t v) { return v == source ? 1u : 0u; }));
  space_.set_contents("flag1", AddressSpace::zeros());
  space_.set_contents("changed", AddressSpace::zeros());
  dist_.assign(g_->rows, kUnreached);
  dist_[p_.source] = 0;
  frontier_.push_back(p_.source);
  queued_.assign(g_->rows, 0);
}

std::unique_ptr<Kernel> SsspWorkload::next_kernel() {
  if (frontier_.empty()) return nullptr;  // the previous launch set no `changed` flag
  auto start = std::make_shared<const std::vector<uint32_t>>(dist_);
  auto active = std::make_shared<std::vector<uint8_t>>(g_->rows, 0);
  for (uint32_t v : frontier_) (*active)[v] = 1;
  auto d = std::make_shared<Data>(Data{g_, weight_, start, active, p_.threads_per_cta, row_ptr_, col_idx_,
                                       weight_base_, dist_base_, flag_[round_ % 2], flag_[(round_ + 1) % 2],
                                       changed_, values_});
  auto k = std::make_unique<KernelOf<SsspWarp, Data>>("sssp.round" + std::to_string(round_),
                                                      ctas_for(g_->rows, p_.threads_per_cta), p_.threads_per_cta,
                                                      std::move(d));
  // The launch's result: every neighbour of the frontier gets the shortest candidate, from the
  // distances at the round's start; the vertices whose distance fell are the next frontier.
  const std::vector<uint32_t>& from = *start;
  const std::vector<uint32_t>& w = *weight_;
  std::vector<uint32_t> next;
  for (uint32_t v : frontier_)
    for (uint32_t e = g_->row_ptr[v]; e < g_->row_ptr[v + 1]; ++e) {
      const uint32_t u = g_->col_idx[e];
      const uint64_t alt = uint64_t(from[v]) + w[e];
      if (alt >= kUnreached)
        error("gpusc.workload", "sssp: the distance of vertex ", u, " exceeds ", kUnreached - 1,
              " (32-bit distances); use smaller weights (sssp.weights, max_weight)");
      if (alt >= dist_[u]) continue;
      dist_[u] = static_cast<uint32_t>(alt);
      if (!queued_[u]) {
        queued_[u] = 1;
        next.push_back(u);
      }
    }
  for (uint32_t u : next) queued_[u] = 0;
  frontier_ = std::move(next);
  ++round_;
  return k;
}

}  // namespace gpusc
