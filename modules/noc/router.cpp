#include "noc/router.h"

#include <algorithm>
#include <new>

#include "common/mem_ext.h"
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
               const RouteFunc& route, unsigned lane)
    : sc_core::sc_module(name),
      p_(checked(p, this->name())),
      id_(id),
      ports_(ports),
      vcs_(p.vnets * p.vcs_per_vnet),
      depth_(p.vc_depth),
      d_rc_(p.pipeline == 4 ? 1 : 0),
      d_va_(p.pipeline == 2 ? 0 : 1),
      sa_(ports, ports, vcs_, policy_of(p.allocator)),
      clk_(clk),
      route_(route),
      st_flits_(stats_.counter("flits_switched", Unit::Flits, "flits that crossed the switch (router traversals)")),
      heads_(stats_.counter("packets_routed", Unit::Packets, "head flits routed")),
      replicas_(stats_.counter("replicas", Unit::Packets, "extra branches created by multicast replication")),
      va_stalls_(stats_.counter("va_stalls", Unit::Count, "branch-cycles that asked for an output VC and got none (none free, or not granted)")),
      sa_stalls_(stats_.counter("sa_stalls", Unit::Count, "input-cycles that requested the switch and lost")) {
  // Carve the arena: per-port words, credits, links, then the VC records and flit rings on
  // cache-line boundaries, then the multicast destination sets (cold).
  const size_t nin = size_t{ports} * vcs_;
  static_assert(sizeof(InVc) == 32 && sizeof(Branch) == 32 && sizeof(Flit) == 32, "layout");
  vc_stride_ = (sizeof(InVc) + ports * sizeof(Branch) + 63) / 64 * 64;
  size_t off = 0;
  const auto take = [&off](size_t bytes, size_t align) {
    off = (off + align - 1) / align * align;
    const size_t at = off;
    off += bytes;
    return at;
  };
  words_ = static_cast<unsigned>((nin + 63) / 64);
  const size_t o_va = take(words_ * 8, 8), o_sa = take(words_ * 8, 8);
  const size_t o_sa_new = take(words_ * 8, 8), o_blk = take(words_ * 8, 8), o_later = take(kVaLater * words_ * 8, 8);
  const size_t o_busy = take(ports * 8, 8), o_links = take(2 * ports * sizeof(FlitLink*), 8);
  const size_t o_cred = take(nin * 4, 4), o_ptr = take(2 * nin * 4, 4), o_owner = take(nin * 2, 2);
  const size_t o_vcs = take(nin * vc_stride_, 64), o_flits = take(nin * depth_ * sizeof(Flit), 64);
  // At most every downstream slot's credit is on its way back at once.
  size_t cap = 1;
  while (cap < nin * depth_) cap *= 2;
  const size_t o_cring = take(cap * sizeof(PendingCredit), 64);
  const size_t o_bd = take(nin * ports * sizeof(DestSet), 8), o_md = take(nin * depth_ * sizeof(DestSet), 8);
  arena_.assign((off + 64) / 8 + 8, 0);
  unsigned char* base = reinterpret_cast<unsigned char*>(arena_.data());
  base += (64 - reinterpret_cast<uintptr_t>(base) % 64) % 64;
  va_set_.init(words_, reinterpret_cast<uint64_t*>(base + o_va));
  sa_set_.init(words_, reinterpret_cast<uint64_t*>(base + o_sa));
  sa_new_set_.init(words_, reinterpret_cast<uint64_t*>(base + o_sa_new));
  sa_blocked_.init(words_, reinterpret_cast<uint64_t*>(base + o_blk));
  for (unsigned i = 0; i < kVaLater; ++i)
    va_later_[i].init(words_, reinterpret_cast<uint64_t*>(base + o_later) + i * words_);
  busy_ = reinterpret_cast<uint64_t*>(base + o_busy);
  in_links_ = reinterpret_cast<FlitLink**>(base + o_links);
  out_links_ = in_links_ + ports;
  credits_ = reinterpret_cast<unsigned*>(base + o_cred);
  va_gptr_ = reinterpret_cast<unsigned*>(base + o_ptr);
  va_aptr_ = va_gptr_ + nin;
  owner_ = reinterpret_cast<uint16_t*>(base + o_owner);
  vc_base_ = base + o_vcs;
  Flit* flits = reinterpret_cast<Flit*>(base + o_flits);
  bdests_ = reinterpret_cast<DestSet*>(base + o_bd);
  mdests_ = reinterpret_cast<DestSet*>(base + o_md);
  for (size_t i = 0; i < ports; ++i) in_links_[i] = out_links_[i] = nullptr;
  for (size_t i = 0; i < nin * depth_; ++i) new (&flits[i]) Flit();
  for (size_t i = 0; i < nin * ports; ++i) new (&bdests_[i]) DestSet();
  for (size_t i = 0; i < nin * depth_; ++i) new (&mdests_[i]) DestSet();
  for (size_t i = 0; i < nin; ++i) {
    InVc* q = new (vc_base_ + i * vc_stride_) InVc{&flits[i * depth_], 0, 0, 0, 0, 0, 0, 0, static_cast<uint16_t>(i),
                                                    static_cast<uint16_t>(i / vcs_), static_cast<uint16_t>(i % vcs_)};
    for (unsigned b = 0; b < ports; ++b) new (&q->br()[b]) Branch{0, 0, 0, -1, 0, 0, kMultiDest};
  }
  scratch_.reserve(ports);
  clk_.place(*this, lane);
  cring_ = reinterpret_cast<PendingCredit*>(base + o_cring);
  cmask_ = static_cast<unsigned>(cap - 1);
}

