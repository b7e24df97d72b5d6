#include "noc/router.h"

#include <algorithm>

#include "common/report.h"

namespace gpusc::noc {

namespace {
SwitchAllocator::Policy policy_of(const std::string& s) {
  return s == "separable" ? SwitchAllocator::Policy::Separable : SwitchAllocator::Policy::ISlip;
}
const Router::Params& checked(const Router::Params& p, const char* where) {
  validate(p, where);
  if (p.vnets * p.vcs_per_vnet > 64)
    error(where, "vnets x vcs_per_vnet = ", p.vnets * p.vcs_per_vnet, " exceeds 64 VCs per port");
  return p;
}
}  // namespace

Router::Router(sc_core::sc_module_name name, const Params& p, unsigned id, unsigned ports, ClockDomain& clk,
               const RouteFunc& route)
    : sc_core::sc_module(name),
      p_(checked(p, this->name())),
      id_(id),
      ports_(ports),
      vcs_(p.vnets * p.vcs_per_vnet),
      d_rc_(p.pipeline == 4 ? 1 : 0),
      d_va_(p.pipeline == 2 ? 0 : 1),
      clk_(clk),
      route_(route),
      in_links_(ports, nullptr),
      in_(ports * vcs_),
      out_(ports),
      sa_(ports, ports, vcs_, policy_of(p.allocator)),
      active_(ports, 0),
      need_rc_(ports, 0),
      st_flits_(stats_.counter("flits_switched", Unit::Flits, "flits that crossed the switch (router traversals)")),
      heads_(stats_.counter("packets_routed", Unit::Packets, "head flits routed")),
      replicas_(stats_.counter("replicas", Unit::Packets, "extra branches created by multicast replication")),
      va_stalls_(stats_.counter("va_stalls", Unit::Count, "branch-cycles that found no free output VC")),
      sa_stalls_(stats_.counter("sa_stalls", Unit::Count, "input-cycles that requested the switch and lost")) {
  for (auto& q : in_) {
    q.ring.resize(p_.vc_depth);
    q.br.reserve(ports);
  }
  scratch_.reserve(ports);
}

void Router::connect_in(unsigned port, FlitLink& link) { in_links_.at(port) = &link; }

void Router::connect_out(unsigned port, FlitLink& link) {
  OutPort& o = out_.at(port);
  o.link = &link;
  o.credits.assign(vcs_, p_.vc_depth);  // downstream input VCs have the same depth
  o.busy.assign(vcs_, false);
}

void Router::receive_flit(unsigned in_port, const Flit& f) {
  if (f.vc >= vcs_) error(name(), "flit arrived on VC ", unsigned(f.vc), " of port ", in_port, "; the router has ", vcs_);
  InVc& q = ivc(in_port, f.vc);
  if (q.size == q.ring.size())
    error(name(), "buffer overflow on port ", in_port, " VC ", unsigned(f.vc), ": upstream sent without a credit");
  q.ring[q.slot(q.size)] = f;
  ++q.size;
  ++occupancy_;
  active_[in_port] |= uint64_t{1} << f.vc;
  if (!q.routed) need_rc_[in_port] |= uint64_t{1} << f.vc;
  clk_.wake(*this, f.ready);
}

void Router::receive_credit(unsigned out_port, unsigned vc, uint64_t ready) {
  credits_.push_back({ready, out_port, vc});
}

bool Router::tick(uint64_t cycle) {
  apply_credits(cycle);
  route_heads(cycle);
  if (va_waiting_) allocate_vcs(cycle);
  allocate_switch(cycle);
  return occupancy_ > 0;
}

void Router::apply_credits(uint64_t cycle) {
  for (size_t i = 0; i < credits_.size();) {
    if (credits_[i].ready <= cycle) {
      ++out_[credits_[i].port].credits[credits_[i].vc];
      credits_[i] = credits_.back();
      credits_.pop_back();
    } else {
      ++i;
    }
  }
}

void Router::route_heads(uint64_t cycle) {
  for (unsigned p = 0; p < ports_; ++p) {
    for (uint64_t a = need_rc_[p]; a; a &= a - 1) {
      const unsigned v = static_cast<unsigned>(__builtin_ctzll(a));
      InVc& q = ivc(p, v);
      const Flit& f = q.at(0);
      if (f.ready > cycle) continue;
      need_rc_[p] &= ~(uint64_t{1} << v);
      if (!f.head()) error(name(), "body flit ", f.seq, " of packet ", f.pkt->id, " at the front of an idle VC");
      scratch_.clear();
      route_.route(id_, p, v, f, scratch_);
      if (scratch_.empty()) error(name(), "routing function returned no output for packet ", f.pkt->id);
      for (const RouteBranch& r : scratch_) {
        if (r.port >= ports_ || !out_[r.port].link)
          error(name(), "routing sends packet ", f.pkt->id, " (to node ", r.dests.first(), ") through port ", r.port,
                ", which is not connected: the routing function cannot reach that node from here");
        if (r.vc_lo >= r.vc_hi || r.vc_hi > vcs_)
          error(name(), "routing gave an empty or out-of-range VC class [", r.vc_lo, ", ", r.vc_hi, ")");
        Branch b;
        b.port = r.port;
        b.dests = r.dests;
        b.vc_lo = r.vc_lo;
        b.vc_hi = r.vc_hi;
        b.va_ready = cycle + d_rc_;
        q.br.push_back(b);
      }
      va_waiting_ += static_cast<unsigned>(q.br.size());
      q.routed = true;
      q.flits = f.pkt->flits;
      q.popped = 0;
      q.tails_sent = 0;
      ++heads_;
      replicas_ += q.br.size() - 1;
    }
  }
}

void Router::allocate_vcs(uint64_t cycle) {
  // Requests: (output port, rotated input-VC index, branch); served per output round-robin.
  struct Req {
    unsigned port, key, in_idx;
    Branch* b;
  };
  Req reqs[64];
  unsigned n = 0;
  const unsigned nin = ports_ * vcs_;
  for (unsigned p = 0; p < ports_; ++p) {
    for (uint64_t a = active_[p]; a; a &= a - 1) {
      const unsigned v = static_cast<unsigned>(__builtin_ctzll(a));
      InVc& q = ivc(p, v);
      if (!q.routed) continue;
      for (Branch& b : q.br) {
        if (b.out_vc >= 0 || b.va_ready > cycle || b.sent > 0) continue;
        const unsigned idx = p * vcs_ + v, ptr = out_[b.port].va_ptr;
        if (n < 64) reqs[n++] = {b.port, idx >= ptr ? idx - ptr : idx + nin - ptr, idx, &b};
      }
    }
  }
  if (n == 0) return;
  // Insertion sort: a handful of requests per cycle.
  for (unsigned i = 1; i < n; ++i)
    for (unsigned j = i; j > 0 && (reqs[j].port < reqs[j - 1].port ||
                                   (reqs[j].port == reqs[j - 1].port && reqs[j].key < reqs[j - 1].key)); --j)
      std::swap(reqs[j], reqs[j - 1]);
  for (unsigned i = 0; i < n; ++i) {
    OutPort& o = out_[reqs[i].port];
    Branch& b = *reqs[i].b;
    unsigned vc = b.vc_lo;
    while (vc < b.vc_hi && o.busy[vc]) ++vc;
    if (vc == b.vc_hi) {
      ++va_stalls_;
      continue;
    }
    o.busy[vc] = true;
    --va_waiting_;
    b.out_vc = static_cast<int>(vc);
    b.sa_ready = cycle + d_va_;
    o.va_ptr = reqs[i].in_idx + 1 == nin ? 0 : reqs[i].in_idx + 1;
  }
}

void Router::allocate_switch(uint64_t cycle) {
  const uint64_t body_ready = d_rc_ + d_va_;
  unsigned requesting = 0;
  for (unsigned p = 0; p < ports_; ++p) {
    bool any = false;
    for (uint64_t a = active_[p]; a; a &= a - 1) {
      const unsigned v = static_cast<unsigned>(__builtin_ctzll(a));
      InVc& q = ivc(p, v);
      if (!q.routed) continue;
      uint64_t mask = 0;
      for (const Branch& b : q.br) {
        if (b.out_vc < 0 || b.sent == q.flits) continue;
        const unsigned idx = b.sent - q.popped;
        if (idx >= q.size) continue;
        const Flit& f = q.at(idx);
        if (f.ready + body_ready > cycle || (f.head() && b.sa_ready > cycle)) continue;
        if (out_[b.port].credits[static_cast<unsigned>(b.out_vc)] == 0) continue;
        mask |= uint64_t{1} << b.port;
      }
      if (mask) {
        sa_.request(p, v, mask);
        any = true;
      }
    }
    requesting += any;
  }
  if (!requesting) return;
  sa_.allocate();
  unsigned won = 0;
  for (uint64_t g = sa_.granted_inputs(); g; g &= g - 1) {
    const unsigned p = static_cast<unsigned>(__builtin_ctzll(g));
    const unsigned v = static_cast<unsigned>(sa_.granted_vc(p));
    const uint64_t outs = sa_.granted_outs(p);
    InVc& q = ivc(p, v);
    ++won;
    for (Branch& b : q.br)
      if (outs & (uint64_t{1} << b.port)) send(p, v, b, cycle);
    // Free the slots every branch has sent; the credit leaves with the flit (ST, next cycle).
    for (;;) {
      unsigned min_sent = UINT32_MAX;
      for (const Branch& b : q.br) min_sent = std::min(min_sent, b.sent);
      if (q.size == 0 || min_sent <= q.popped) break;
      q.head = q.slot(1);
      --q.size;
      ++q.popped;
      --occupancy_;
      in_links_[p]->credit(v, cycle + 1);
    }
    if (q.tails_sent == q.br.size()) {
      q.routed = false;
      q.br.clear();
      q.popped = 0;
      q.tails_sent = 0;
      if (q.size) need_rc_[p] |= uint64_t{1} << v;
    }
    if (q.size == 0) active_[p] &= ~(uint64_t{1} << v);
  }
  sa_stalls_ += requesting - won;
}

void Router::send(unsigned in_port, unsigned vc, Branch& b, uint64_t cycle) {
  InVc& q = ivc(in_port, vc);
  Flit f = q.at(b.sent - q.popped);
  OutPort& o = out_[b.port];
  const unsigned ovc = static_cast<unsigned>(b.out_vc);
  f.vc = static_cast<uint8_t>(ovc);
  if (f.head()) f.dests = b.dests;
  --o.credits[ovc];
  ++b.sent;
  ++st_flits_;
  if (f.tail()) {
    o.busy[ovc] = false;
    ++q.tails_sent;
  }
  // SA in `cycle`, ST in cycle + 1, then link_latency cycles on the link.
  o.link->send(f, cycle + 2 + o.link->latency);
}

}  // namespace gpusc::noc
