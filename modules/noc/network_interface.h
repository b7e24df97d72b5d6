// NetworkInterface (NI): where TLM meets flits (DESIGN §3). Local units hand messages to
// in[vnet] (one MsgIn per virtual network, so a full request queue never blocks replies); the
// NI packetizes each into ceil((header_bytes + data_bytes) / flit_bytes) flits, where
// data_bytes is the payload length (MemExt::wire_bytes instead when set: a compressed payload)
// for write/atomic requests and read/atomic/probe replies and 0 for control messages (a read
// request is one flit; a 128 B reply with 16 B flits and an 8 B header is 9). Packets arriving from the router are reassembled and delivered on out[vnet].
// Back-pressure is real: a full injection queue withholds END_REQ from the local unit (this is
// how an MC stall arises, paper 001 §2.1); a full ejection queue or a stalled local target
// stops credits, so the network backs up.
// Destinations: MemExt::dests when non-empty (multicast reply), else MemExt::dst.
// Timing: a message handed over in cycle c is latched at c + 1 (that is the 1-cycle injection
// channel) and its head flit is usable in the router at c + 2; a tail that the last router
// switched in cycle x is ejected (delivered) in cycle x + 1 + eject latency.
// Speed: a tail's payload and MemExt are prefetched when it arrives, two cycles before ejection.
// Open choices: one packet per virtual network is being injected at a time (the queue head); it
// takes the router input VCs of its class round-robin (the first one after the last taken that
// no packet holds and that has a credit, as BookSim's injection does): always taking the lowest
// would pile the packets into one input VC, which serializes them through RC/VA/SA;
// the injection channel carries one flit per cycle, virtual networks take turns round-robin;
// an ejecting packet reserves its ejection-queue slot when its head arrives.
// Refusal (DESIGN §6): the local unit may declare that its sink refuses a class of messages,
// where a class is a virtual network (set_refusing); the NI only records it, for a router
// HeadHook to read (probe deflection, paper 000 §III-F: a core whose probe queue is full is
// skipped). Packets that still arrive are ejected as usual: refusal is a signal, not a block.
// Node map (DESIGN §6, blocks): when a platform numbers nodes across several blocks, MemExt ids
// are platform ids and the network's NodeMap turns each destination into one of its own nodes
// at injection (once per packet): ids of the block into their node, every other id into one of
// the block's boundary nodes (the map says which). A multicast must stay within the block (no
// member behind a boundary).
// Without a map (one block from id 0) destinations are node ids as they are.
#pragma once
#include <cstdint>
#include <vector>

#include <systemc>

#include "common/clock_domain.h"
#include "common/msg_port.h"
#include "common/params.h"
#include "common/stats.h"
#include "noc/flit_link.h"
#include "noc/packet_pool.h"

namespace gpusc::noc {

// Platform id -> node of this network (see Node map above).
struct NodeMap {
  static constexpr unsigned kNone = ~0u;
  std::vector<unsigned> node;  // [platform id]; kNone: not reachable from this network
  std::vector<unsigned> boundaries;  // the nodes the ids of other blocks map to (none: no boundary)
};

class NetworkInterface : public sc_core::sc_module, public FlitPortOwner, private Tickable {
 public:
  struct Params {
    unsigned flit_bytes = 16;    // link width
    unsigned header_bytes = 8;   // packet header carried in the first flit
    unsigned inject_queue = 4;   // packets per virtual network waiting to enter the network
    unsigned eject_queue = 4;    // reassembled packets per virtual network waiting for the local unit
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(flit_bytes, 1, 1024, "flit (channel) width [bytes] (001 Table 1: 16 mesh / 32 crossbar; 000: 32)");
      GPUSC_PARAM_R(header_bytes, 0, 1024, "header bytes added to every packet [bytes]");
      GPUSC_PARAM_R(inject_queue, 1, 4096, "injection queue per virtual network [packets]");
      GPUSC_PARAM_R(eject_queue, 1, 4096, "ejection queue per virtual network [packets]");
    }
  };

  sc_core::sc_vector<MsgIn> in;    // [vnet] messages into the network
  sc_core::sc_vector<MsgOut> out;  // [vnet] messages out of the network

