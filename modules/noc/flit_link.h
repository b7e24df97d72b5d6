// FlitLink: the light channel between two NoC units (router <-> router, NI <-> router).
// It is not a SystemC channel: the sender writes the flit straight into the receiver's input
// buffer stamped with the first cycle it may be used (send cycle + traversal), and credits go
// back the same way. Credit-based flow control guarantees the receiver has room, so the
// link itself holds no state and costs nothing when idle.
// Timing convention (shared with Router and NetworkInterface): a flit that a router switches
// (ST) in cycle x over a link of latency L is usable downstream in cycle x + L + 1; a credit
// sent in cycle x is usable upstream in cycle x + credit_latency.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "common/clock_domain.h"
#include "noc/flit.h"

namespace gpusc::noc {

class Router;

// Implemented by everything that has NoC input or output ports (routers, NIs).
class FlitPortOwner {
 public:
  virtual ~FlitPortOwner() = default;
  virtual void receive_flit(unsigned in_port, const Flit& f) = 0;                  // f.ready set
  virtual void receive_credit(unsigned out_port, unsigned vc, uint64_t ready) = 0;
};

// Flits and credits sent over a link whose ends tick in different ClockDomain lanes (see
// ClockDomain, lanes): the sender fills half clk->exchange_half() during an edge; at the start
// of the next edge the receiving lanes take the other half (flits downstream, credits upstream),
// in the order sent. Both are usable two cycles or more after they are sent, so they arrive in
// time.
struct LinkOutbox {
  struct Held {
    Flit flit;
    DestSet dests;  // a multicast head's set, copied: the sender's copy may change before hand-over
  };
  struct Half {
    std::vector<Held> flits;
    std::vector<std::pair<unsigned, uint64_t>> credits;  // (vc, cycle usable upstream)
  };
  ClockDomain* clk = nullptr;
  Half half[2];
};

struct FlitLink {
  FlitPortOwner* up = nullptr;    // sender of flits, receiver of credits
  unsigned up_port = 0;
  FlitPortOwner* down = nullptr;  // receiver of flits, sender of credits
  unsigned down_port = 0;
  unsigned latency = 1;           // flit traversal [cycles]
  unsigned credit_latency = 1;    // credit return [cycles]
  uint64_t flits = 0;             // flits carried (link utilisation)
  // Set by the routers at either end (connect_in / connect_out): router to router traffic then
  // takes a direct, non-virtual call. Same effect as through up / down.
  // (Not set on a link with an outbox.)
  Router* router_up = nullptr;
  Router* router_down = nullptr;
  LinkOutbox* outbox = nullptr;  // set when the ends are in different lanes
  void send(Flit f, uint64_t usable_at) {
    f.ready = usable_at;
    ++flits;
    if (outbox) hold(f);
    else down->receive_flit(down_port, f);
  }
  void credit(unsigned vc, uint64_t sent_at) {
    if (outbox) hold_credit(vc, sent_at + credit_latency);
    else up->receive_credit(up_port, vc, sent_at + credit_latency);
  }
  // The mail of the previous edge (run by the receiving lane at the start of an edge).
  void deliver_flits() {
    auto& held = outbox->half[outbox->clk->exchange_half() ^ 1].flits;
    for (LinkOutbox::Held& h : held) {
      if (h.flit.head() && h.flit.dest == kMultiDest) h.flit.dests = &h.dests;
      down->receive_flit(down_port, h.flit);
    }
    held.clear();
  }
  void deliver_credits() {
    auto& held = outbox->half[outbox->clk->exchange_half() ^ 1].credits;
    for (const auto& [vc, ready] : held) up->receive_credit(up_port, vc, ready);
    held.clear();
  }

 private:
  // Out of line: only the few links between lanes take these.
  [[gnu::noinline]] void hold(const Flit& f) {
    LinkOutbox::Held& h = outbox->half[outbox->clk->exchange_half()].flits.emplace_back();
    h.flit = f;
    if (f.head() && f.dest == kMultiDest) h.dests = *f.dests;
    outbox->clk->exchanged();
  }
  [[gnu::noinline]] void hold_credit(unsigned vc, uint64_t ready) {
    outbox->half[outbox->clk->exchange_half()].credits.emplace_back(vc, ready);
    outbox->clk->exchanged();
  }
};

}  // namespace gpusc::noc
