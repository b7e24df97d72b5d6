#include "probe/last_sharer_llc.h"

#include "common/mem_ext.h"
#include "common/report.h"
#include "mem/cache.h"
#include "probe/probe_ext.h"

namespace gpusc::probe {

namespace {
const Cache& need_l2(const McStageContext& c) {
  if (!c.l2) error("gpusc.probe.la_llc", "the la_llc stage needs its partition's L2 (McStageContext::l2)");
  return *c.l2;
}
}  // namespace

LastSharerLlc::LastSharerLlc(sc_core::sc_module_name name, const Params& p, const McStageContext& ctx)
    : sc_core::sc_module(name),
      p_((validate(p, std::string(this->name())), p)),
      clk_(ctx.clk),
      l2_(need_l2(ctx)),
      reads_(stats_.counter("reads", Unit::Count, "reads seen")),
      forwards_(stats_.counter("forwards", Unit::Count, "L2-hit reads forwarded to the line's last sharer")),
      returned_(stats_.counter("returned", Unit::Count, "forwarded reads back: the sharer no longer had the line")),
      self_(stats_.counter("own_last_sharer", Unit::Count, "L2-hit reads whose last sharer was the requester")) {
  in_.set_accept([this](Payload& gp) { return latch(req_q_, gp); });
  from_l2_.set_accept([this](Payload& gp) { return latch(rep_q_, gp); });
  to_l2_.on_accept([this] { clk_.wake_after_now(*this); });
  out_.on_accept([this] { clk_.wake_after_now(*this); });
}

bool LastSharerLlc::latch(std::deque<Timed>& q, Payload& gp) {
  if (q.size() >= p_.queue) return false;
  q.push_back({clk_.cycle_after(sc_core::sc_time_stamp()), &gp});
  clk_.wake_after_now(*this);
  return true;
}

bool LastSharerLlc::idle() const {
  return req_q_.empty() && rep_q_.empty() && fwd_q_.empty() && !to_l2_.busy() && !out_.busy() &&
         !in_.has_pending() && !from_l2_.has_pending();
}

uint64_t LastSharerLlc::stall_cycles() const { return l2_.up_blocked_cycles(); }

bool LastSharerLlc::tick(uint64_t cycle) {
  // Request side: one read per cycle is served by the L2 or forwarded.
  if (!req_q_.empty() && req_q_.front().ready <= cycle) {
    Payload& gp = *req_q_.front().gp;
    MemExt& e = mem_ext(gp, name());
    ProbeExt* x = probe_ext(gp);
    bool forward = false;
    unsigned sharer = 0;
    if (e.kind == MemKind::Read && !(x && x->role == ProbeExt::Role::LlcMiss)) {
      const uint64_t line = gp.get_address() / l2_.params().line_bytes;
      auto it = last_.find(line);
      if (p_.forward && it != last_.end() && l2_.present(gp.get_address())) {
        if (it->second != e.src) {
          forward = true;
          sharer = it->second;
        } else {
          ++self_;
        }
      }
      if (it == last_.end()) last_.emplace(line, e.src);
      else it->second = e.src;
    }
    if (forward ? fwd_q_.size() < p_.queue : !to_l2_.busy()) {
      req_q_.pop_front();
      if (in_.has_pending()) in_.retry();
      if (x && x->role == ProbeExt::Role::LlcMiss) ++returned_;
      else if (e.kind == MemKind::Read) ++reads_;
      if (forward) {
        ProbeExt* px = gp.get_extension<ProbeExt>();
        if (!px) {
          px = new ProbeExt;
          gp.set_extension(px);  // the payload owns it from now on
        }
        px->role = ProbeExt::Role::LlcForward;
        px->home = e.dst;
        e.kind = MemKind::Probe;
        e.is_reply = true;
        e.dst = sharer;
        fwd_q_.push_back(&gp);
        ++forwards_;
      } else {
        to_l2_.send(gp);
      }
    }
  }
  // Reply side: L2 replies and forwards share the output, round robin.
  if (!out_.busy()) {
    const bool rep = !rep_q_.empty() && rep_q_.front().ready <= cycle;
    const bool fwd = !fwd_q_.empty();
    if (rep && (!fwd || !fwd_turn_)) {
      Payload& gp = *rep_q_.front().gp;
      rep_q_.pop_front();
      if (from_l2_.has_pending()) from_l2_.retry();
      out_.send(gp);
      fwd_turn_ = true;
    } else if (fwd) {
      Payload& gp = *fwd_q_.front();
      fwd_q_.pop_front();
      out_.send(gp);
      fwd_turn_ = false;
    }
  }
  return !req_q_.empty() || !rep_q_.empty() || !fwd_q_.empty();
}

void LastSharerLlc::summarize(json& s, const std::vector<const McStage*>& all) const {
  double reads = 0, fwd = 0, ret = 0;
  for (const McStage* st : all) {
    const auto& l = dynamic_cast<const LastSharerLlc&>(*st);
    reads += double(l.reads_.value());
    fwd += double(l.forwards_.value());
    ret += double(l.returned_.value());
  }
  s["la_llc_forwards"] = fwd;
  s["la_llc_forward_ratio"] = reads > 0 ? fwd / reads : 0.0;
  s["la_llc_precision"] = fwd > 0 ? (fwd - ret) / fwd : 0.0;
}

}  // namespace gpusc::probe