void Router::connect_in(unsigned port, FlitLink& link) {
  if (port >= ports_) error(name(), "input port ", port, " does not exist; the router has ", ports_);
  in_links_[port] = &link;
  if (link.down == static_cast<FlitPortOwner*>(this) && link.down_port == port && !link.mail_down)
    link.router_down = this;
}

void Router::connect_out(unsigned port, FlitLink& link) {
  if (port >= ports_) error(name(), "output port ", port, " does not exist; the router has ", ports_);
  out_links_[port] = &link;
  if (link.up == static_cast<FlitPortOwner*>(this) && link.up_port == port && !link.mail_up) link.router_up = this;
  for (unsigned v = 0; v < vcs_; ++v) credits_[port * vcs_ + v] = p_.vc_depth;  // downstream VCs are as deep
  busy_[port] = 0;
}

void Router::receive_error(unsigned in_port, const Flit& f) const {
  if (f.vc >= vcs_) error(name(), "flit arrived on VC ", unsigned(f.vc), " of port ", in_port, "; the router has ", vcs_);
  error(name(), "buffer overflow on port ", in_port, " VC ", unsigned(f.vc), ": upstream sent without a credit");
}

void Router::receive_flit(unsigned in_port, const Flit& f) {
  if (f.vc >= vcs_) receive_error(in_port, f);
  InVc& q = vc(in_port * vcs_ + f.vc);
  if (q.size == depth_) receive_error(in_port, f);
  const unsigned s = slot(q, q.size);
  Flit& dst = q.ring[s];
  dst = f;
  if (f.dest == kMultiDest && f.head()) {  // keep our own copy of the set (see flit.h)
    DestSet& own = mdests_[q.index * depth_ + s];
    own = *f.dests;
    dst.dests = &own;
  }
  ++q.size;
  ++occupancy_;
  if (!q.nbr) route(q, f.ready);  // at the front of an idle VC (a VC with flits is never idle)
  if (f.ready < scheduled_) {  // flits arrive during a tick, usable at a later cycle
    clk_.wake(*this, f.ready);
    scheduled_ = f.ready;
  }
}

void Router::receive_credit(unsigned out_port, unsigned vc, uint64_t ready) {
  if (csize_ == cmask_ + 1)
    error(name(), "more credits returned on output port ", out_port, " than its downstream buffers hold");
  unsigned i = csize_++;
  for (; i && cring_[(chead_ + i - 1) & cmask_].ready > ready; --i)
    cring_[(chead_ + i) & cmask_] = cring_[(chead_ + i - 1) & cmask_];
  cring_[(chead_ + i) & cmask_] = {ready, out_port * vcs_ + vc};
  credit_next_ = cring_[chead_].ready;
}

