// The SM-side stages of paper 000 (modules/probe), added to an SmFrontRegistry
// (gpu/sm_front_stage.h) by an explicit call from whoever builds SM nodes (platforms/paper_stages.h):
//   probe   ProbeHandler (probe_handler.h): predictor / ORACLE sharing, core selector, two-level
//           probing, timeout handler, incoming-probe handling through the L1's peer-lookup port,
//           five-class injection arbitration; parameters ProbeHandler::Params (sharing, c, s, p,
//           selector, timeout, queue sizes, deflection, predictor.*), e.g.
//           --set sm_front.stages='["probe"]' --set sm_front.stage_params.probe.c=10.
//           Per block it builds one ProbeFabric (probe_fabric.h): core numbering, the sharing
//           oracle and the deflection HeadHook on the block's request network.
// And the memory-partition stage of paper 000's LA-LLC comparison point, added to an McStageRegistry:
//   la_llc  LastSharerLlc (last_sharer_llc.h): the L2 keeps each line's last sharer and forwards
//           an L2-hit read to it (needs the probe SM-side stage at every core to look it up).
#pragma once
#include "gpu/sm_front_stage.h"
#include "mem/mc_stage.h"

namespace gpusc {

void register_probe_stages(SmFrontRegistry& registry);
void register_probe_mc_stages(McStageRegistry& registry);

}  // namespace gpusc
