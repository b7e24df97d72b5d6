// TagStage: a memory-partition stage for tests (mem/mc_stage.h). It tags every message that
// crosses it, so a test reads the order in which a message met the stages of a chain:
//   MemExt::pc = pc * 10 + tag   on each request (in() -> to_l2()) and each reply
//                                (from_l2() -> out()) it passes;
// so with pc 0 at the NI, a chain [tag 1, tag 2] hands the L2 pc 12 and the NI gets back 1221.
// One register stage per path: a message taken in cycle c leaves in c + 1 at the earliest; each
// path holds `depth` messages (full: END_REQ withheld). Parameters (TagStage::Params): tag,
// requests / replies (false: not on that path, ports nullptr), depth. It also logs every pass
// (stage name, path, address, cycle) into an optional shared log, and summarize() adds the
// line "<name>_messages" = messages it passed, summed over the partitions. With `spin` it keeps
// every request it takes and ticks every cycle without passing any on: a unit that is awake but
// makes no progress (for the platform's stall watchdog).
// Only for testbenches that link gpusc_mem (header-only: the harness library does not).
#pragma once
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "common/clock_domain.h"
#include "common/mem_ext.h"
#include "common/msg_port.h"
#include "common/params.h"
#include "mem/mc_stage.h"

namespace gpusc::tb {

class TagStage : public sc_core::sc_module, public McStage, private Tickable {
 public:
  struct Params {
    unsigned tag = 1;      // digit appended to MemExt::pc
    bool requests = true;  // on the request path
    bool replies = true;   // on the reply path
    unsigned depth = 2;    // messages per path
    bool spin = false;     // keep every request, tick every cycle, pass nothing on
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(tag, 0, 9, "digit appended to MemExt::pc");
      GPUSC_PARAM(requests, "on the request path");
      GPUSC_PARAM(replies, "on the reply path");
      GPUSC_PARAM_R(depth, 1, 64, "messages held per path");
      GPUSC_PARAM(spin, "keep every request and tick every cycle without passing any on");
    }
  };
  struct Pass {
    std::string stage;
    bool reply;
    uint64_t address;
    uint64_t pc;  // after tagging
    uint64_t cycle;
  };

  MsgIn req_in{"req_in"};
  MsgOut req_out{"req_out"};
  MsgIn reply_in{"reply_in"};
  MsgOut reply_out{"reply_out"};

  TagStage(sc_core::sc_module_name name, const Params& p, ClockDomain& clk, std::vector<Pass>* log = nullptr)
      : sc_core::sc_module(name), p_(p), clk_(clk), log_(log) {
    // A path the stage is not on: its two sockets are bound to each other (SystemC rejects
    // unbound sockets) and never used.
    if (!p_.requests) req_out.bind(req_in);
    if (!p_.replies) reply_out.bind(reply_in);
    req_in.set_accept([this](tlm::tlm_generic_payload& gp) { return take(gp, req_q_, false); });
    reply_in.set_accept([this](tlm::tlm_generic_payload& gp) { return take(gp, reply_q_, true); });
    req_out.on_accept([this] { clk_.wake_after_now(*this); });
    reply_out.on_accept([this] {
      stall_ += clk_.now() - stall_from_;
      clk_.wake_after_now(*this);
    });
  }

  // The registry entry of this stage type; `log` (optional) collects every pass.
  static McStageRegistry::Entry entry(std::vector<Pass>* log = nullptr) {
    return {"test stage: tags MemExt::pc", stage_params_of<Params>(),
            [log](const char* name, const json& params, const McStageContext& ctx) -> std::unique_ptr<McStage> {
              return std::make_unique<TagStage>(name, params_from_json<Params>(params, name), ctx.clk, log);
            }};
  }

  MsgIn* in() override { return p_.requests ? &req_in : nullptr; }
  MsgOut* to_l2() override { return p_.requests ? &req_out : nullptr; }
  MsgIn* from_l2() override { return p_.replies ? &reply_in : nullptr; }
  MsgOut* out() override { return p_.replies ? &reply_out : nullptr; }
  bool idle() const override {
    // Nothing held. It keeps no per-request state, so it waits for no reply (in front of a
    // merging stage it sees more requests than replies).
    return req_q_.empty() && reply_q_.empty() && !req_out.busy() && !reply_out.busy();
  }
  uint64_t stall_cycles() const override { return stall_; }
  void summarize(json& summary, const std::vector<const McStage*>& all) const override {
    uint64_t n = 0;
    for (const McStage* s : all) {
      const auto& t = dynamic_cast<const TagStage&>(*s);
      n += t.passed_req_ + t.passed_rep_;
    }
    summary[std::string(basename()) + "_messages"] = n;
  }
  uint64_t passed() const { return passed_req_ + passed_rep_; }

 private:
  bool take(tlm::tlm_generic_payload& gp, std::deque<tlm::tlm_generic_payload*>& q, bool reply) {
    if (q.size() >= p_.depth) return false;
    MemExt& e = mem_ext(gp, name());
    e.pc = e.pc * 10 + p_.tag;
    ++(reply ? passed_rep_ : passed_req_);
    if (log_) log_->push_back({basename(), reply, gp.get_address(), e.pc, clk_.now()});
    q.push_back(&gp);
    clk_.wake_after_now(*this);
    return true;
  }
  bool tick(uint64_t cycle) override {
    if (p_.spin) return true;
    if (!req_q_.empty() && !req_out.busy()) {
      tlm::tlm_generic_payload* gp = req_q_.front();
      req_q_.pop_front();
      req_out.send(*gp);
    }
    if (!reply_q_.empty() && !reply_out.busy()) {
      tlm::tlm_generic_payload* gp = reply_q_.front();
      reply_q_.pop_front();
      if (!reply_out.send(*gp)) stall_from_ = cycle;
    }
    req_in.retry();
    reply_in.retry();
    return (!req_q_.empty() && !req_out.busy()) || (!reply_q_.empty() && !reply_out.busy());
  }

  const Params p_;
  ClockDomain& clk_;
  std::vector<Pass>* log_;
  std::deque<tlm::tlm_generic_payload*> req_q_, reply_q_;
  uint64_t passed_req_ = 0, passed_rep_ = 0, stall_ = 0, stall_from_ = 0;
};

}  // namespace gpusc::tb
