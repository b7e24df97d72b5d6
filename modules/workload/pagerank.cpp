#include "workload/pagerank.h"

#include "common/report.h"

namespace gpusc {

struct PagerankWorkload::Data {
  std::shared_ptr<const CsrGraph> in;
  unsigned threads_per_cta;
  uint64_t in_row_ptr, in_col_idx, out_degree, rank_src, rank_dst;
  std::shared_ptr<const std::vector<float>> result;  // rank_dst as stored, when values are on
};

namespace {

enum Pc : uint32_t {
  kTid = 0x00, kBound = 0x10, kLdBegin = 0x20, kLdEnd = 0x30, kInit = 0x40, kLdSrc = 0x50,
  kLdRank = 0x60, kLdDeg = 0x70, kDiv = 0x80, kAdd = 0x90, kLoop = 0xa0, kDamp = 0xb0, kStRank = 0xc0,
};

class PagerankWarp final : public BufferedWarpStream {
 public:
  using Data = PagerankWorkload::Data;
  PagerankWarp(std::shared_ptr<const Data> d, unsigned cta, unsigned warp)
      : d_(std::move(d)),
        exist_(cta_lane_mask(d_->threads_per_cta, warp)),
        first_(uint64_t(cta) * d_->threads_per_cta + uint64_t(warp) * kWarpSize),
        valid_(lanes_below(exist_, first_, d_->in->rows)) {}

 private:
  bool refill() override {
    const CsrGraph& in = *d_->in;
    if (phase_ == 0) {  // v = tid; if (v < n) { begin = in_row_ptr[v]; end = in_row_ptr[v+1]; sum = 0;
      compute(kTid, exist_);
      compute(kBound, exist_);
      if (!valid_) return false;
      load(kLdBegin, 4, valid_, [&](unsigned l) { return d_->in_row_ptr + 4 * (first_ + l); });
      load(kLdEnd, 4, valid_, [&](unsigned l) { return d_->in_row_ptr + 4 * (first_ + l + 1); });
      compute(kInit, valid_);
      phase_ = 1;
      return true;
    }
    if (phase_ == 1) {  // u = in_col_idx[e]; sum += rank_src[u] / out_degree[u];
      uint32_t m = 0;
      for (unsigned l = 0; l < kWarpSize; ++l)
        if (((valid_ >> l) & 1u) && j_ < in.degree(static_cast<uint32_t>(first_ + l))) m |= 1u << l;
      if (!m) {
        phase_ = 2;
        return true;
      }
      auto e = [&](unsigned l) { return uint64_t(in.row_ptr[first_ + l]) + j_; };
      load(kLdSrc, 4, m, [&](unsigned l) { return d_->in_col_idx + 4 * e(l); });
      load(kLdRank, 4, m, [&](unsigned l) { return d_->rank_src + 4 * uint64_t(in.col_idx[e(l)]); });
      load(kLdDeg, 4, m, [&](unsigned l) { return d_->out_degree + 4 * uint64_t(in.col_idx[e(l)]); });
      compute(kDiv, m, kSfuCycles);
      compute(kAdd, m);
      compute(kLoop, m);
      ++j_;
      return true;
    }
    compute(kDamp, valid_);  // rank_dst[v] = (1 - d) / n + d * sum
    store(kStRank, 4, valid_, [&](unsigned l) { return d_->rank_dst + 4 * (first_ + l); }, d_->result != nullptr,
          [&](unsigned l) { return (*d_->result)[first_ + l]; });
    return false;
  }

  std::shared_ptr<const Data> d_;
  uint32_t exist_;
  uint64_t first_;  // vertex of lane 0
  uint32_t valid_;
  int phase_ = 0;
  uint32_t j_ = 0;
};

}  // namespace

PagerankWorkload::PagerankWorkload(const Params& p, std::shared_ptr<const CsrGraph> graph) : p_(p) {
  validate(p_, "pagerank");
  if (!graph) error("gpusc.workload", "pagerank: no input graph");
  graph->validate("pagerank input graph");
  if (graph->rows != graph->cols)
    error("gpusc.workload", "pagerank: the graph must be square (adjacency matrix), got ", graph->rows,
          " x ", graph->cols);
  const uint32_t n = graph->rows;
  out_degree_ = std::make_shared<std::vector<uint32_t>>(n);
  for (uint32_t v = 0; v < n; ++v) (*out_degree_)[v] = graph->degree(v);
  in_ = std::make_shared<const CsrGraph>(graph->transposed());
  rank_.assign(n, n ? 1.0 / n : 0.0);
  in_row_ptr_ = space_.allocate("in_row_ptr", 4 * (uint64_t(n) + 1));
  in_col_idx_ = space_.allocate("in_col_idx", 4 * in_->nnz());
  out_degree_base_ = space_.allocate("out_degree", 4 * uint64_t(n));
  rank_base_[0] = space_.allocate("rank0", 4 * uint64_t(n));
  rank_base_[1] = space_.allocate("rank1", 4 * uint64_t(n));
  const std::shared_ptr<const CsrGraph> in = in_;
  const std::shared_ptr<const std::vector<uint32_t>> deg = out_degree_;
  space_.set_contents("in_row_ptr", AddressSpace::words([in](uint64_t i) { return in->row_ptr[i]; }));
  space_.set_contents("in_col_idx", AddressSpace::words([in](uint64_t i) { return in->col_idx[i]; }));
  space_.set_contents("out_degree", AddressSpace::vector_of(deg));
  const float r0 = n ? static_cast<float>(1.0 / n) : 0.0f;
  space_.set_contents("rank0", AddressSpace::floats([r0](uint64_t) { return r0; }));
  space_.set_contents("rank1", AddressSpace::zeros());
}

std::unique_ptr<Kernel> PagerankWorkload::next_kernel() {
  if (iter_ == p_.iterations) return nullptr;
  const uint32_t n = in_->rows;
  std::vector<double> next(n);
  for (uint32_t v = 0; v < n; ++v) {
    double sum = 0;
    for (uint32_t e = in_->row_ptr[v]; e < in_->row_ptr[v + 1]; ++e)
      sum += rank_[in_->col_idx[e]] / (*out_degree_)[in_->col_idx[e]];
    next[v] = (1.0 - p_.damping) / n + p_.damping * sum;
  }
  std::shared_ptr<const std::vector<float>> result;
  if (values_) result = std::make_shared<const std::vector<float>>(next.begin(), next.end());
  auto d = std::make_shared<Data>(Data{in_, p_.threads_per_cta, in_row_ptr_, in_col_idx_, out_degree_base_,
                                       rank_base_[iter_ % 2], rank_base_[(iter_ + 1) % 2], std::move(result)});
  auto k = std::make_unique<KernelOf<PagerankWarp, Data>>("pagerank.iter" + std::to_string(iter_),
                                                          ctas_for(in_->rows, p_.threads_per_cta),
                                                          p_.threads_per_cta, std::move(d));
  rank_ = std::move(next);
  ++iter_;
  return k;
}

}  // namespace gpusc
