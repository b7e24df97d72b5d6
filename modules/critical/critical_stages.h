// The memory-partition stages of paper 002 (modules/critical), added to a McStageRegistry
// (mem/mc_stage.h) by an explicit call from whoever builds partitions (platforms/paper_stages.h):
//   data_filter   PacketDataFilter: data-filtering table + DPC of read replies; parameters
//                 PacketDataFilter::Params (mode dpc|dftruc|dfman, table_entries, table_full,
//                 reply_queue, line_bytes, charge_decompress, codec.{compress,decompress}_latency),
//                 clocked by the partition's core clock.
#pragma once
#include "mem/mc_stage.h"

namespace gpusc {

void register_critical_stages(McStageRegistry& registry);

}  // namespace gpusc