bool Router::tick(uint64_t cycle) {
  scheduled_ = UINT64_MAX;  // the ClockDomain has just cleared our slot
  if (cycle >= credit_next_) apply_credits(cycle);
  if (sa_new_set_.sum) sa_new_set_.move_into(sa_set_);
  if (const unsigned s = cycle % kVaLater; va_later_[s].sum) {  // heads whose VA cycle this is
    va_later_[s].move_into(va_set_);
    va_waiting_ += va_later_n_[s];
    va_later_n_[s] = 0;
  }
  if (va_set_.sum) allocate_vcs(cycle);
  if (sa_set_.sum) allocate_switch(cycle);
  scheduled_ = occupancy_ ? cycle + 1 : UINT64_MAX;  // returning true re-arms for cycle + 1
  return occupancy_ > 0;
}

void Router::apply_credits(uint64_t cycle) {
  do {
    const unsigned idx = cring_[chead_].index;
    // The output VC's first credit back: its owner may be waiting for it (see allocate_switch).
    if (credits_[idx]++ == 0 && sa_blocked_.test(owner_[idx])) {
      sa_blocked_.clear(owner_[idx]);
      sa_set_.set(owner_[idx]);
    }
    chead_ = (chead_ + 1) & cmask_;
  } while (--csize_ && cring_[chead_].ready <= cycle);
  if (csize_) {
    credit_next_ = cring_[chead_].ready;
  } else {  // restart at slot 0: at low load the ring then stays on one cache line
    credit_next_ = UINT64_MAX;
    chead_ = 0;
  }
}

namespace {
// Output VCs [lo, hi) as a bit mask (0 <= lo < hi <= 64).
uint64_t vc_range(unsigned lo, unsigned hi) { return (~uint64_t{0} >> (64 - hi)) & (~uint64_t{0} << lo); }
}  // namespace

void Router::route(InVc& q, uint64_t rc_cycle) {
  const Flit& f = q.ring[q.head];
  // A multicast packet must fit in one VC. With asynchronous replication an input VC keeps a flit
  // until every branch has sent it; if the packet were longer than the VC, a branch could hold
  // its output VC waiting for flits that a blocked sibling keeps out of the buffer, and trees
  // could wait on each other in a cycle (seen on the mesh GPU: 9-flit replies, 8-flit VCs). When
  // it fits, all its flits can enter the input VC whatever the siblings do, so each branch waits
  // only on its own downstream path and dimension-order trees stay deadlock-free.
  // (VCs are equally deep everywhere, so the check at any router a tree passes with several
  // destinations still ahead, the first one included, covers the whole tree.)
  if (f.head() && f.dest == kMultiDest && f.flits > p_.vc_depth) multicast_depth_error(f);
  unsigned n = 1;
  if (f.head() && f.dest != kMultiDest) {  // unicast: one branch, no destination set to split
    if (f.dest == id_) {
      __builtin_prefetch(&f.pkt->injected, 1);  // ejected here: the NI reads its record
      if (head_hook_) redirect(q.ring[q.head]);  // may rewrite f.dest (f is that flit)
    }
    const UnicastRoute r = route_.route_unicast(id_, q.port, q.vc, f);
    if (r.port >= ports_ || !out_links_[r.port] || r.vc_lo >= r.vc_hi || r.vc_hi > vcs_)
      route_error(f, r.port, r.vc_lo, r.vc_hi, f.dest);
    Branch& b = q.br()[0];
    b.port = r.port;
    b.out_vc = -1;
    b.sent = 0;
    b.ready = rc_cycle + d_rc_;
    b.vc_mask = vc_range(r.vc_lo, r.vc_hi);
    b.dest = f.dest;
  } else {
    n = route_multicast(q, rc_cycle);
  }
  q.nbr = n;
  q.va_pending = n;
  const uint64_t va_ready = rc_cycle + d_rc_, now = clk_.dispatching();  // UINT64_MAX: not in a tick
  if (va_ready > now && va_ready - now < kVaLater) {
    va_later_[va_ready % kVaLater].set(q.index);
    va_later_n_[va_ready % kVaLater] += n;
  } else {
    va_set_.set(q.index);
    va_waiting_ += n;
  }
  q.flits = f.flits;
  q.popped = 0;
  q.tails_sent = 0;
  ++heads_;
  replicas_ += n - 1;
}

