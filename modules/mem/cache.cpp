#include "mem/cache.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/report.h"
#include "mem/backing_store.h"

namespace gpusc {

namespace {
std::string hex(uint64_t v) {
  char buf[24];
  snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}
bool pow2(unsigned v) { return v != 0 && (v & (v - 1)) == 0; }
unsigned popcount(uint32_t v) { return static_cast<unsigned>(__builtin_popcount(v)); }

const Cache::Params& checked(const Cache::Params& p, const std::string& who) {
  validate(p, who);
  if (!pow2(p.line_bytes)) error(who, "line_bytes = ", p.line_bytes, " must be a power of two (e.g. 128)");
  if (!pow2(p.sets)) error(who, "sets = ", p.sets, " must be a power of two (sets are indexed by address bits)");
  if (p.sectored && p.line_bytes % 32 != 0)
    error(who, "line_bytes = ", p.line_bytes, " must be a multiple of 32 when sectored (sectors are 32 B)");
  if (p.fetch_granularity == "sector" && !p.sectored)
    error(who, "fetch_granularity = sector needs sectored = true (a read is checked against its own sectors); "
               "set both");
  if (p.lookup_latency > p.hit_latency)
    error(who, "lookup_latency = ", p.lookup_latency, " must not exceed hit_latency = ", p.hit_latency,
          " (a hit cannot be answered before its lookup is done); set both");
  return p;
}
}  // namespace

Cache::Cache(sc_core::sc_module_name name, const Params& p, ClockDomain& clk, unsigned node)
    : sc_core::sc_module(name),
      p_(checked(p, this->name())),
      clk_(clk),
      node_(node),
      write_back_(p_.write_policy == "write-back"),
      sector_count_(p_.line_bytes >= 32 ? p_.line_bytes / 32 : 1),
      all_sectors_(sector_count_ >= 32 ? ~0u : (1u << sector_count_) - 1),
      sector_fetch_(p_.fetch_granularity == "sector"),
      pool_(p_.line_bytes),
      route_([](Payload&, MemExt&) {}),
      index_addr_([](uint64_t a) { return a; }),
      lines_(size_t{p_.sets} * p_.ways),
      mshrs_(p_.mshrs),
      reads_(stats_.counter("reads", Unit::Count, "read requests looked up (merged ones included)")),
      writes_(stats_.counter("writes", Unit::Count, "write requests looked up")),
      atomics_(stats_.counter("atomics", Unit::Count, "atomic requests looked up")),
      read_hits_(stats_.counter("read_hits", Unit::Count, "reads whose needed sectors were valid")),
      read_misses_(stats_.counter("read_misses", Unit::Count, "reads that allocated an MSHR (one fetch each)")),
      sector_misses_(stats_.counter("sector_misses", Unit::Count,
                                    "read misses on a present line lacking needed sectors")),
      mshr_merges_(stats_.counter("mshr_merges", Unit::Count, "reads merged into an outstanding MSHR")),
      atomic_misses_(stats_.counter("atomic_misses", Unit::Count, "atomics that allocated an MSHR (write-back only)")),
      fetches_(stats_.counter("fetches", Unit::Count, "line reads sent down")),
      reservation_fails_(stats_.counter("reservation_fails", Unit::Cycles,
                                        "cycles the head request waited for an MSHR, merge slot or miss queue slot")),
      fills_(stats_.counter("fills", Unit::Count, "fills received from below")),
      evictions_(stats_.counter("evictions", Unit::Count, "valid lines replaced")),
      writebacks_(stats_.counter("writebacks", Unit::Count, "dirty lines written down (evictions and flushes)")),
      reply_stall_cycles_(stats_.counter("reply_stall_cycles", Unit::Cycles,
                                         "cycles a reply could not leave: up_out blocked, or out queue full")),
      up_blocked_cycles_(stats_.counter("up_blocked_cycles", Unit::Cycles,
                                        "cycles up_out's receiver withheld a reply (at an L2: MC stall time, 001 §2.1)")) {
  for (Mshr& m : mshrs_) {
    m.reqs.reserve(p_.mshr_merge);
    if (sector_fetch_) {
      m.waits.reserve(p_.mshr_merge);
      m.ready.reserve(p_.mshr_merge);
    }
  }
  up_in.set_accept([this](Payload& gp) { return accept_up(gp); });
  down_in.set_accept([this](Payload& gp) { return accept_down(gp); });
  up_in.set_b_transport([this](Payload& gp, sc_core::sc_time& t) { functional(gp, t); });
  up_out.on_accept([this] {
    up_free_at_ = clk_.cycle_after(sc_core::sc_time_stamp());
    reply_stall_cycles_ += up_free_at_ - 1 - up_blocked_since_;
    up_blocked_cycles_ += up_free_at_ - 1 - up_blocked_since_;
    clk_.wake_after_now(*this);
  });
  down_out.on_accept([this] {
    down_free_at_ = clk_.cycle_after(sc_core::sc_time_stamp());
    clk_.wake_after_now(*this);
  });
  stats_.derived("hit_rate", Unit::Ratio, "read_hits / reads", [this] {
    return reads_.value() ? double(read_hits_.value()) / double(reads_.value())
                          : std::numeric_limits<double>::quiet_NaN();
  });
  stats_.invariant("reads == read_hits + read_misses + mshr_merges", [this] {
    return reads_.value() == read_hits_.value() + read_misses_.value() + mshr_merges_.value();
  });
  stats_.invariant("fetches == read_misses + atomic_misses",
                   [this] { return fetches_.value() == read_misses_.value() + atomic_misses_.value(); });
  if (!sector_fetch_) {
    stats_.invariant("fills + MSHRs waiting for a fill == fetches", [this] {
      uint64_t waiting = 0;
      for (const Mshr& m : mshrs_) waiting += m.busy && !m.filled;
      return fills_.value() + waiting == fetches_.value();
    });
  } else {
    first_misses_ = &stats_.counter("first_misses", Unit::Count, "FM: reads that missed tag and MSHR (002 Table 3.1)");
    subsequent_misses_ = &stats_.counter("subsequent_misses", Unit::Count,
                                         "SM: reads that hit an MSHR lacking some of their sectors: one more fetch");
    hit_invalid_ = &stats_.counter("hit_but_invalid", Unit::Count,
                                   "HI: reads whose tag was present without all their sectors, no MSHR");
    sectors_fetched_ = &stats_.counter("sectors_fetched", Unit::Count, "32 B sectors asked below by fetches");
    sectors_returned_ = &stats_.counter("sectors_returned", Unit::Count,
                                        "fetched sectors returned by fills (cleared from a pending map)");
    stats_.invariant("read_misses == first_misses + subsequent_misses + hit_but_invalid", [this] {
      return read_misses_.value() == first_misses_->value() + subsequent_misses_->value() + hit_invalid_->value();
    });
    stats_.invariant("fills <= fetches (sector fetch)", [this] { return fills_.value() <= fetches_.value(); });
    stats_.invariant("sectors_fetched == sectors_returned + pending sectors", [this] {
      uint64_t pending = 0;
      for (const Mshr& m : mshrs_) pending += m.busy ? popcount(m.pending) : 0;
      return sectors_fetched_->value() == sectors_returned_->value() + pending;
    });
  }
  if (p_.sector_stats) {
    evicted_sectors_ = &stats_.counter("evicted_sectors", Unit::Count, "32 B sectors of the lines evicted");
    evicted_used_ = &stats_.counter("evicted_sectors_used", Unit::Count,
                                    "sectors of evicted lines read while the line was cached");
    evicted_valid_ = &stats_.counter("evicted_sectors_valid", Unit::Count, "valid sectors of evicted lines");
    used_hist_ = &stats_.histogram("sectors_used_at_eviction", Unit::Count,
                                   "per evicted line: sectors read while cached (002 Fig. 2.3)", 1.0, sector_count_ + 1);
    stats_.derived("used_fraction_at_eviction", Unit::Ratio,
                   "evicted_sectors_used / evicted_sectors (002 Fig. 2.1: ~0.4 on average)", [this] {
                     return evicted_sectors_->value()
                                ? double(evicted_used_->value()) / double(evicted_sectors_->value())
                                : std::numeric_limits<double>::quiet_NaN();
                   });
  }
}

// ---- observers ----

bool Cache::is_dirty(uint64_t addr) const {
  const Line* l = find_line(line_of(addr));
  return l && l->dirty;
}

uint32_t Cache::valid_sectors(uint64_t addr) const {
  const Line* l = find_line(line_of(addr));
  return l ? l->valid : 0;
}

uint32_t Cache::pending_sectors(uint64_t addr) const {
  for (const Mshr& m : mshrs_)
    if (m.busy && !m.filled && m.line == line_of(addr)) return m.pending;
  return 0;
}

unsigned Cache::mshrs_in_use() const {
  unsigned n = 0;
  for (const Mshr& m : mshrs_) n += m.busy;
  return n;
}

bool Cache::idle() const {
  return in_q_.empty() && down_q_.empty() && hits_.empty() && looked_up_.empty() && out_q_.empty() && to_down_.empty() &&
         bypassed_reads_.empty() && peer_q_.empty() && peer_done_.empty() && mshrs_in_use() == 0 && !up_out.busy() &&
         !down_out.busy();
}

// ---- hook points ----

void Cache::set_bypass(std::function<bool(const Payload&)> f) {
  bypass_ = std::move(f);
  if (!bypassed_)
    bypassed_ = &stats_.counter("bypassed", Unit::Count,
                                "requests the bypass policy sent straight down (no lookup, no allocation)");
}

void Cache::set_read_policy(std::function<bool(Payload&, MemExt&, bool)> f) {
  if (sector_fetch_) error(name(), "set_read_policy needs fetch_granularity = line (this cache fetches sectors)");
  read_policy_ = std::move(f);
  if (!redirected_hits_)
    redirected_hits_ = &stats_.counter("redirected_hits", Unit::Count,
                                       "read hits the read policy answered with another message, not data");
}

void Cache::require_sector_mode(const char* hook) const {
  if (!sector_fetch_)
    error(name(), hook, " needs fetch_granularity = sector (this cache fetches whole lines); set it in the cache's params");
}

void Cache::set_fetch_map(std::function<uint32_t(const Payload&, MissClass, uint32_t)> f) {
  require_sector_mode("set_fetch_map");
  fetch_map_ = std::move(f);
}

void Cache::on_fill_complete(std::function<void(const SectorEvent&)> f) {
  require_sector_mode("on_fill_complete");
  fill_done_obs_.push_back(std::move(f));
}

void Cache::on_sector_evict(std::function<void(const SectorEvent&)> f) {
  require_sector_mode("on_sector_evict");
  sector_evict_obs_.push_back(std::move(f));
}

void Cache::peer_lookup(uint64_t addr, uint32_t sectors, std::function<void(const PeerResult&)> done) {
  if (!peer_lookups_) {
    peer_lookups_ = &stats_.counter("peer_lookups", Unit::Count, "peer lookups served (tag array read, no LRU change)");
    peer_hits_ = &stats_.counter("peer_hits", Unit::Count, "peer lookups that found the wanted sectors valid");
  }
  peer_q_.push_back({clk_.cycle_after(sc_core::sc_time_stamp()), line_of(addr), sectors, PeerResult{}, std::move(done)});
  peers_active_ = true;
  clk_.wake_after_now(*this);
}

void Cache::serve_peers(uint64_t cycle, unsigned slots) {
  for (; slots && !peer_q_.empty() && peer_q_.front().ready <= cycle; --slots) {
    PeerReq r = std::move(peer_q_.front());
    peer_q_.pop_front();
    const Line* l = find_line(r.line);
    const uint32_t need = p_.sectored ? sectors_of_mask(r.sectors) : all_sectors_;
    r.result = PeerResult{r.line, l != nullptr, l && (l->valid & need) == need, l ? l->valid : 0u, l && l->dirty};
    ++*peer_lookups_;
    *peer_hits_ += r.result.hit;
    r.ready = cycle + p_.lookup_latency;
    peer_done_.push_back(std::move(r));
  }
}

void Cache::deliver_peers(uint64_t cycle) {
  while (!peer_done_.empty() && peer_done_.front().ready <= cycle) {
    PeerReq r = std::move(peer_done_.front());
    peer_done_.pop_front();
    r.done(r.result);
  }
}

bool Cache::bypassed(Payload& gp) {
  if (miss_queue_full()) return false;
  ++*bypassed_;
  if (gp.get_extension<MemExt>()->kind == MemKind::Read) bypassed_reads_.push_back(&gp);
  send_down(gp);  // no tag lookup, so no lookup_latency
  return true;
}

void Cache::flush() {
  if (!idle()) error(name(), "flush() while requests are in flight; call it at a kernel boundary, when idle()");
  invalidate();
}

uint64_t Cache::invalidate(const std::function<bool(uint64_t line)>& which) {
  uint64_t n = 0;
  for (Line& l : lines_) {
    if (l.valid && which && !which(l.tag)) continue;
    if (l.valid) ++n;
    if (write_back_ && l.valid && l.dirty) write_back(l.tag);
    l = Line{};
  }
  if (!to_down_.empty()) clk_.wake_after_now(*this);
  return n;
}

// ---- tag array and MSHRs ----

unsigned Cache::set_of(uint64_t line) const {
  return static_cast<unsigned>((index_addr_(line) / p_.line_bytes) & (p_.sets - 1));
}

const Cache::Line* Cache::find_line(uint64_t line) const {
  const Line* set = &lines_[size_t{set_of(line)} * p_.ways];
  for (unsigned w = 0; w < p_.ways; ++w)
    if (set[w].valid && set[w].tag == line) return &set[w];
  return nullptr;
}

Cache::Line* Cache::find_line(uint64_t line) {
  return const_cast<Line*>(static_cast<const Cache*>(this)->find_line(line));
}

Cache::Line& Cache::victim(uint64_t line) {
  Line* set = &lines_[size_t{set_of(line)} * p_.ways];
  Line* v = &set[0];
  for (unsigned w = 0; w < p_.ways; ++w) {
    if (!set[w].valid) return set[w];
    if (set[w].lru < v->lru) v = &set[w];
  }
  return *v;
}

Cache::Line& Cache::install(uint64_t line) {
  Line& l = victim(line);
  if (l.valid) {
    ++evictions_;
    for (const auto& f : evict_obs_) f(l.tag, l.dirty);
    for (const auto& f : sector_evict_obs_) f(SectorEvent{l.tag, l.valid, l.inconsistent, l.touched, l.first});
    if (used_hist_) {
      *evicted_sectors_ += sector_count_;
      *evicted_used_ += popcount(l.touched);
      *evicted_valid_ += popcount(l.valid);
      used_hist_->add(popcount(l.touched));
    }
    if (l.dirty) write_back(l.tag);
  }
  l = Line{};
  l.tag = line;
  return l;
}

uint32_t Cache::sectors_of_mask(uint32_t mask) const {
  const uint32_t s = mask & all_sectors_;
  // Branch-free: `s ? s : all_sectors_` is the shape GCC 12.2 miscompiles out of line
  // (cmake/ToolchainChecks.cmake), whatever the flags a user builds with.
  return s | (all_sectors_ & (0u - static_cast<uint32_t>(s == 0)));
}

Cache::Mshr* Cache::find_mshr(uint64_t line) {
  for (Mshr& m : mshrs_)
    if (m.busy && !m.filled && m.line == line) return &m;
  return nullptr;
}

Cache::Mshr* Cache::free_mshr() {
  for (Mshr& m : mshrs_)
    if (!m.busy) return &m;
  return nullptr;
}

// ---- messages ----

bool Cache::accept_up(Payload& gp) {
  const MemExt& e = mem_ext(gp, name());
  if (e.is_reply || (e.kind != MemKind::Read && e.kind != MemKind::Write && e.kind != MemKind::Atomic))
    error(name(), "up_in received a ", to_string(e.kind), e.is_reply ? " reply" : " request", " for ",
          hex(gp.get_address()), "; a cache takes read, write and atomic requests from above");
  return latch(in_q_, p_.in_queue, gp);
}

bool Cache::accept_down(Payload& gp) {
  const MemExt& e = mem_ext(gp, name());
  if (!e.is_reply || (e.kind != MemKind::Read && e.kind != MemKind::Write && e.kind != MemKind::Atomic))
    error(name(), "down_in received a ", to_string(e.kind), e.is_reply ? " reply" : " request", " for ",
          hex(gp.get_address()), "; only read fills, write acks and atomic replies come from below");
  return latch(down_q_, p_.fill_queue, gp);
}

bool Cache::latch(std::deque<Timed>& q, size_t limit, Payload& gp) {
  if (q.size() >= limit) return false;
  q.push_back({clk_.cycle_after(sc_core::sc_time_stamp()), &gp});
  clk_.wake_after_now(*this);
  return true;
}

Cache::Payload& Cache::make_fetch(const MemExt& first, uint64_t line) {
  // A non-sectored cache installs whole lines, so it asks for every sector (a sectored L2 below
  // must not answer from sectors it does not hold).
  return make_fetch(first, line, p_.sectored ? first.sector_mask : all_sectors_);
}

Cache::Payload& Cache::make_fetch(const MemExt& first, uint64_t line, uint32_t sectors) {
  Payload& f = pool_.acquire();
  MemExt& e = *f.get_extension<MemExt>();
  e.kind = MemKind::Read;
  e.src = node_;
  e.warp = first.warp;
  e.pc = first.pc;
  e.kernel_id = first.kernel_id;
  e.cta_id = first.cta_id;
  e.t_issue = first.t_issue;
  e.sector_mask = sectors;
  e.word_mask = first.word_mask;
  f.set_command(tlm::TLM_READ_COMMAND);
  f.set_address(line);
  f.set_data_length(p_.line_bytes);
  f.set_data_ptr(nullptr);
  ++fetches_;
  return f;
}

void Cache::make_reply(Payload& gp) {
  MemExt& e = *gp.get_extension<MemExt>();
  e.is_reply = true;
  e.dst = e.src;
  if (e.kind == MemKind::Read) {  // a read returns the line; an atomic its old values (request length)
    gp.set_data_length(p_.line_bytes);
    if (store_ && gp.get_data_ptr()) store_->read(line_of(gp.get_address()), p_.line_bytes, gp.get_data_ptr());
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

void Cache::store_write(Payload& gp, const MemExt& e) {
  if (!store_ || !gp.get_data_ptr()) return;
  if (!e.word_mask) {
    store_->write(gp.get_address(), gp.get_data_length(), gp.get_data_ptr());
    return;
  }
  const uint64_t line = line_of(gp.get_address());
  unsigned k = 0;  // data is packed: one 4 B word per set bit of word_mask
  for (unsigned w = 0; w < 32 && w * 4 < p_.line_bytes && (k + 1) * 4 <= gp.get_data_length(); ++w)
    if (e.word_mask & (1u << w)) store_->write(line + 4 * w, 4, gp.get_data_ptr() + 4 * k++);
}

void Cache::send_down(Payload& gp) {
  route_(gp, *gp.get_extension<MemExt>());
  if (!lt_time_) {
    to_down_.push_back(&gp);
    return;
  }
  down_out->b_transport(gp, *lt_time_);  // functional path: our own payload, done with it
  gp.release();
}

void Cache::send_looked_up(Payload& gp, uint64_t cycle) {
  if (p_.lookup_latency == 0) {
    send_down(gp);
    return;
  }
  looked_up_.push_back({cycle + p_.lookup_latency, &gp});
}

void Cache::write_back(uint64_t line) {
  Payload& w = pool_.acquire();
  MemExt& e = *w.get_extension<MemExt>();
  e.kind = MemKind::Write;
  e.src = node_;
  w.set_command(tlm::TLM_WRITE_COMMAND);
  w.set_address(line);
  w.set_data_length(p_.line_bytes);
  w.set_data_ptr(nullptr);
  ++writebacks_;
  send_down(w);  // past miss_queue if need be (see header)
}

bool Cache::is_bypassed_read(const Payload& gp) const {
  return std::find(bypassed_reads_.begin(), bypassed_reads_.end(), &gp) != bypassed_reads_.end();
}

void Cache::forget_bypassed_read(const Payload& gp) {
  auto it = std::find(bypassed_reads_.begin(), bypassed_reads_.end(), &gp);
  if (it != bypassed_reads_.end()) bypassed_reads_.erase(it);
}

// ---- the cycle ----

bool Cache::tick(uint64_t cycle) {
  const bool port_blocked = up_blocked(cycle);
  reply_blocked_ = false;
  retire_hits(cycle);
  for (unsigned i = 0; i < p_.messages_per_cycle; ++i) handle_down(cycle);
  release_looked_up(cycle);
  const unsigned used = lookups(cycle);
  if (peers_active_) {  // one flag on the hot path while no peer lookup has ever been asked
    if (!peer_q_.empty() && used < p_.accesses_per_cycle) serve_peers(cycle, p_.accesses_per_cycle - used);
    if (!peer_done_.empty()) deliver_peers(cycle);
    peers_active_ = !peer_q_.empty() || !peer_done_.empty();
  }
  send_ports(cycle);
  if (reply_blocked_ && !port_blocked) ++reply_stall_cycles_;
  if (in_q_.size() < p_.in_queue) up_in.retry();
  if (down_q_.size() < p_.fill_queue) down_in.retry();

  // Work next cycle? Otherwise sleep until the earliest timed entry (inputs and port releases wake us).
  const uint64_t next = cycle + 1;
  if ((!out_q_.empty() && !up_out.busy()) || (!to_down_.empty() && !down_out.busy())) return true;
  uint64_t at = UINT64_MAX;
  // The lookup pipeline needs only room in the miss queue (a full one drains through down_out,
  // whose release wakes us); everything else needs room in the out queue (up_out's release).
  if (!looked_up_.empty() && !miss_queue_full()) at = looked_up_.front().ready;
  // Peer lookups need only a free lookup slot (a busy stage keeps us awake anyway).
  if (peers_active_) {
    if (!peer_q_.empty()) at = std::min(at, std::max(next, peer_q_.front().ready));
    if (!peer_done_.empty()) at = std::min(at, peer_done_.front().ready);
  }
  if (!out_full()) {
    if (answering_) at = next;
    for (const std::deque<Timed>* q : {&in_q_, &down_q_, &hits_})
      if (!q->empty() && q->front().ready < at) at = q->front().ready;
  }
  if (at <= next) return true;
  if (at != UINT64_MAX) clk_.wake(*this, at);
  return false;
}

void Cache::retire_hits(uint64_t cycle) {
  while (!hits_.empty() && hits_.front().ready <= cycle) {
    if (out_full()) {
      reply_blocked_ = true;
      return;
    }
    out_q_.push_back(hits_.front().gp);
    hits_.pop_front();
  }
}

void Cache::handle_down(uint64_t cycle) {
  if (!answering_) {
    if (down_q_.empty() || down_q_.front().ready > cycle) return;
    Payload& gp = *down_q_.front().gp;
    // Write ack / atomic reply / reply to a bypassed read: pass it up.
    if (gp.get_extension<MemExt>()->kind != MemKind::Read || (!bypassed_reads_.empty() && is_bypassed_read(gp))) {
      if (out_full()) {
        reply_blocked_ = true;
        return;
      }
      out_q_.push_back(&gp);
      down_q_.pop_front();
      if (gp.get_extension<MemExt>()->kind == MemKind::Read) forget_bypassed_read(gp);
      return;
    }
    if (sector_fetch_) {
      sector_fill(gp);
      if (!answering_) return;
    } else {
      const uint64_t line = line_of(gp.get_address());
      Mshr* m = find_mshr(line);
      if (!m) error(name(), "fill for line ", hex(line), " matches no outstanding miss (MSHR)");
      down_q_.pop_front();
      ++fills_;
      trace_.end("miss", line);
      Line* l = find_line(line);  // present after a sector miss: completed even without allocate
      if (!l && m->allocate) l = &install(line);
      if (l) {
        l->valid = all_sectors_;
        l->dirty |= m->dirty;
        l->touched |= m->touched;
        touch(*l);
      }
      gp.release();  // possibly a multicast payload shared with others: never modified here
      m->filled = true;
      answering_ = m;
      answered_ = 0;
    }
  }
  if (out_full()) {
    reply_blocked_ = true;
    return;
  }
  std::vector<Payload*>& list = sector_fetch_ ? answering_->ready : answering_->reqs;
  Payload& req = *list[answered_];
  make_reply(req);
  out_q_.push_back(&req);
  if (++answered_ == list.size()) {
    if (!sector_fetch_) {
      answering_->reqs.clear();
      answering_->busy = answering_->filled = false;
    } else {
      answering_->ready.clear();
      if (answering_->filled) free_mshr_entry(*answering_);
    }
    answering_ = nullptr;
  }
}

void Cache::sector_fill(Payload& gp) {
  const uint64_t line = line_of(gp.get_address());
  const uint32_t r = sectors_of(*gp.get_extension<MemExt>());
  down_q_.pop_front();
  ++fills_;
  Mshr* m = find_mshr(line);
  Line* l = find_line(line);
  if (!m) {  // its MSHR was cleared by a reply carrying more than its fetch asked (see header)
    if (l) l->valid |= r;
    gp.release();
    return;
  }
  *sectors_returned_ += popcount(r & m->pending);
  m->pending &= ~r;
  if (!l && m->allocate) {
    l = &install(line);
    l->first = m->first;
  }
  if (l) {
    l->valid |= r;
    l->dirty |= m->dirty;
    l->touched |= m->touched & l->valid;  // a sector is read once it is here
    touch(*l);
  }
  gp.release();  // possibly a multicast payload shared with others: never modified here
  // Waiting requests whose sectors are all back become ready, in arrival order.
  size_t k = 0;
  for (size_t i = 0; i < m->reqs.size(); ++i) {
    m->waits[i] &= ~r;
    if (!m->waits[i]) {
      m->ready.push_back(m->reqs[i]);
    } else {
      m->reqs[k] = m->reqs[i];
      m->waits[k++] = m->waits[i];
    }
  }
  m->reqs.resize(k);
  m->waits.resize(k);
  if (!m->pending) {  // every sector asked is back: no more fills; frees after its last answer
    m->filled = true;
    trace_.end("miss", line);
    for (const auto& f : fill_done_obs_) f(SectorEvent{line, m->requested, m->inconsistent, m->touched, m->first});
  }
  if (!m->ready.empty()) {
    answering_ = m;
    answered_ = 0;
  } else if (m->filled) {
    free_mshr_entry(*m);
  }
}

void Cache::free_mshr_entry(Mshr& m) {
  m.reqs.clear();
  m.waits.clear();
  m.ready.clear();
  m.busy = m.filled = m.inconsistent = false;
  m.pending = m.requested = m.touched = m.first = 0;
}

void Cache::release_looked_up(uint64_t cycle) {
  while (!looked_up_.empty() && looked_up_.front().ready <= cycle && !miss_queue_full()) {
    send_down(*looked_up_.front().gp);
    looked_up_.pop_front();
  }
}

unsigned Cache::lookups(uint64_t cycle) {
  unsigned n = 0;
  while (n < p_.accesses_per_cycle) {
    if (in_q_.empty() || in_q_.front().ready > cycle || out_full()) return n;
    Payload& gp = *in_q_.front().gp;
    ++n;
    if (!lookup(gp, *gp.get_extension<MemExt>(), cycle)) {
      ++reservation_fails_;
      return p_.reservation_fail_takes_slot ? n : n - 1;  // the slots peers may not use
    }
    in_q_.pop_front();
  }
  return n;
}

bool Cache::lookup(Payload& gp, MemExt& e, uint64_t cycle) {
  if (bypass_ && bypass_(gp)) return bypassed(gp);
  switch (e.kind) {
    case MemKind::Read: return read_path(gp, e, cycle, false);
    case MemKind::Write: return write_path(gp, e, cycle);
    case MemKind::Atomic:
      if (write_back_) return read_path(gp, e, cycle, true);
      if (miss_queue_full()) return false;
      ++atomics_;
      send_looked_up(gp, cycle);
      return true;
    default: return true;  // rejected in accept_up
  }
}

bool Cache::read_path(Payload& gp, MemExt& e, uint64_t cycle, bool atomic) {
  const uint64_t line = line_of(gp.get_address());
  Line* l = find_line(line);
  const uint32_t need = p_.sectored ? sectors_of(e) : all_sectors_;
  if (l && (l->valid & need) == need) {
    ++(atomic ? atomics_ : reads_);
    if (!atomic) ++read_hits_;
    l->dirty |= atomic;
    l->touched |= sectors_of(e);
    touch(*l);
    if (!atomic && read_policy_ && read_policy_(gp, e, true)) ++*redirected_hits_;  // answered otherwise
    else make_reply(gp);
    hits_.push_back({cycle + p_.hit_latency, &gp});
    return true;
  }
  if (sector_fetch_) return sector_miss(gp, e, cycle, atomic, line, l, need);
  if (Mshr* m = find_mshr(line)) {
    if (m->reqs.size() >= p_.mshr_merge) return false;
    if (!atomic && read_policy_) read_policy_(gp, e, false);
    ++(atomic ? atomics_ : reads_);
    if (!atomic) ++mshr_merges_;
    m->allocate |= atomic;
    m->dirty |= atomic;
    m->touched |= sectors_of(e);
    m->reqs.push_back(&gp);
    return true;
  }
  Mshr* m = free_mshr();
  if (!m || miss_queue_full()) return false;
  if (atomic) {
    ++atomics_;
    ++atomic_misses_;
  } else {
    ++reads_;
    ++read_misses_;
    if (l) ++sector_misses_;
    if (read_policy_) read_policy_(gp, e, false);
  }
  m->busy = true;
  m->filled = false;
  m->line = line;
  trace_.begin("miss", line);
  m->allocate = atomic || !allocate_ || allocate_(gp);
  m->dirty = atomic;
  m->touched = sectors_of(e);
  m->reqs.push_back(&gp);
  for (const auto& f : miss_obs_) f(gp, line);
  send_looked_up(make_fetch(e, line), cycle);
  return true;
}

uint32_t Cache::fetch_map(const Payload& gp, bool atomic, MissClass c, uint32_t missing) {
  if (!fetch_map_ || atomic) return missing;
  return (fetch_map_(gp, c, missing) | missing) & all_sectors_;
}

bool Cache::sector_miss(Payload& gp, MemExt& e, uint64_t cycle, bool atomic, uint64_t line, Line* l, uint32_t need) {
  const uint32_t wait = need & ~(l ? l->valid : 0u);  // sectors the request waits for
  Mshr* m = find_mshr(line);
  if (m) {
    if (m->reqs.size() + m->ready.size() >= p_.mshr_merge) return false;
    const uint32_t missing = wait & ~m->pending;
    if (missing && miss_queue_full()) return false;
    ++(atomic ? atomics_ : reads_);
    if (!missing) {  // every sector it lacks is on its way: merge
      if (!atomic) ++mshr_merges_;
    } else {  // SM: fetch the sectors still missing
      if (atomic) {
        ++atomic_misses_;
      } else {
        ++read_misses_;
        ++*subsequent_misses_;
      }
      m->inconsistent = true;
    }
    const uint32_t fetch = missing ? fetch_map(gp, atomic, MissClass::Subsequent, missing) & ~m->pending : 0u;
    m->allocate |= atomic;
    m->dirty |= atomic;
    m->touched |= sectors_of(e);
    m->reqs.push_back(&gp);
    m->waits.push_back(wait);
    if (!fetch) return true;
    m->pending |= fetch;
    m->requested |= fetch;
    for (const auto& f : miss_obs_) f(gp, line);
    *sectors_fetched_ += popcount(fetch);
    send_looked_up(make_fetch(e, line, fetch), cycle);
    return true;
  }
  m = free_mshr();
  if (!m || miss_queue_full()) return false;
  if (atomic) {
    ++atomics_;
    ++atomic_misses_;
  } else {
    ++reads_;
    ++read_misses_;
    if (l) {
      ++sector_misses_;
      ++*hit_invalid_;
    } else {
      ++*first_misses_;
    }
  }
  if (l) l->inconsistent = true;  // HI: a later request needs sectors outside the present map
  const uint32_t fetch = fetch_map(gp, atomic, l ? MissClass::HitInvalid : MissClass::First, wait);
  m->busy = true;
  m->filled = false;
  m->line = line;
  trace_.begin("miss", line);
  m->allocate = atomic || !allocate_ || allocate_(gp);
  m->dirty = atomic;
  m->pending = m->requested = fetch;
  m->inconsistent = false;
  m->touched = m->first = sectors_of(e);
  m->reqs.push_back(&gp);
  m->waits.push_back(wait);
  for (const auto& f : miss_obs_) f(gp, line);
  *sectors_fetched_ += popcount(fetch);
  send_looked_up(make_fetch(e, line, fetch), cycle);
  return true;
}

bool Cache::write_path(Payload& gp, MemExt& e, uint64_t cycle) {
  const uint64_t line = line_of(gp.get_address());
  Line* l = find_line(line);
  if (!write_back_) {  // write-through, no write-allocate: the write itself goes down
    if (miss_queue_full()) return false;
    ++writes_;
    if (l) {
      l->valid |= sectors_of(e);
      touch(*l);
    }
    store_write(gp, e);
    send_looked_up(gp, cycle);
    return true;
  }
  if (!l) {  // write-allocate without fetch; a dirty victim needs a miss-queue slot
    const Line& v = victim(line);
    if (v.valid && v.dirty && miss_queue_full()) return false;
    l = &install(line);
  }
  ++writes_;
  l->valid |= sectors_of(e);
  l->dirty = true;
  touch(*l);
  store_write(gp, e);
  make_reply(gp);
  hits_.push_back({cycle + p_.hit_latency, &gp});
  return true;
}

void Cache::send_ports(uint64_t cycle) {
  for (unsigned i = 0; i < p_.messages_per_cycle && !out_q_.empty() && !up_blocked(cycle); ++i) {
    Payload& gp = *out_q_.front();
    out_q_.pop_front();
    gp.get_extension<MemExt>()->t_done = sc_core::sc_time_stamp();
    if (!up_out.send(gp)) up_blocked_since_ = cycle;
  }
  for (unsigned i = 0; i < p_.messages_per_cycle && !to_down_.empty() && !down_out.busy() && cycle >= down_free_at_;
       ++i) {
    Payload& gp = *to_down_.front();
    to_down_.pop_front();
    down_out.send(gp);
  }
}

// ---- loosely-timed path ----

void Cache::functional(Payload& gp, sc_core::sc_time& t) {
  MemExt& e = mem_ext(gp, name());
  if (e.is_reply || (e.kind != MemKind::Read && e.kind != MemKind::Write && e.kind != MemKind::Atomic))
    error(name(), "b_transport got a ", to_string(e.kind), e.is_reply ? " reply" : " request",
          "; a cache takes read, write and atomic requests from above");
  lt_time_ = &t;
  const uint64_t line = line_of(gp.get_address());
  Line* l = find_line(line);
  if (bypass_ && bypass_(gp)) {  // straight down, as in the timed path
    ++*bypassed_;
    route_(gp, e);
    down_out->b_transport(gp, t);
  } else if (!write_back_ && e.kind != MemKind::Read) {  // write-through write or atomic: forwarded
    if (e.kind == MemKind::Write) {
      ++writes_;
      if (l) {
        l->valid |= sectors_of(e);
        touch(*l);
      }
      store_write(gp, e);
    } else {
      ++atomics_;
    }
    route_(gp, e);
    down_out->b_transport(gp, t);
  } else if (e.kind == MemKind::Write) {  // write-back write
    if (!l) l = &install(line);
    ++writes_;
    l->valid |= sectors_of(e);
    l->dirty = true;
    touch(*l);
    store_write(gp, e);
    make_reply(gp);
  } else {  // read, or atomic at a write-back cache
    const bool atomic = e.kind == MemKind::Atomic;
    const uint32_t need = p_.sectored ? sectors_of(e) : all_sectors_;
    ++(atomic ? atomics_ : reads_);
    if (l && (l->valid & need) == need) {
      if (!atomic) ++read_hits_;
    } else {
      ++(atomic ? atomic_misses_ : read_misses_);
      if (l && !atomic) ++sector_misses_;
      if (sector_fetch_ && !atomic) ++*(l ? hit_invalid_ : first_misses_);
      if (sector_fetch_ && l) l->inconsistent = true;
      const bool alloc = atomic || !allocate_ || allocate_(gp);
      for (const auto& f : miss_obs_) f(gp, line);
      uint32_t fetch = all_sectors_;
      if (sector_fetch_) {
        const uint32_t missing = need & ~(l ? l->valid : 0u);
        fetch = fetch_map(gp, atomic, l ? MissClass::HitInvalid : MissClass::First, missing);
        *sectors_fetched_ += popcount(fetch);
        *sectors_returned_ += popcount(fetch);
        send_down(make_fetch(e, line, fetch));
      } else {
        send_down(make_fetch(e, line));
      }
      ++fills_;
      if (alloc && !l) l = &install(line);
      if (l) l->valid = sector_fetch_ ? l->valid | fetch : all_sectors_;
    }
    if (l) {
      l->dirty |= atomic;
      l->touched |= sectors_of(e);
      touch(*l);
    }
    make_reply(gp);
  }
  lt_time_ = nullptr;
}

}  // namespace gpusc
