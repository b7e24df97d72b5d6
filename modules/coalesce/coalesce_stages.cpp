#include "coalesce/coalesce_stages.h"

#include "coalesce/packet_coalescing_unit.h"

namespace gpusc {

void register_coalesce_stages(McStageRegistry& registry) {
  using P = PacketCoalescingUnit::Params;
  registry.add("pcu", {"packet coalescing unit: groups reads of one block from several SMs, one multicast reply "
                       "(paper 001 §3)",
                       stage_params_of<P>(),
                       [](const char* name, const json& params, const McStageContext& ctx) -> std::unique_ptr<McStage> {
                         return std::make_unique<PacketCoalescingUnit>(name, params_from_json<P>(params, name), ctx.clk);
                       }});
}

}  // namespace gpusc
