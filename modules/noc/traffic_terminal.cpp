#include "noc/traffic_terminal.h"

#include <cmath>

#include "common/mem_ext.h"
#include "common/report.h"

namespace gpusc::noc {

TrafficTerminal::TrafficTerminal(sc_core::sc_module_name name, const Params& p, unsigned node, unsigned k, unsigned m,
                                 uint64_t seed, ClockDomain& clk, PayloadPool& pool, unsigned lane)
    : sc_core::sc_module(name),
      p_(p),
      pattern_(pattern_of(p.traffic)),
      node_(node),
      k_(k),
      m_(m),
      nodes_(k * m),
      clk_(clk),
      pool_(pool),
      rng_(seed * 0x9e3779b97f4a7c15ull + node + 1),
      p_packet_(p.rate / p.packet_flits),
      seq_(k * m, 0),
      last_from_(k * m, 0),
      from_count_(k * m, 0),
      from_seq_sum_(k * m, 0),
      lat_(stats_.histogram("packet_latency", Unit::Cycles, "creation to tail ejection, measured packets", 1, 8192)),
      net_lat_(stats_.average("network_latency", Unit::Cycles, "head injection to tail ejection, measured packets")) {
  validate(p_, this->name());
  clk_.place(*this, lane);  // before its first wake-up below
  if (p_.traffic == "transpose" && k != m) error(this->name(), "transpose traffic needs a square mesh, got ", k, "x", m);
  for (unsigned h : p_.hotspots)
    if (h >= nodes_) error(this->name(), "hotspot node ", h, " is outside the ", nodes_, "-node network");
  if (p_.header_bytes > p_.packet_flits * p_.flit_bytes)
    error(this->name(), "header_bytes ", p_.header_bytes, " does not fit in ", p_.packet_flits, " flits");
  in.set_accept([this](tlm::tlm_generic_payload& gp) { return receive(gp); });
  out.on_accept([this] { clk_.wake_after_now(*this); });
  if (p_packet_ > 0) {
    next_arrival_ = gap() - 1;  // first arrival in [0, ...)
    if (next_arrival_ < p_.warmup + p_.cycles) clk_.wake(*this, next_arrival_);
  }
}

uint64_t TrafficTerminal::gap() {
  if (p_packet_ >= 1.0) return 1;
  const double u = (static_cast<double>(rng_() >> 11) + 0.5) * (1.0 / 9007199254740992.0);
  return 1 + static_cast<uint64_t>(std::floor(std::log(u) / std::log1p(-p_packet_)));
}

TrafficTerminal::Pattern TrafficTerminal::pattern_of(const std::string& traffic) {
  if (traffic == "uniform") return Pattern::Uniform;
  if (traffic == "transpose") return Pattern::Transpose;
  if (traffic == "bitcomplement") return Pattern::BitComplement;
  if (traffic == "neighbor") return Pattern::Neighbor;
  return Pattern::Hotspot;  // anything else is rejected by validate() in the constructor
}

unsigned TrafficTerminal::pick_destination() {
  const unsigned x = node_ % k_, y = node_ / k_;
  const auto uniform = [&] { return static_cast<unsigned>((rng_() >> 11) % nodes_); };
  if (pattern_ == Pattern::Uniform) return uniform();
  if (pattern_ == Pattern::Transpose) return x * k_ + y;
  if (pattern_ == Pattern::BitComplement) return (m_ - 1 - y) * k_ + (k_ - 1 - x);
  if (pattern_ == Pattern::Neighbor) return y * k_ + (x + 1) % k_;
  // hotspot
  const double u = static_cast<double>(rng_() >> 11) * (1.0 / 9007199254740992.0);
  if (u < p_.hotspot_fraction) return p_.hotspots[static_cast<size_t>((rng_() >> 11) % p_.hotspots.size())];
  return uniform();
}

bool TrafficTerminal::tick(uint64_t cycle) {
  const uint64_t stop = p_.warmup + p_.cycles;
  while (next_arrival_ <= cycle && next_arrival_ < stop) {
    queue_.push_back({next_arrival_, pick_destination()});
    ++created_;
    created_win_ += measured(next_arrival_);
    next_arrival_ += gap();
  }
  if (!queue_.empty() && !out.busy()) {
    const Pending pk = queue_.front();
    queue_.pop_front();
    auto& gp = pool_.acquire();
    MemExt& e = *gp.get_extension<MemExt>();
    e.kind = MemKind::Write;
    e.src = node_;
    e.dst = pk.dst;
    e.pc = seq_[pk.dst]++;
    e.t_issue = clk_.time_of(pk.created);
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_data_length(p_.packet_flits * p_.flit_bytes - p_.header_bytes);
    out.send(gp);
  }
  if (!queue_.empty() && !out.busy()) return true;
  if (next_arrival_ < stop && (queue_.empty() || out.busy())) clk_.wake(*this, next_arrival_);
  return false;
}

bool TrafficTerminal::receive(tlm::tlm_generic_payload& gp) {
  const MemExt& e = mem_ext(gp, name());
  if (e.dst != node_) error(name(), "packet for node ", e.dst, " delivered to node ", node_);
  const uint64_t now = clk_.now(), created = clk_.cycle_of(e.t_issue);
  ++received_;
  ++from_count_[e.src];
  from_seq_sum_[e.src] += e.pc;
  if (e.pc + 1 < last_from_[e.src]) ++out_of_order_;  // an older packet after a newer one
  last_from_[e.src] = std::max(last_from_[e.src], e.pc + 1);
  if (now >= p_.warmup && now < p_.warmup + p_.cycles) flits_win_ += p_.packet_flits;
  if (measured(created)) {
    lat_.add(static_cast<double>(now - created));
    net_lat_.add(static_cast<double>(now - clk_.cycle_of(e.t_req_inject)));
  }
  gp.release();
  return true;
}

}  // namespace gpusc::noc
