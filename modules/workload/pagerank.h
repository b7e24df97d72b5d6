// PageRank: pull-based PageRank with a fixed number of iterations, one launch per iteration,
// one thread per vertex: the pull formulation of GAP / Gardenia-style GPU PageRank (Pannotia's
// PageRank is the push variant of the same computation).
// Access pattern per thread v: in_row_ptr[v], in_row_ptr[v+1], then per in-arc e
// in_col_idx[e], rank_src[u] and out_degree[u] of the source vertex u (two gathers per arc),
// and one store rank_dst[v] = (1 - damping) / n + damping * sum(rank[u] / out_degree[u]).
// rank0 and rank1 alternate as source and destination between iterations.
// Choices: the in-edge CSR (the transpose) is built on the host, as the suites do before the
// first launch; the contribution rank[u] / out_degree[u] is computed per arc (no separate
// contribution kernel); rank lost at vertices without out-arcs is not redistributed. The host
// runs the same iteration in double precision in next_kernel(), so ranks() is the real result.
// Default input: R-MAT scale 18 (2^18 vertices), edge factor 4, directed, with GTgraph's default
// probabilities (a, b, c, d) = (0.45, 0.15, 0.15, 0.25), 1 iteration: footprint 8 MiB, ~620k warp
// instructions. Not Graph500's (0.57, 0.19, 0.19, 0.05): its hub vertex has 5581 in-arcs at
// this scale, walked by one thread with nothing else left to run. One iteration because every
// iteration has the same access pattern and the 8 MiB do not fit the L2 (iterations raises it).
// size=small: R-MAT scale 12, edge factor 8, Graph500 probabilities, 4 iterations (~160k
// instructions).
// Values (kernel.h): in_row_ptr / in_col_idx are the in-edge CSR arrays, out_degree the out
// degrees, rank0 = 1/n and rank1 = 0 at start; launch i's store writes rank_dst[v] = the rank the
// host computes for iteration i (double, rounded to the kernel's float).
#pragma once
#include <memory>
#include <vector>

#include "workload/graph_input.h"
#include "workload/grid_kernel.h"

namespace gpusc {

class PagerankWorkload : public Workload {
 public:
  struct Params : GraphInputParams {
    unsigned iterations = 1;         // launches [count]
    double damping = 0.85;           // damping factor
    unsigned threads_per_cta = 256;  // CTA size [threads]
    Params() {
      scale = 18;
      edge_factor = 4;
      rmat_a = 0.45, rmat_b = 0.15, rmat_c = 0.15, rmat_d = 0.25;
    }
    // size=small (tests, demos): R-MAT scale 12, edge factor 8, 4 iterations.
    static Params small() {
      Params p;
      p.generator = "rmat";
      p.scale = 12;
      p.edge_factor = 8;
      p.rmat_a = 0.57, p.rmat_b = 0.19, p.rmat_c = 0.19, p.rmat_d = 0.05;
      p.iterations = 4;
      return p;
    }
    template <class F> static void describe(F&& f) {
      GraphInputParams::describe(f);
      using S = Params;
      GPUSC_PARAM_R(iterations, 1, 1000, "iterations = launches [count]");
      GPUSC_PARAM_R(damping, 0, 1, "damping factor");
      GPUSC_PARAM_R(threads_per_cta, 1, 1024, "CTA size [threads]");
    }
  };

  PagerankWorkload(const Params& p, std::shared_ptr<const CsrGraph> graph);
  struct Data;  // what the streams of one launch share (defined in the .cpp)

  std::string name() const override { return "pagerank"; }
  std::unique_ptr<Kernel> next_kernel() override;
  const AddressSpace& address_space() const override { return space_; }
  bool has_values() const override { return true; }
  void enable_values() override { values_ = true; }
  const std::vector<double>& ranks() const { return rank_; }  // after the launches so far

 private:
  Params p_;
  std::shared_ptr<const CsrGraph> in_;  // in-edge CSR: row v lists the sources of arcs into v
  std::shared_ptr<std::vector<uint32_t>> out_degree_;  // shared with the out_degree contents
  bool values_ = false;
  std::vector<double> rank_;
  unsigned iter_ = 0;
  AddressSpace space_;
  uint64_t in_row_ptr_ = 0, in_col_idx_ = 0, out_degree_base_ = 0, rank_base_[2] = {0, 0};
};

}  // namespace gpusc
