// Router: input-queued virtual-channel router with wormhole switching, credit-based flow
// control and tree multicast (DESIGN §4; paper 000 §III-A, paper 001 §4.3, Table 1).
//
// One class serves unicast and multicast: the RouteFunc returns one branch per output port a
// packet takes. A multicast packet is replicated asynchronously (paper 001 §4.3): every branch
// allocates its own output VC and competes in switch allocation like any other flit, and the
// input VC frees a flit's slot only after every branch has sent it.
//
// RC: a head flit is routed into branches as soon as it is at the front of an idle input VC (on
// arrival, or when the previous packet's tail leaves), for the cycle it becomes usable there;
// with pipeline 4 its branches may ask for VA one cycle after that cycle.
// Per-cycle order (tick), while the router holds flits:
//   1. credits that have come back are applied;
//   2. VA, one-iteration iSLIP over (input VC, output VC), the canonical input-queued router's
//      VC allocator (BookSim's iq router): every branch without an output VC asks for all free
//      VCs of its class on its output port; every asked output VC grants the requester first
//      from its grant pointer, every requester accepts the granting VC first from its accept
//      pointer (over (port, VC)); pointers move past an accepted pair only. A multicast VC's
//      branches ask on different ports and each accepts one VC;
//   3. SA: every branch whose next flit is ready and whose output VC has a credit requests its
//      output; the SwitchAllocator grants; winners leave (ST next cycle, then the link).
// Pipeline (parameter `pipeline`): 4 = RC, VA, SA, ST one cycle each; 3 = lookahead routing
// (RC folded away); 2 = VA and SA in the same cycle (speculative). Per hop a head spends
// `pipeline` cycles in the router and link_latency on the link: zero-load latency per hop is
// pipeline + 1 with 1-cycle links. Body and tail flits need no RC or VA: one may do SA in the
// cycle it becomes usable, once the flit ahead of it has left.
// Open choices: an output VC is free for a new packet once the previous tail has been sent
// (non-atomic VC reuse, as BookSim); credits are sent in the cycle a flit leaves the input
// buffer's ST stage. (Until 2026-11 VA gave the lowest free VC to requesters served per output
// round-robin, and body flits waited pipeline - 2 cycles after arriving; with 1-flit packets
// the first piled packets into one downstream VC, where they passed RC/VA/SA one at a time:
// twice the reference latency at 75% of saturation. docs/validation/noc.md has the curves.)
// An idle router is not ticked; one with flits is ticked every cycle until it drains.
// Implementation (speed, docs/bench-noc.md): a bit set per stage (VA, SA) names the VCs with
// work of that kind, so a tick visits only those, in (port, VC) order; a head routed on arrival
// joins the VA set only in the cycle it may ask, and a one-branch VC whose output VC is out of
// credits leaves the SA set until a credit returns (neither could ask before, so the requests
// are the same); all per-port and per-VC state lives in one block, a unicast VC's on one cache
// line; a lone request skips the allocators' general loops with the same outcome (grants,
// round-robin pointers, stall counts); a head ejected here has its packet record prefetched for
// the NI (written on another core when the source is in another lane).
// Head hook (DESIGN §6, STYLE P16): an optional HeadHook, consulted in RC for a unicast head whose
// destination is this router's own node (node n at router n: mesh, ring; on a crossbar only
// node 0's heads), may rewrite that destination (probe deflection, paper 000 §III-F); the head
// is then routed toward the new node in the same RC (no extra cycle). Unset, it costs one
// predictable null test per head ejected here (nothing on heads passing through).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

#include "common/clock_domain.h"
#include "common/params.h"
#include "common/stats.h"
#include "noc/flit_link.h"
#include "noc/route_func.h"
#include "noc/switch_allocator.h"

