// SSSP: single-source shortest paths by topology-driven Bellman-Ford relaxation, one launch per
// round, one thread per vertex, in the style of Lonestar-GPU's sssp (topology-driven variant:
// alt = dist[src] + wt; if (alt < dist[dst]) atomicMin(&dist[dst], alt), a host-visible
// `changed` flag, the host relaunching until a round changes nothing), with the per-vertex
// update mask of Harish & Narayanan's GPU SSSP (HiPC 2007; Rodinia's bfs is their BFS) as the
// frontier test, so only vertices whose distance fell in the previous round relax their arcs
// (Lonestar's topology variant has every vertex relax every round).
// Access pattern per thread v in round r: load flag_r[v] (the frontier test: dist[v] fell in
// round r - 1); for a frontier vertex store flag_r[v] = 0, load dist[v], row_ptr[v], row_ptr[v+1],
// then per arc e col_idx[e], weight[e] and dist[u] of the neighbour u; when dist[v] + weight[e] <
// dist[u], atomicMin(&dist[u], dist[v] + weight[e]) (an Atomic instruction), store
// flag_{r+1}[u] = 1 and the `changed` flag. Lanes iterate over arcs in lock step (divergence by
// degree). A search from s has (rounds that lower some distance) + 1 launches; the last one
// lowers nothing, so its `changed` stays unset and the host stops.
// Choices:
//   * frontier test: two flag arrays, flag0 and flag1, alternate as the round's input and output
//     (round r reads flag[r % 2], writes flag[(r + 1) % 2]); a frontier thread clears its own
//     input flag, so the output array of the next round is all zero when it starts, with no
//     host memset and no race between clearing and setting one flag (a single in-place mask, as
//     Harish & Narayanan's, needs their second kernel for that);
//   * each launch sees the distances as they were when it started (synchronous, Jacobi-style
//     Bellman-Ford): a thread issues the atomic when its candidate beats dist[u] at the round's
//     start, so the atomics issued are an upper bound of the GPU's, where a thread may already
//     see a lower distance another thread wrote in the same round; rounds are computed one at a
//     time by running the real step on the host in next_kernel();
//   * the atomicMin is an Atomic instruction (the L2 performs it, as histogram's atomicAdd);
//     `changed` and the flags are plain stores; dist[v] is loaded once per thread (Lonestar's
//     source reads dist[src] per arc, which a compiler may or may not hoist past the atomics);
//   * distances are 32-bit unsigned words, infinity kUnreached = UINT32_MAX (as bfs's levels); a
//     path longer than UINT32_MAX - 1 is an error naming the weights.
// Weights (`weights`): `hashed` gives arc (u, v) the integer weight 1 + floor(max_weight * h),
// h = AddressSpace::hashed_unit of the unordered pair {u, v}, so both directions of an edge weigh
// the same (default range [1, 64]); `values` takes the graph's values, as integers
// max(1, round(|value|)) (Matrix Market files hold reals of either sign; Bellman-Ford needs
// non-negative weights to stop, and weight 0 would make every real-valued file with small
// entries a zero-distance graph); `auto` (default) takes the values of an input file that has
// them and hashes otherwise (the generators' values are SpMV matrix entries in [-1, 1), not weights).
// Default input: bfs's uniform random graph at half its vertices, 2^17, 3 arcs drawn per vertex,
// symmetrized, from vertex 0, weights hashed in [1, 64]: footprint 8 MiB (bfs's), 25 launches,
// ~3.8M warp instructions, 17.2M cycles on ics8x8 (docs/workloads.md). Half, because
// Bellman-Ford re-relaxes a vertex each time its distance falls: on bfs's 2^18 vertices it takes
// 27 launches, 4x bfs's instructions and 35.8M cycles, past mesh_gpu's default --max-cycles
// (20M). size=small: R-MAT scale
// 12, edge factor 8, symmetrized (as bfs; 0.47 MiB, 9 launches, ~270k instructions).
// Values (kernel.h): row_ptr, col_idx and weight are the graph's CSR arrays and weights, dist
// starts at 0 for the source and kUnreached elsewhere, flag0 at 1 for the source and 0
// elsewhere, flag1 and changed at 0; a store writes flag_r[v] = 0, flag_{r+1}[u] = 1 or
// changed = 1. The atomicMin carries no value and is not applied to the memory image (the L2
// model does no arithmetic, as for histogram), so dist in memory keeps its initial contents.
// source_from = max-degree starts at the vertex with the most arcs (as bfs).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "workload/graph_input.h"
#include "workload/grid_kernel.h"

namespace gpusc {

class SsspWorkload : public Workload {
 public:
  struct Params : GraphSearchParams {
    std::string weights = "auto";  // auto | hashed | values (header comment)
    unsigned max_weight = 64;      // hashed weights lie in [1, max_weight]
    Params() { rows = 1u << 17; }  // half of bfs's graph (header comment)
    // size=small (tests, demos): R-MAT scale 12, edge factor 8, symmetrized (as bfs).
    static Params small() {
      Params p;
      p.generator = "rmat";
      p.scale = 12;
      p.edge_factor = 8;
      return p;
    }
    template <class F> static void describe(F&& f) {
      GraphSearchParams::describe(f);
      using S = Params;
      GPUSC_PARAM_C(weights, "auto|hashed|values",
                    "arc weights: hashed integers in [1, max_weight], the graph's values as max(1, round(|v|)), or "
                    "auto: the values of an input file that has them, hashed otherwise");
      GPUSC_PARAM_R(max_weight, 1, 1 << 20, "largest hashed weight (hashed weights lie in [1, max_weight])");
    }
  };
  static constexpr uint32_t kUnreached = UINT32_MAX;

  SsspWorkload(const Params& p, std::shared_ptr<const CsrGraph> graph);
  struct Data;  // what the streams of one launch share (defined in the .cpp)

  std::string name() const override { return "sssp"; }
  std::unique_ptr<Kernel> next_kernel() override;
  const AddressSpace& address_space() const override { return space_; }
  bool has_values() const override { return true; }
  void enable_values() override { values_ = true; }
  // Distances after the launches made so far (kUnreached for vertices not reached yet).
  const std::vector<uint32_t>& distances() const { return dist_; }
  // The weight of every arc, in CSR order.
  const std::vector<uint32_t>& weights() const { return *weight_; }
  // Launches made so far.
  uint32_t rounds() const { return round_; }

 private:
  Params p_;
  std::shared_ptr<const CsrGraph> g_;
  std::shared_ptr<const std::vector<uint32_t>> weight_;
  std::vector<uint32_t> dist_;
  std::vector<uint32_t> frontier_;  // vertices whose distance fell in the previous round
  std::vector<uint8_t> queued_;     // scratch: vertex already in the next frontier
  uint32_t round_ = 0;
  bool values_ = false;
  AddressSpace space_;
  uint64_t row_ptr_ = 0, col_idx_ = 0, weight_base_ = 0, dist_base_ = 0, flag_[2] = {0, 0}, changed_ = 0;
};

}  // namespace gpusc
