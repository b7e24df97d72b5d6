#include "sm/sm_core.h"

#include <algorithm>
#include <cstring>

#include "common/mem_ext.h"
#include "common/report.h"

namespace gpusc {

namespace {
const SmCore::Params& checked(const SmCore::Params& p, const char* who) {
  validate(p, who);
  if ((p.line_bytes & (p.line_bytes - 1)) != 0)
    error(who, who, ".line_bytes = ", p.line_bytes, " must be a power of two (32, 64 or 128)");
  if (p.max_warps > p.schedulers * WarpScheduler::kMaxWarps)
    error(who, who, ".max_warps = ", p.max_warps, " exceeds ", WarpScheduler::kMaxWarps, " warps per scheduler with ",
          p.schedulers, " schedulers; raise schedulers or lower max_warps");
  return p;
}
}  // namespace

SmCore::SmCore(sc_core::sc_module_name name, const Params& p, ClockDomain& clk, unsigned node)
    : sc_core::sc_module(name),
      p_(checked(p, this->name())),
      clk_(clk),
      node_(node),
      coalescer_(Coalescer::Params{p.line_bytes}, this->name()),
      pool_(p.line_bytes),
      warps_(p.max_warps),
      cta_slots_(p.max_ctas),
      q_(std::max<size_t>(p.mem_queue, LineRequests::kCapacity)),
      warp_instr_(stats_.counter("warp_instructions", Unit::Count, "warp instructions issued")),
      thread_instr_(stats_.counter("thread_instructions", Unit::Count,
                                   "thread instructions issued (active lanes); per cycle = GPGPU-Sim's IPC")),
      loads_(stats_.counter("loads", Unit::Count, "load warp instructions issued")),
      stores_(stats_.counter("stores", Unit::Count, "store warp instructions issued")),
      atomics_(stats_.counter("atomics", Unit::Count, "atomic warp instructions issued")),
      line_requests_(stats_.counter("line_requests", Unit::Count, "line requests made by the coalescer")),
      replies_(stats_.counter("replies", Unit::Count, "replies received (data replies and write acks)")),
      active_cycles_(stats_.counter("active_cycles", Unit::Cycles, "cycles with at least one resident warp")),
      issue_cycles_(stats_.counter("issue_cycles", Unit::Cycles, "cycles in which at least one instruction issued")),
      stall_mem_queue_(stats_.counter("stall_mem_queue", Unit::Cycles,
                                      "cycles without issue where a warp was held only by a full mem_queue")),
      stall_all_waiting_(stats_.counter("stall_all_waiting", Unit::Cycles,
                                        "cycles with resident warps, no issue, every warp waiting for memory or latency")),
      ctas_completed_(stats_.counter("ctas_completed", Unit::Count, "CTAs retired")) {
  const WarpScheduler::Policy pol = WarpScheduler::policy_from(p.scheduler, this->name());
  for (unsigned s = 0; s < p.schedulers; ++s)
    scheds_.emplace_back(pol, (p.max_warps + p.schedulers - 1 - s) / p.schedulers, this->name());
  mem_in.set_accept([this](tlm::tlm_generic_payload& gp) { return accept_reply(gp); });
  mem_out.on_accept([this] { clk_.wake_after_now(*this); });
  stats_.invariant("replies + outstanding == line_requests (replies == line_requests once drained)",
                   [this] { return replies_.value() + outstanding_ == line_requests_.value(); });
  stats_.invariant("active_cycles == issue_cycles + stall_mem_queue + stall_all_waiting", [this] {
    return active_cycles_.value() == issue_cycles_.value() + stall_mem_queue_.value() + stall_all_waiting_.value();
  });
}

bool SmCore::fits(const Kernel& k) const {
  return k.warps_per_cta() >= 1 && k.warps_per_cta() <= p_.max_warps && k.threads_per_cta() <= p_.max_threads &&
         k.shared_bytes_per_cta() <= p_.shared_bytes;
}

bool SmCore::can_launch(const Kernel& k) const {
  return ctas_ < p_.max_ctas && warps_used_ + k.warps_per_cta() <= p_.max_warps &&
         threads_ + k.threads_per_cta() <= p_.max_threads && k.warps_per_cta() >= 1 &&
         shared_used_ + k.shared_bytes_per_cta() <= p_.shared_bytes;
}

void SmCore::launch(std::shared_ptr<const Kernel> k, unsigned kernel_id, unsigned cta) {
  if (!k) error(name(), "launch() without a kernel");
  if (cta >= k->num_ctas())
    error(name(), "launch of CTA ", cta, " of kernel '", k->name(), "' which has ", k->num_ctas(), " CTAs");
  if (!can_launch(*k))
    error(name(), "launch of a CTA of kernel '", k->name(), "' (", k->warps_per_cta(), " warps, ", k->threads_per_cta(),
          " threads) while the SM holds ", ctas_, "/", p_.max_ctas, " CTAs, ", warps_used_, "/", p_.max_warps,
          " warps, ", threads_, "/", p_.max_threads, " threads; ask can_launch() first");
  unsigned cs = 0;
  while (cta_slots_[cs].live) ++cs;
  Cta& c = cta_slots_[cs];
  c = Cta{true, cta, kernel_id, k->warps_per_cta(), k->threads_per_cta(), k->shared_bytes_per_cta(), k};
  ++ctas_;
  shared_used_ += c.shared;
  warps_used_ += c.warps_left;
  threads_ += c.threads;
  const uint64_t start = clk_.cycle_after(sc_core::sc_time_stamp());
  unsigned slot = 0;
  for (unsigned w = 0; w < c.warps_left; ++w) {
    while (warps_[slot].live) ++slot;
    Warp& x = warps_[slot];
    x.live = true;
    x.has_next = x.ended = false;
    x.cta_slot = cs;
    x.pending = 0;
    x.start = x.ready_at = start;
    x.stream = k->warp(cta, w);
    scheds_[slot % p_.schedulers].launched(slot / p_.schedulers);
  }
  clk_.wake(*this, start);
}

bool SmCore::accept_reply(tlm::tlm_generic_payload& gp) {
  inbox_.emplace_back(clk_.cycle_after(sc_core::sc_time_stamp()), &gp);
  clk_.wake_after_now(*this);
  return true;
}

void SmCore::take_replies(uint64_t cycle) {
  size_t i = 0;
  for (; i < inbox_.size() && inbox_[i].first <= cycle; ++i) {
    tlm::tlm_generic_payload& gp = *inbox_[i].second;
    const MemExt& e = mem_ext(gp, name());
    if (!e.is_reply || e.src != node_)
      error(name(), "mem_in received a message for address 0x", std::hex, gp.get_address(), std::dec,
            " that is not a reply to this SM (is_reply ", e.is_reply, ", src ", e.src, ", this node ", node_, ")");
    if (e.kind == MemKind::Read || e.kind == MemKind::Atomic) {
      if (e.warp >= warps_.size() || !warps_[e.warp].live || warps_[e.warp].pending == 0)
        error(name(), "reply for warp ", e.warp, " which has no load outstanding (address 0x", std::hex,
              gp.get_address(), std::dec, ")");
      if (--warps_[e.warp].pending == 0) trace_.end("load wait", e.warp);
    } else if (e.kind != MemKind::Write) {
      error(name(), "mem_in received a ", to_string(e.kind), " reply; the SM expects read, atomic or write replies");
    }
    if (outstanding_ == 0) error(name(), "more replies than line requests");
    --outstanding_;
    ++replies_;
    gp.release();
  }
  inbox_.erase(inbox_.begin(), inbox_.begin() + static_cast<std::ptrdiff_t>(i));
}

void SmCore::send_one() {
  if (q_size_ == 0 || mem_out.busy()) return;
  tlm::tlm_generic_payload* gp = q_[q_head_];
  q_head_ = (q_head_ + 1) % q_.size();
  --q_size_;
  mem_out.send(*gp);  // handed over even if the L1 withholds END_REQ; on_accept wakes us
}

void SmCore::push_request(tlm::tlm_generic_payload* gp) {
  q_[(q_head_ + q_size_) % q_.size()] = gp;
  ++q_size_;
}

void SmCore::fetch(Warp& w) {
  if (w.has_next || w.ended) return;
  if (w.stream->next(w.next)) {
    w.has_next = true;
    w.next_lines = w.next.is_memory() ? coalescer_.count(w.next) : 0;
  } else {
    w.ended = true;
  }
}

void SmCore::retire(uint64_t cycle) {
  for (unsigned s = 0; s < warps_.size(); ++s) {
    Warp& w = warps_[s];
    if (!w.live || w.start > cycle) continue;
    fetch(w);
    if (!w.ended || w.pending || w.ready_at > cycle) continue;
    w.live = false;
    w.stream.reset();
    scheds_[s % p_.schedulers].finished(s / p_.schedulers);
    --warps_used_;
    Cta& c = cta_slots_[w.cta_slot];
    if (--c.warps_left) continue;
    c.live = false;
    c.kernel.reset();
    --ctas_;
    threads_ -= c.threads;
    shared_used_ -= c.shared;
    ++ctas_completed_;
    for (const CtaDone& f : cta_done_listeners_) f(*this, c.cta_id);
  }
}

bool SmCore::issue_ready(const Warp& w, uint64_t cycle, bool& mem_blocked) const {
  if (!w.live || !w.has_next || w.pending || w.start > cycle || w.ready_at > cycle) return false;
  if (w.next.is_memory() && !room_for(w.next_lines)) {
    mem_blocked = true;
    return false;
  }
  return true;
}

void SmCore::issue(unsigned slot, uint64_t cycle) {
  Warp& w = warps_[slot];
  const WarpInstr& in = w.next;
  const Cta& c = cta_slots_[w.cta_slot];
  ++warp_instr_;
  thread_instr_ += in.active_lanes();
  if (on_issue_) on_issue_(IssueEvent{cycle, slot, c.kernel_id, c.cta_id, in});
  w.ready_at = cycle + 1;
  if (!in.is_memory()) {
    w.ready_at = cycle + std::max<uint64_t>(1, in.compute_cycles);
  } else {
    const bool write = in.op == WarpInstr::Op::Store;
    const MemKind kind = in.op == WarpInstr::Op::Load ? MemKind::Read : write ? MemKind::Write : MemKind::Atomic;
    ++(in.op == WarpInstr::Op::Load ? loads_ : write ? stores_ : atomics_);
    coalescer_.coalesce(in, lines_);
    for (const LineRequest& r : lines_) {
      tlm::tlm_generic_payload& gp = pool_.acquire();
      unsigned char* const buf = gp.get_data_ptr();  // the pool's line-sized buffer
      gp.set_command(kind == MemKind::Read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
      gp.set_address(r.line);
      const unsigned len = write ? 4 * static_cast<unsigned>(__builtin_popcountll(r.word_mask)) : p_.line_bytes;
      gp.set_data_length(len);
      gp.set_streaming_width(len);
      gp.set_data_ptr(nullptr);
      if (write && store_data_) {
        pack_store_data(in, r, buf);
        gp.set_data_ptr(buf);
      }
      MemExt& e = *gp.get_extension<MemExt>();
      e.kind = kind;
      e.src = node_;
      e.warp = slot;
      e.pc = in.pc;
      e.sector_mask = r.sector_mask;
      e.word_mask = static_cast<uint32_t>(r.word_mask);
      e.kernel_id = c.kernel_id;
      e.cta_id = c.cta_id;
      e.t_issue = sc_core::sc_time_stamp();
      push_request(&gp);
    }
    line_requests_ += lines_.size();
    outstanding_ += lines_.size();
    if (!write) {
      if (w.pending == 0) trace_.begin("load wait", slot);
      w.pending += lines_.size();
    }
  }
  w.has_next = false;
  fetch(w);
}

void SmCore::pack_store_data(const WarpInstr& in, const LineRequest& r, unsigned char* buf) const {
  if (in.access_bytes != 4)
    error(name(), "store at pc ", "0x", std::hex, in.pc, std::dec, " writes ", unsigned(in.access_bytes),
          " bytes per lane: store data (set_store_data) is given for 4-byte stores only");
  uint32_t word[kWarpSize] = {};
  for (unsigned l = 0; l < kWarpSize; ++l) {
    if (!in.lane_active(l) || in.addr[l] / p_.line_bytes * p_.line_bytes != r.line) continue;
    if (in.addr[l] % 4)
      error(name(), "store at pc ", "0x", std::hex, in.pc, std::dec, " lane ", l, " writes the unaligned address ", "0x", std::hex, in.addr[l], std::dec,
            ": store data is given for 4-byte aligned words only");
    word[(in.addr[l] - r.line) / 4] = in.data[l];  // higher lanes last: the highest one wins
  }
  unsigned k = 0;
  for (unsigned w = 0; w < kWarpSize && w * 4 < p_.line_bytes; ++w)
    if ((r.word_mask >> w) & 1u) std::memcpy(buf + 4 * k++, &word[w], 4);
}

void SmCore::account_gap(uint64_t cycle) {
  if (last_tick_ == UINT64_MAX || cycle <= last_tick_ + 1 || gap_ == Gap::Idle) return;
  const uint64_t n = cycle - last_tick_ - 1;
  active_cycles_ += n;
  (gap_ == Gap::MemQueue ? stall_mem_queue_ : stall_all_waiting_) += n;
}

bool SmCore::tick(uint64_t cycle) {
  account_gap(cycle);
  last_tick_ = cycle;
  take_replies(cycle);
  send_one();
  retire(cycle);

  // Issue: each scheduler picks among its warps that are ready now.
  bool resident = false, issued = false, mem_blocked = false;
  for (const Warp& w : warps_) resident |= w.live && w.start <= cycle;
  if (resident) {
    for (unsigned s = 0; s < p_.schedulers; ++s) {
      uint64_t ready = 0;
      for (unsigned i = 0, slot = s; slot < warps_.size(); ++i, slot += p_.schedulers)
        if (issue_ready(warps_[slot], cycle, mem_blocked)) ready |= uint64_t{1} << i;
      const int pick = scheds_[s].pick(ready);
      if (pick < 0) continue;
      issue(static_cast<unsigned>(pick) * p_.schedulers + s, cycle);
      issued = true;
    }
    ++active_cycles_;
    ++(issued ? issue_cycles_ : mem_blocked ? stall_mem_queue_ : stall_all_waiting_);
  }

  // Next cycle with work; the cycles slept through until then count as gap_.
  uint64_t next = UINT64_MAX;
  if (q_size_ && !mem_out.busy()) next = cycle + 1;
  if (!inbox_.empty()) next = std::min(next, std::max(inbox_.front().first, cycle + 1));
  bool any_live = false, queue_held = false;
  for (const Warp& w : warps_) {
    if (!w.live) continue;
    any_live = true;
    if (w.pending) continue;  // a reply wakes us
    const uint64_t t = std::max({w.ready_at, w.start, cycle + 1});
    if (t == cycle + 1 && w.has_next && w.next.is_memory() && !room_for(w.next_lines)) {
      queue_held = true;  // mem_queue drains by sends (next cycle) or after mem_out's on_accept
      continue;
    }
    next = std::min(next, t);
  }
  gap_ = !any_live ? Gap::Idle : queue_held ? Gap::MemQueue : Gap::Waiting;
  if (next == cycle + 1) return true;
  if (next != UINT64_MAX) clk_.wake(*this, next);
  return false;
}

}  // namespace gpusc