namespace gpusc::noc {

// Consulted by a Router for a unicast head flit about to be ejected at the router's own node.
// redirect() returns the head's destination: head.dest to leave it, or another node, toward
// which the head is then routed from here (the hook is asked again where it arrives, so a chain
// of refusing nodes is followed, and a loop is the hook's to avoid). The router rewrites the
// destination everywhere it is kept: the head flit, Packet::dest / dests and the payload's
// MemExt::dst, and counts the redirect (Packet::redirects: on a mesh with escape VCs the packet
// travels on escape VC `redirects` from here, see MeshEscapeRoute). Only the destination may
// change: not the length, virtual network, source or payload (the hook sees the flit as const).
// A rewritten destination must be a node of the network, and with E escape VCs a packet may be
// redirected at most E times; else the router stops with an error. Routing to the new node
// starts from this router's input port and VC; dimension-order deadlock freedom does not cover
// a turn a deflection adds (e.g. Y then X under XY): the platform keeps deflected traffic on
// escape VCs or a virtual network where that is safe.
class HeadHook {
 public:
  virtual ~HeadHook() = default;
  virtual unsigned redirect(unsigned router, const Flit& head) = 0;
};

class Router : public sc_core::sc_module, public FlitPortOwner, private Tickable {
 public:
  struct Params {
    unsigned vnets = 2;          // virtual networks (request / reply classes)
    unsigned vcs_per_vnet = 2;   // VCs each virtual network owns per port
    unsigned vc_depth = 8;       // flit slots per VC
    unsigned pipeline = 3;       // router pipeline depth: 2, 3 or 4
    std::string allocator = "islip";
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(vnets, 1, 4, "virtual networks (message classes) [count]");
      GPUSC_PARAM_R(vcs_per_vnet, 1, 16, "virtual channels per virtual network per port [count] (001 Table 1: 4 per port)");
      GPUSC_PARAM_R(vc_depth, 1, 256, "buffer depth per virtual channel [flits] (001 Table 1: 8; 000 Table II: 8)");
      GPUSC_PARAM_R(pipeline, 2, 4, "router pipeline stages: 4 RC/VA/SA/ST, 3 lookahead, 2 speculative [cycles]");
      GPUSC_PARAM_C(allocator, "islip|separable", "switch allocator: one-iteration iSLIP or input-first separable round-robin");
    }
  };

  // lane: the ClockDomain lane it ticks in (see ClockDomain::place).
  Router(sc_core::sc_module_name name, const Params& p, unsigned id, unsigned ports, ClockDomain& clk,
         const RouteFunc& route, unsigned lane = 0);
  Router(const Router&) = delete;
  Router& operator=(const Router&) = delete;

  // Wiring (done by the topology builder before simulation).
  void connect_in(unsigned port, FlitLink& link);
  void connect_out(unsigned port, FlitLink& link);

  // Installs (nullptr: removes) the head hook; `nodes`: the network's nodes (the valid
  // destinations a hook may return); `max_redirects`: how often one packet may be redirected
  // (the network's escape VCs, one per redirect level; 0: no limit, no escape VCs). The hook
  // must outlive the router's use of it.
  void set_head_hook(HeadHook* hook, unsigned nodes, unsigned max_redirects) {
    head_hook_ = hook;
    hook_nodes_ = nodes;
    max_redirects_ = max_redirects;
  }
  HeadHook* head_hook() const { return head_hook_; }

  // FlitPortOwner
  void receive_flit(unsigned in_port, const Flit& f) override;
  void receive_credit(unsigned out_port, unsigned vc, uint64_t ready) override;

  // Observers for tests.
  unsigned id() const { return id_; }
  unsigned ports() const { return ports_; }
  unsigned vcs() const { return vcs_; }
  unsigned occupancy() const { return occupancy_; }
  // Credits held for an output VC, including those that came back while the router slept
  // (they are applied at its next tick).
  unsigned credits(unsigned out_port, unsigned vc) const {
    unsigned c = credits_[out_port * vcs_ + vc];
    const uint64_t now = clk_.now();
    for (unsigned i = 0; i < csize_; ++i) {
      const PendingCredit& pc = cring_[(chead_ + i) & cmask_];
      c += pc.index == out_port * vcs_ + vc && pc.ready <= now;
    }
    return c;
  }
  uint64_t flits_switched() const { return st_flits_.value(); }