// The head hook's turn (see HeadHook): a new destination is written to the flit, the packet
// record and the payload's MemExt, so every later reader (routers, NI, the target) sees it.
void Router::redirect(Flit& f) {
  const unsigned d = head_hook_->redirect(id_, f);
  if (d == f.dest) return;
  if (d >= hook_nodes_)
    error(name(), "head hook rewrote the destination of packet ", f.pkt->id, " (to node ", f.dest, ", virtual network ",
          unsigned(f.vnet), ") to node ", d, ", which does not exist: the network has ", hook_nodes_, " nodes");
  const uint16_t nd = static_cast<uint16_t>(d);
  f.dest = nd;
  Packet& pk = *f.pkt;
  pk.dest = nd;
  pk.dests = DestSet::single(nd);
  if (max_redirects_ && pk.redirects >= max_redirects_)
    error(name(), "head hook redirected packet ", pk.id, " (virtual network ", unsigned(f.vnet), ") again after ",
          unsigned(pk.redirects), " redirects, but the network's escape_vcs = ", max_redirects_, " carry at most ",
          max_redirects_, " per packet (one VC per redirect level, MeshEscapeRoute)");
  if (pk.redirects < UINT8_MAX) ++pk.redirects;  // escape VC level from here, if the network has any
  if (pk.ext) pk.ext->dst = nd;
}

unsigned Router::route_multicast(InVc& q, uint64_t rc_cycle) {
  const Flit& f = q.ring[q.head];
  if (!f.head()) error(name(), "body flit ", f.seq, " of packet ", f.pkt->id, " at the front of an idle VC");
  scratch_.clear();
  route_.route(id_, q.port, q.vc, f, scratch_);
  const unsigned n = static_cast<unsigned>(scratch_.size());
  if (n == 0) error(name(), "routing function returned no output for packet ", f.pkt->id);
  if (n > ports_)
    error(name(), "routing function returned ", n, " branches for packet ", f.pkt->id, " but the router has ",
          ports_, " ports: a branch per output port at most");
  for (unsigned i = 0; i < n; ++i) {
    const RouteBranch& r = scratch_[i];
    if (r.port >= ports_ || !out_links_[r.port] || r.vc_lo >= r.vc_hi || r.vc_hi > vcs_)
      route_error(f, r.port, r.vc_lo, r.vc_hi, r.dests.first());
    Branch& b = q.br()[i];
    b.port = r.port;
    b.out_vc = -1;
    b.sent = 0;
    b.ready = rc_cycle + d_rc_;
    b.vc_mask = vc_range(r.vc_lo, r.vc_hi);
    b.dest = r.dests.single_member() ? static_cast<uint16_t>(r.dests.first()) : kMultiDest;
    bdests_[q.index * ports_ + i] = r.dests;
  }
  return n;
}

void Router::route_error(const Flit& f, unsigned port, unsigned vc_lo, unsigned vc_hi, unsigned node) const {
  if (port >= ports_ || !out_links_[port])
    error(name(), "routing sends packet ", f.pkt->id, " (to node ", node, ") through port ", port,
          ", which is not connected: the routing function cannot reach that node from here");
  error(name(), "routing gave an empty or out-of-range VC class [", vc_lo, ", ", vc_hi, ")");
}

inline void Router::grant_vc(InVc& q, Branch& b, unsigned vc, uint64_t cycle) {
  busy_[b.port] |= uint64_t{1} << vc;
  b.out_vc = static_cast<int16_t>(vc);
  b.credit = b.port * vcs_ + vc;
  owner_[b.credit] = q.index;
  b.ready = cycle + d_va_;
  --va_waiting_;
  if (--q.va_pending == 0) va_set_.clear(q.index);
  if (d_va_) sa_new_set_.set(q.index);  // it cannot ask for the switch before
  else sa_set_.set(q.index);
}

void Router::multicast_depth_error(const Flit& f) const {
  error(name(), "multicast packet ", f.pkt->id, " has ", f.flits, " flits but router.vc_depth is ", p_.vc_depth,
        "; with asynchronous replication a VC must hold a whole multicast packet (deadlock freedom): "
        "raise router.vc_depth to at least ", f.flits);
}

// Whether branch b asks for output VCs this cycle: it has none yet, its RC is done, it is among
// the first 64 asked for, and some VC of its class is free (else it is a stall whatever the
// order, since grants only take VCs).
inline bool Router::va_request(const Branch& b, uint64_t cycle, unsigned& seen) {
  if (b.out_vc >= 0 || b.ready > cycle || seen == 64) return false;
  ++seen;
  if (b.vc_mask & ~busy_[b.port]) return true;
  ++va_stalls_;
  return false;
}

