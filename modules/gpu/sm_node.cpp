#include "gpu/sm_node.h"

namespace gpusc {

SmNode::SmNode(sc_core::sc_module_name name, const SmCore::Params& sm, const Cache::Params& l1, ClockDomain& clk,
               unsigned node)
    : sc_core::sc_module(name), node_(node), core_("core", sm, clk, node), l1_("l1", l1, clk, node) {
  core_.mem_out.bind(l1_.up_in);
  l1_.up_out.bind(core_.mem_in);
}

}  // namespace gpusc
