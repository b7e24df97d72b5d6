#include "workload/workload_factory.h"

#include <functional>

#include "common/report.h"
#include "workload/aes.h"
#include "workload/atax.h"
#include "workload/barnes_hut.h"
#include "workload/bfs.h"
#include "workload/bicg.h"
#include "workload/bitonic_sort.h"
#include "workload/cfd.h"
#include "workload/comd.h"
#include "workload/conv2d.h"
#include "workload/fir.h"
#include "workload/gemm.h"
#include "workload/histogram.h"
#include "workload/inverted_index.h"
#include "workload/kmeans.h"
#include "workload/page_view_count.h"
#include "workload/pagerank.h"
#include "workload/polybench_2mm.h"
#include "workload/polybench_3mm.h"
#include "workload/polybench_gemm.h"
#include "workload/spmv.h"
#include "workload/sssp.h"
#include "workload/stencil2d.h"
#include "workload/stencil3d.h"
#include "workload/stream_triad.h"
#include "workload/string_match.h"
#include "workload/trace_workload.h"
#include "workload/transpose.h"
#include "workload/word_count.h"

namespace gpusc {
namespace {

struct Entry {
  std::string description;  // one line, from the kernel's header
  std::string name;
  std::function<std::unique_ptr<Workload>(const json& params, uint64_t seed)> make;
  std::function<json(const json& params)> effective;
  std::function<json()> doc;
  bool generated = true;  // makes its own input (false: replays files the user gives)
};

// Graph kernels take the graph or matrix described by their GraphInputParams; Seeded kernels
// generate their data from the seed; the others have data-independent addresses.
// Files: the workload replays files named by its parameters (a trace) and has no input of its own.
enum class Input { Graph, Seeded, None, Files };

const FieldInfo kSizeField{"size", "input size preset: default (footprint well past a 512 KB L2) or small (tests, demos); "
                                   "the other keys override the preset's values", false, 0, 0, "default|small"};

// The preset named by j's "size" key (default: the Params defaults; small: P::small()), then the
// other keys of j over it.
template <class P> P resolve(const json& j, const std::string& name) {
  if (!j.is_object() || !j.contains("size")) return params_from_json<P>(j, name);
  const json& size = j.at("size");
  if (!size.is_string())
    error("gpusc.params", "parameter '", name, ".size' must be a string, got ", json_text(size));
  detail::check_choice(name + ".size", size.get<std::string>(), kSizeField);
  json merged = size == "small" ? params_to_json(P::small()) : json::object();
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key() != "size") merged[it.key()] = it.value();
  return params_from_json<P>(merged, name);
}

template <class W, Input I> Entry entry(const std::string& name, const std::string& description) {
  using P = typename W::Params;
  Entry e;
  e.name = name;
  e.description = description;
  e.make = [name](const json& j, uint64_t seed) -> std::unique_ptr<Workload> {
    const auto p = resolve<P>(j, name);
    if constexpr (I == Input::Graph) return std::make_unique<W>(p, load_graph_input(p, seed, name));
    else if constexpr (I == Input::Seeded) return std::make_unique<W>(p, seed);
    else return std::make_unique<W>(p);
  };
  e.generated = I != Input::Files;
  e.effective = [name](const json& j) {
    json out = params_to_json(resolve<P>(j, name));
    out["size"] = j.is_object() && j.contains("size") ? j.at("size") : json("default");
    return out;
  };
  e.doc = [] {
    json rows = params_doc<P>();
    rows.push_back({{"name", kSizeField.name}, {"type", "string"}, {"default", "default"}, {"doc", kSizeField.doc},
                    {"choices", kSizeField.choices}});
    return rows;
  };
  return e;
}

const std::vector<Entry>& table() {
  static const std::vector<Entry> t = {
      entry<Polybench2mmWorkload, Input::None>("2mm",
          "D = beta D + alpha A B C, two naive launches (PolyBench/GPU 2MM)"),
      entry<Polybench3mmWorkload, Input::None>("3mm",
          "G = (A B)(C D), three naive launches (PolyBench/GPU 3MM)"),
      entry<TraceWorkload, Input::Files>("accel-sim",
          "an Accel-Sim trace folder (kernelslist.g + kernel-*.traceg[.xz]); params.dir or --trace-dir"),
      entry<AesWorkload, Input::None>("aes",
          "AES-256 encryption in place, one thread per 16-byte block, real S-box lookups (Hetero-Mark AES)"),
      entry<AtaxWorkload, Input::None>("atax",
          "y = A^T (A x), two launches (PolyBench/GPU ATAX)"),
      entry<BarnesHutWorkload, Input::Seeded>("barnes-hut",
          "Barnes-Hut force phase, warp-cooperative octree walk (Lonestar BH)"),
      entry<BfsWorkload, Input::Graph>("bfs",
          "level-synchronous breadth-first search, one launch per level (Rodinia, Lonestar-GPU)"),
      entry<BicgWorkload, Input::None>("bicg",
          "BiCG sub-kernel s = A^T r and q = A p, two launches (PolyBench/GPU BICG)"),
      entry<BitonicSortWorkload, Input::None>("bitonic-sort",
          "bitonic sort of a uint32 array, one launch per stage and pass (AMD APP SDK BitonicSort)"),
      entry<CfdWorkload, Input::None>("cfd",
          "unstructured finite-volume Euler solver, neighbour gather, 7 launches per iteration (Rodinia CFD)"),
      entry<ComdWorkload, Input::Seeded>("comd",
          "Lennard-Jones forces over Verlet neighbour lists, one thread per atom (CoMD)"),
      entry<Conv2dWorkload, Input::None>("conv2d",
          "2-D convolution with a K x K filter, one thread per pixel (PolyBench/GPU 2DCONV)"),
      entry<FirWorkload, Input::None>("fir",
          "finite impulse response filter, one thread per output sample (Hetero-Mark FIR)"),
      entry<GemmWorkload, Input::None>("gemm",
          "C = A B with shared-memory tiling (CUDA SDK matrixMul, Parboil sgemm)"),
      entry<HistogramWorkload, Input::Seeded>("histogram",
          "8-bit histogram with global atomics, one thread per element"),
      entry<InvertedIndexWorkload, Input::Seeded>("inverted-index",
          "documents linking to each URL of a generated HTML corpus: map, prefix sums, bitonic group (Mars InvertedIndex)"),
      entry<KmeansWorkload, Input::Seeded>("kmeans",
          "Lloyd's k-means, one launch per iteration (Rodinia kmeans)"),
      entry<PageViewCountWorkload, Input::Seeded>("page-view-count",
          "distinct views per page of a generated web log: dedup and count MapReduce jobs (Mars PageViewCount)"),
      entry<PagerankWorkload, Input::Graph>("pagerank",
          "pull-based PageRank, fixed iterations, one thread per vertex"),
      entry<PolybenchGemmWorkload, Input::None>("polybench-gemm",
          "C = alpha A B + beta C, one thread per element, no tiling (PolyBench/GPU GEMM)"),
      entry<SpmvWorkload, Input::Graph>("spmv",
          "y = A x for a CSR matrix, one thread per row (CSR-scalar, SHOC)"),
      entry<SsspWorkload, Input::Graph>("sssp",
          "Bellman-Ford shortest paths, atomicMin relaxation, one launch per round (Lonestar-GPU sssp, topology-driven)"),
      entry<Stencil2dWorkload, Input::None>("stencil2d",
          "5-point thermal stencil, one launch per time step (Rodinia hotspot)"),
      entry<Stencil3dWorkload, Input::None>("stencil3d",
          "7-point 3-D thermal stencil, thread per column looping over z, one launch per time step (Rodinia hotspot3D)"),
      entry<StreamTriadWorkload, Input::None>("stream",
          "STREAM triad a = b + q c, one thread per element (BabelStream triad_kernel)"),
      entry<StringMatchWorkload, Input::Seeded>("string-match",
          "keyword search in every line of a generated text, one thread per line (Mars StringMatch map)"),
      entry<TransposeWorkload, Input::None>("transpose",
          "out = in^T, the naive kernel (CUDA SDK transposeNaive)"),
      entry<WordCountWorkload, Input::Seeded>("word-count",
          "occurrences of each word of a generated text: map, prefix sums, bitonic group (Mars WordCount)"),
  };
  return t;
}

const Entry& find(const std::string& name) {
  for (const auto& e : table())
    if (name == e.name) return e;
  std::string known;
  for (const auto& e : table()) known += (known.empty() ? "" : ", ") + e.name;
  error("gpusc.workload", "unknown workload '", name, "'; known workloads: ", known);
}

}  // namespace

std::unique_ptr<Workload> make_workload(const std::string& name, const json& params, uint64_t seed) {
  return find(name).make(params, seed);
}

std::vector<std::string> kernel_model_names() {
  std::vector<std::string> v;
  for (const auto& e : table())
    if (e.generated) v.emplace_back(e.name);
  return v;
}

std::vector<std::string> workload_names() {
  std::vector<std::string> v;
  for (const auto& e : table()) v.emplace_back(e.name);
  return v;
}

json workload_effective_params(const std::string& name, const json& params) {
  return find(name).effective(params);
}

json workload_params_doc(const std::string& name) { return find(name).doc(); }

std::string workload_description(const std::string& name) { return find(name).description; }

}  // namespace gpusc