namespace {
// Position of i in round-robin order starting at ptr, over n positions.
inline unsigned rr_key(unsigned i, unsigned ptr, unsigned n) { return i >= ptr ? i - ptr : i + n - ptr; }
}  // namespace

// Accept step for one requester: among the output VCs of `port` in `granted`, the first at or
// after the input VC's accept pointer in (port, VC) order, wrapping.
inline unsigned Router::va_accept(unsigned in_index, unsigned port, uint64_t granted) const {
  const unsigned ptr = va_aptr_[in_index], base = port * vcs_;
  const uint64_t above = ptr <= base ? granted : ptr >= base + vcs_ ? 0 : granted & (~uint64_t{0} << (ptr - base));
  return static_cast<unsigned>(__builtin_ctzll(above ? above : granted));
}

inline void Router::va_pointers(unsigned in_index, unsigned port, unsigned vc) {
  const unsigned nin = ports_ * vcs_, out = port * vcs_ + vc;
  va_gptr_[out] = in_index + 1 == nin ? 0 : in_index + 1;
  va_aptr_[in_index] = out + 1 == nin ? 0 : out + 1;
}

// One-iteration iSLIP over (input VC, output VC), as the canonical input-queued router's VC
// allocator: each free output VC grants the requesting input VC first in round-robin order from
// its grant pointer; each requester accepts the granting output VC first from its accept
// pointer; both pointers move past an accepted pair only. A multicast VC's branches ask on
// different ports and accept one output VC each.
void Router::allocate_vcs(uint64_t cycle) {
  const unsigned nin = ports_ * vcs_;
  if (va_waiting_ == 1) {  // a single waiting branch in the router: every free VC grants it
    const unsigned wi = static_cast<unsigned>(__builtin_ctzll(va_set_.sum));
    InVc& q = vc(wi * 64 + static_cast<unsigned>(__builtin_ctzll(va_set_.w[wi])));
    Branch* b = q.br();
    while (b->out_vc >= 0) ++b;
    if (b->ready > cycle) return;
    const uint64_t free = b->vc_mask & ~busy_[b->port];
    if (!free) {
      ++va_stalls_;
      return;
    }
    const unsigned v = va_accept(q.index, b->port, free);
    va_pointers(q.index, b->port, v);
    grant_vc(q, *b, v, cycle);
    return;
  }
  unsigned seen = 0;
  if (nin <= 64) {
    // Bit sets over output-VC indices (port * vcs + vc) and input-VC indices, both < 64:
    // asked[o] = input VCs asking for output VC o, granted[i] = output VCs that granted input VC i.
    uint64_t asked[64], granted[64];
    uint64_t outs = 0, ins = 0;  // which entries of asked / granted are valid this cycle
    for (uint64_t a = va_set_.w[0]; a; a &= a - 1) {
      const unsigned idx = static_cast<unsigned>(__builtin_ctzll(a));
      const InVc& q = vc(idx);
      for (unsigned i = 0; i < q.nbr; ++i) {
        const Branch& b = q.br()[i];
        if (!va_request(b, cycle, seen)) continue;
        const uint64_t o_bits = (b.vc_mask & ~busy_[b.port]) << (b.port * vcs_);
        for (uint64_t m = o_bits; m; m &= m - 1) {
          const unsigned o = static_cast<unsigned>(__builtin_ctzll(m));
          asked[o] = (outs >> o & 1 ? asked[o] : 0) | uint64_t{1} << idx;
        }
        outs |= o_bits;
        ins |= uint64_t{1} << idx;
        granted[idx] = 0;
      }
    }
    for (uint64_t m = outs; m; m &= m - 1) {  // grant
      const unsigned o = static_cast<unsigned>(__builtin_ctzll(m)), ptr = va_gptr_[o];
      const uint64_t above = asked[o] & (~uint64_t{0} << ptr);
      granted[__builtin_ctzll(above ? above : asked[o])] |= uint64_t{1} << o;
    }
    for (; ins; ins &= ins - 1) {  // accept, per branch (its port's part of the grants)
      const unsigned idx = static_cast<unsigned>(__builtin_ctzll(ins));
      InVc& q = vc(idx);
      for (unsigned i = 0; i < q.nbr; ++i) {
        Branch& b = q.br()[i];
        if (b.out_vc >= 0 || b.ready > cycle) continue;
        const uint64_t g = granted[idx] >> (b.port * vcs_) & (~uint64_t{0} >> (64 - vcs_));
        if (!g) {
          if (b.vc_mask & ~busy_[b.port]) ++va_stalls_;  // asked and lost (no free VC: counted)
          continue;
        }
        const unsigned v = va_accept(idx, b.port, g);
        va_pointers(idx, b.port, v);
        grant_vc(q, b, v, cycle);
      }
    }
    return;
  }
  // Requests in (input VC, branch) order, the first 64 considered, as ever.
  struct Req {
    Branch* b;
    InVc* q;
    uint64_t free;     // output VCs it asks for
    uint64_t granted;  // those that granted it
  };
  Req reqs[64];
  unsigned n = 0;
  va_set_.each([&](unsigned idx) {
    InVc& q = vc(idx);
    for (unsigned i = 0; i < q.nbr; ++i) {
      Branch& b = q.br()[i];
      if (va_request(b, cycle, seen)) reqs[n++] = {&b, &q, b.vc_mask & ~busy_[b.port], 0};
    }
  });
  // Grant: every requested output VC picks one requester.
  for (unsigned r = 0; r < n; ++r) {
    const unsigned port = reqs[r].b->port;
    for (uint64_t m = reqs[r].free; m; m &= m - 1) {
      const unsigned v = static_cast<unsigned>(__builtin_ctzll(m)), out = port * vcs_ + v;
      // Decided by the first requester of this output VC: scan them all once, here.
      bool first = true;
      for (unsigned e = 0; e < r && first; ++e) first = !(reqs[e].b->port == port && reqs[e].free >> v & 1);
      if (!first) continue;
      unsigned best = r, best_key = rr_key(reqs[r].q->index, va_gptr_[out], nin);
      for (unsigned e = r + 1; e < n; ++e) {
        if (reqs[e].b->port != port || !(reqs[e].free >> v & 1)) continue;
        const unsigned k = rr_key(reqs[e].q->index, va_gptr_[out], nin);
        if (k < best_key) best = e, best_key = k;
      }
      reqs[best].granted |= uint64_t{1} << v;
    }
  }
  // Accept.
  for (unsigned r = 0; r < n; ++r) {
    Req& x = reqs[r];
    if (!x.granted) {
      ++va_stalls_;
      continue;
    }
    const unsigned v = va_accept(x.q->index, x.b->port, x.granted);
    va_pointers(x.q->index, x.b->port, v);
    grant_vc(*x.q, *x.b, v, cycle);
  }
}

