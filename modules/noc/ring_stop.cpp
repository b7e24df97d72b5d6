#include "noc/ring_stop.h"

#include <algorithm>
#include <utility>

#include "common/mem_ext.h"
#include "common/report.h"

namespace gpusc::noc {

RingStop::Port RingStop::route(unsigned here, unsigned dst, unsigned stops) {
  if (dst == here) return kLocal;
  const unsigned cw = (dst + stops - here) % stops, ccw = stops - cw;
  const bool cw_transits_0 = dst < here && dst != 0;   // here -> ... -> N-1 -> 0 -> ... -> dst
  const bool ccw_transits_0 = dst > here && here != 0;  // here -> ... -> 0 -> N-1 -> ... -> dst
  if (cw_transits_0) return kPrev;
  if (ccw_transits_0) return kNext;
  return cw <= ccw ? kNext : kPrev;
}

RingStop::RingStop(sc_core::sc_module_name name, const Params& p, ClockDomain& clk, unsigned here, unsigned stops,
                   StopOf stop_of)
    : sc_core::sc_module(name),
      p_(p),
      clk_(clk),
      here_(here),
      stops_(stops),
      stop_of_(std::move(stop_of)),
      in_{Input{&local_in, {}, stats_.counter("local_in.refused", Unit::Count, "offers refused: queue full")},
          Input{&from_prev, {}, stats_.counter("from_prev.refused", Unit::Count, "offers refused: queue full")},
          Input{&from_next, {}, stats_.counter("from_next.refused", Unit::Count, "offers refused: queue full")}},
      out_{Output{&local_out, false, 0, stats_.counter("local_out.messages", Unit::Count, "messages for this block")},
           Output{&to_next, false, 0, stats_.counter("to_next.messages", Unit::Count, "messages sent clockwise")},
           Output{&to_prev, false, 0,
                  stats_.counter("to_prev.messages", Unit::Count, "messages sent counter-clockwise")}} {
  validate(p_, this->name());
  if (stops_ < 2) error(this->name(), "a ring needs at least 2 stops, got ", stops_);
  if (here_ >= stops_) error(this->name(), "stop ", here_, " of a ring of ", stops_, " stops");
  if (!stop_of_) error(this->name(), "no id-to-stop map given");
  for (unsigned i = 0; i < 3; ++i) {
    in_[i].port->set_accept([this, i](tlm::tlm_generic_payload& gp) { return accept(i, gp); });
    out_[i].port->on_accept([this, i] {
      out_[i].held = false;
      clk_.wake_after_now(*this);
    });
  }
}

bool RingStop::accept(unsigned i, tlm::tlm_generic_payload& gp) {
  const MemExt& e = mem_ext(gp, name());
  Input& in = in_[i];
  if (in.q.size() >= p_.queue) {
    ++in.refused;
    return false;
  }
  if (!e.dests.empty())
    error(name(), "a multicast message (MemExt::dests) reached the ring on ", in.port->basename(),
          "; multicast stays inside a block");
  const unsigned d = stop_of_(e.dst);
  if (d >= stops_)
    error(name(), "node id ", e.dst, " (MemExt::dst) belongs to stop ", d, " but the ring has ", stops_, " stops");
  const Port o = route(here_, d, stops_);
  if (i == kLocal && o == kLocal)
    error(name(), "a message for node ", e.dst, " of this stop's own block arrived from the block on local_in");
  // A message keeps its direction: from_prev travels clockwise (to_next), from_next the other way.
  if ((i == 1 && o == kPrev) || (i == 2 && o == kNext))
    error(name(), "routing turned a message for node ", e.dst, " around at stop ", here_, " (ring routing bug)");
  const uint64_t now = clk_.now();
  in.q.push_back(Entry{&gp, now + p_.latency, o});
  clk_.wake(*this, now + p_.latency);
  return true;
}

bool RingStop::tick(uint64_t cycle) {
  bool sent_any[3] = {false, false, false};
  for (unsigned o = 0; o < 3; ++o) {
    Output& out = out_[o];
    if (out.held) continue;
    for (unsigned k = 0; k < 3; ++k) {
      const unsigned i = (out.rr + k) % 3;
      Input& in = in_[i];
      if (sent_any[i] || in.q.empty()) continue;
      const Entry x = in.q.front();
      if (x.out != o || x.due > cycle) continue;
      in.q.pop_front();
      sent_any[i] = true;
      out.rr = (i + 1) % 3;
      ++out.messages;
      out.held = true;  // before send(): END_REQ may come back from inside the call
      if (out.port->send(*x.gp)) out.held = false;
      break;
    }
  }
  uint64_t next = UINT64_MAX;
  for (Input& in : in_) {
    if (in.q.size() < p_.queue) in.port->retry();
    if (in.q.empty()) continue;
    const Entry& h = in.q.front();
    if (!out_[h.out].held) next = std::min(next, std::max(h.due, cycle + 1));
  }
  if (next == UINT64_MAX) return false;  // idle, or every head waits for a receiver (on_accept wakes us)
  if (next == cycle + 1) return true;
  clk_.wake(*this, next);
  return false;
}

}  // namespace gpusc::noc
