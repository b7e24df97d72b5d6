// The hook-point registries of every paper folder, for platforms (DESIGN §6, STYLE P16): the
// one place that names the paper folders, so generic folders never have to.
//
// Registration is an explicit call per paper folder (register_coalesce_stages(), ...), made here
// and returned as a value, not a static registration object in each folder: the paper folders
// are static libraries, and a linker pulls an object file out of one only when something
// references it, so a self-registering object nobody references is silently dropped and its
// stage is "unknown" in one binary yet present in another. A value also keeps two platforms in
// one process (or a testbench with its own test stages) from sharing a mutable global.
#pragma once
#include "gpu/sm_front_stage.h"
#include "mem/mc_stage.h"

namespace gpusc {

// Every memory-partition stage of the paper folders: "pcu" (coalesce, paper 001) and
// "data_filter" (critical, paper 002).
McStageRegistry paper_mc_stages();

// Every SM-side stage of the paper folders (gpu/sm_front_stage.h): "probe" (probe, paper 000) and
// "request_controller" (critical, paper 002).
SmFrontRegistry paper_sm_front_stages();

}  // namespace gpusc
