// The memory-partition and SM-side stages of paper 002 (modules/critical), added to a McStageRegistry
// (mem/mc_stage.h) by an explicit call from whoever builds partitions (platforms/paper_stages.h):
//   data_filter   PacketDataFilter: data-filtering table + DPC of read replies; parameters
//                 PacketDataFilter::Params (mode dpc|dftruc|dfman, table_entries, table_full,
//                 reply_queue, line_bytes, charge_decompress, codec.{compress,decompress}_latency),
//                 clocked by the partition's core clock.
#pragma once
#include "gpu/sm_front_stage.h"
#include "mem/mc_stage.h"

namespace gpusc {

void register_critical_stages(McStageRegistry& registry);

// The SM-side stage of paper 002, added to an SmFrontRegistry (gpu/sm_front_stage.h):
//   request_controller   RequestControllerStage: the per-SM request controller and windows
//                        manager attached to the node's L1 (which must fetch by sector);
//                        parameters RequestController::Params (window_size, ica_threshold,
//                        fdr_threshold, window_maps).
void register_critical_front_stages(SmFrontRegistry& registry);

}  // namespace gpusc
