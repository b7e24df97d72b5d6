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
  Router* router_up = nullptr;
  Router* router_down = nullptr;

  void send(Flit f, uint64_t usable_at) {
    f.ready = usable_at;
    ++flits;
    down->receive_flit(down_port, f);
  }
  void credit(unsigned vc, uint64_t sent_at) { up->receive_credit(up_port, vc, sent_at + credit_latency); }
};

}  // namespace gpusc::noc
