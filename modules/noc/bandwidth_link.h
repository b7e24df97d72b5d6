// BandwidthLink: a point-to-point, full-duplex link between two blocks (GPM to GPM, GPU to GPU)
// carrying gpusc messages, modelled as bandwidth + latency + credits (DESIGN §4). Side A hands
// messages to a_in and receives on a_out; side B the same with b_in / b_out. Paper 003 §3.2-3.3
// and Table 3: inter-GPM ring links of 768 GB/s and 32 cycles per hop at 1 GHz (the hop includes
// getting to the die edge, SerDes and the wire). Paper 004 §5 Table 1: a PCIe-4-like inter-GPU
// fabric of 64 GB/s with 16 B flits (MGPUSim at 1 GHz: 64 B per cycle; no link latency given).
// The defaults are paper 003's link; 004's is bytes_per_cycle 64, flit_bytes 16.
// Size: a message of D data bytes is header_bytes + D bytes, D by the NI's rule
// (wire_data_bytes, common/mem_ext.h: the payload length, or MemExt::wire_bytes when set, for
// write/atomic requests and read/atomic/probe replies); rounded up to whole flits, at least one.
// Timing, per direction, in cycles of the link's clock (W = wire bytes, R = bytes_per_cycle,
// L = latency):
//   * a message handed over in cycle a is latched in a + 1, the first cycle it may serialize;
//   * the serializer sends R bytes per cycle, messages in arrival order; a message starts when it
//     is the oldest latched one, the serializer has room in the cycle and the far receive buffer
//     has W bytes of credit. Started in cycle s with u bytes of s already used (pack), its last
//     byte leaves in e = s + (u + W - 1) / R; it reaches the far buffer and is offered on the
//     far side's out port in cycle e + L. Idle: a + ceil(W / R) + L.
//   * credits: W bytes of the far buffer are taken when a message starts and freed in the cycle
//     f its receiver takes it (a withheld END_REQ: the cycle the receiver ends it); the
//     transmitter may use them from f + 1 + L (latched, then back over the wire). Full rate thus
//     needs rx_buffer_bytes of about R x (2L + 1) plus two messages (003: 48.7 KB).
//   * back-pressure: a full tx queue withholds END_REQ on the input port; messages leave the far
//     side in order, one withheld by the receiver blocks those behind it. The link ticks only at
//     cycles where a message can start or arrive, or a credit a waiting message needs returns.
// Choices the papers left open:
//   * pack = true: messages share a cycle's bytes, so a stream of any message size reaches R
//     exactly (a 136 B message on a 768 B/cycle link would otherwise waste 632 B of its cycle);
//     pack = false: every message starts a fresh cycle and occupies ceil(W / R) of them.
//   * latency = 31 so that a message of up to 768 B crosses in 1 + 31 = 32 cycles, paper 003's
//     per-hop figure, which includes serialization.
//   * header_bytes = 8 as the NI's; flit_bytes = 1 (003 gives no flit size); credits in bytes;
//     credits ride back for free (no reverse bandwidth); no error or retry model.
// Message classes (classes > 1): one wire per direction carrying several classes (requests and
// replies over one PCIe link, 004 §5: MGPUSim's endpoint puts every message of a GPU on one
// serializer). Each class has its own ports, tx queue and receive buffer, so its own credits:
// a class whose receiver withholds a message, or whose credits are used up, never blocks
// another (no class can deadlock another through the link). The serializer is shared: in each
// cycle it starts messages in the order they were accepted, over all classes whose head is
// latched and has credit (MGPUSim's endpoint is one first-in first-out queue); messages accepted
// in the same cycle go round-robin over the classes, starting after the last class served.
// Class 0's ports are a_in / a_out / b_in / b_out; class c's are in(kSideA, c) ... With one class
// the link is exactly the one described above. Statistics: a_to_b.* and b_to_a.* are the totals
// of a direction; with classes > 1 each class adds a_to_b.class<c>.{messages,bytes,refused}.
#pragma once
#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "common/clock_domain.h"
#include "common/msg_port.h"
#include "common/params.h"
#include "common/stats.h"

