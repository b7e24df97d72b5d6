#include "mem/memory_partition.h"

#include <map>

#include "common/report.h"
#include "common/stage_params.h"

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

MemoryPartition::Params MemoryPartition::Params::with_stage_defaults(const Params& p, const McStageRegistry& registry,
                                                                   const std::string& where) {
  Params q = p;
  q.stage_params = effective_stage_params(p.stages, p.stage_params, registry, where);
  return q;
}

MemoryPartition::MemoryPartition(sc_core::sc_module_name name, const Params& p, ClockDomain& core,
                                 ClockDomain& dram_clk, unsigned node, const AddressMap& map,
                                 const McStageRegistry& stages)
    : sc_core::sc_module(name),
      p_(Params::with_stage_defaults(p, stages, this->name())),
      l2_("l2", p.l2, core, node),
      dram_(p_.memory == "gddr5" ? std::make_unique<DramChannel>("dram", p_.dram, dram_clk) : nullptr),
      bw_(p_.memory == "bandwidth" ? std::make_unique<BandwidthMemory>("dram", p_.bandwidth_memory, dram_clk)
                                   : nullptr),
      locality_("locality", p.locality, core),
      req_lat_(stats_.average("request_latency", Unit::Cycles,
                              "request head flit injected at the SM until this MC takes it (001 §2.1) [core cycles]")) {
  validate(p_, this->name());
  // The L2 sends the memory at most one of its lines (a sector fill sends less).
  const unsigned mem_line = dram_ ? p_.dram.line_bytes : bw_ ? p_.bandwidth_memory.line_bytes : p_.l2.line_bytes;
  if (mem_line < p_.l2.line_bytes)
    error(this->name(), dram_ ? "dram" : "bandwidth_memory", ".line_bytes (", mem_line, ") is smaller than l2.line_bytes (",
          p_.l2.line_bytes, "): the memory must take a whole L2 line");
  l2_.set_index_address([map](uint64_t a) { return map.local(a); });
  // The memory model (memory_partition.h): same module name, ports, address map and clock.
  if (dram_) {
    dram_->set_address_map([map](uint64_t a) { return map.local(a); });
    l2_.down_out.bind(dram_->in);
    dram_->out.bind(l2_.down_in);
  } else if (bw_) {
    bw_->set_address_map([map](uint64_t a) { return map.local(a); });
    l2_.down_out.bind(bw_->in);
    bw_->out.bind(l2_.down_in);
  } else {  // validate() above admits only gddr5, bandwidth and external
    ext_ = std::make_unique<AtInitiatorBridge>("memory", AtInitiatorBridge::Params{}, &AtInitiatorBridge::reads_reply,
                                               [map](uint64_t a) { return map.local(a); });
    l2_.down_out.bind(ext_->in);
    ext_->out.bind(l2_.down_in);
  }
  build_stages(stages, core, node, map);
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

void MemoryPartition::build_stages(const McStageRegistry& registry, ClockDomain& core, unsigned node,
                                   const AddressMap& map) {
  for (const std::string& s : p_.stages) {
    if (s == "l2" || s == "dram" || s == "memory" || s == "locality" || s == "stats")
      error(name(), "a stage cannot be called '", s, "': the partition's own unit has that name");
    const McStageRegistry::Entry& e = registry.at(s, std::string(name()) + ".stages");
    std::unique_ptr<McStage> st = e.make(s.c_str(), p_.stage_params.at(s), McStageContext{core, node, map, &l2_});
    if (!st) error(name(), "the registry built no stage for '", s, "'");
    const bool req = st->in() || st->to_l2(), rep = st->from_l2() || st->out();
    if ((req && !(st->in() && st->to_l2())) || (rep && !(st->from_l2() && st->out())))
      error(name(), "stage '", s, "' must give both in() and to_l2() (request path), both from_l2() and out() ",
            "(reply path), both pairs, or neither (a stage working through the L2's hook points)");
    stages_.push_back(std::move(st));
  }
  // From the L2 toward the NI: each stage's L2 side binds to what is behind it on its path.
  in_ = &l2_.up_in;
  out_ = &l2_.up_out;
  for (auto it = stages_.rbegin(); it != stages_.rend(); ++it) {
    McStage& st = **it;
    if (st.in()) {
      st.to_l2()->bind(*in_);
      in_ = st.in();
    }
    if (st.out()) {
      out_->bind(*st.from_l2());
      out_ = st.out();
      reply_head_ = &st;
    }
  }
}

McStage* MemoryPartition::stage(const std::string& name) {
  for (size_t i = 0; i < p_.stages.size(); ++i)
    if (p_.stages[i] == name) return stages_[i].get();
  return nullptr;
}

uint64_t MemoryPartition::mc_stall_cycles() const {
  return reply_head_ ? reply_head_->stall_cycles() : l2_.up_blocked_cycles();
}

tlm::tlm_initiator_socket<32>& MemoryPartition::memory_socket() {
  if (!ext_) error(name(), "memory_socket(): memory is \"", p_.memory, "\", not \"external\"");
  return ext_->socket;
}

bool MemoryPartition::idle() const {
  if (!l2_.idle() || memory_pending() != 0) return false;
  for (const auto& st : stages_)
    if (!st->idle()) return false;
  return true;
}

bool MemoryPartition::needs_values() const {
  for (const auto& st : stages_)
    if (st->needs_values()) return true;
  return false;
}

void MemoryPartition::attach_values(BackingStore& store) {
  l2_.set_backing_store(&store);
  for (const auto& st : stages_) st->attach_values(store);
}

void MemoryPartition::summarize_stages(json& summary, const std::vector<const MemoryPartition*>& partitions) {
  std::vector<std::string> order;  // stage names, first appearance first
  std::map<std::string, std::vector<const McStage*>> all;
  for (const MemoryPartition* mc : partitions)
    for (size_t i = 0; i < mc->stages_.size(); ++i) {
      auto& v = all[mc->p_.stages[i]];
      if (v.empty()) order.push_back(mc->p_.stages[i]);
      v.push_back(mc->stages_[i].get());
    }
  for (const std::string& s : order) all[s].front()->summarize(summary, all[s]);
}

}  // namespace gpusc
