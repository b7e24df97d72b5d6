#include "sm_fixture.h"

#include "common/mem_ext.h"
#include "common/report.h"
#include "common/stats.h"

namespace gpusc::tb {

ScriptedMemory::ScriptedMemory(sc_core::sc_module_name name, ClockDomain& clk, unsigned latency)
    : sc_core::sc_module(name), clk_(clk), latency_(latency) {
  in.set_accept([this](tlm::tlm_generic_payload& gp) { return accept(gp); });
}

void ScriptedMemory::refuse_until(uint64_t cycle) {
  refuse_until_ = cycle;
  clk_.wake(*this, cycle);
}

bool ScriptedMemory::accept(tlm::tlm_generic_payload& gp) {
  const uint64_t now = clk_.now();
  if (now < refuse_until_) return false;
  requests_.push_back({now, gp.get_address(), gp.get_command(), gp.get_data_length(), gp.get_data_ptr() == nullptr,
                       *gp.get_extension<MemExt>()});
  due_.emplace_back(now + latency_, &gp);
  clk_.wake(*this, now + latency_);
  return true;
}

bool ScriptedMemory::tick(uint64_t cycle) {
  if (cycle >= refuse_until_) in.retry();  // takes a withheld request, if any
  while (due_head_ < due_.size() && due_[due_head_].first <= cycle) {
    tlm::tlm_generic_payload& gp = *due_[due_head_++].second;
    MemExt& e = *gp.get_extension<MemExt>();
    e.is_reply = true;
    e.dst = e.src;
    ++replies_;
    if (!out.send(gp)) error(name(), "the SM refused a reply");
  }
  if (due_head_ == due_.size()) {
    due_.clear();
    due_head_ = 0;
  }
  if (due_head_ < due_.size()) clk_.wake(*this, due_[due_head_].first);
  return false;
}

WarpInstr compute(uint32_t pc, uint16_t cycles, uint32_t mask) {
  WarpInstr w;
  w.op = WarpInstr::Op::Compute;
  w.pc = pc;
  w.active_mask = mask;
  w.compute_cycles = cycles;
  return w;
}

WarpInstr mem(WarpInstr::Op op, uint32_t pc, uint64_t base, uint64_t stride, uint8_t bytes, uint32_t mask) {
  WarpInstr w;
  w.op = op;
  w.pc = pc;
  w.access_bytes = bytes;
  w.active_mask = mask;
  for (unsigned l = 0; l < kWarpSize; ++l) w.addr[l] = base + l * stride;
  return w;
}

namespace {
class VectorStream : public WarpStream {
 public:
  explicit VectorStream(std::vector<WarpInstr> v) : v_(std::move(v)) {}
  bool next(WarpInstr& out) override {
    if (i_ == v_.size()) return false;
    out = v_[i_++];
    return true;
  }

 private:
  std::vector<WarpInstr> v_;
  size_t i_ = 0;
};
}  // namespace

std::unique_ptr<WarpStream> ScriptKernel::warp(unsigned cta, unsigned warp_in_cta) const {
  if (cta >= ctas_ || warp_in_cta >= warps_per_cta()) error("ScriptKernel", "warp index out of range");
  return std::make_unique<VectorStream>(prog_(cta, warp_in_cta));
}

std::unique_ptr<Kernel> ScriptWorkload::next_kernel() {
  if (next_ == specs_.size()) return nullptr;
  const Spec& s = specs_[next_++];
  return std::make_unique<ScriptKernel>(s.name, s.ctas, s.threads, s.prog);
}

SmBench::SmBench(sc_core::sc_module_name name, const std::vector<SmCore::Params>& p, unsigned latency)
    : sc_core::sc_module(name) {
  sm.init(p.size(), [&](const char* nm, size_t i) { return new SmCore(nm, p[i], clk, static_cast<unsigned>(i) + 10); });
  mem.init(p.size(), [&](const char* nm, size_t) { return new ScriptedMemory(nm, clk, latency); });
  for (size_t i = 0; i < p.size(); ++i) {
    sm[i].mem_out.bind(mem[i].in);
    mem[i].out.bind(sm[i].mem_in);
    sm[i].set_on_issue([this, i](const SmCore::IssueEvent& e) {
      issues.push_back({e.cycle, static_cast<unsigned>(i), e.warp, e.kernel_id, e.cta_id, e.instr.pc, e.instr.op});
    });
  }
}

void SmBench::schedule(Workload& w, const CtaScheduler::Params& p, const std::vector<unsigned>& block_of_sm) {
  std::vector<SmCore*> v;
  for (auto& s : sm) v.push_back(&s);
  cta = std::make_unique<CtaScheduler>("cta", p, clk, w, v, block_of_sm);
}

std::vector<Issue> SmBench::of(int s, int warp) const {
  std::vector<Issue> r;
  for (const Issue& i : issues)
    if ((s < 0 || int(i.sm) == s) && (warp < 0 || int(i.warp) == warp)) r.push_back(i);
  return r;
}

std::vector<uint64_t> SmBench::cycles_of(int s, int warp) const {
  std::vector<uint64_t> r;
  for (const Issue& i : of(s, warp)) r.push_back(i.cycle);
  return r;
}

uint64_t SmBench::stat(unsigned s, const std::string& stat) const {
  const json j = collect_stats();
  return j.at("stats").at(std::string(sm[s].name()) + "." + stat).get<uint64_t>();
}

}  // namespace gpusc::tb
