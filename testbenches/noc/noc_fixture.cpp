#include "noc_fixture.h"

namespace gpusc::tb {

NocBench::NocBench(sc_core::sc_module_name name, const noc::Network::Params& p, unsigned target_depth)
    : sc_core::sc_module(name) {
  net = std::make_unique<noc::Network>("noc", p, clk);
  src.init(net->nodes(), [&](const char* nm, size_t) { return new ScriptedInitiator(nm, clk, pool); });
  dst.init(net->nodes(), [&](const char* nm, size_t) { return new ScriptedTarget(nm, clk, target_depth); });
  for (unsigned i = 0; i < net->nodes(); ++i) {
    src[i].out.bind(net->ni(i).in[0]);
    net->ni(i).out[0].bind(dst[i].in);
  }
}

void NocBench::send(unsigned s, unsigned d, uint64_t cycle, unsigned flits, uint64_t tag) {
  const unsigned fb = net->params().ni.flit_bytes;
  src[s].at(cycle, [=](tlm::tlm_generic_payload& gp, MemExt& e) {
    e.kind = MemKind::Write;
    e.src = s;
    e.dst = d;
    e.pc = tag;
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_data_length(flits * fb);
  });
}

}  // namespace gpusc::tb
