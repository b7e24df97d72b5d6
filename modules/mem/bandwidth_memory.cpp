#include "mem/bandwidth_memory.h"

#include "mem/memory_request.h"

#include <algorithm>

#include "common/report.h"

namespace gpusc {

BandwidthMemory::BandwidthMemory(sc_core::sc_module_name name, const Params& p, ClockDomain& clk)
    : sc_core::sc_module(name),
      p_(p),
      clk_(clk),
      local_([](uint64_t a) { return a; }),
      reads_(stats_.counter("reads", Unit::Count, "reads served (transfer started)")),
      writes_(stats_.counter("writes", Unit::Count, "writes served (transfer started)")),
      bytes_(stats_.counter("bytes", Unit::Bytes, "bytes moved by the data channel (rounded to access_bytes)")),
      queue_full_(stats_.counter("queue_full", Unit::Count, "requests refused because the queue was full")),
      queue_full_cycles_(stats_.counter("queue_full_cycles", Unit::Cycles,
                                        "cycles refused requests waited at `in` until taken")),
      latency_(stats_.average("latency", Unit::Cycles, "acceptance to reply (read) or release (write) [cycles]")),
      read_latency_(stats_.average("read_latency", Unit::Cycles, "read acceptance to reply [cycles]")) {
  validate(p_, this->name());
  stats_.derived("bandwidth_utilization", Unit::Ratio, "bytes / (bytes_per_cycle x elapsed cycles)", [this] {
    const uint64_t now = clk_.now();
    return now ? static_cast<double>(bytes_.value()) / (static_cast<double>(p_.bytes_per_cycle) * now) : 0.0;
  });
  stats_.invariant("requests taken == reads + writes + queued", [this] {
    return in.received() - (in.has_pending() ? 1 : 0) == reads_.value() + writes_.value() + queue_.size();
  });
  in.set_accept([this](tlm::tlm_generic_payload& gp) { return accept(gp); });
  in.set_b_transport([this](tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
    MemExt& e = checked_memory_request(gp, this->name(), p_.line_bytes);
    if (e.kind == MemKind::Read) e.is_reply = true;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  });
  out.on_accept([this] { clk_.wake_after_now(*this); });
}

unsigned BandwidthMemory::moved_bytes(const tlm::tlm_generic_payload& gp) const {
  const unsigned units = std::max(1u, (gp.get_data_length() + p_.access_bytes - 1) / p_.access_bytes);
  return units * p_.access_bytes;
}

bool BandwidthMemory::accept(tlm::tlm_generic_payload& gp) {
  const MemExt& e = checked_memory_request(gp, this->name(), p_.line_bytes);
  const uint64_t now = clk_.now();
  if (queue_.size() >= p_.queue) {
    if (blocked_since_ == UINT64_MAX) {  // first refusal of this request (a retry may refuse again)
      blocked_since_ = now;
      ++queue_full_;
    }
    return false;
  }
  if (blocked_since_ != UINT64_MAX) {
    queue_full_cycles_ += now - blocked_since_;
    blocked_since_ = UINT64_MAX;
  }
  const uint64_t latch = clk_.cycle_after(sc_core::sc_time_stamp());
  queue_.push_back(Req{&gp, now, latch, e.kind == MemKind::Write});
  clk_.wake(*this, latch);
  return true;
}

bool BandwidthMemory::tick(uint64_t cycle) {
  start(cycle);
  retire(cycle);
  if (out.busy()) return false;  // a withheld reply stops everything; on_accept wakes us
  uint64_t next = UINT64_MAX;
  if (!flight_.empty()) next = flight_.front().at;
  if (!queue_.empty()) next = std::min(next, std::max(queue_.front().at, ch_cycle_));
  if (next == UINT64_MAX) return false;
  next = std::max(next, cycle + 1);
  if (next == cycle + 1) return true;
  clk_.wake(*this, next);
  return false;
}

// Starts the transfers of latched requests while the data channel has room in this cycle.
void BandwidthMemory::start(uint64_t cycle) {
  if (out.busy()) return;  // the reply pipeline is stalled
  if (ch_cycle_ < cycle) {
    ch_cycle_ = cycle;
    ch_used_ = 0;
  }
  bool started = false;
  while (!queue_.empty() && queue_.front().at <= cycle && ch_cycle_ == cycle) {
    Req r = queue_.front();
    queue_.pop_front();
    const unsigned a = moved_bytes(*r.gp);
    const uint64_t used = uint64_t{ch_used_} + a;
    ch_cycle_ = cycle + used / p_.bytes_per_cycle;
    ch_used_ = static_cast<unsigned>(used % p_.bytes_per_cycle);
    r.at = cycle + (used - 1) / p_.bytes_per_cycle + p_.latency;
    ++(r.write ? writes_ : reads_);
    bytes_ += a;
    flight_.push_back(r);
    started = true;
  }
  if (started) in.retry();  // a withheld request may take a freed entry (latched next cycle)
}

// Completed requests leave in order: reads as replies, writes released.
void BandwidthMemory::retire(uint64_t cycle) {
  while (!flight_.empty() && flight_.front().at <= cycle && !out.busy()) {
    const Req r = flight_.front();
    flight_.pop_front();
    latency_.add(static_cast<double>(cycle - r.accepted));
    if (r.write) {
      r.gp->release();
      continue;
    }
    read_latency_.add(static_cast<double>(cycle - r.accepted));
    r.gp->get_extension<MemExt>()->is_reply = true;
    r.gp->set_response_status(tlm::TLM_OK_RESPONSE);
    out.send(*r.gp);  // handed over even if the L2 withholds END_REQ
  }
}

}  // namespace gpusc
