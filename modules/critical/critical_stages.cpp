#include "critical/critical_stages.h"

#include "critical/packet_data_filter.h"
#include "critical/request_controller_stage.h"

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

void register_critical_front_stages(SmFrontRegistry& registry) {
  using P = RequestController::Params;
  SmFrontRegistry::Entry e;
  e.description =
      "paper 002 request controller and windows manager per SM (§4.1): per L1 read miss, the whole line or only "
      "the missing sectors, from FDR and ICA windows of the L1's replies and evictions; needs "
      "l1.fetch_granularity = sector; parameters sm_front.stage_params.request_controller.{window_size,"
      "ica_threshold,fdr_threshold,window_maps}";
  e.params = [](const json& given, const std::string& where) { return params_to_json(params_from_json<P>(given, where)); };
  e.make = [](const char* name, const json& params, const SmFrontContext& c) -> std::unique_ptr<SmFrontStage> {
    return std::make_unique<RequestControllerStage>(name, params_from_json<P>(params, "sm_front.stage_params.request_controller"),
                                                    c.clk, c.l1);
  };
  registry.add("request_controller", std::move(e));
}

}  // namespace gpusc
