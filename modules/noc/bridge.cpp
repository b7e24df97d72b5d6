#include "noc/bridge.h"

#include <algorithm>
#include <utility>

#include "common/mem_ext.h"
#include "common/report.h"

namespace gpusc::noc {

Bridge::IdMap Bridge::table(std::map<unsigned, unsigned> t) {
  return [t = std::move(t)](unsigned id) -> std::optional<unsigned> {
    const auto it = t.find(id);
    if (it == t.end()) return std::nullopt;
    return it->second;
  };
}

Bridge::Way::Way(MsgIn* i, MsgOut* o, IdMap m, const char* f, StatGroup& s, const std::string& n)
    : in(i),
      out(o),
      map(std::move(m)),
      from(f),
      messages(s.counter(n + ".messages", Unit::Count, "messages passed to the other side")),
      refused(s.counter(n + ".refused", Unit::Count, "messages refused because the queue was full")),
      latency(s.average(n + ".latency", Unit::Cycles, "taken until offered on the other side")) {}

Bridge::Bridge(sc_core::sc_module_name name, const Params& p, ClockDomain& clk, IdMap a_to_b, IdMap b_to_a)
    : sc_core::sc_module(name),
      p_(p),
      clk_(clk),
      dir_{Way(&a_in, &b_out, std::move(a_to_b), "A", stats_, "a_to_b"),
           Way(&b_in, &a_out, std::move(b_to_a), "B", stats_, "b_to_a")} {
  validate(p_, this->name());
  for (Way& w : dir_) {
    if (!w.map)
      error(this->name(), "no id map given for messages from side ", w.from,
            "; pass a function or Bridge::table({{id, id}, ...})");
    w.in->set_accept([this, &w](tlm::tlm_generic_payload& gp) { return accept(w, gp); });
    w.out->on_accept([this, &w] {
      w.held = false;  // the far side took it: its entry is free, the next may go
      clk_.wake_after_now(*this);
    });
  }
}

unsigned Bridge::map_id(const Way& w, unsigned id, const char* field) const {
  const std::optional<unsigned> m = w.map(id);
  if (!m)
    error(name(), "node id ", id, " (MemExt::", field, ") of a message entering on ", w.in->basename(),
          " has no counterpart in side ", w.from[0] == 'A' ? 'B' : 'A', "'s numbering; add it to the bridge's ",
          w.from[0] == 'A' ? "a_to_b" : "b_to_a", " map");
  return *m;
}

bool Bridge::accept(Way& w, tlm::tlm_generic_payload& gp) {
  MemExt& e = mem_ext(gp, name());
  if (gp.has_mm() && gp.get_ref_count() > 1)
    error(name(), "a message entering on ", w.in->basename(), " is shared by ", gp.get_ref_count(),
          " receivers (a multicast delivery); the bridge rewrites node ids in place and would change it under "
          "the others. Deliver the bridge its own payload.");
  if (occupancy(static_cast<Dir>(&w - dir_)) >= p_.queue) {
    ++w.refused;
    return false;
  }
  // All ids are checked before any is written: an error leaves the message as it came.
  const unsigned src = map_id(w, e.src, "src"), dst = map_id(w, e.dst, "dst");
  DestSet dests;
  e.dests.for_each([&](unsigned n) {
    const unsigned m = map_id(w, n, "dests");
    if (m >= DestSet::kMaxNodes)
      error(name(), "node id ", n, " of MemExt::dests maps to ", m, ", beyond the destination set's capacity of ",
            DestSet::kMaxNodes, " nodes");
    dests.add(m);
  });
  e.src = src;
  e.dst = dst;
  e.dests = dests;
  const uint64_t now = clk_.now();
  w.q.push_back(Entry{&gp, now, now + p_.latency});
  clk_.wake(*this, now + p_.latency);
  return true;
}

bool Bridge::tick(uint64_t cycle) {
  uint64_t next = UINT64_MAX;
  for (Way& w : dir_) {
    if (!w.held && !w.q.empty() && w.q.front().due <= cycle) {  // one message per cycle per direction
      const Entry x = w.q.front();
      w.q.pop_front();
      ++w.messages;
      w.latency.add(static_cast<double>(cycle - x.accepted));
      w.held = true;  // before send(): END_REQ may come back from inside the call
      if (w.out->send(*x.gp)) w.held = false;
    }
    if (occupancy(static_cast<Dir>(&w - dir_)) < p_.queue) w.in->retry();  // taken now: due cycle + latency
    if (!w.held && !w.q.empty()) next = std::min(next, std::max(w.q.front().due, cycle + 1));
  }
  if (next == UINT64_MAX) return false;  // idle, or waiting for a receiver (on_accept wakes us)
  if (next == cycle + 1) return true;
  clk_.wake(*this, next);
  return false;
}

}  // namespace gpusc::noc
