#include "noc/network_interface.h"

#include <algorithm>

#include "common/mem_ext.h"
#include "common/report.h"

namespace gpusc::noc {

NetworkInterface::NetworkInterface(sc_core::sc_module_name name, const Params& p, unsigned node, unsigned nodes,
                                   unsigned vnets, unsigned vcs_per_vnet, unsigned vc_depth, ClockDomain& clk,
                                   PacketPool& pool, unsigned lane, unsigned escape_vcs)
    : sc_core::sc_module(name),
      in("in", vnets),
      out("out", vnets),
      p_(p),
      node_(node),
      nodes_(nodes),
      vnets_(vnets),
      vpv_(vcs_per_vnet),
      ipv_(escape_vcs < vcs_per_vnet ? vcs_per_vnet - escape_vcs : 0),
      vc_depth_(vc_depth),
      clk_(clk),
      pool_(pool),
      inj_(vnets),
      credits_(vnets * vcs_per_vnet, vc_depth),
      ej_vcs_(vnets * vcs_per_vnet),
      ej_(vnets),
      pk_in_(stats_.counter("packets_injected", Unit::Packets, "packets that entered the network here")),
      fl_in_(stats_.counter("flits_injected", Unit::Flits, "flits that entered the network here")),
      pk_out_(stats_.counter("packets_ejected", Unit::Packets, "packets delivered here (one per multicast destination)")),
      fl_out_(stats_.counter("flits_ejected", Unit::Flits, "flits that left the network here")),
      inj_full_(stats_.counter("inject_full", Unit::Count, "messages refused because the injection queue was full")),
      net_lat_(stats_.average("network_latency", Unit::Cycles, "head injection to tail ejection")) {
  validate(p, this->name());
  clk_.place(*this, lane);
  if (vnets * vcs_per_vnet > 64)
    error(this->name(), "vnets x vcs_per_vnet = ", vnets * vcs_per_vnet, " exceeds 64 VCs per port");
  if (ipv_ == 0)
    error(this->name(), "escape_vcs = ", escape_vcs, " leaves no VC to inject into: it must be below the ",
          vcs_per_vnet, " VCs per virtual network");
  for (auto& q : inj_) q.queue.init(p_.inject_queue);
  for (auto& q : ej_vcs_) q.flits.init(vc_depth);
  for (auto& q : ej_) q.queue.init(p_.eject_queue);
  for (unsigned v = 0; v < vnets; ++v) {
    in[v].set_accept([this, v](tlm::tlm_generic_payload& gp) { return accept(v, gp); });
    out[v].on_accept([this] { clk_.wake_after_now(*this); });
  }
}

void NetworkInterface::connect_inject(FlitLink& link) { inj_link_ = &link; }
void NetworkInterface::connect_eject(FlitLink& link) { ej_link_ = &link; }

unsigned NetworkInterface::packet_flits(const tlm::tlm_generic_payload& gp) const {
  return packet_flits(gp, gp.get_extension<MemExt>());
}

unsigned NetworkInterface::packet_flits(const tlm::tlm_generic_payload& gp, const MemExt* e) const {
  const unsigned data = e ? wire_data_bytes(gp, *e) : 0;
  const unsigned bytes = p_.header_bytes + data;
  return bytes == 0 ? 1 : (bytes + p_.flit_bytes - 1) / p_.flit_bytes;
}

void NetworkInterface::set_refusing(unsigned vnet, bool refuse) {
  if (vnet >= vnets_) error(name(), "set_refusing: virtual network ", vnet, " does not exist; the NI has ", vnets_);
  refusing_ = refuse ? refusing_ | uint64_t{1} << vnet : refusing_ & ~(uint64_t{1} << vnet);
}

unsigned NetworkInterface::local_node(unsigned id) const {
  if (id >= node_map_->node.size())
    error(name(), "message to id ", id, " but the platform numbers ", node_map_->node.size(), " nodes");
  const unsigned n = node_map_->node[id];
  if (n == NodeMap::kNone)
    error(name(), "message to id ", id, ", which is outside this network's block, and the block has no boundary");
  return n;
}

bool NetworkInterface::accept(unsigned vnet, tlm::tlm_generic_payload& gp) {
  MemExt& e = mem_ext(gp, name());
  InjectVnet& q = inj_[vnet];
  if (q.queue.size() >= p_.inject_queue) {
    ++inj_full_;
    return false;
  }
  const unsigned dst = node_map_ && e.dests.empty() ? local_node(e.dst) : e.dst;
  // Checked before DestSet::single: an id beyond DestSet's capacity would write out of bounds.
  if (e.dests.empty() && dst >= nodes_)
    error(name(), "message to node ", dst, " but the network has ", nodes_, " nodes");
  Packet* pk = pool_.take();
  pk->src = node_;
  if (e.dests.empty()) {
    pk->dests = DestSet::single(dst);
    pk->pending_dests = 1;
    pk->dest = static_cast<uint16_t>(dst);
  } else {
    if (node_map_) {
      DestSet local;
      e.dests.for_each([&](unsigned d) {
        const unsigned n = local_node(d);
        const auto& b = node_map_->boundaries;
        if (std::find(b.begin(), b.end(), n) != b.end())
          error(name(), "multicast to id ", d, ", which is outside this block: a multicast stays in its block");
        local.add(n);
      });
      pk->dests = local;
    } else {
      pk->dests = e.dests;
    }
    pk->dests.for_each([&](unsigned d) {
      if (d >= nodes_) error(name(), "message to node ", d, " but the network has ", nodes_, " nodes");
    });
    pk->pending_dests = pk->dests.count();
    // Its payload's reference count and the packet's pending count would be updated by the
    // destinations' lanes at once.
    if (pk->pending_dests > 1 && clk_.lanes() > 1)
      error(name(), "multicast message on a network split into ", clk_.lanes(), " lanes: lanes carry unicast only");
    pk->dest = pk->pending_dests == 1 ? static_cast<uint16_t>(pk->dests.first()) : kMultiDest;
  }
  pk->flits = static_cast<uint16_t>(packet_flits(gp, &e));
  pk->vnet = static_cast<uint8_t>(vnet);
  const uint64_t now = clk_.now();
  pk->created = now;
  pk->payload = &gp;
  pk->ext = &e;
  for (unsigned i = 1; i < pk->pending_dests; ++i) gp.acquire();  // one reference per destination
  q.queue.push_back(pk);
  ++queued_;
  clk_.wake(*this, now + 1);  // = wake_after_now(): latched at the next edge
  return true;
}

void NetworkInterface::receive_error(const Flit& f) const {
  if (f.vc >= ej_vcs_.size())
    error(name(), "flit arrived on VC ", unsigned(f.vc), "; the network interface has ", ej_vcs_.size());
  error(name(), "ejection buffer overflow on VC ", unsigned(f.vc));
}

void NetworkInterface::receive_flit(unsigned, const Flit& f) {
  if (f.vc >= ej_vcs_.size()) receive_error(f);
  EjectVc& q = ej_vcs_[f.vc];
  if (q.flits.size() >= vc_depth_) receive_error(f);
  q.flits.push_back(f);
  if (f.tail()) {  // its packet record and payload are read when it is ejected
    const Packet* pk = f.pkt;
    __builtin_prefetch(pk->payload, 1);
    __builtin_prefetch(reinterpret_cast<const char*>(pk->payload) + 64, 1);
    __builtin_prefetch(pk->ext);
    __builtin_prefetch(reinterpret_cast<const char*>(pk->ext) + 64);
  }
  ej_nonempty_ |= uint64_t{1} << f.vc;
  clk_.wake(*this, f.ready);
}

void NetworkInterface::receive_credit(unsigned, unsigned vc, uint64_t ready) {
  pending_credits_.emplace_back(ready, vc);
  credit_next_ = std::min(credit_next_, ready);
}

bool NetworkInterface::tick(uint64_t cycle) {
  if (cycle >= credit_next_) {
    uint64_t next = UINT64_MAX;
    for (size_t i = 0; i < pending_credits_.size();) {
      if (pending_credits_[i].first <= cycle) {
        ++credits_[pending_credits_[i].second];
        pending_credits_[i] = pending_credits_.back();
        pending_credits_.pop_back();
      } else {
        next = std::min(next, pending_credits_[i].first);
        ++i;
      }
    }
    credit_next_ = next;
  }
  if (ej_nonempty_) eject(cycle);
  deliver();
  if (queued_) inject(cycle);
  if (queued_ || ej_nonempty_) return true;
  for (unsigned v = 0; v < vnets_; ++v)
    if (!ej_[v].queue.empty() && !out[v].busy()) return true;
  return false;
}

void NetworkInterface::eject(uint64_t cycle) {
  for (uint64_t m = ej_nonempty_; m; m &= m - 1) {
    const unsigned vc = static_cast<unsigned>(__builtin_ctzll(m));
    EjectVc& q = ej_vcs_[vc];
    while (!q.flits.empty() && q.flits.front().ready <= cycle) {
      const Flit f = q.flits.front();
      EjectVnet& ev = ej_[f.vnet];
      if (f.head() && !q.reserved) {
        if (ev.queue.size() + ev.reserved >= p_.eject_queue) break;  // no room: hold credits
        q.reserved = true;
        ++ev.reserved;
      }
      q.flits.pop_front();
      if (q.flits.empty()) ej_nonempty_ &= ~(uint64_t{1} << vc);
      ++fl_out_;
      ej_link_->credit(vc, cycle);
      if (!f.tail()) continue;
      q.reserved = false;
      --ev.reserved;
      Packet* pk = f.pkt;
      ev.queue.push_back(pk->payload);
      net_lat_.add(static_cast<double>(cycle - pk->injected));
      if (--pk->pending_dests == 0) pool_.give_back(pk);
    }
  }
}

void NetworkInterface::deliver() {
  for (unsigned v = 0; v < vnets_; ++v) {
    EjectVnet& ev = ej_[v];
    if (ev.queue.empty() || out[v].busy()) continue;
    tlm::tlm_generic_payload* gp = ev.queue.front();
    ev.queue.pop_front();
    ++pk_out_;
    out[v].send(*gp);  // handed over even if the target withholds END_REQ
  }
}

void NetworkInterface::inject(uint64_t cycle) {
  // Round-robin over virtual networks whose head packet can send a flit this cycle.
  for (unsigned k = 0; k < vnets_; ++k) {
    const unsigned v = rr_ + k < vnets_ ? rr_ + k : rr_ + k - vnets_;
    InjectVnet& q = inj_[v];
    // A message handed over in this cycle is latched at the next edge (ClockDomain convention),
    // whichever order the NI and its source run in within the cycle.
    if (q.queue.empty() || q.queue.front()->created >= cycle) continue;
    if (q.vc < 0) {
      for (unsigned i = 0, o = q.next_vc; i < ipv_; ++i, o = o + 1 == ipv_ ? 0 : o + 1)
        if (const unsigned c = v * vpv_ + o; !(vc_busy_ >> c & 1) && credits_[c] > 0) {
          q.vc = static_cast<int>(c);
          q.next_vc = o + 1 == ipv_ ? 0 : o + 1;
          break;
        }
      if (q.vc < 0) continue;
      vc_busy_ |= uint64_t{1} << q.vc;
    }
    const unsigned vc = static_cast<unsigned>(q.vc);
    if (credits_[vc] == 0) continue;
    Packet* pk = q.queue.front();
    Flit f;
    f.pkt = pk;
    f.seq = static_cast<uint16_t>(q.sent);
    f.flits = pk->flits;
    f.vnet = pk->vnet;
    f.vc = static_cast<uint8_t>(vc);
    if (f.head()) {
      f.dest = pk->dest;
      f.dests = &pk->dests;
      pk->injected = cycle;
      pk->ext->t_req_inject = clk_.time_of(cycle);
      ++pk_in_;
    }
    --credits_[vc];
    ++fl_in_;
    inj_link_->send(f, cycle + inj_link_->latency);
    if (++q.sent == pk->flits) {
      q.queue.pop_front();
      --queued_;
      q.sent = 0;
      vc_busy_ &= ~(uint64_t{1} << vc);
      q.vc = -1;
      in[v].retry();  // a withheld message may take the freed slot
    }
    rr_ = v + 1 == vnets_ ? 0 : v + 1;
    return;  // one flit per cycle on the injection channel
  }
}

}  // namespace gpusc::noc
