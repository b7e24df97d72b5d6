#include "mem/memory_partition.h"

namespace gpusc {

Cache::Params MemoryPartition::Params::l2_defaults() {
  Cache::Params c;
  c.line_bytes = 128;
  c.ways = 8;
  c.sets = 64;  // 64 KB = 64 sets x 8 ways x 128 B (paper 001 Table 1)
  c.hit_latency = 120;
  c.lookup_latency = 120;  // a miss pays the whole ROP/L2 pipeline before it goes to DRAM (cache.h)
  c.write_policy = "write-back";
  c.sectored = true;
  return c;
}

DramChannel::Params MemoryPartition::Params::dram_defaults() {
  DramChannel::Params d;
  d.burst_cycles = 4;  // 64-bit channel (two x32 GDDR5 devices, as GPGPU-Sim's Fermi configs): 128 B in 4 cycles
  return d;
}

MemoryPartition::MemoryPartition(sc_core::sc_module_name name, const Params& p, ClockDomain& core,
                                 ClockDomain& dram_clk, unsigned node, const AddressMap& map)
    : sc_core::sc_module(name),
      p_(p),
      l2_("l2", p.l2, core, node),
      dram_("dram", p.dram, dram_clk),
      locality_("locality", p.locality, core),
      req_lat_(stats_.average("request_latency", Unit::Cycles,
                              "request head flit injected at the SM until this MC takes it (001 §2.1) [core cycles]")) {
  validate(p_, this->name());
  l2_.set_index_address([map](uint64_t a) { return map.local(a); });
  dram_.set_address_map([map](uint64_t a) { return map.local(a); });
  l2_.down_out.bind(dram_.in);
  dram_.out.bind(l2_.down_in);
  if (p_.pcu) {
    pcu_ = std::make_unique<PacketCoalescingUnit>("pcu", p_.coalescer, core);
    pcu_->to_mem.bind(l2_.up_in);
    l2_.up_out.bind(pcu_->from_mem);
  }
  in().set_tap([this, &core](tlm::tlm_generic_payload& gp) {
    MemExt& e = mem_ext(gp, this->name());
    e.t_mem_accept = sc_core::sc_time_stamp();
    if (e.kind != MemKind::Write) req_lat_.add((e.t_mem_accept - e.t_req_inject) / core.period());
    if (e.kind == MemKind::Read) {
      locality_.observe(gp);
      if (e.src >= reads_from_.size()) reads_from_.resize(e.src + 1, 0);
      ++reads_from_[e.src];
    }
  });
}

MsgIn& MemoryPartition::in() { return pcu_ ? pcu_->req_in : l2_.up_in; }
MsgOut& MemoryPartition::out() { return pcu_ ? pcu_->reply_out : l2_.up_out; }

uint64_t MemoryPartition::mc_stall_cycles() const {
  return pcu_ ? pcu_->mc_stall_cycles() : l2_.up_blocked_cycles();
}

bool MemoryPartition::idle() const { return l2_.idle() && dram_.pending() == 0 && (!pcu_ || pcu_->drained()); }

}  // namespace gpusc
