#include "noc/bandwidth_link.h"

#include <algorithm>
#include <string>

#include "common/mem_ext.h"
#include "common/report.h"

namespace gpusc::noc {

namespace {
const char* const kWayName[2] = {"a_to_b", "b_to_a"};
}  // namespace

BandwidthLink::Way::Way(MsgIn* i, MsgOut* o, StatGroup& s, const std::string& n)
    : in(i),
      out(o),
      messages(s.counter(n + ".messages", Unit::Count, "messages delivered to the far side")),
      bytes(s.counter(n + ".bytes", Unit::Bytes, "bytes delivered, headers and flit padding included")),
      refused(s.counter(n + ".refused", Unit::Count, "messages refused because the tx queue was full")),
      latency(s.average(n + ".latency", Unit::Cycles, "taken on the input port until offered on the far side")) {}

BandwidthLink::BandwidthLink(sc_core::sc_module_name name, const Params& p, ClockDomain& clk)
    : sc_core::sc_module(name),
      p_(p),
      clk_(clk),
      dir_{Way(&a_in, &b_out, stats_, kWayName[kAtoB]), Way(&b_in, &a_out, stats_, kWayName[kBtoA])} {
  check_params();
  for (unsigned d = 0; d < 2; ++d) {
    Way& w = dir_[d];
    w.credits = p_.rx_buffer_bytes;
    w.in->set_accept([this, &w](tlm::tlm_generic_payload& gp) { return accept(w, gp); });
    w.out->on_accept([this, &w] {
      // The receiver ended a withheld END_REQ: the buffer slot is free in this cycle.
      w.back.emplace_back(clk_.now() + 1 + p_.latency, w.held);
      w.held = 0;
      clk_.wake_after_now(*this);
    });
    const std::string n = kWayName[d];
    stats_.derived(n + ".utilization", Unit::Ratio, "bytes / (bytes_per_cycle x elapsed cycles)", [this, &w] {
      const uint64_t now = clk_.now();
      return now ? static_cast<double>(w.bytes.value()) / (static_cast<double>(p_.bytes_per_cycle) * now) : 0.0;
    });
    stats_.invariant(n + ": messages taken == delivered + in flight", [this, d] {
      const Way& x = dir_[d];
      return x.in->received() - (x.in->has_pending() ? 1 : 0) == x.messages.value() + x.tx.size() + x.rx.size();
    });
  }
}

void BandwidthLink::check_params() const {
  validate(p_, name());
  const unsigned smallest = std::max(1u, (p_.header_bytes + p_.flit_bytes - 1) / p_.flit_bytes) * p_.flit_bytes;
  if (smallest > p_.rx_buffer_bytes)
    error(name(), "rx_buffer_bytes (", p_.rx_buffer_bytes, ") is smaller than the smallest message (",
          smallest, " bytes: header_bytes ", p_.header_bytes, " in flits of ", p_.flit_bytes,
          "); no message could ever be sent");
}

unsigned BandwidthLink::wire_bytes(const tlm::tlm_generic_payload& gp) const {
  const MemExt* e = gp.get_extension<MemExt>();
  const uint64_t data = e ? wire_data_bytes(gp, *e) : 0;  // the NI's rule
  const uint64_t flits = std::max<uint64_t>(1, (p_.header_bytes + data + p_.flit_bytes - 1) / p_.flit_bytes);
  return static_cast<unsigned>(std::min<uint64_t>(flits * p_.flit_bytes, UINT32_MAX));
}

size_t BandwidthLink::in_flight(Dir d) const {
  const Way& w = dir_[d];
  return w.tx.size() + w.rx.size() + (w.held ? 1 : 0);
}

uint64_t BandwidthLink::credits(Dir d) const {
  const Way& w = dir_[d];
  uint64_t c = w.credits;
  for (const auto& [at, bytes] : w.back) c += at <= clk_.now() ? bytes : 0;  // returned, not yet needed
  return c;
}

bool BandwidthLink::accept(Way& w, tlm::tlm_generic_payload& gp) {
  mem_ext(gp, name());
  const unsigned bytes = wire_bytes(gp);
  if (bytes > p_.rx_buffer_bytes)
    error(name(), "a message of ", bytes, " bytes on the wire (", gp.get_data_length(), " data + header_bytes ",
          p_.header_bytes, ", whole flits of ", p_.flit_bytes, ") can never fit the receive buffer (rx_buffer_bytes = ",
          p_.rx_buffer_bytes, ")");
  if (w.tx.size() >= p_.tx_queue) {
    ++w.refused;
    return false;
  }
  const uint64_t latch = clk_.cycle_after(sc_core::sc_time_stamp());
  w.tx.push_back(Msg{&gp, bytes, clk_.now(), latch});
  clk_.wake(*this, latch);
  return true;
}

bool BandwidthLink::tick(uint64_t cycle) {
  uint64_t next = UINT64_MAX;
  for (Way& w : dir_) {
    while (!w.back.empty() && w.back.front().first <= cycle) {
      w.credits += w.back.front().second;
      w.back.pop_front();
    }
    transmit(w, cycle);
    deliver(w, cycle);
    next = std::min(next, next_work(w, cycle));
  }
  if (next == UINT64_MAX) return false;  // idle, or waiting for a receiver (on_accept wakes us)
  if (next <= cycle + 1) return true;
  clk_.wake(*this, next);
  return false;
}

// Starts every latched message the serializer has room and credit for in this cycle.
void BandwidthLink::transmit(Way& w, uint64_t cycle) {
  bool started = false;
  while (!w.tx.empty() && w.tx.front().at <= cycle && w.credits >= w.tx.front().bytes) {
    if (w.ser_cycle < cycle) {
      w.ser_cycle = cycle;
      w.ser_used = 0;
    }
    if (w.ser_cycle > cycle) break;  // this cycle's bytes are taken
    Msg m = w.tx.front();
    w.tx.pop_front();
    const uint64_t used = uint64_t{w.ser_used} + m.bytes;
    const uint64_t last = cycle + (used - 1) / p_.bytes_per_cycle;
    if (p_.pack) {
      w.ser_cycle = cycle + used / p_.bytes_per_cycle;
      w.ser_used = static_cast<unsigned>(used % p_.bytes_per_cycle);
    } else {
      w.ser_cycle = last + 1;
      w.ser_used = 0;
    }
    w.credits -= m.bytes;
    m.at = last + p_.latency;
    w.rx.push_back(m);
    started = true;
  }
  if (started) w.in->retry();  // a withheld message may take the freed tx slot (latched next cycle)
}

// Offers arrived messages to the far side in order until its receiver withholds one.
void BandwidthLink::deliver(Way& w, uint64_t cycle) {
  while (!w.rx.empty() && w.rx.front().at <= cycle && !w.out->busy()) {
    const Msg m = w.rx.front();
    w.rx.pop_front();
    ++w.messages;
    w.bytes += m.bytes;
    w.latency.add(static_cast<double>(cycle - m.accepted));
    w.held = m.bytes;  // before send(): a receiver may end END_REQ from inside the call
    if (w.out->send(*m.gp)) {
      w.held = 0;
      w.back.emplace_back(cycle + 1 + p_.latency, m.bytes);
    }
  }
}

// Earliest cycle this direction can make progress without outside help.
uint64_t BandwidthLink::next_work(const Way& w, uint64_t cycle) const {
  uint64_t next = UINT64_MAX;
  if (!w.rx.empty() && !w.out->busy()) next = w.rx.front().at;
  if (!w.tx.empty()) {
    const Msg& h = w.tx.front();
    if (w.credits >= h.bytes) next = std::min(next, std::max({h.at, w.ser_cycle, cycle + 1}));
    else if (!w.back.empty()) next = std::min(next, w.back.front().first);
    // else: every credit is held by a withheld message; on_accept wakes us
  }
  return next;
}

}  // namespace gpusc::noc