namespace gpusc::noc {

class BandwidthLink : public sc_core::sc_module, private Tickable {
 public:
  struct Params {
    unsigned bytes_per_cycle = 768;    // per direction [B/cycle] (003 Table 3: 768 GB/s at 1 GHz)
    unsigned latency = 31;             // after serialization [cycles] (003: 32 cycles/hop with SerDes)
    unsigned header_bytes = 8;         // added to every message [bytes] (the NI's)
    unsigned flit_bytes = 1;           // transfer unit [bytes] (004 Table 1: 16)
    unsigned rx_buffer_bytes = 65536;  // receive buffer per direction = its credits [bytes]
    unsigned tx_queue = 4;             // messages per direction waiting to serialize
    bool pack = true;                  // messages share a cycle's bytes
    unsigned classes = 1;              // message classes sharing the serializer, credits each
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(bytes_per_cycle, 1, 65536,
                    "bandwidth per direction [B/cycle] (003 Table 3: 768 GB/s at 1 GHz = 768; 004 Table 1: "
                    "64 GB/s = 64 at 1 GHz)");
      GPUSC_PARAM_R(latency, 0, 1000000,
                    "cycles from a message's last byte to the far side [cycles] (003 §3.2: 32 per hop "
                    "including serialization = 1 + 31)");
      GPUSC_PARAM_R(header_bytes, 0, 65536, "header bytes added to every message [bytes]");
      GPUSC_PARAM_R(flit_bytes, 1, 65536, "messages are whole flits of this size [bytes] (004 Table 1: 16)");
      GPUSC_PARAM_R(rx_buffer_bytes, 1, 1e9,
                    "receive buffer per direction, the transmitter's credits [bytes]; full rate needs "
                    "about bytes_per_cycle x (2 latency + 1)");
      GPUSC_PARAM_R(tx_queue, 1, 65536, "messages per direction waiting to serialize (full: END_REQ withheld)");
      GPUSC_PARAM(pack, "messages share the bytes of a cycle (false: each message starts a new cycle)");
      GPUSC_PARAM_R(classes, 1, 16,
                    "message classes over one serializer per direction, each with its own ports, tx queue and "
                    "rx_buffer_bytes of credits (2: requests and replies on one wire)");
    }
  };

  MsgIn a_in{"a_in"};     // from side A, towards B
  MsgOut a_out{"a_out"};  // to side A
  MsgIn b_in{"b_in"};     // from side B, towards A
  MsgOut b_out{"b_out"};  // to side B

  BandwidthLink(sc_core::sc_module_name name, const Params& p, ClockDomain& clk);
  BandwidthLink(const BandwidthLink&) = delete;
  BandwidthLink& operator=(const BandwidthLink&) = delete;
  enum Dir : unsigned { kAtoB = 0, kBtoA = 1 };
  enum Side : unsigned { kSideA = 0, kSideB = 1 };
  // Class c's port into the link from side s (towards the other side), and out of it to side s.
  // Class 0: a_in / b_in and a_out / b_out.
  MsgIn& in(Side s, unsigned cls);
  MsgOut& out(Side s, unsigned cls);
  unsigned classes() const { return p_.classes; }
  unsigned wire_bytes(const tlm::tlm_generic_payload& gp) const;  // the message's size on the link
  size_t in_flight(Dir d) const;                  // accepted, not yet taken by the far side (all classes)
  uint64_t credits(Dir d, unsigned cls = 0) const;  // bytes class cls may send in the current cycle
  uint64_t delivered(Dir d) const { return dir_[d].messages.value(); }
  uint64_t bytes(Dir d) const { return dir_[d].bytes.value(); }
  uint64_t delivered(Dir d, unsigned cls) const { return dir_[d].lanes.at(cls).messages; }
  uint64_t bytes(Dir d, unsigned cls) const { return dir_[d].lanes.at(cls).bytes; }

 private:
  struct Msg {
    tlm::tlm_generic_payload* gp;
    unsigned bytes;
    uint64_t accepted, at;  // cycle taken; latch cycle (tx) or arrival cycle (rx)
  };
  struct Lane {  // one class of one direction
    MsgIn* in = nullptr;
    MsgOut* out = nullptr;
    std::deque<Msg> tx, rx;                        // waiting to serialize; serialized, in order
    std::deque<std::pair<uint64_t, unsigned>> back;  // credits on their way back (usable cycle, bytes)
    uint64_t credits = 0;
    unsigned held = 0;  // bytes of a message handed to `out` whose END_REQ is withheld
    uint64_t messages = 0, bytes = 0;
    Counter* messages_stat = nullptr;  // per-class counters (classes > 1)
    Counter* bytes_stat = nullptr;
    Counter* refused_stat = nullptr;
  };
  struct Way {
    std::vector<Lane> lanes;  // [class]
    uint64_t ser_cycle = 0;   // next cycle the serializer has room in
    unsigned ser_used = 0;    // bytes of ser_cycle already taken
    unsigned next_rr = 0;     // first class asked among messages accepted in the same cycle
    Counter &messages, &bytes, &refused;
    Average& latency;
    Way(StatGroup& s, const std::string& n);
  };

  void check_params() const;
  bool accept(Way& w, Lane& l, tlm::tlm_generic_payload& gp);
  bool tick(uint64_t cycle) override;
  Lane* pick(Way& w, uint64_t cycle);
  void transmit(Way& w, uint64_t cycle);
  void deliver(Way& w, Lane& l, uint64_t cycle);
  uint64_t next_work(const Way& w, uint64_t cycle) const;

  const Params p_;
  ClockDomain& clk_;
  StatGroup stats_;
  sc_core::sc_vector<MsgIn> more_in_[2];    // [side] classes 1 ..
  sc_core::sc_vector<MsgOut> more_out_[2];  // [side] classes 1 ..
  Way dir_[2];  // [kAtoB], [kBtoA]
};

}  // namespace gpusc::noc