 private:
  // One output branch of the packet at the front of an input VC (32 bytes). The VC record
  // (InVc, 32 bytes) and its first branch share one cache line: a unicast VC's hot state.
  struct Branch {
    uint64_t ready;      // before VA: first cycle VA may be tried (after RC); after: first cycle
                         // the head may do SA
    uint64_t vc_mask;    // output VCs it may use
    uint16_t port;
    int16_t out_vc;      // -1 until VA
    uint16_t credit;     // index of its output VC in credits_ (after VA)
    uint16_t sent;       // flits of the current packet this branch has sent
    uint16_t dest;       // the branch's only destination, or kMultiDest (then its set is in bdests_)
  };
  // An input VC; its `ports` Branch slots follow it in memory (see vc()).
  struct InVc {
    Flit* ring;           // vc_depth slots
    uint16_t head, size;
    uint16_t nbr;         // branches of the front packet (0: not routed yet)
    uint16_t va_pending;  // branches still without an output VC
    uint16_t popped;      // flits of the front packet already removed
    uint16_t tails_sent;  // branches done with the front packet
    uint16_t flits;       // length of the front packet
    uint16_t index;       // port * vcs + vc
    uint16_t port, vc;    // its input port and VC
    Branch* br() { return reinterpret_cast<Branch*>(this + 1); }
    const Branch* br() const { return reinterpret_cast<const Branch*>(this + 1); }
  };
  struct PendingCredit {
    uint64_t ready;
    unsigned index;  // out port * vcs + vc
  };

  bool tick(uint64_t cycle) override;
  void apply_credits(uint64_t cycle);
  void route(InVc& q, uint64_t rc_cycle);
  void redirect(Flit& f);
  unsigned route_multicast(InVc& q, uint64_t rc_cycle);
  [[noreturn]] void receive_error(unsigned in_port, const Flit& f) const;
  [[noreturn]] void route_error(const Flit& f, unsigned port, unsigned vc_lo, unsigned vc_hi, unsigned node) const;
  void allocate_vcs(uint64_t cycle);
  bool va_request(const Branch& b, uint64_t cycle, unsigned& seen);
  [[noreturn]] void multicast_depth_error(const Flit& f) const;
  void grant_vc(InVc& q, Branch& b, unsigned vc, uint64_t cycle);
  unsigned va_accept(unsigned in_index, unsigned port, uint64_t granted) const;
  void va_pointers(unsigned in_index, unsigned port, unsigned vc);
  void allocate_switch(uint64_t cycle);
  void send(InVc& q, Branch& b, unsigned idx, uint64_t cycle);
  void pop(unsigned p, unsigned v, InVc& q, uint64_t cycle);
  void finish_packet(InVc& q, uint64_t cycle);
  // A one-branch VC whose output VC has no credit cannot ask for the switch before one returns:
  // it leaves sa_set_ until apply_credits puts it back (same requests, fewer visits).
  void block(const InVc& q) {
    sa_set_.clear(q.index);
    sa_blocked_.set(q.index);
  }
  InVc& vc(unsigned index) { return *reinterpret_cast<InVc*>(vc_base_ + index * vc_stride_); }
  const InVc& vc(unsigned index) const { return *reinterpret_cast<const InVc*>(vc_base_ + index * vc_stride_); }
  unsigned slot(const InVc& q, unsigned i) const {  // ring index, no division
    const unsigned j = q.head + i;
    return j >= depth_ ? j - depth_ : j;
  }
  // Work sets: the input VCs with work of one kind, by index (port * vcs + vc, so ascending index
  // is (port, VC) order), a bit each in words of 64 under a summary bit per nonempty word. The
  // stages visit only VCs that have work of their kind; with at most 64 input VCs (a 5-port
  // mesh router with up to 12 VCs) each set is one word, and no loop runs over ports.
  struct VcSet {
    uint64_t* w = nullptr;  // &one when a word is enough (hot fields stay on the router's lines)
    uint64_t sum = 0;
    uint64_t one = 0;
    void init(unsigned words, uint64_t* storage) { w = words == 1 ? &one : storage; }
    // Moves every member into `to` (this set ends empty).
    void move_into(VcSet& to) {
      for (uint64_t s = sum; s; s &= s - 1) {
        const unsigned wi = static_cast<unsigned>(__builtin_ctzll(s));
        to.w[wi] |= w[wi];
        w[wi] = 0;
      }
      to.sum |= sum;
      sum = 0;
    }
    bool test(unsigned i) const { return w[i >> 6] >> (i & 63) & 1; }
    void set(unsigned i) {
      w[i >> 6] |= uint64_t{1} << (i & 63);
      sum |= uint64_t{1} << (i >> 6);
    }
    void clear(unsigned i) {  // branch-free: the summary bit goes when its word empties
      uint64_t& x = w[i >> 6];
      x &= ~(uint64_t{1} << (i & 63));
      sum &= ~(uint64_t{x == 0} << (i >> 6));
    }
    // Calls f(index) in ascending order over the set as it is when each word is reached.
    template <class F> void each(F&& f) const {
      for (uint64_t s = sum; s; s &= s - 1) {
        const unsigned wi = static_cast<unsigned>(__builtin_ctzll(s));
        for (uint64_t a = w[wi]; a; a &= a - 1) f(wi * 64 + static_cast<unsigned>(__builtin_ctzll(a)));
      }
    }
  };

