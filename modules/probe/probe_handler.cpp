#include "probe/probe_handler.h"

#include <cstdio>
#include <set>

#include "common/report.h"
#include "mem/cache.h"
#include "probe/probe_fabric.h"

namespace gpusc::probe {

namespace {

CoreSelector::Params selector_params(const ProbeHandler::Params& p) {
  CoreSelector::Params s;
  s.selector = p.selector;
  s.period = p.period;
  s.index_order = p.index_order;
  return s;
}

TwoLevelProbing::Params probing_params(const ProbeHandler::Params& p) {
  TwoLevelProbing::Params t;
  t.c = p.c;
  t.s = p.s;
  t.p = p.p;
  t.max_requests = p.tracked;
  t.visit_order = p.visit_order;
  return t;
}

TimeoutHandler::Params timeout_params(const ProbeHandler::Params& p) {
  TimeoutHandler::Params t;
  t.timeout = p.timeout;
  t.capacity = p.tracked;
  return t;
}

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

ProbeExt& ext_of(tlm::tlm_generic_payload& gp) {
  ProbeExt* x = gp.get_extension<ProbeExt>();
  if (!x) {
    x = new ProbeExt;
    gp.set_extension(x);  // the payload owns it from now on
  }
  return *x;
}

}  // namespace

ProbeHandler::ProbeHandler(sc_core::sc_module_name name, const Params& p, ClockDomain& clk, Cache& l1, unsigned node,
                           unsigned core, ProbeFabric& fabric)
    : sc_core::sc_module(name),
      p_((validate(p, std::string(this->name())), p)),
      clk_(clk),
      l1_(l1),
      node_(node),
      core_(core),
      fabric_(fabric),
      pool_(l1.params().line_bytes),
      predictor_(p.predictor),
      selector_(make_core_selector(selector_params(p), core, fabric.cores(), p.seed + core)),
      tlp_(probing_params(p), core, fabric.cores(), (p.seed + core) * 0x9E3779B97F4A7C15ull + 1),
      th_("timeout", timeout_params(p), clk),
      read_misses_(stats_.counter("read_misses", Unit::Count, "L1 read fetches seen (line read misses)")),
      oracle_shared_(stats_.counter("oracle_shared_misses", Unit::Count,
                                    "ORACLE: read misses whose line was in another L1 at miss time")),
      probed_misses_(stats_.counter("probed_misses", Unit::Count, "read misses probed (two-level groups started)")),
      nonshared_(stats_.counter("nonshared_reads", Unit::Count, "read misses sent to the L2 as non-shared")),
      writes_atomics_(stats_.counter("writes_atomics", Unit::Count, "writes and atomics passed to the L2 (never probed)")),
      probes_sent_(stats_.counter("probes_sent", Unit::Count, "own probes injected, first and second level")),
      probes_received_(stats_.counter("probes_received", Unit::Count, "other cores' probes taken for a lookup here")),
      lookups_(stats_.counter("peer_lookups", Unit::Count, "L1 peer lookups for incoming probes")),
      lookup_hits_(stats_.counter("peer_hits", Unit::Count, "peer lookups that found the line")),
      forwarded_(stats_.counter("forwarded_probes", Unit::Count, "probes sent on to the next target or back")),
      returns_(stats_.counter("returns", Unit::Count, "own probes back without data (NACKs and scouts)")),
      nacks_(stats_.counter("nacks", Unit::Count, "own leader probes back without data (NACKs)")),
      skipped_(stats_.counter("skipped_targets", Unit::Count, "targets a deflected probe passed over")),
      data_sent_(stats_.counter("data_replies_sent", Unit::Count, "lines this L1 supplied to other cores")),
      data_received_(stats_.counter("data_replies_received", Unit::Count, "probe data replies received")),
      remote_answers_(stats_.counter("remote_answers", Unit::Count, "loads answered by a remote L1")),
      l2_answers_(stats_.counter("selective_l2_answers", Unit::Count, "probed loads answered by the L2")),
      dropped_data_(stats_.counter("dropped_probe_data", Unit::Count, "probe data dropped: the L2 answered first")),
      dropped_l2_(stats_.counter("dropped_l2_replies", Unit::Count, "L2 replies dropped: probe data answered first")),
      overflow_(stats_.counter("incoming_overflow", Unit::Count, "probes taken while the incoming queue was full")),
      l2_reply_bytes_(stats_.counter("l2_reply_bytes", Unit::Bytes, "read reply bytes from the L2 used by the L1")),
      remote_reply_bytes_(stats_.counter("remote_reply_bytes", Unit::Bytes, "read reply bytes from remote L1s used")),
      refusals_(stats_.counter("refusals", Unit::Count, "times the core started refusing probes (queue full)")),
      ni_deflections_(stats_.counter("ni_deflections", Unit::Count,
                                     "probes passed on without a lookup: incoming queue full (deflection = ni)")),
      llc_forwards_(stats_.counter("llc_forwards_received", Unit::Count,
                                   "LA-LLC: reads an L2 forwarded here as the line's last sharer")),
      perfect_answers_(stats_.counter("perfect_answers", Unit::Count,
                                      "PP (ORACLE, evaluation device): loads answered in zero cycles from another L1")),
      tracking_full_(stats_.counter("tracking_full", Unit::Count,
                                    "shared read misses sent to the L2 unprobed: all tracked requests in use")),
      cancelled_(stats_.counter("cancelled_probes", Unit::Count,
                                "own probes dropped before injection: their load was answered meanwhile")),
      lat_nonshared_(stats_.average("latency_nonshared_read", Unit::Cycles,
                                    "non-shared read: classified here until its L2 reply is back here")),
      lat_remote_(stats_.average("latency_remote_answer", Unit::Cycles,
                                 "probed read answered by a remote L1: classified until the data is back here")),
      lat_selective_l2_(stats_.average("latency_selective_l2_answer", Unit::Cycles,
                                       "probed read answered by the L2: classified until the L2 reply is back here")),
      incoming_wait_(stats_.average("incoming_wait", Unit::Cycles,
                                    "incoming probe: queued here until its L1 peer lookup starts")),
      lookup_time_(stats_.average("peer_lookup_time", Unit::Cycles,
                                  "L1 peer lookup: started until its result (waits for a free L1 port)")),
      fwd_inject_wait_(stats_.average("forward_inject_wait", Unit::Cycles,
                                      "forwarded probe or NACK: queued here until it enters the request network")),
      own_inject_wait_(stats_.average("own_probe_inject_wait", Unit::Cycles,
                                      "own probe (first or second level): queued until it enters the request network")),
      hop_network_(stats_.average("probe_hop_network", Unit::Cycles,
                                  "probe or NACK: entered the request network until it reached this core")),
      return_wait_(stats_.average("return_wait", Unit::Cycles,
                                  "own returning probe (NACK, scout list): queued here until processed")) {
  if (p_.s > p_.c)
    error(this->name(), "parameter 'sm_front.stage_params.probe.s' = ", p_.s, " probes cannot split C = ", p_.c,
          " targets: it must be <= c");
  if (p_.location != "search" && p_.sharing != "oracle")
    error(this->name(), "parameter 'sm_front.stage_params.probe.location' = ", p_.location,
          " is an ORACLE scenario (DP / PP): it needs sharing = oracle, got '", p_.sharing, "'");
  fabric_.attach(core_, *this, l1_);
  tlp_.set_hops([this](unsigned a, unsigned b) { return fabric_.hops(a, b); });
  from_l1_.set_accept([this](Payload& gp) { return latch(l1_q_, p_.l1_queue, gp); });
  from_net_.set_accept([this](Payload& gp) { return latch(up_in_q_, p_.up_queue, gp); });
  peer_in_.set_accept([this](Payload& gp) { return latch(peer_q_, SIZE_MAX, gp); });  // never blocks the network
  to_net_.on_accept([this] { clk_.wake_after_now(*this); });
  to_l1_.on_accept([this] { clk_.wake_after_now(*this); });
  peer_out_.on_accept([this] { clk_.wake_after_now(*this); });
  th_.on_l2_ready([this](uint32_t) { clk_.wake_after_now(*this); });
  predictor_.add_stats(stats_);
  tlp_.add_stats(stats_);
  arb_.add_stats(stats_);
  stats_.invariant("read_misses == probed_misses + nonshared_reads", [this] {
    return read_misses_.value() == probed_misses_.value() + nonshared_.value();
  });
}

uint64_t ProbeHandler::stat(const char* n) const {
  const std::string s(n);
  const std::pair<const char*, const Counter*> all[] = {
      {"read_misses", &read_misses_}, {"oracle_shared_misses", &oracle_shared_}, {"probed_misses", &probed_misses_},
      {"nonshared_reads", &nonshared_}, {"writes_atomics", &writes_atomics_}, {"probes_sent", &probes_sent_},
      {"probes_received", &probes_received_}, {"peer_lookups", &lookups_}, {"peer_hits", &lookup_hits_},
      {"forwarded_probes", &forwarded_}, {"returns", &returns_}, {"nacks", &nacks_}, {"skipped_targets", &skipped_},
      {"data_replies_sent", &data_sent_}, {"data_replies_received", &data_received_},
      {"remote_answers", &remote_answers_}, {"selective_l2_answers", &l2_answers_},
      {"dropped_probe_data", &dropped_data_}, {"dropped_l2_replies", &dropped_l2_}, {"incoming_overflow", &overflow_},
      {"l2_reply_bytes", &l2_reply_bytes_}, {"remote_reply_bytes", &remote_reply_bytes_}, {"refusals", &refusals_}, {"ni_deflections", &ni_deflections_},
      {"perfect_answers", &perfect_answers_}, {"llc_forwards_received", &llc_forwards_},
      {"tracking_full", &tracking_full_}, {"cancelled_probes", &cancelled_}};
  for (const auto& [k, c] : all)
    if (s == k) return c->value();
  error(name(), "no counter '", s, "'");
}

bool ProbeHandler::latch(std::deque<Timed>& q, size_t limit, Payload& gp) {
  if (q.size() >= limit) return false;
  q.push_back({clk_.cycle_after(sc_core::sc_time_stamp()), &gp});
  clk_.wake_after_now(*this);
  return true;
}

bool ProbeHandler::has_work() const {
  return !l1_q_.empty() || !up_in_q_.empty() || !peer_q_.empty() || !nonshared_q_.empty() || !own_q_.empty() ||
         !fwd_q_.empty() || !nack_q_.empty() || !reply_q_.empty() || !up_q_.empty() ||
         (!incoming_q_.empty() && !lookup_busy_) || th_.has_l2_request();
}

bool ProbeHandler::idle() const {
  return l1_q_.empty() && up_in_q_.empty() && peer_q_.empty() && nonshared_q_.empty() && own_q_.empty() &&
         fwd_q_.empty() && nack_q_.empty() && reply_q_.empty() && up_q_.empty() && incoming_q_.empty() &&
         !lookup_busy_ && probes_out_ == 0 && clones_out_ == 0 && pend_.empty() && th_.tracked() == 0 &&
         !th_.has_l2_request() && !to_net_.busy() && !to_l1_.busy() && !peer_out_.busy() &&
         !from_l1_.has_pending() && !from_net_.has_pending();
}

bool ProbeHandler::tick(uint64_t cycle) {
  from_network(cycle);
  send_up();
  take_peer(cycle);
  start_lookup(cycle);
  send_replies();
  classify(cycle);
  inject(cycle);
  return has_work();
}

// ---- L1 side: classify one L1 message per cycle ----

void ProbeHandler::classify(uint64_t cycle) {
  if (l1_q_.empty() || l1_q_.front().ready > cycle || nonshared_q_.size() >= p_.nonshared_queue) return;
  Payload& gp = *l1_q_.front().gp;
  l1_q_.pop_front();
  if (from_l1_.has_pending()) from_l1_.retry();
  MemExt& e = mem_ext(gp, name());
  if (e.is_reply) error(name(), "the L1 sent a reply for ", hex(gp.get_address()), " toward the network");
  if (e.kind != MemKind::Read) {  // writes and atomics take the normal path (§II footnote 1)
    ++writes_atomics_;
    nonshared_q_.push_back(&gp);
    return;
  }
  ++read_misses_;
  const bool oracle = fabric_.shared_elsewhere(core_, gp.get_address());
  if (oracle) ++oracle_shared_;
  bool shared = true;
  if (p_.sharing == "oracle") shared = oracle;
  else if (p_.sharing == "predictor") shared = predictor_.decide(e.pc, oracle);
  else if (p_.sharing == "never") shared = false;
  if (shared && p_.location == "perfect") {  // PP: zero-cycle transfer from a sharer (ORACLE)
    ++probed_misses_;
    ++perfect_answers_;
    ++remote_answers_;
    remote_reply_bytes_ += l1_.params().line_bytes;
    lat_remote_.add(0.0);
    MemExt now = e;
    now.t_req_inject = now.t_mem_accept = now.t_reply_inject = sc_core::sc_time_stamp();
    answer_fetch(gp, now);
    return;
  }
  if (shared && p_.location == "nearest" && !tlp_.full() && !th_.full()) {  // DP: one probe (ORACLE location)
    const unsigned t = fabric_.nearest_sharer(core_, gp.get_address());
    if (t != ProbeFabric::kNone) {
      targets_.assign(1, t);
      headers_.clear();
      const uint32_t g = tlp_.start(gp.get_address(), targets_, 1, headers_);
      th_.push(g);
      pend_[g] = Pending{&gp, cycle};
      queue_probe(own_q_, probe_payload(headers_.front(), e.pc, ProbeExt::Role::Probe));
      ++probes_out_;
      ++probes_sent_;
      ++probed_misses_;
      return;
    }
  }
  if (shared && p_.location == "search" && !tlp_.full() && !th_.full()) {
    const unsigned n = tlp_.draw_probes();
    if (n > 0) {
      selector_->select(p_.c, cycle, targets_);
      headers_.clear();
      const uint32_t g = tlp_.start(gp.get_address(), targets_, n, headers_);
      th_.push(g);
      pend_[g] = Pending{&gp, cycle};
      for (const ProbeHeader& h : headers_) queue_probe(own_q_, probe_payload(h, e.pc, ProbeExt::Role::Probe));
      probes_out_ += n;
      probes_sent_ += n;
      ++probed_misses_;
      return;
    }
  }
  if (shared && p_.location != "perfect" && (tlp_.full() || th_.full())) ++tracking_full_;
  ++nonshared_;
  nonshared_since_[&gp] = cycle;
  nonshared_q_.push_back(&gp);
}

ProbeHandler::Payload& ProbeHandler::make(MemKind kind, unsigned dst_core, uint64_t addr) {
  Payload& gp = pool_.acquire();
  gp.set_address(addr);
  gp.set_data_length(l1_.params().line_bytes);
  MemExt& e = *gp.get_extension<MemExt>();
  e.kind = kind;
  e.is_reply = kind == MemKind::ProbeReply;
  e.src = node_;
  e.dst = fabric_.node_of(dst_core);
  ext_of(gp) = ProbeExt{};
  return gp;
}

ProbeHandler::Payload& ProbeHandler::probe_payload(const ProbeHeader& h, uint64_t pc, ProbeExt::Role role) {
  const bool out = role == ProbeExt::Role::Probe;
  Payload& gp = make(out ? MemKind::Probe : MemKind::Nack, out ? h.next_target() : h.requester, h.address);
  MemExt& e = *gp.get_extension<MemExt>();
  e.pc = pc;
  e.probe_origin = h.requester;
  e.probe_leader = h.leader;
  ProbeExt& x = ext_of(gp);
  x.role = role;
  x.h = h;
  return gp;
}

// ---- request network: own probes back, other cores' probes in ----

void ProbeHandler::take_peer(uint64_t cycle) {
  while (!peer_q_.empty() && peer_q_.front().ready <= cycle) {
    Payload& gp = *peer_q_.front().gp;
    peer_q_.pop_front();
    ProbeExt* x = probe_ext(gp);
    if (!x || (x->role != ProbeExt::Role::Probe && x->role != ProbeExt::Role::Return))
      error(name(), "a request-network message for ", hex(gp.get_address()), " that is not a probe reached SM core ",
            core_);
    hop_network_.add(double(cycle - x->sent));
    if (x->role != ProbeExt::Role::Return && x->h.requester == core_) {  // deflected back: all targets busy
      skipped_ += x->h.n_targets;
      x->h.n_targets = 0;
      x->h.returning = true;
      x->role = ProbeExt::Role::Return;
    }
    if (x->role == ProbeExt::Role::Return) {  // own NACK / scout list: queued like a probe (§III-F)
      queue_incoming(gp, cycle);
      continue;
    }
    // A deflected probe passed over the busy targets listed before this core.
    while (x->h.n_targets && x->h.targets[0] != core_) {
      for (unsigned i = 1; i < x->h.n_targets; ++i) x->h.targets[i - 1] = x->h.targets[i];
      --x->h.n_targets;
      ++skipped_;
    }
    if (!x->h.n_targets) error(name(), "a probe of core ", unsigned(x->h.requester), " reached core ", core_,
                               ", which is not among its targets");
    if (p_.deflection == "ni" && incoming_q_.size() >= p_.incoming_queue) {  // busy: skipped, passed on
      const ProbeStep st = visit(x->h, false);
      MemExt& e = mem_ext(gp, name());
      e.dst = fabric_.node_of(st.dest);
      if (st.kind == ProbeStep::Return) {
        e.kind = MemKind::Nack;
        x->role = ProbeExt::Role::Return;
      }
      queue_probe(fwd_q_, gp);
      ++ni_deflections_;
      continue;
    }
    ++probes_received_;
    queue_incoming(gp, cycle);
  }
}

void ProbeHandler::queue_incoming(Payload& gp, uint64_t cycle) {
  if (incoming_q_.size() >= p_.incoming_queue) ++overflow_;
  incoming_since_[&gp] = cycle;
  incoming_q_.push_back(&gp);
  update_refusal();
}

bool ProbeHandler::head_is_return() const {
  const ProbeExt* x = incoming_q_.empty() ? nullptr : probe_ext(*incoming_q_.front());
  return x && x->role == ProbeExt::Role::Return;
}

void ProbeHandler::cancel_queued_probes(uint32_t group) {
  for (std::deque<Payload*>* q : {&own_q_, &nack_q_})
    for (auto it = q->begin(); it != q->end();) {
      const ProbeExt* x = probe_ext(**it);
      if (!x || x->h.group != group) {
        ++it;
        continue;
      }
      (*it)->release();
      it = q->erase(it);
      --probes_out_;
      ++cancelled_;
    }
}

void ProbeHandler::own_return(Payload& gp) {
  ProbeExt& x = *probe_ext(gp);
  const uint64_t pc = mem_ext(gp, name()).pc;
  if (!probes_out_) error(name(), "a probe of group ", x.h.group, " came back but none is out");
  --probes_out_;
  ++returns_;
  if (x.h.leader) ++nacks_;
  ProbeHeader second;
  switch (tlp_.on_return(x.h, &second)) {
    case TwoLevelProbing::Outcome::SecondLevel:
      queue_probe(nack_q_, probe_payload(second, pc, ProbeExt::Role::Probe));
      ++probes_out_;
      ++probes_sent_;
      break;
    case TwoLevelProbing::Outcome::Failed:
      th_.release(x.h.group);  // early release (a no-op if it already went to the L2)
      break;
    default:
      break;
  }
  gp.release();
}

void ProbeHandler::queue_probe(std::deque<Payload*>& q, Payload& gp) {
  ext_of(gp).queued = clk_.now();
  q.push_back(&gp);
}

void ProbeHandler::update_refusal() {
  const bool want = p_.deflection == "router" && incoming_q_.size() >= p_.incoming_queue;
  if (want == refusing_) return;
  refusing_ = want;
  if (want) ++refusals_;
  fabric_.set_refusing(core_, want);
}

void ProbeHandler::start_lookup(uint64_t cycle) {
  if (lookup_busy_ || incoming_q_.empty()) return;  // the head ahead still waits for the L1 port
  if (head_is_return()) {  // the requester's own probe back: no L1 lookup, one per cycle
    Payload& gp = *incoming_q_.front();
    incoming_q_.pop_front();
    update_refusal();
    if (const auto it = incoming_since_.find(&gp); it != incoming_since_.end()) {
      return_wait_.add(double(cycle - it->second));
      incoming_since_.erase(it);
    }
    own_return(gp);
    return;
  }
  if (reply_q_.size() >= p_.reply_queue || fwd_q_.size() >= p_.forward_queue) return;
  Payload& gp = *incoming_q_.front();
  incoming_q_.pop_front();
  update_refusal();
  lookup_busy_ = true;
  ++lookups_;
  if (const auto it = incoming_since_.find(&gp); it != incoming_since_.end()) {
    incoming_wait_.add(double(cycle - it->second));
    incoming_since_.erase(it);
  }
  lookup_start_ = cycle;
  mem_ext(gp, name()).t_mem_accept = sc_core::sc_time_stamp();  // the supplier's part starts
  l1_.peer_lookup(gp.get_address(), 0, [this, &gp](const Cache::PeerResult& r) { lookup_done(gp, r.hit); });
}

void ProbeHandler::lookup_done(Payload& gp, bool hit) {
  lookup_busy_ = false;
  lookup_time_.add(double(clk_.cycle_of(sc_core::sc_time_stamp()) - lookup_start_));
  if (hit) ++lookup_hits_;
  ProbeExt& x = *probe_ext(gp);
  MemExt& e = mem_ext(gp, name());
  if (x.role == ProbeExt::Role::LlcForward) {  // LA-LLC: answer the requester, or back to the L2
    e.kind = MemKind::Read;
    if (hit) {
      e.is_reply = true;
      e.dst = e.src;
      x.role = ProbeExt::Role::LlcServed;
      x.supplier = static_cast<uint8_t>(core_);
      gp.set_data_length(l1_.params().line_bytes);
      gp.set_response_status(tlm::TLM_OK_RESPONSE);
      reply_q_.push_back(&gp);
      ++data_sent_;
    } else {
      e.is_reply = false;
      e.dst = x.home;
      x.role = ProbeExt::Role::LlcMiss;
      fwd_q_.push_back(&gp);
      ++forwarded_;
    }
    clk_.wake_after_now(*this);
    return;
  }
  const ProbeStep st = visit(x.h, hit);
  if (st.kind == ProbeStep::ReplyData) {
    Payload& r = make(MemKind::ProbeReply, x.h.requester, gp.get_address());
    MemExt& re = *r.get_extension<MemExt>();
    re.pc = e.pc;
    re.t_mem_accept = e.t_mem_accept;
    ProbeExt& rx = ext_of(r);
    rx.role = ProbeExt::Role::DataReply;
    rx.h.group = x.h.group;
    rx.h.requester = x.h.requester;
    rx.h.address = x.h.address;
    rx.supplier = static_cast<uint8_t>(core_);
    reply_q_.push_back(&r);
    ++data_sent_;
    gp.release();
  } else {
    e.dst = fabric_.node_of(st.dest);
    if (st.kind == ProbeStep::Return) {
      e.kind = MemKind::Nack;
      x.role = ProbeExt::Role::Return;
    }
    queue_probe(fwd_q_, gp);
    ++forwarded_;
  }
  clk_.wake_after_now(*this);
}

void ProbeHandler::send_replies() {
  if (reply_q_.empty() || peer_out_.busy()) return;
  Payload& r = *reply_q_.front();
  reply_q_.pop_front();
  mem_ext(r, name()).t_reply_inject = sc_core::sc_time_stamp();
  peer_out_.send(r);
}

// ---- reply network: L2 replies, write acks, probe data ----

void ProbeHandler::from_network(uint64_t cycle) {
  if (up_in_q_.empty() || up_in_q_.front().ready > cycle || up_q_.size() >= p_.up_queue) return;
  Payload& gp = *up_in_q_.front().gp;
  up_in_q_.pop_front();
  if (from_net_.has_pending()) from_net_.retry();
  MemExt& e = mem_ext(gp, name());
  ProbeExt* x = probe_ext(gp);
  if (x && x->role == ProbeExt::Role::DataReply) {
    if (!probes_out_) error(name(), "probe data for group ", x->h.group, " arrived but no probe is out");
    --probes_out_;
    ++data_received_;
    selector_->data_reply_from(x->supplier, cycle);
    predictor_.report(e.pc, true);
    tlp_.on_data(x->h.group);
    if (th_.probe_data(x->h.group) == TimeoutHandler::Answer::Use) {
      ++remote_answers_;
      remote_reply_bytes_ += gp.get_data_length();
      lat_remote_.add(double(cycle - pend_.at(x->h.group).since));
      answer(x->h.group, e);
    } else {
      ++dropped_data_;
    }
    gp.release();
  } else if (x && x->role == ProbeExt::Role::SelectiveL2) {
    if (!clones_out_) error(name(), "an L2 reply for group ", x->h.group, " that was never sent");
    --clones_out_;
    if (th_.l2_reply(x->h.group) == TimeoutHandler::Answer::Use) {
      tlp_.finish(x->h.group);  // the miss's MSHR is freed: probes still out come back stale
      ++l2_answers_;
      l2_reply_bytes_ += gp.get_data_length();
      lat_selective_l2_.add(double(cycle - pend_.at(x->h.group).since));
      answer(x->h.group, e);
    } else {
      ++dropped_l2_;
    }
    gp.release();
  } else if (x && x->role == ProbeExt::Role::LlcForward) {  // LA-LLC: the L2 forwarded a read here
    ++probes_received_;
    ++llc_forwards_;
    incoming_since_[&gp] = cycle;
    incoming_q_.push_back(&gp);
  } else {
    const bool served = x && x->role == ProbeExt::Role::LlcServed;
    if (x) x->role = ProbeExt::Role::None;  // an LA-LLC forward ends here (LlcServed / LlcMiss)
    if (e.kind == MemKind::Read && served) {
      ++remote_answers_;
      remote_reply_bytes_ += gp.get_data_length();
      if (const auto it = nonshared_since_.find(&gp); it != nonshared_since_.end()) {
        lat_remote_.add(double(cycle - it->second));
        nonshared_since_.erase(it);
      }
    } else if (e.kind == MemKind::Read) {
      l2_reply_bytes_ += gp.get_data_length();
      if (const auto it = nonshared_since_.find(&gp); it != nonshared_since_.end()) {
        lat_nonshared_.add(double(cycle - it->second));
        nonshared_since_.erase(it);
      }
    }
    up_q_.push_back(&gp);
  }
}

void ProbeHandler::answer(uint32_t group, const MemExt& from) {
  const auto it = pend_.find(group);
  if (it == pend_.end()) error(name(), "group ", group, " answered but no L1 fetch is held for it");
  Payload& f = *it->second.fetch;
  pend_.erase(it);
  cancel_queued_probes(group);  // its own probes still waiting for injection can no longer help
  answer_fetch(f, from);
}

void ProbeHandler::answer_fetch(Payload& f, const MemExt& from) {
  MemExt& fe = mem_ext(f, name());
  fe.t_req_inject = from.t_req_inject;
  fe.t_mem_accept = from.t_mem_accept;
  fe.t_reply_inject = from.t_reply_inject;
  fe.grouped = from.grouped;
  fe.is_reply = true;
  fe.dst = fe.src;
  f.set_data_length(l1_.params().line_bytes);
  f.set_response_status(tlm::TLM_OK_RESPONSE);
  up_q_.push_back(&f);
}

void ProbeHandler::send_up() {
  if (up_q_.empty() || to_l1_.busy()) return;
  Payload& gp = *up_q_.front();
  up_q_.pop_front();
  to_l1_.send(gp);
}

// ---- request network injection: five classes, strict priority (§III-F) ----

void ProbeHandler::inject(uint64_t cycle) {
  if (to_net_.busy()) return;
  using A = ProbeInjectionArbiter;
  uint8_t ready = 0;
  if (!nonshared_q_.empty()) ready |= A::bit(A::NonShared);
  if (th_.has_l2_request()) ready |= A::bit(A::SelectiveL2);
  if (!fwd_q_.empty()) ready |= A::bit(A::ForwardedProbe);
  if (!nack_q_.empty()) ready |= A::bit(A::ProcessedNack);
  if (!own_q_.empty()) ready |= A::bit(A::OwnProbe);
  const int c = arb_.arbitrate(ready);
  if (c == A::kNone) return;
  Payload* gp = nullptr;
  auto pop = [&gp](std::deque<Payload*>& q) {
    gp = q.front();
    q.pop_front();
  };
  const auto stamp = [&](Average& wait) {  // tracing: time in the queue, injection cycle
    if (ProbeExt* x = probe_ext(*gp); x && (x->role == ProbeExt::Role::Probe || x->role == ProbeExt::Role::Return)) {
      wait.add(double(cycle - x->queued));
      x->sent = cycle;
    }
  };
  switch (c) {
    case A::NonShared: pop(nonshared_q_); break;
    case A::ForwardedProbe: pop(fwd_q_); stamp(fwd_inject_wait_); break;
    case A::ProcessedNack: pop(nack_q_); stamp(own_inject_wait_); break;
    case A::OwnProbe: pop(own_q_); stamp(own_inject_wait_); break;
    case A::SelectiveL2: {  // a copy of the held fetch: the fetch itself stays here until answered
      const uint32_t g = th_.l2_request();
      Payload& f = *pend_.at(g).fetch;
      Payload& cl = pool_.acquire();
      cl.set_command(f.get_command());
      cl.set_address(f.get_address());
      cl.set_data_length(f.get_data_length());
      *cl.get_extension<MemExt>() = mem_ext(f, name());
      ProbeExt& x = ext_of(cl);
      x = ProbeExt{};
      x.role = ProbeExt::Role::SelectiveL2;
      x.h.group = g;
      x.h.requester = static_cast<uint8_t>(core_);
      th_.l2_sent();
      ++clones_out_;
      gp = &cl;
      break;
    }
    default: break;
  }
  to_net_.send(*gp);
}

// ---- summary ----

void ProbeHandler::summarize(json& s, const std::vector<const SmFrontStage*>& all) const {
  double reads = 0, probes = 0, probed = 0, remote = 0, nacks = 0, l2b = 0, remb = 0, drop_d = 0, drop_l2 = 0,
         oracle = 0, received = 0;
  double timeouts = 0, releases = 0, tp = 0, fp = 0, fn = 0;
  std::set<const ProbeFabric*> fabrics;
  uint64_t ni_deflections = 0, tracking_full = 0;
  Average lat_ns, lat_rem, lat_l2, in_wait, lk_time, fwd_wait, own_wait, hop_net;
  for (const SmFrontStage* st : all) {
    const auto& h = dynamic_cast<const ProbeHandler&>(*st);
    reads += double(h.read_misses_.value());
    probes += double(h.probes_sent_.value());
    probed += double(h.probed_misses_.value());
    remote += double(h.remote_answers_.value());
    nacks += double(h.nacks_.value());
    l2b += double(h.l2_reply_bytes_.value());
    remb += double(h.remote_reply_bytes_.value());
    drop_d += double(h.dropped_data_.value());
    drop_l2 += double(h.dropped_l2_.value());
    oracle += double(h.oracle_shared_.value());
    received += double(h.data_received_.value());
    timeouts += double(h.th_.timeouts());
    releases += double(h.th_.early_releases());
    tp += double(h.predictor_.true_pos());
    fp += double(h.predictor_.false_pos());
    fn += double(h.predictor_.false_neg());
    fabrics.insert(&h.fabric_);
    ni_deflections += h.ni_deflections_.value();
    tracking_full += h.tracking_full_.value();
    lat_ns.merge(h.lat_nonshared_);
    lat_rem.merge(h.lat_remote_);
    lat_l2.merge(h.lat_selective_l2_);
    in_wait.merge(h.incoming_wait_);
    lk_time.merge(h.lookup_time_);
    fwd_wait.merge(h.fwd_inject_wait_);
    own_wait.merge(h.own_inject_wait_);
    hop_net.merge(h.hop_network_);
  }
  uint64_t deflections = ni_deflections;
  for (const ProbeFabric* f : fabrics) deflections += f->deflections();
  char cfg[96];
  std::snprintf(cfg, sizeof cfg, "%s(%u,%u,%g) %s selector", p_.sharing == "predictor" ? "RP" : "IP", p_.c, p_.s, p_.p,
                p_.selector.c_str());
  if (p_.location == "nearest") std::snprintf(cfg, sizeof cfg, "DP (ORACLE nearest sharer, one probe)");
  if (p_.location == "perfect") std::snprintf(cfg, sizeof cfg, "PP (ORACLE location, zero-cycle transfer)");
  s["probe_scheme"] = cfg;
  s["probe_sharing"] = p_.sharing == "oracle" ? "ORACLE (evaluation device: line in another L1 at miss time)"
                                              : p_.sharing;
  s["probe_remote_hit_rate"] = reads > 0 ? remote / reads : 0.0;
  s["probe_oracle_shared_ratio"] = reads > 0 ? oracle / reads : 0.0;
  s["probe_probes_per_miss"] = reads > 0 ? probes / reads : 0.0;
  s["probe_probes_per_probed_miss"] = probed > 0 ? probes / probed : 0.0;
  s["probe_probes_per_remote_hit"] = remote > 0 ? probes / remote : 0.0;
  s["probe_nacks"] = nacks;
  s["probe_deflections"] = deflections;
  s["probe_timeouts"] = timeouts;
  s["probe_early_releases"] = releases;
  s["probe_tracking_full"] = double(tracking_full);
  s["probe_data_replies"] = received;
  s["probe_dropped_probe_data"] = drop_d;
  s["probe_dropped_l2_replies"] = drop_l2;
  s["probe_reply_bytes_l2"] = l2b;
  s["probe_reply_bytes_remote"] = remb;
  s["probe_latency_nonshared_read"] = lat_ns.mean();
  s["probe_latency_remote_answer"] = lat_rem.mean();
  s["probe_latency_selective_l2_answer"] = lat_l2.mean();
  s["probe_incoming_wait"] = in_wait.mean();
  s["probe_peer_lookup_time"] = lk_time.mean();
  s["probe_forward_inject_wait"] = fwd_wait.mean();
  s["probe_own_inject_wait"] = own_wait.mean();
  s["probe_hop_network"] = hop_net.mean();
  if (p_.sharing == "predictor") {
    s["probe_predictor_precision"] = tp + fp > 0 ? tp / (tp + fp) : 0.0;
    s["probe_predictor_recall"] = tp + fn > 0 ? tp / (tp + fn) : 0.0;
  }
}

}  // namespace gpusc::probe
