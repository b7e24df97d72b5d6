#include "noc/bandwidth_link.h"

#include <algorithm>
#include <string>

#include "common/mem_ext.h"
#include "common/report.h"

namespace gpusc::noc {

namespace {
const char* const kWayName[2] = {"a_to_b", "b_to_a"};
}  // namespace

BandwidthLink::Way::Way(StatGroup& s, const std::string& n)
    : messages(s.counter(n + ".messages", Unit::Count, "messages delivered to the far side")),
      bytes(s.counter(n + ".bytes", Unit::Bytes, "bytes delivered, headers and flit padding included")),
      refused(s.counter(n + ".refused", Unit::Count, "messages refused because the tx queue was full")),
      latency(s.average(n + ".latency", Unit::Cycles, "taken on the input port until offered on the far side")) {}

BandwidthLink::BandwidthLink(sc_core::sc_module_name name, const Params& p, ClockDomain& clk)
    : sc_core::sc_module(name),
      p_(p),
      clk_(clk),
      more_in_{sc_core::sc_vector<MsgIn>("a_in_class"), sc_core::sc_vector<MsgIn>("b_in_class")},
      more_out_{sc_core::sc_vector<MsgOut>("a_out_class"), sc_core::sc_vector<MsgOut>("b_out_class")},
      dir_{Way(stats_, kWayName[kAtoB]), Way(stats_, kWayName[kBtoA])} {
  check_params();
  for (unsigned s = 0; s < 2; ++s) {
    more_in_[s].init(p_.classes - 1);
    more_out_[s].init(p_.classes - 1);
  }
  for (unsigned d = 0; d < 2; ++d) {
    Way& w = dir_[d];
    const Side from = d == kAtoB ? kSideA : kSideB, to = d == kAtoB ? kSideB : kSideA;
    w.lanes.resize(p_.classes);
    for (unsigned c = 0; c < p_.classes; ++c) {
      Lane& l = w.lanes[c];
      l.in = &in(from, c);
      l.out = &out(to, c);
      l.credits = p_.rx_buffer_bytes;
      l.in->set_accept([this, &w, &l](tlm::tlm_generic_payload& gp) { return accept(w, l, gp); });
      l.out->on_accept([this, &l] {
        // The receiver ended a withheld END_REQ: the buffer slot is free in this cycle.
        l.back.emplace_back(clk_.now() + 1 + p_.latency, l.held);
        l.held = 0;
        clk_.wake_after_now(*this);
      });
      const std::string n = kWayName[d];
      if (p_.classes > 1) {
        const std::string cn = n + ".class" + std::to_string(c);
        l.messages_stat = &stats_.counter(cn + ".messages", Unit::Count, "messages of this class delivered");
        l.bytes_stat = &stats_.counter(cn + ".bytes", Unit::Bytes, "bytes of this class delivered");
        l.refused_stat = &stats_.counter(cn + ".refused", Unit::Count, "messages of this class refused (tx queue full)");
      }
      const std::string inv = p_.classes > 1 ? n + " class " + std::to_string(c) : n;
      stats_.invariant(inv + ": messages taken == delivered + in flight", [&l] {
        return l.in->received() - (l.in->has_pending() ? 1 : 0) == l.messages + l.tx.size() + l.rx.size();
      });
    }
    const std::string n = kWayName[d];
    stats_.derived(n + ".utilization", Unit::Ratio, "bytes / (bytes_per_cycle x elapsed cycles)", [this, &w] {
      const uint64_t now = clk_.now();
      return now ? static_cast<double>(w.bytes.value()) / (static_cast<double>(p_.bytes_per_cycle) * now) : 0.0;
    });
  }
}

MsgIn& BandwidthLink::in(Side s, unsigned cls) {
  if (cls >= p_.classes) error(name(), "class ", cls, " of a link with ", p_.classes, " classes");
  if (cls == 0) return s == kSideA ? a_in : b_in;
  return more_in_[s][cls - 1];
}

MsgOut& BandwidthLink::out(Side s, unsigned cls) {
  if (cls >= p_.classes) error(name(), "class ", cls, " of a link with ", p_.classes, " classes");
  if (cls == 0) return s == kSideA ? a_out : b_out;
  return more_out_[s][cls - 1];
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
  size_t n = 0;
  for (const Lane& l : dir_[d].lanes) n += l.tx.size() + l.rx.size() + (l.held ? 1 : 0);
  return n;
}

uint64_t BandwidthLink::credits(Dir d, unsigned cls) const {
  const Lane& l = dir_[d].lanes.at(cls);
  uint64_t c = l.credits;
  for (const auto& [at, bytes] : l.back) c += at <= clk_.now() ? bytes : 0;  // returned, not yet needed
  return c;
}

bool BandwidthLink::accept(Way& w, Lane& l, tlm::tlm_generic_payload& gp) {
  mem_ext(gp, name());
  const unsigned bytes = wire_bytes(gp);
  if (bytes > p_.rx_buffer_bytes)
    error(name(), "a message of ", bytes, " bytes on the wire (", gp.get_data_length(), " data + header_bytes ",
          p_.header_bytes, ", whole flits of ", p_.flit_bytes, ") can never fit the receive buffer (rx_buffer_bytes = ",
          p_.rx_buffer_bytes, ")");
  if (l.tx.size() >= p_.tx_queue) {
    ++w.refused;
    if (l.refused_stat) ++*l.refused_stat;
    return false;
  }
  const uint64_t latch = clk_.cycle_after(sc_core::sc_time_stamp());
  l.tx.push_back(Msg{&gp, bytes, clk_.now(), latch});
  clk_.wake(*this, latch);
  return true;
}

bool BandwidthLink::tick(uint64_t cycle) {
  uint64_t next = UINT64_MAX;
  for (Way& w : dir_) {
    for (Lane& l : w.lanes)
      while (!l.back.empty() && l.back.front().first <= cycle) {
        l.credits += l.back.front().second;
        l.back.pop_front();
      }
    transmit(w, cycle);
    for (Lane& l : w.lanes) deliver(w, l, cycle);
    next = std::min(next, next_work(w, cycle));
  }
  if (next == UINT64_MAX) return false;  // idle, or waiting for a receiver (on_accept wakes us)
  if (next <= cycle + 1) return true;
  clk_.wake(*this, next);
  return false;
}

// The class whose head may start now: latched, with credit; the earliest accepted, ties
// round-robin from next_rr. nullptr when none may.
BandwidthLink::Lane* BandwidthLink::pick(Way& w, uint64_t cycle) {
  Lane* best = nullptr;
  const unsigned n = static_cast<unsigned>(w.lanes.size());
  for (unsigned i = 0; i < n; ++i) {
    Lane& l = w.lanes[(w.next_rr + i) % n];
    if (l.tx.empty() || l.tx.front().at > cycle || l.credits < l.tx.front().bytes) continue;
    if (!best || l.tx.front().accepted < best->tx.front().accepted) best = &l;
  }
  return best;
}

// Starts every latched message the serializer has room and credit for in this cycle.
void BandwidthLink::transmit(Way& w, uint64_t cycle) {
  uint32_t started = 0;  // classes that started a message (bit per class)
  while (Lane* l = pick(w, cycle)) {
    if (w.ser_cycle < cycle) {
      w.ser_cycle = cycle;
      w.ser_used = 0;
    }
    if (w.ser_cycle > cycle) break;  // this cycle's bytes are taken
    Msg m = l->tx.front();
    l->tx.pop_front();
    const uint64_t used = uint64_t{w.ser_used} + m.bytes;
    const uint64_t last = cycle + (used - 1) / p_.bytes_per_cycle;
    if (p_.pack) {
      w.ser_cycle = cycle + used / p_.bytes_per_cycle;
      w.ser_used = static_cast<unsigned>(used % p_.bytes_per_cycle);
    } else {
      w.ser_cycle = last + 1;
      w.ser_used = 0;
    }
    l->credits -= m.bytes;
    m.at = last + p_.latency;
    l->rx.push_back(m);
    const unsigned c = static_cast<unsigned>(l - w.lanes.data());
    w.next_rr = (c + 1) % static_cast<unsigned>(w.lanes.size());
    started |= 1u << c;
  }
  for (unsigned c = 0; c < w.lanes.size(); ++c)
    if (started >> c & 1) w.lanes[c].in->retry();  // a withheld message may take the freed tx slot (latched next cycle)
}

// Offers arrived messages of one class to the far side in order until its receiver withholds one.
void BandwidthLink::deliver(Way& w, Lane& l, uint64_t cycle) {
  while (!l.rx.empty() && l.rx.front().at <= cycle && !l.out->busy()) {
    const Msg m = l.rx.front();
    l.rx.pop_front();
    ++w.messages;
    w.bytes += m.bytes;
    ++l.messages;
    l.bytes += m.bytes;
    if (l.messages_stat) {
      ++*l.messages_stat;
      *l.bytes_stat += m.bytes;
    }
    w.latency.add(static_cast<double>(cycle - m.accepted));
    l.held = m.bytes;  // before send(): a receiver may end END_REQ from inside the call
    if (l.out->send(*m.gp)) {
      l.held = 0;
      l.back.emplace_back(cycle + 1 + p_.latency, m.bytes);
    }
  }
}

// Earliest cycle this direction can make progress without outside help.
uint64_t BandwidthLink::next_work(const Way& w, uint64_t cycle) const {
  uint64_t next = UINT64_MAX;
  for (const Lane& l : w.lanes) {
    if (!l.rx.empty() && !l.out->busy()) next = std::min(next, l.rx.front().at);
    if (!l.tx.empty()) {
      const Msg& h = l.tx.front();
      if (l.credits >= h.bytes) next = std::min(next, std::max({h.at, w.ser_cycle, cycle + 1}));
      else if (!l.back.empty()) next = std::min(next, l.back.front().first);
      // else: every credit is held by a withheld message; on_accept wakes us
    }
  }
  return next;
}

}  // namespace gpusc::noc
