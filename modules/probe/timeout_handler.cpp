#include "probe/timeout_handler.h"

#include <algorithm>

#include "common/report.h"

namespace gpusc::probe {

TimeoutHandler::TimeoutHandler(sc_core::sc_module_name name, const Params& p, ClockDomain& clk)
    : sc_core::sc_module(name),
      p_(p),
      clk_(clk),
      pushed_(stats_.counter("selective_requests", Unit::Count, "read misses predicted shared (selective L2 requests)")),
      timeouts_(stats_.counter("timeouts", Unit::Count, "selective L2 requests sent to the L2 by timeout")),
      releases_(stats_.counter("early_releases", Unit::Count, "selective L2 requests released early (all probes failed)")),
      l2_sends_(stats_.counter("l2_sends", Unit::Count, "selective L2 requests injected to the L2")),
      cancelled_(stats_.counter("l2_cancelled", Unit::Count, "L2 sends cancelled: probe data came before injection")),
      probe_answers_(stats_.counter("probe_answers", Unit::Count, "loads answered by a remote L1")),
      l2_answers_(stats_.counter("l2_answers", Unit::Count, "selective requests answered by the L2")),
      dropped_probe_(stats_.counter("dropped_probe_replies", Unit::Count, "late probe data dropped: the L2 answered first")),
      dropped_l2_(stats_.counter("dropped_l2_replies", Unit::Count, "L2 replies dropped: probe data answered first")) {
  validate(p_, std::string(this->name()));
  stats_.invariant("every selective request is answered once or still waits: selective_requests == probe_answers + "
                   "l2_answers + unanswered",
                   [this] {
                     return pushed_.value() == probe_answers_.value() + l2_answers_.value() + reqs_.size();
                   });
  stats_.invariant("l2_sends == timeouts + early_releases - l2_cancelled - ready", [this] {
    return l2_sends_.value() + cancelled_.value() + l2_.size() == timeouts_.value() + releases_.value();
  });
}

size_t TimeoutHandler::queued() const {
  size_t n = 0;
  for (uint32_t g : fifo_) {
    auto it = reqs_.find(g);
    n += it != reqs_.end() && it->second.st == St::Queued;
  }
  return n;
}

void TimeoutHandler::push(uint32_t group) {
  if (full())
    error(name(), "push of request ", group, ": ", reqs_.size(), " selective L2 requests are already tracked (capacity ",
          p_.capacity, "); check full() and send the miss as non-shared");
  const uint64_t deadline = clk_.now() + p_.timeout;
  if (!reqs_.emplace(group, Req{St::Queued, deadline}).second)
    error(name(), "push of request ", group, ": it is already tracked");
  fifo_.push_back(group);
  ++pushed_;
  clk_.wake(*this, deadline);
}

void TimeoutHandler::to_l2(uint32_t group, Req& r) {
  r.st = St::L2Ready;
  l2_.push_back(group);
  if (on_l2_ready_) on_l2_ready_(group);
}

void TimeoutHandler::drop_stale_heads() {
  while (!fifo_.empty()) {
    auto it = reqs_.find(fifo_.front());
    if (it != reqs_.end() && it->second.st == St::Queued) break;
    fifo_.pop_front();
  }
}

bool TimeoutHandler::tick(uint64_t cycle) {
  drop_stale_heads();
  if (fifo_.empty()) return false;
  const uint32_t g = fifo_.front();
  Req& r = reqs_.at(g);
  if (r.deadline > cycle) {
    clk_.wake(*this, r.deadline);
    return false;
  }
  fifo_.pop_front();
  ++timeouts_;
  to_l2(g, r);
  drop_stale_heads();
  if (fifo_.empty()) return false;
  const uint64_t next = reqs_.at(fifo_.front()).deadline;
  if (next <= cycle + 1) return true;
  clk_.wake(*this, next);
  return false;
}

void TimeoutHandler::release(uint32_t group) {
  auto it = reqs_.find(group);
  if (it == reqs_.end() || it->second.st != St::Queued) return;  // already at the L2 or answered
  ++releases_;
  to_l2(group, it->second);
}

uint32_t TimeoutHandler::l2_request() const {
  if (l2_.empty()) error(name(), "l2_request(): no selective L2 request is ready");
  return l2_.front();
}

void TimeoutHandler::l2_sent() {
  const uint32_t g = l2_request();
  l2_.pop_front();
  reqs_.at(g).st = St::L2Sent;
  ++l2_sends_;
}

TimeoutHandler::Answer TimeoutHandler::probe_data(uint32_t group) {
  auto it = reqs_.find(group);
  if (it == reqs_.end()) {
    ++dropped_probe_;
    return Answer::Drop;
  }
  switch (it->second.st) {
    case St::Queued:
      reqs_.erase(it);  // its FIFO slot becomes a hole
      break;
    case St::L2Ready:
      l2_.erase(std::find(l2_.begin(), l2_.end(), group));
      ++cancelled_;
      reqs_.erase(it);
      break;
    case St::L2Sent:  // its MSHR is freed now; the L2 reply will be dropped
      l2_due_.insert(group);
      reqs_.erase(it);
      break;
  }
  ++probe_answers_;
  return Answer::Use;
}

TimeoutHandler::Answer TimeoutHandler::l2_reply(uint32_t group) {
  if (l2_due_.erase(group)) {  // a probe answered it first
    ++dropped_l2_;
    return Answer::Drop;
  }
  auto it = reqs_.find(group);
  if (it == reqs_.end() || it->second.st == St::Queued || it->second.st == St::L2Ready)
    error(name(), "L2 reply for request ", group, ", which was not sent to the L2");
  reqs_.erase(it);
  ++l2_answers_;
  return Answer::Use;
}

}  // namespace gpusc::probe
