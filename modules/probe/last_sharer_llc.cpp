#include "probe/last_sharer_llc.h"

#include "common/report.h"
#include "mem/cache.h"
#include "probe/probe_ext.h"

namespace gpusc::probe {

namespace {
Cache& need_l2(const McStageContext& c) {
  if (!c.l2) error("gpusc.probe.la_llc", "the la_llc stage needs its partition's L2 (McStageContext::l2)");
  return *c.l2;
}
}  // namespace

LastSharerLlc::LastSharerLlc(sc_core::sc_module_name name, const Params&, const McStageContext& ctx)
    : sc_core::sc_module(name),
      line_bytes_(need_l2(ctx).params().line_bytes),
      reads_(stats_.counter("reads", Unit::Count, "reads the L2 took")),
      forwards_(stats_.counter("forwards", Unit::Count, "L2-hit reads forwarded to the line's last sharer")),
      returned_(stats_.counter("returned", Unit::Count, "forwarded reads back: the sharer no longer had the line")),
      self_(stats_.counter("own_last_sharer", Unit::Count, "L2-hit reads whose last sharer was the requester")) {
  need_l2(ctx).set_read_policy([this](Payload& gp, MemExt& e, bool hit) { return on_read(gp, e, hit); });
}

bool LastSharerLlc::on_read(Payload& gp, MemExt& e, bool hit) {
  ProbeExt* x = probe_ext(gp);
  if (x && x->role == ProbeExt::Role::LlcMiss) {  // back from a sharer that evicted the line: serve it
    ++returned_;
    return false;
  }
  ++reads_;
  const uint64_t line = gp.get_address() / line_bytes_;
  auto [it, fresh] = last_.try_emplace(line, e.src);
  const unsigned sharer = it->second;
  it->second = e.src;
  if (!hit || fresh) return false;
  if (sharer == e.src) {
    ++self_;
    return false;
  }
  if (!x) {
    x = new ProbeExt;
    gp.set_extension(x);  // the payload owns it from now on
  }
  x->role = ProbeExt::Role::LlcForward;
  x->home = e.dst;
  e.kind = MemKind::Probe;
  e.is_reply = true;
  e.dst = sharer;
  ++forwards_;
  return true;
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
