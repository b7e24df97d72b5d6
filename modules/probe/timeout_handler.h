// TimeoutHandler: the Timeout Handler of paper 000 §III-F with its Selective L2 Requests queue.
// Every read miss predicted shared also gets an L2 request, pushed here (push()). Per cycle only
// the head of the FIFO is checked: once it has waited `timeout` cycles (2048) it goes to the L2
// (it becomes the head of the selective-L2 class of the injection arbiter: l2_request() /
// l2_sent()). Early release: when two-level probing reports that every probe came back with no
// data and no candidate (release()), the request leaves the FIFO at once for the L2, unless its
// timeout already fired. A probe that brings the data first answers the load and its L2 request
// is never sent; a late probe reply racing an L2 reply: whichever comes first answers the load
// (Answer::Use), the other is dropped and counted (Answer::Drop). So every pushed request is
// answered exactly once and sent to the L2 at most once.
//
// Timing (cycles of clk): push() in cycle c (clk.now()) -> its timeout fires in the tick of
// cycle c + timeout, when it is the head; at most one timeout fires per cycle (the head only),
// so a request behind a head that fires in cycle x fires in x + 1 at the earliest. release()
// and the answers take effect at the call. The unit sleeps while the FIFO is empty and otherwise
// wakes only at the head's deadline (STYLE P8).
// Choices the paper left open:
//   * capacity (32, the MSHR size) bounds the requests tracked from push() until their load is
//     answered (§III-F: the handler tracks "up to 32 outstanding requests, which is the MSHR
//     size", so an entry lives as long as its miss's MSHR: when a probe answers a request whose
//     L2 copy is already on its way, the entry is freed at once and the L2 reply, recognised by
//     its group id, is dropped when it comes; until 2026-12 the entry was held until then, so
//     slow L2 replies kept shared misses from being probed); push() when full() is an error:
//     the caller sends that miss as non-shared instead;
//   * entries removed early (answered by a probe, released) leave a hole that the head pointer
//     skips in the same cycle, without using up that cycle's check;
//   * probe data arriving while the request waits for injection to the L2 (timed out, not yet
//     sent) cancels the L2 send (l2_cancelled);
//   * a reply for a request no longer tracked: probe data is dropped and counted (a late reply
//     after the L2 answered); an L2 reply is a protocol error (nothing was sent for it).
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include <systemc>

#include "common/clock_domain.h"
#include "common/params.h"
#include "common/stats.h"

namespace gpusc::probe {

class TimeoutHandler : public sc_core::sc_module, private Tickable {
 public:
  struct Params {
    uint64_t timeout = 2048;  // cycles a selective L2 request waits for its probes (000 §III-F: 2048)
    unsigned capacity = 32;   // requests tracked (000 §III-F: 32, the MSHR size)
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(timeout, 1, uint64_t{1} << 40, "selective L2 request timeout [core cycles] (000 §III-F: 2048)");
      GPUSC_PARAM_R(capacity, 1, 4096, "selective L2 requests tracked [count] (000 §III-F: 32)");
    }
  };
  enum class Answer { Use, Drop };

  TimeoutHandler(sc_core::sc_module_name name, const Params& p, ClockDomain& clk);
  TimeoutHandler(const TimeoutHandler&) = delete;
  TimeoutHandler& operator=(const TimeoutHandler&) = delete;

  // A read miss of request `group` was predicted shared and probed, now.
  void push(uint32_t group);
  // Every probe of `group` came back with no data and no candidate: early release.
  void release(uint32_t group);
  // A probe brought the data of `group` / the L2 answered `group`: use the reply or drop it.
  Answer probe_data(uint32_t group);
  Answer l2_reply(uint32_t group);
  // Selective L2 requests ready for injection (timed out or released), oldest first.
  bool has_l2_request() const { return !l2_.empty(); }
  uint32_t l2_request() const;
  void l2_sent();  // the injection arbiter sent l2_request() to the L2
  // Called with the request's group when it becomes ready for the L2 (so its injector can wake).
  void on_l2_ready(std::function<void(uint32_t)> f) { on_l2_ready_ = std::move(f); }

  const Params& params() const { return p_; }
  bool full() const { return reqs_.size() >= p_.capacity; }
  size_t tracked() const { return reqs_.size(); }
  size_t l2_replies_due() const { return l2_due_.size(); }  // to be dropped, not tracked
  size_t queued() const;  // in the Selective L2 Requests FIFO (waiting for timeout/release)
  uint64_t timeouts() const { return timeouts_.value(); }
  uint64_t early_releases() const { return releases_.value(); }
  uint64_t l2_sends() const { return l2_sends_.value(); }
  uint64_t l2_cancelled() const { return cancelled_.value(); }
  uint64_t probe_answers() const { return probe_answers_.value(); }
  uint64_t l2_answers() const { return l2_answers_.value(); }
  uint64_t dropped_probe_replies() const { return dropped_probe_.value(); }
  uint64_t dropped_l2_replies() const { return dropped_l2_.value(); }

 private:
  enum class St { Queued, L2Ready, L2Sent };
  struct Req {
    St st;
    uint64_t deadline;
  };
  bool tick(uint64_t cycle) override;
  void to_l2(uint32_t group, Req& r);
  void drop_stale_heads();

  const Params p_;
  ClockDomain& clk_;
  std::unordered_map<uint32_t, Req> reqs_;
  std::deque<uint32_t> fifo_;  // Selective L2 Requests, push order; entries not Queued are holes
  std::deque<uint32_t> l2_;    // ready for the L2, not yet sent
  std::unordered_set<uint32_t> l2_due_;  // answered by a probe, their L2 reply still to drop
  std::function<void(uint32_t)> on_l2_ready_;
  StatGroup stats_;
  Counter &pushed_, &timeouts_, &releases_, &l2_sends_, &cancelled_, &probe_answers_, &l2_answers_, &dropped_probe_,
      &dropped_l2_;
};

}  // namespace gpusc::probe