void Router::allocate_switch(uint64_t cycle) {
  // One VC with one branch is a candidate: it alone can ask, and wins if it does.
  if (!(sa_set_.sum & (sa_set_.sum - 1))) {
    const unsigned wi = static_cast<unsigned>(__builtin_ctzll(sa_set_.sum));
    const uint64_t vcs = sa_set_.w[wi];
    if (!(vcs & (vcs - 1))) {
      InVc& q = vc(wi * 64 + static_cast<unsigned>(__builtin_ctzll(vcs)));
      const unsigned p = q.port, v = q.vc;
      if (q.nbr == 1) {
        Branch& b = q.br()[0];
        if (!q.size) return;
        const Flit& f = q.ring[q.head];
        if (!credits_[b.credit]) return block(q);
        if (f.ready > cycle || (f.head() && b.ready > cycle)) return;
        sa_.allocate_one(p, v, uint64_t{1} << b.port);
        send(q, b, 0, cycle);
        pop(p, v, q, cycle);
        if (q.tails_sent == 1) finish_packet(q, cycle);
        return;
      }
    }
  }
  const unsigned* credits = credits_;
  unsigned nreq = 0;
  uint64_t req_ports = 0;   // input ports with a request (for the stall count)
  unsigned requesting = 0;  // how many (counted as they appear: no popcount instruction in baseline x86-64)
  unsigned p1 = 0, v1 = 0;  // the first request is held back: alone, it skips the allocator's loops
  uint64_t m1 = 0;
  sa_set_.each([&](unsigned idx) {
    const InVc& q = vc(idx);
    uint64_t mask = 0;
    if (q.nbr == 1) {
      // One branch: it holds an output VC (else the VC would not be here), has flits left, and
      // its next flit is the front one (a slot is freed as soon as the branch sends it).
      const Branch& b = q.br()[0];
      if (!q.size) return;
      const Flit& f = q.ring[q.head];
      if (!credits[b.credit]) return block(q);
      if (!((f.ready <= cycle) & (!f.head() | (b.ready <= cycle)))) return;
      mask = uint64_t{1} << b.port;
    } else {
      for (unsigned i = 0; i < q.nbr; ++i) {
        const Branch& b = q.br()[i];
        if (b.out_vc < 0 || b.sent == q.flits) continue;
        const unsigned k = b.sent - q.popped;
        if (k >= q.size) continue;
        const Flit& f = q.ring[slot(q, k)];
        if (f.ready > cycle || (f.head() && b.ready > cycle)) continue;
        if (!credits[b.credit]) continue;
        mask |= uint64_t{1} << b.port;
      }
      if (!mask) return;
    }
    requesting += !(req_ports >> q.port & 1);
    req_ports |= uint64_t{1} << q.port;
    if (nreq++ == 0) {
      p1 = q.port, v1 = q.vc, m1 = mask;
    } else {
      if (nreq == 2) sa_.request(p1, v1, m1);
      sa_.request(q.port, q.vc, mask);
    }
  });
  if (!nreq) return;
  if (nreq == 1) sa_.allocate_one(p1, v1, m1);
  else sa_.allocate();
  unsigned won = 0;
  for (uint64_t g = sa_.granted_inputs(); g; g &= g - 1) {
    const unsigned p = static_cast<unsigned>(__builtin_ctzll(g));
    const unsigned v = static_cast<unsigned>(sa_.granted_vc(p));
    InVc& q = vc(p * vcs_ + v);
    ++won;
    if (q.nbr == 1) {
      send(q, q.br()[0], 0, cycle);
      pop(p, v, q, cycle);
      if (q.tails_sent == 1) finish_packet(q, cycle);
      continue;
    }
    const uint64_t outs = sa_.granted_outs(p);
    unsigned min_sent = UINT32_MAX;
    for (unsigned i = 0; i < q.nbr; ++i) {
      Branch& b = q.br()[i];
      if (outs & (uint64_t{1} << b.port)) send(q, b, b.sent - q.popped, cycle);
      min_sent = std::min(min_sent, unsigned{b.sent});
    }
    // Free the slots every branch has sent; the credit leaves with the flit (ST, next cycle).
    while (q.size && q.popped < min_sent) pop(p, v, q, cycle);
    if (q.tails_sent == q.nbr) finish_packet(q, cycle);
  }
  sa_stalls_ += requesting - won;
}

