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

// Mail between ClockDomain lanes: a flit or a credit sent over a link whose ends tick in
// different lanes. During an edge the sending lane appends it to the mailbox of (its lane, the
// receiving lane, half clk->exchange_half()); at the start of the next edge the receiving lane
// delivers the other half, in the order sent (Network). Flits and credits are usable two
// cycles or more after they are sent, so they arrive in time. One mailbox per pair of lanes and
// half: its entries lie one after another, and one line holds the vector's bounds.
struct FlitLink;
struct LaneMail {
  FlitLink* link;
  bool credit;  // a credit for link->up (VC flit.vc, usable at flit.ready), else a flit for link->down
  Flit flit;
};
struct alignas(64) LaneMailbox {
  std::vector<LaneMail> mail;
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
  // takes a direct, non-virtual call. Same effect as through up / down. (Not set between lanes.)
  Router* router_up = nullptr;
  Router* router_down = nullptr;
  // Between lanes: the mailboxes (two halves each) for flits down and credits up, and the domain.
  LaneMailbox* mail_down = nullptr;
  LaneMailbox* mail_up = nullptr;
  ClockDomain* clk = nullptr;
  void send(Flit f, uint64_t usable_at) {
    f.ready = usable_at;
    ++flits;
    if (mail_down) post(mail_down, false, f);
    else down->receive_flit(down_port, f);
  }
  void credit(unsigned vc, uint64_t sent_at) {
    if (mail_up) post_credit(vc, sent_at + credit_latency);
    else up->receive_credit(up_port, vc, sent_at + credit_latency);
  }
  // Delivers one piece of mail (by the receiving lane, at the start of the next edge).
  void deliver(const LaneMail& m) const {
    if (m.credit) up->receive_credit(up_port, m.flit.vc, m.flit.ready);
    else down->receive_flit(down_port, m.flit);
  }

 private:
  // Out of line: only the few links between lanes take these. A multicast head's destination set
  // is not carried (Network keeps multicast off lanes).
  [[gnu::noinline]] void post(LaneMailbox* box, bool is_credit, const Flit& f) {
    box[clk->exchange_half()].mail.push_back(LaneMail{this, is_credit, f});
    clk->exchanged();
  }
  [[gnu::noinline]] void post_credit(unsigned vc, uint64_t ready) {
    Flit f;
    f.vc = static_cast<uint8_t>(vc);
    f.ready = ready;
    post(mail_up, true, f);
  }
};

}  // namespace gpusc::noc
