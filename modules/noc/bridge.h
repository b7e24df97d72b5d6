// Bridge: joins two networks that number their nodes differently (DESIGN §6). A message entering
// on a_in (from network A) leaves on b_out with its node ids rewritten from A's numbering into
// B's, and b_in -> a_out the other way. Paper 003 §3.2: each GPM's GPM-Xbar connects its SMs and
// memory partition to the on-package ring, so a GPM network and the ring (or a global numbering)
// meet at such a port; paper 004 §2: the RDMA engine joins a GPU's network to the inter-GPU
// fabric. Bandwidth and wire latency between blocks are a BandwidthLink's job; the bridge is the
// numbering change plus a small pipeline with back-pressure.
//
// Rewritten fields: MemExt::src, MemExt::dst and every member of MemExt::dests, each through the
// direction's IdMap (a function, or Bridge::table of a map). An id the map leaves out is an
// error naming the id, the field, the port and the bridge. Replies find their way back only if
// the two maps are inverse on the ids that cross; that is the user's to guarantee (not checked).
// Timing, per direction, in cycles of the bridge's clock: a message taken in cycle a is offered
// on the far side in cycle a + latency (latency >= 1: it is latched in a + 1); one message per
// cycle per direction, in order. It holds one of `queue` entries from acceptance until the far
// side takes it (END_REQ); a full queue withholds END_REQ from the sender, a receiver that
// withholds one blocks those behind it. Full rate needs queue >= latency. Ticks only while a
// message is due or waiting to be offered.
// Choices left open (by the papers and the issue):
//   * ids are rewritten when the message is taken (errors surface at the sender's call), in place
//     in the payload. A payload with more than one reference (a multicast delivery shared with
//     other receivers, which read it) is an error rather than a silent change under them.
//   * MemExt::probe_origin is left as it is: probes are a mechanism inside one network (paper 000).
//   * latency = 1, queue = 4: a registered port.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "common/clock_domain.h"
#include "common/msg_port.h"
#include "common/params.h"
#include "common/stats.h"

namespace gpusc::noc {

class Bridge : public sc_core::sc_module, private Tickable {
 public:
  struct Params {
    unsigned latency = 1;  // acceptance to offer on the far side [cycles]
    unsigned queue = 4;    // messages per direction, acceptance to taken by the far side
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(latency, 1, 1000000, "cycles from taking a message to offering it on the other side [cycles]");
      GPUSC_PARAM_R(queue, 1, 65536,
                    "messages per direction held from acceptance until the other side takes them (full: END_REQ "
                    "withheld); full rate needs queue >= latency");
    }
  };
  // A node id of one numbering into the other; std::nullopt: the id has no counterpart.
  using IdMap = std::function<std::optional<unsigned>(unsigned)>;
  static IdMap table(std::map<unsigned, unsigned> t);

  MsgIn a_in{"a_in"};     // from network A (A's numbering)
  MsgOut a_out{"a_out"};  // to network A
  MsgIn b_in{"b_in"};     // from network B (B's numbering)
  MsgOut b_out{"b_out"};  // to network B

  Bridge(sc_core::sc_module_name name, const Params& p, ClockDomain& clk, IdMap a_to_b, IdMap b_to_a);
  Bridge(const Bridge&) = delete;
  Bridge& operator=(const Bridge&) = delete;

  enum Dir : unsigned { kAtoB = 0, kBtoA = 1 };
  size_t occupancy(Dir d) const { return dir_[d].q.size() + (dir_[d].held ? 1 : 0); }
  uint64_t forwarded(Dir d) const { return dir_[d].messages.value(); }

 private:
  struct Entry {
    tlm::tlm_generic_payload* gp;
    uint64_t accepted, due;
  };
  struct Way {
    MsgIn* in;
    MsgOut* out;
    IdMap map;
    const char* from;     // "A" / "B": the numbering messages arrive in
    std::deque<Entry> q;  // taken, not yet offered
    bool held = false;    // the last offered message's END_REQ is withheld
    Counter &messages, &refused;
    Average& latency;
    Way(MsgIn* i, MsgOut* o, IdMap m, const char* f, StatGroup& s, const std::string& n);
  };

  bool accept(Way& w, tlm::tlm_generic_payload& gp);
  unsigned map_id(const Way& w, unsigned id, const char* field) const;
  bool tick(uint64_t cycle) override;

  const Params p_;
  ClockDomain& clk_;
  StatGroup stats_;
  Way dir_[2];  // [kAtoB], [kBtoA]
};

}  // namespace gpusc::noc
