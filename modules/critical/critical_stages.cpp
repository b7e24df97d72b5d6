#include "critical/critical_stages.h"

#include "critical/packet_data_filter.h"

namespace gpusc {

void register_critical_stages(McStageRegistry& registry) {
  using P = PacketDataFilter::Params;
  registry.add("data_filter",
               {"packet data filter: data-filtering table of partial reads, DPC-compressed replies carrying the "
                "critical sectors (paper 002 §3.4)",
                stage_params_of<P>(),
                [](const char* name, const json& params, const McStageContext& ctx) -> std::unique_ptr<McStage> {
                  return std::make_unique<PacketDataFilter>(name, params_from_json<P>(params, name), ctx.clk);
                }});
}

}  // namespace gpusc
