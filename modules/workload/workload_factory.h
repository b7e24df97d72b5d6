// Workload factory: builds a workload by name from its JSON parameters (the keys of the
// kernel's Params, STYLE P3) and a seed, the entry point a platform's --kernel option uses.
// Names: 2mm, 3mm, accel-sim (an Accel-Sim trace folder, trace_workload.h), atax, barnes-hut, bfs, bicg, cfd, conv2d, gemm, histogram, kmeans, pagerank, polybench-gemm,
// spmv, sssp, stencil2d, stencil3d, transpose. For bfs, pagerank, spmv and sssp, "input": "path.mtx" (Matrix Market)
// or "path.txt" (SNAP edge list) reads the graph or matrix from a file; without it a generator
// makes one (see graph_input.h). An unknown name is an error listing the known ones; unknown or
// ill-typed parameters are errors naming the key (params.h).
// Sizes: every workload also takes "size": "default" (the Params defaults, inputs whose
// footprint is well past a 512 KB L2, docs/workloads.md) or "small" (the kernel's
// Params::small(), quick runs for tests and demos); the other keys override the preset's values,
// e.g. {"size": "small", "threads_per_cta": 64}.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/params.h"
#include "workload/kernel.h"

namespace gpusc {

std::unique_ptr<Workload> make_workload(const std::string& name, const json& params, uint64_t seed);

// Known workload names, sorted.
std::vector<std::string> workload_names();
// The kernel models among them: the workloads that make their own input (every one but
// accel-sim, which replays the trace folder it is given), sorted.
std::vector<std::string> kernel_model_names();
// The effective parameters (the size preset overridden by `params`, plus "size"), for the run's
// output.
json workload_effective_params(const std::string& name, const json& params);
// One line about workload `name` (what it computes, what it mirrors), for --list.
std::string workload_description(const std::string& name);
// Per-parameter documentation rows (params_doc) of workload `name`, the "size" key last.
json workload_params_doc(const std::string& name);

}  // namespace gpusc
