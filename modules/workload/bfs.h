// BFS: level-synchronous breadth-first search, one launch per level, one thread per vertex,
// the topology-driven formulation of Rodinia's bfs and Lonestar-GPU's bfs (topo): launch L
// lets every vertex whose level is L expand its neighbours.
// Access pattern per thread v (as in the originals): load level[v] (the frontier test), and
// for a frontier vertex row_ptr[v], row_ptr[v+1], then per arc e col_idx[e] and level[u] of
// the neighbour u; when u is unvisited, store level[u] = L + 1 and the host-visible `changed`
// flag (Rodinia's g_over). Lanes iterate over arcs in lock step (divergence by degree).
// The host relaunches while `changed` was set, so a search from source s has eccentricity(s)
// + 1 launches; the last one discovers nothing.
// Choices: Rodinia's two kernels per level (mask / updating-mask) are folded into one kernel on
// a level array; each launch sees the levels as they were when it started (every frontier
// thread that finds u unvisited writes it, as the benign race on the GPU allows); launches are
// computed one at a time by running the real BFS step on the host in next_kernel().
// Default input: a uniform random graph of 2^18 vertices, 3 arcs drawn per vertex,
// symmetrized (average degree 6, as Rodinia's graphgen makes its graph1MW_6 input, at a
// quarter of its 1M vertices), from vertex 0: footprint 8 MiB, 11 launches, ~1.9M warp
// instructions. Not R-MAT: with no load balancing a power-law graph's hub is walked by one
// thread (Graph500 probabilities, scale 18, edge factor 8: a hub of 15836 arcs, one warp
// running alone for millions of cycles), and with GTgraph's milder probabilities (max degree
// 409) the 4.2M arcs take past 20M cycles to simulate.
// Values (kernel.h): row_ptr and col_idx are the graph's CSR arrays, level starts at 0 for the
// source and UINT32_MAX (unreached) elsewhere, changed at 0; a store writes level[u] = L + 1 and
// changed = 1, the kernel's own values (the host never clears `changed` between launches here).
// size=small: R-MAT scale 12, edge factor 8, symmetrized (5 launches, ~70k instructions).
// source_from = max-degree starts at the vertex with the most arcs (paper 004's bfs; the lowest
// id on a tie, a choice of ours).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "workload/graph_input.h"
#include "workload/grid_kernel.h"

namespace gpusc {

class BfsWorkload : public Workload {
 public:
  struct Params : GraphSearchParams {
    // size=small (tests, demos): R-MAT scale 12, edge factor 8, symmetrized.
    static Params small() {
      Params p;
      p.generator = "rmat";
      p.scale = 12;
      p.edge_factor = 8;
      return p;
    }
    template <class F> static void describe(F&& f) { GraphSearchParams::describe(f); }
  };
  static constexpr uint32_t kUnreached = UINT32_MAX;

  BfsWorkload(const Params& p, std::shared_ptr<const CsrGraph> graph);
  struct Data;  // what the streams of one launch share (defined in the .cpp)

  std::string name() const override { return "bfs"; }
  std::unique_ptr<Kernel> next_kernel() override;
  const AddressSpace& address_space() const override { return space_; }
  bool has_values() const override { return true; }
  void enable_values() override { values_ = true; }
  // Levels found so far (kUnreached for vertices not reached yet).
  const std::vector<uint32_t>& levels() const { return *level_; }

 private:
  Params p_;
  std::shared_ptr<const CsrGraph> g_;
  std::shared_ptr<std::vector<uint32_t>> level_;
  std::vector<uint32_t> frontier_;  // vertices of level depth_
  uint32_t depth_ = 0;
  bool values_ = false;
  AddressSpace space_;
  uint64_t row_ptr_ = 0, col_idx_ = 0, level_base_ = 0, changed_ = 0;
};

}  // namespace gpusc