  const Params p_;
  const unsigned id_;
  // Hot state together, and every per-port / per-VC array in one block (arena_), so a tick
  // touches few cache lines.
  alignas(64) unsigned occupancy_ = 0;  // flits buffered
  const unsigned ports_, vcs_, depth_;
  const unsigned d_rc_, d_va_;   // extra cycles before VA (RC) and before SA (VA)
  // Credits on their way back, sorted by the cycle they become usable (a ring in the arena: they
  // arrive almost in that order, one fixed latency per link, so insertion rarely moves any and
  // applying them takes them from the front; an emptied ring restarts at slot 0). On the same
  // cache line as the fields above: a neighbour's receive_credit() touches only that line and
  // the ring's.
  uint64_t credit_next_ = UINT64_MAX;  // first cycle a returning credit is due
  PendingCredit* cring_ = nullptr;
  unsigned chead_ = 0, csize_ = 0, cmask_ = 0;
  VcSet va_set_;                 // some branch may ask for an output VC (its RC is done)
  VcSet sa_set_;                 // some branch holds an output VC and has flits to send
  VcSet sa_new_set_;             // got an output VC this cycle: joins sa_set_ at the next tick
  VcSet sa_blocked_;             // one branch, out of credits: back in sa_set_ when one returns
  unsigned va_waiting_ = 0;      // branches of va_set_ without an output VC
  // Routed heads that may ask for VA only in a later cycle c (1 to kVaLater - 1 cycles ahead of
  // the cycle being ticked: a flit routed on arrival, usable after the link): held in
  // va_later_[c % kVaLater] with their branch count, and moved into va_set_ at the tick of cycle
  // c, so that earlier ticks do not visit them. A router with flits is ticked every cycle, so it
  // reaches cycle c.
  static constexpr unsigned kVaLater = 4;
  VcSet va_later_[kVaLater];
  unsigned va_later_n_[kVaLater] = {};

  // A cycle the router is already scheduled for, at or after its ClockDomain slot (UINT64_MAX:
  // asleep): a flit usable no earlier needs no wake-up call (the call would change nothing).
  uint64_t scheduled_ = UINT64_MAX;
  unsigned words_;               // words per VcSet
  uint64_t* busy_;               // [out port] output VCs owned by a packet
  unsigned* credits_;            // [out port * vcs + out vc]
  unsigned* va_gptr_;            // [out port * vcs + out vc] VA grant pointer over input VCs
  unsigned* va_aptr_;            // [input VC index] VA accept pointer over output VCs (port * vcs + vc)
  uint16_t* owner_;              // [out port * vcs + out vc] input VC last granted that output VC
  FlitLink** in_links_;          // [port]
  FlitLink** out_links_;         // [port]
  unsigned char* vc_base_;       // InVc records (header + branches), vc_stride_ apart
  size_t vc_stride_;
  SwitchAllocator sa_;
  ClockDomain& clk_;
  const RouteFunc& route_;
  HeadHook* head_hook_ = nullptr;  // see HeadHook (read once per head ejected here)
  unsigned hook_nodes_ = 0;
  unsigned max_redirects_ = 0;
  StatGroup stats_;
  Counter& st_flits_;
  Counter& heads_;
  Counter& replicas_;
  Counter& va_stalls_;
  Counter& sa_stalls_;
  // Cold.
  std::vector<uint64_t> arena_;
  DestSet* bdests_;              // [vc index * ports + branch] a multicast branch's destinations
  DestSet* mdests_;              // [vc index * depth + slot] a buffered multicast head's destinations
  std::vector<RouteBranch> scratch_;
};

}  // namespace gpusc::noc
