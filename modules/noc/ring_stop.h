// RingStop: one stop of a bidirectional ring of blocks (GPU modules, GPUs), for one traffic class
// (DESIGN §4, §6). Paper 003 §3.2 and Table 3: the GPMs of an MCM-GPU are joined by a ring of
// inter-GPM links (768 GB/s, 32 cycles per hop); a message for a GPM two hops away passes through
// the GPM between, and this unit is where it does so without entering that GPM's network. A ring
// of N blocks has N stops per class; stop s is joined to stop s+1 (mod N) by a link (in gpusc a
// noc::BandwidthLink per class) bound to_next -> link -> from_prev of s+1, and back from_next <-
// link <- to_prev of s+1. The block's boundary port of the class is bound to local_in / local_out.
//
//          local_in    local_out          (the block's boundary, or a cache on its path)
//              |          ^
//   from_prev --> [ 3 input queues ] --> to_next     (clockwise: stop s -> s+1)
//   to_prev   <-- [ 3 outputs, RR  ] <-- from_next   (counter-clockwise: s+1 -> s)
//
// Routing: by destination stop, stop_of(MemExt::dst) (a platform id, gpu/node_numbering.h; the
// stop is the block that owns the id). At stop `here` a message for stop d != here goes
// clockwise or counter-clockwise by route(here, d, N): the direction whose path does not pass
// THROUGH stop 0 (the dateline: a message may start or end at stop 0, never transit it), else
// the shorter one, clockwise on a tie. The rule depends on (here, d) only and is consistent along
// a path (a message never turns), so nothing is carried in the message. On 4 stops: 1->3 goes
// 1-2-3, 3->1 goes 3-2-1, 0->2 goes 0-1-2, 2->0 goes 2-3-0; every other pair is one hop.
// A message for `here` arriving on local_in (it never left its block) and a multicast message
// (MemExt::dests) are errors.
//
// Deadlock freedom (per class; the two classes use separate stops and links, and a reply never
// waits for a request: the sinks of replies, L1s and caches' fill paths, always drain): a message
// holds a slot of one input queue (or of a link's buffer, which delivers in order) and waits for
// one output. The channels of one direction form a ring; the only way around it is to transit
// every stop, and no message transits stop 0, so the clockwise channel-dependency graph has no
// edge (s-1 -> 0) -> (0 -> 1) and the counter-clockwise one none through 0 either: both are
// paths, acyclic. Directions never mix (a message never turns) and local_out is a sink. With
// finite buffers and acyclic dependencies every message eventually moves (Dally & Seitz). Cost:
// on rings of 5 or more stops some pairs take the longer way round (never on the paper's 4).
// Why not two dateline buffer classes: a BandwidthLink is one in-order channel per direction;
// avoiding the transit keeps one.
//
// Timing, in cycles of the stop's clock: a message taken in cycle a is latched in a + 1 and
// offered on its output from cycle a + latency (latency >= 1). Each output sends at most one
// message per cycle, choosing round-robin among the inputs whose head message is due and wants
// it (local_in, from_prev, from_next); a head waiting for a busy output blocks its queue (FIFO per
// input). An input queue holds `queue` messages from acceptance until they are offered; a full
// queue withholds END_REQ from the sender; an output whose receiver withholds END_REQ sends
// nothing until it is taken. Ticks only while a message is due or waiting for a free output.
// Choices left open (by paper 003): bidirectional ring, full duplex links, shortest path with
// the stop-0 dateline rule above; a stop forwards in 1 cycle (latency = 1) of the GPM fabric
// clock; queue = 4 messages per input.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <string>

#include "common/clock_domain.h"
#include "common/msg_port.h"
#include "common/params.h"
#include "common/stats.h"

namespace gpusc::noc {

class RingStop : public sc_core::sc_module, private Tickable {
 public:
  struct Params {
    unsigned latency = 1;  // acceptance to offer on the output [cycles]
    unsigned queue = 4;    // messages per input, acceptance to offered
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(latency, 1, 1000000, "cycles from taking a message to offering it on its output [cycles]");
      GPUSC_PARAM_R(queue, 1, 65536,
                    "messages per input queue, from acceptance until offered (full: END_REQ withheld); full rate "
                    "needs queue >= latency");
    }
  };
  enum Port : unsigned { kLocal = 0, kNext = 1, kPrev = 2 };  // outputs: local_out, to_next, to_prev
  // Inputs by the same index: local_in, from_prev (travelling towards next), from_next.
  // A platform id -> the stop (block) that owns it.
  using StopOf = std::function<unsigned(unsigned id)>;

  MsgIn local_in{"local_in"};    // from the block: messages leaving it
  MsgOut local_out{"local_out"}; // to the block: messages for it
  MsgIn from_prev{"from_prev"};  // from stop here-1, travelling clockwise
  MsgOut to_next{"to_next"};     // to stop here+1
  MsgIn from_next{"from_next"};  // from stop here+1, travelling counter-clockwise
  MsgOut to_prev{"to_prev"};     // to stop here-1

  RingStop(sc_core::sc_module_name name, const Params& p, ClockDomain& clk, unsigned here, unsigned stops,
           StopOf stop_of);
  RingStop(const RingStop&) = delete;
  RingStop& operator=(const RingStop&) = delete;

  // The output a message for stop `dst` takes at stop `here` of `stops` (the rule above).
  static Port route(unsigned here, unsigned dst, unsigned stops);
  // Messages sent on output o so far; messages held in input i's queue.
  uint64_t sent(Port o) const { return out_[o].messages.value(); }
  size_t occupancy(Port i) const { return in_[i].q.size(); }

 private:
  struct Entry {
    tlm::tlm_generic_payload* gp;
    uint64_t due;
    Port out;
  };
  struct Input {
    MsgIn* port;
    std::deque<Entry> q;
    Counter& refused;
  };
  struct Output {
    MsgOut* port;
    bool held = false;  // the last message's END_REQ is withheld by the receiver
    unsigned rr = 0;    // input to look at first
    Counter& messages;
  };
  bool accept(unsigned i, tlm::tlm_generic_payload& gp);
  bool tick(uint64_t cycle) override;

  const Params p_;
  ClockDomain& clk_;
  const unsigned here_, stops_;
  StopOf stop_of_;
  StatGroup stats_;
  Input in_[3];
  Output out_[3];
};

}  // namespace gpusc::noc