  // pool: the packet records of its lane; lane: the ClockDomain lane it ticks in.
  // escape_vcs: the last VCs of each virtual network are kept for redirected packets (see
  // MeshDorRoute): the NI injects into the others only.
  NetworkInterface(sc_core::sc_module_name name, const Params& p, unsigned node, unsigned nodes, unsigned vnets,
                   unsigned vcs_per_vnet, unsigned vc_depth, ClockDomain& clk, PacketPool& pool, unsigned lane = 0,
                   unsigned escape_vcs = 0);
  NetworkInterface(const NetworkInterface&) = delete;
  NetworkInterface& operator=(const NetworkInterface&) = delete;

  void connect_inject(FlitLink& link);  // NI -> router
  void connect_eject(FlitLink& link);   // router -> NI

  void receive_flit(unsigned in_port, const Flit& f) override;
  void receive_credit(unsigned out_port, unsigned vc, uint64_t ready) override;

  unsigned node() const { return node_; }
  unsigned packet_flits(const tlm::tlm_generic_payload& gp) const;
  size_t inject_backlog(unsigned vnet) const { return inj_[vnet].queue.size(); }
  uint64_t packets_ejected() const { return pk_out_.value(); }
  // Whether the local sink refuses virtual network `vnet` (see Refusal above).
  void set_refusing(unsigned vnet, bool refuse);
  bool refusing(unsigned vnet) const { return refusing_ >> vnet & 1; }
  // Destinations are platform ids mapped through *m (nullptr: node ids); m must outlive the NI.
  void set_node_map(const NodeMap* m) { node_map_ = m; }

 private:
  // Bounded FIFO in a fixed array (the capacities are parameters): no allocation per message.
  template <class T> class Ring {
   public:
    void init(size_t capacity) { buf_.assign(capacity, T{}); }
    bool empty() const { return n_ == 0; }
    size_t size() const { return n_; }
    T& front() { return buf_[h_]; }
    void push_back(const T& x) {
      size_t t = h_ + n_;
      if (t >= buf_.size()) t -= buf_.size();
      buf_[t] = x;
      ++n_;
    }
    void pop_front() {
      if (--n_ == 0) h_ = 0;  // an emptied ring restarts at the front: fewer cache lines in use
      else if (++h_ == buf_.size()) h_ = 0;
    }
   private:
    std::vector<T> buf_;
    size_t h_ = 0, n_ = 0;
  };
  struct InjectVnet {
    Ring<Packet*> queue;
    int vc = -1;           // router input VC used by the queue head
    unsigned next_vc = 0;  // where the round-robin over the vnet's VCs starts (offset in its class)
    unsigned sent = 0;     // flits of the head sent
  };
  struct EjectVc {
    Ring<Flit> flits;
    bool reserved = false;  // the packet at the front holds an ejection-queue slot
  };
  struct EjectVnet {
    Ring<tlm::tlm_generic_payload*> queue;
    unsigned reserved = 0;
  };

  bool accept(unsigned vnet, tlm::tlm_generic_payload& gp);
  unsigned local_node(unsigned id) const;  // through node_map_ (set)
  [[noreturn]] void receive_error(const Flit& f) const;
  unsigned packet_flits(const tlm::tlm_generic_payload& gp, const MemExt* e) const;
  bool tick(uint64_t cycle) override;
  void eject(uint64_t cycle);
  void deliver();
  void inject(uint64_t cycle);

  const Params p_;
  const unsigned node_, nodes_, vnets_, vpv_, ipv_, vc_depth_;  // ipv_: VCs per vnet injected into
  ClockDomain& clk_;
  PacketPool& pool_;
  const NodeMap* node_map_ = nullptr;
  FlitLink* inj_link_ = nullptr;
  FlitLink* ej_link_ = nullptr;
  std::vector<InjectVnet> inj_;
  std::vector<unsigned> credits_;  // router input VCs
  uint64_t vc_busy_ = 0;           // router input VCs taken by a packet being injected
  std::vector<std::pair<uint64_t, unsigned>> pending_credits_;
  uint64_t credit_next_ = UINT64_MAX;  // earliest pending credit
  std::vector<EjectVc> ej_vcs_;
  uint64_t ej_nonempty_ = 0;       // ejection VCs holding flits
  std::vector<EjectVnet> ej_;
  unsigned queued_ = 0;            // packets in the injection queues
  unsigned rr_ = 0;
  uint64_t refusing_ = 0;          // [vnet] bit: the local sink refuses that class

  StatGroup stats_;
  Counter& pk_in_;
  Counter& fl_in_;
  Counter& pk_out_;
  Counter& fl_out_;
  Counter& inj_full_;
  Average& net_lat_;
};

}  // namespace gpusc::noc
