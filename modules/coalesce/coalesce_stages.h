// The memory-partition stages of paper 001 (modules/coalesce), added to a McStageRegistry
// (mem/mc_stage.h) by an explicit call from whoever builds partitions (platforms/paper_stages.h):
//   pcu   PacketCoalescingUnit; parameters PacketCoalescingUnit::Params (rgrs, write_buffer,
//         reply_queue, max_nodes, line_bytes), clocked by the partition's core clock.
#pragma once
#include "mem/mc_stage.h"

namespace gpusc {

void register_coalesce_stages(McStageRegistry& registry);

}  // namespace gpusc
