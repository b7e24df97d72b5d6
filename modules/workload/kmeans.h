// Kmeans: Lloyd's k-means, one launch per iteration, one thread per point: Rodinia's kmeans
// (kmeansPoint). The kernel assigns every point to its nearest centroid; the host recomputes
// the centroids from the memberships and relaunches until no membership changes (Rodinia's
// delta test) or max_iterations launches have run.
// Access pattern per thread p: for every cluster c and feature f it loads features[f * n + p]
// (feature-major, as Rodinia's transposed feature array: coalesced across lanes, re-read for
// each cluster) and centroids[c * features + f] (one address for all lanes, a broadcast), then
// stores membership[p]. The loops have no data-dependent trip counts, so no divergence.
// Choices: Rodinia reads the centroids from __constant__ memory; here they are global loads so
// the memory system sees them, unless centroids_in_constant (then they are FFMA operands and
// cause no traffic). The host runs the real algorithm in next_kernel() (float distances, ties
// to the lower cluster, an empty cluster keeps its centroid); initial centroids are the first
// k points. Generated input: k Gaussian blobs around centres uniform in [0, 1)^features,
// standard deviation 0.05, each point's blob uniform.
// Default: 262144 points x 34 features (the shape of Rodinia's kdd_cup input, 494020 x 34, at
// about half its points), 5 clusters (Rodinia's default), 1 iteration: footprint 35 MiB, ~5.7M
// warp instructions. One launch because every iteration has the same access pattern and the
// features do not fit the L2, so more only lengthen the run (max_iterations raises it).
// size=small: 4096 points, 8 features, at most 8 iterations (~22k instructions per launch,
// ~180k when all 8 run).
// Values (kernel.h): features holds the points (feature-major, features[f * n + pt], as the
// kernel reads them), centroids the first `clusters` points (the initial centroids), membership
// -1; launch i's store writes the cluster the host's assignment step of iteration i gives the
// point (the kernel's own result). The host's upload of new centroids between launches is not
// a device store, so centroids keep the initial values in memory.
#pragma once
#include <memory>
#include <vector>

#include "common/params.h"
#include "workload/grid_kernel.h"

namespace gpusc {

class KmeansWorkload : public Workload {
 public:
  struct Params {
    unsigned points = 1u << 18;      // data points [count]
    unsigned features = 34;          // features per point [count]
    unsigned clusters = 5;           // k [count]
    unsigned max_iterations = 1;     // launch limit [count]
    unsigned threads_per_cta = 256;  // CTA size [threads]
    bool centroids_in_constant = false;  // centroids as __constant__ operands (no global loads)
    // size=small (tests, demos): 4096 points, 8 features, at most 8 iterations.
    static Params small() {
      Params p;
      p.points = 4096;
      p.features = 8;
      p.max_iterations = 8;
      return p;
    }
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(points, 1, 1 << 24, "data points [count]");
      GPUSC_PARAM_R(features, 1, 1024, "features per point [count]");
      GPUSC_PARAM_R(clusters, 1, 1024, "clusters k [count]");
      GPUSC_PARAM_R(max_iterations, 1, 1000, "launch limit [count]");
      GPUSC_PARAM_R(threads_per_cta, 1, 1024, "CTA size [threads]");
      GPUSC_PARAM(centroids_in_constant, "centroids in __constant__ memory (no global loads), as Rodinia");
    }
  };

  KmeansWorkload(const Params& p, uint64_t seed);  // generated blobs
  // Given data: point-major, points x features values (sizes must match the params).
  KmeansWorkload(const Params& p, std::vector<float> data);
  struct Data;  // what the streams share (defined in the .cpp)

  std::string name() const override { return "kmeans"; }
  std::unique_ptr<Kernel> next_kernel() override;
  const AddressSpace& address_space() const override { return space_; }
  bool has_values() const override { return true; }
  void enable_values() override { values_ = true; }
  const std::vector<int32_t>& membership() const { return membership_; }  // -1 before launch 0
  const std::vector<float>& centroids() const { return centroids_; }      // clusters x features

 private:
  void init();
  void assign_and_update();

  Params p_;
  std::shared_ptr<std::vector<float>> data_;  // points x features, shared with the features contents
  bool values_ = false;
  std::vector<float> centroids_;
  std::vector<int32_t> membership_;
  unsigned launched_ = 0;
  bool converged_ = false;
  AddressSpace space_;
  std::shared_ptr<const Data> d_;
};

}  // namespace gpusc
