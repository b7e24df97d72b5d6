#include "platforms/mesh_gpu/mesh_gpu.h"

#include "common/contiguous_split.h"
#include "common/report.h"

namespace gpusc {

namespace {

MeshGpu::Params with_stage_defaults(MeshGpu::Params p, const McStageRegistry& stages, const SmFrontRegistry& front) {
  p.mc = MemoryPartition::Params::with_stage_defaults(p.mc, stages, "mc");
  p.sm_front = SmFrontParams::with_defaults(p.sm_front, front, "sm_front");
  return p;
}

std::vector<unsigned> groups_of_sms(const MeshGpu::Params& p) {
  const ContiguousSplit split(p.sms, p.blocks);
  std::vector<unsigned> g;
  for (unsigned i = 0; i < p.sms; ++i) g.push_back(split.group_of(i));
  return g;
}

}  // namespace

std::unique_ptr<AddressMapper> MeshGpu::build_mapper(const Params& p, const std::string& where) {
  validate(p, where);
  if (p.blocks > p.sms)
    error(where, "blocks = ", p.blocks, " but sms = ", p.sms, ": every block needs at least one SM");
  if (p.address_map.kind == "first-touch" && p.blocks > p.mcs)
    error(where, "address_map.kind = first-touch with blocks = ", p.blocks, " needs at least one MC per block, but mcs = ",
          p.mcs);
  const ContiguousSplit split(p.mcs, p.blocks);
  std::vector<std::vector<unsigned>> mcs_of_block(p.blocks);
  for (unsigned b = 0; b < p.blocks; ++b)
    for (unsigned i = split.begin(b); i < split.end(b); ++i) mcs_of_block[b].push_back(i);
  return make_address_mapper(p.address_map, p.interleave_bytes, mcs_of_block, where + ".address_map");
}

GpuBlock::Params MeshGpu::block_params(const Params& p) {
  GpuBlock::Params b;
  b.sms = p.sms;
  b.mcs = p.mcs;
  b.network = p.network;
  b.placement = p.placement;
  b.noc = p.noc;
  b.sm = p.sm;
  b.l1 = p.l1;
  b.mc = p.mc;
  b.sm_front = p.sm_front;
  return b;
}

GpuBlock::Context MeshGpu::block_context(const McStageRegistry& stages, const SmFrontRegistry& front) {
  GpuBlock::Context c{{core_, noc_clk_, dram_clk_}, *mapper_, ids_, stages, 0, group_of_sm_};
  c.front = &front;
  return c;
}

MeshGpu::MeshGpu(const std::string& name, const Params& p, Workload& workload, const McStageRegistry& stages,
                 const SmFrontRegistry& front)
    : p_(with_stage_defaults(p, stages, front)),
      core_("core_clk", p.core_mhz),
      noc_clk_("noc_clk", p.noc_mhz),
      dram_clk_("dram_clk", p.dram_mhz),
      mapper_(build_mapper(p, name)),
      group_of_sm_(groups_of_sms(p)),
      block_(name.c_str(), block_params(p_), block_context(stages, front)),
      platform_(core_, workload, {&block_}, p_.cta, group_of_sm_) {}

}  // namespace gpusc
