#include "workload/bfs.h"

#include "common/report.h"

namespace gpusc {

struct BfsWorkload::Data {
  std::shared_ptr<const CsrGraph> g;
  // Final levels of the vertices found so far. Launch `depth` treats level <= depth as visited
  // at its start; later launches only turn kUnreached into larger levels, which keeps that view.
  std::shared_ptr<const std::vector<uint32_t>> level;
  uint32_t depth;
  unsigned threads_per_cta;
  uint64_t row_ptr, col_idx, level_base, changed;
  bool values;  // stores carry level[u] = depth + 1 and changed = 1
};

namespace {

enum Pc : uint32_t {
  kTid = 0x00, kBound = 0x10, kLdLevel = 0x20, kIsFrontier = 0x30, kLdBegin = 0x40, kLdEnd = 0x50,
  kLdCol = 0x60, kLdNbrLevel = 0x70, kIsUnvisited = 0x80, kStLevel = 0x90, kStChanged = 0xa0, kLoop = 0xb0,
};

class BfsWarp final : public LinearWarpStream {
 public:
  using Data = BfsWorkload::Data;
  BfsWarp(std::shared_ptr<const Data> d, unsigned cta, unsigned warp)
      : LinearWarpStream(d->threads_per_cta, cta, warp), d_(std::move(d)) {}

 private:
  uint32_t vertex(unsigned l) const { return static_cast<uint32_t>(first_ + l); }

  bool refill() override {
    const CsrGraph& g = *d_->g;
    const auto& level = *d_->level;
    if (phase_ == 0) {  // v = tid; if (v < n && level[v] == depth) {
      const uint32_t valid = lanes_below(exist_, first_, g.rows);
      compute(kTid, exist_);
      compute(kBound, exist_);
      load(kLdLevel, 4, valid, [&](unsigned l) { return d_->level_base + 4 * uint64_t(vertex(l)); });
      compute(kIsFrontier, valid);
      for (unsigned l = 0; l < kWarpSize; ++l)
        if (((valid >> l) & 1u) && level[vertex(l)] == d_->depth) frontier_ |= 1u << l;
      if (!frontier_) return false;
      load(kLdBegin, 4, frontier_, [&](unsigned l) { return d_->row_ptr + 4 * uint64_t(vertex(l)); });
      load(kLdEnd, 4, frontier_, [&](unsigned l) { return d_->row_ptr + 4 * (uint64_t(vertex(l)) + 1); });
      phase_ = 1;
      return true;
    }
    // One arc per frontier lane: u = col_idx[e]; if (level[u] > depth) { level[u] = depth + 1; changed = 1; }
    const uint32_t m = g.rows_longer_than(j_, first_, frontier_);
    if (!m) return false;
    auto e = [&](unsigned l) { return uint64_t(g.row_ptr[vertex(l)]) + j_; };
    load(kLdCol, 4, m, [&](unsigned l) { return d_->col_idx + 4 * e(l); });
    load(kLdNbrLevel, 4, m, [&](unsigned l) { return d_->level_base + 4 * uint64_t(g.col_idx[e(l)]); });
    compute(kIsUnvisited, m);
    uint32_t w = 0;
    for (unsigned l = 0; l < kWarpSize; ++l)
      if (((m >> l) & 1u) && level[g.col_idx[e(l)]] > d_->depth) w |= 1u << l;
    store(kStLevel, 4, w, [&](unsigned l) { return d_->level_base + 4 * uint64_t(g.col_idx[e(l)]); }, d_->values,
          [&](unsigned) { return d_->depth + 1; });
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

}  // namespace

BfsWorkload::BfsWorkload(const Params& p, std::shared_ptr<const CsrGraph> graph)
    : p_(p), g_(std::move(graph)) {
  validate(p_, "bfs");
  if (!g_) error("gpusc.workload", "bfs: no input graph");
  g_->validate("bfs input graph");
  p_.source = search_source(p_, *g_, "bfs");
  row_ptr_ = space_.allocate("row_ptr", 4 * (uint64_t(g_->rows) + 1));
  col_idx_ = space_.allocate("col_idx", 4 * g_->nnz());
  level_base_ = space_.allocate("level", 4 * uint64_t(g_->rows));
  changed_ = space_.allocate("changed", 4);
  const std::shared_ptr<const CsrGraph> g = g_;
  const uint32_t source = p_.source;
  space_.set_contents("row_ptr", AddressSpace::words([g](uint64_t i) { return g->row_ptr[i]; }));
  space_.set_contents("col_idx", AddressSpace::words([g](uint64_t i) { return g->col_idx[i]; }));
  space_.set_contents("level", AddressSpace::words([source](uint64_t v) { return v == source ? 0u : kUnreached; }));
  space_.set_contents("changed", AddressSpace::zeros());
  level_ = std::make_shared<std::vector<uint32_t>>(g_->rows, kUnreached);
  (*level_)[p_.source] = 0;
  frontier_.push_back(p_.source);
}

std::unique_ptr<Kernel> BfsWorkload::next_kernel() {
  if (frontier_.empty()) return nullptr;  // the previous launch set no `changed` flag
  auto d = std::make_shared<Data>(Data{g_, level_, depth_, p_.threads_per_cta, row_ptr_, col_idx_,
                                       level_base_, changed_, values_});
  auto k = std::make_unique<KernelOf<BfsWarp, Data>>("bfs.level" + std::to_string(depth_),
                                                     ctas_for(g_->rows, p_.threads_per_cta),
                                                     p_.threads_per_cta, std::move(d));
  // The launch's result: every unvisited neighbour of the frontier gets level depth + 1.
  std::vector<uint32_t> next;
  auto& level = *level_;
  for (uint32_t v : frontier_)
    for (uint32_t e = g_->row_ptr[v]; e < g_->row_ptr[v + 1]; ++e) {
      const uint32_t u = g_->col_idx[e];
      if (level[u] == kUnreached) {
        level[u] = depth_ + 1;
        next.push_back(u);
      }
    }
  frontier_ = std::move(next);
  ++depth_;
  return k;
}

}  // namespace gpusc