void Router::pop(unsigned p, unsigned v, InVc& q, uint64_t cycle) {
  // An emptied ring restarts at slot 0: at low load a VC then reuses one cache line.
  q.head = --q.size ? slot(q, 1) : 0;
  ++q.popped;
  --occupancy_;
  FlitLink* l = in_links_[p];
  if (l->router_up) l->router_up->Router::receive_credit(l->up_port, v, cycle + 1 + l->credit_latency);
  else l->credit(v, cycle + 1);
}

void Router::finish_packet(InVc& q, uint64_t cycle) {
  q.nbr = 0;
  q.popped = 0;
  q.tails_sent = 0;
  sa_set_.clear(q.index);
  // The next packet's head, if here, is routed in the next cycle, or when it becomes usable.
  if (q.size) route(q, std::max(cycle + 1, q.ring[q.head].ready));
}

void Router::send(InVc& q, Branch& b, unsigned idx, uint64_t cycle) {
  Flit f = q.ring[slot(q, idx)];
  f.vc = static_cast<uint8_t>(b.out_vc);
  if (f.head()) {
    f.dest = b.dest;
    f.dests = &bdests_[q.index * ports_ + static_cast<unsigned>(&b - q.br())];  // read during send() only
  }
  --credits_[b.credit];
  ++b.sent;
  ++st_flits_;
  if (f.seq + 1u == q.flits) {  // tail
    busy_[b.port] &= ~(uint64_t{1} << b.out_vc);
    ++q.tails_sent;
  }
  // SA in `cycle`, ST in cycle + 1, then link_latency cycles on the link.
  FlitLink* l = out_links_[b.port];
  if (l->router_down) {  // FlitLink::send without the virtual call
    f.ready = cycle + 2 + l->latency;
    ++l->flits;
    l->router_down->Router::receive_flit(l->down_port, f);
  } else {
    l->send(f, cycle + 2 + l->latency);
  }
}

}  // namespace gpusc::noc
