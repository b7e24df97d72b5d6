// ProbeHandler: one core's probing unit of paper 000 (§III-F, Figure 12), an SM-side front stage
// (gpu/sm_front_stage.h, registered as "probe" by probe_stages.h) between the core's L1 and its
// network interfaces. It composes the units of this folder:
//
//  L1 --from_l1--> read miss? --no (write, atomic)-----------------------> [non-shared]    --+
//                     | yes: sharing (predictor | ORACLE | always)                            |
//                     +--not shared--------------------------------------> [non-shared]    --+  strict
//                     +--shared: CoreSelector -> TwoLevelProbing ---------> [own probes]    --+  priority
//                                 TimeoutHandler (timeout / early release) > [selective L2] --+--> to_net
//  peer_in (request network) --> probe for this core --> [incoming probes] --L1 peer lookup    |  (Probe-
//                            |                             hit & leader: [replies] --peer_out |  Injection-
//                            |                             else: visit() -> [forwarded] ------+  Arbiter)
//                            +--> own probe back (NACK / candidates) -> TwoLevelProbing
//                                     second level -> [processed NACKs] ----------------------+
//  from_net (reply network) --> L2 reply / write ack / probe data reply --> to_l1
//
// Exactly one reply answers each L1 fetch: a non-shared read's own L2 reply; for a shared read,
// the first of probe data and the L2 reply (the TimeoutHandler decides; the L1's fetch is held
// here and a copy of it is sent to the L2, so the loser is a different payload, dropped and
// counted). Writes and atomics are never probed or answered by a probe.
// Incoming probes wait in the incoming queue; the head asks the L1 for a peer lookup
// (Cache::peer_lookup: served only in a cycle whose lookup slot local accesses leave free), one
// at a time. Deflection (§III-F) when the incoming queue holds `incoming_queue` probes:
//   deflection = router (the hpca6x6 overlays): the handler sets its NI's refusal flag and the
//     router redirects further probes (ProbeFabric's HeadHook), the paper's mechanism. A redirect
//     adds turns XY routing forbids, which deadlocked hpca6x6's single VC (2mm, spmv, conv2d), so
//     it needs escape VCs on the request network that only deflected probes use, one per
//     deflection (noc.escape_vcs = E >= 1, noc.router.vcs_per_vnet > E; an error otherwise; the
//     overlays: E = 1); a probe is deflected at most E times (the paper: until its targets run
//     out), and probes already on their way are still taken (incoming_overflow);
//   deflection = ni (the default, for networks without an escape VC): the core still ejects an
//     arriving probe but passes it straight to its forwarded-probe queue without a lookup (to its
//     next target, or back to its requester), so it waits for the busy core's injection;
//   deflection = off: probes queue without bound.
// Either way the request network never blocks at an SM (probes are always ejected). A lookup
// waits while its result's queue (replies to incoming probes / forwarded probes) is full.
// Timing: messages handed over in cycle c are handled from cycle c + 1 (ClockDomain latching);
// at most one message enters the request network per cycle (the arbiter), one enters the reply
// network, one goes to the L1, one L1 message is classified per cycle.
// Choices the paper left open (each documented where it is decided):
//   * predictor mode asks SharingPredictor::decide(pc, oracle) on every L1 read miss (the oracle
//     bit only feeds precision/recall); oracle mode uses the oracle bit itself (IP, n-IP: the
//     paper's "perfect sharing predictor"), always mode probes every read miss, never mode none
//     (a control: the handler's own cost on the miss path);
//   * where the time goes (stats latency_*, incoming_wait, peer_lookup_time; summary probe_latency_*):
//     core cycles from a read's classification here until its answer is back here, per answer
//     kind. The block's l1_miss_penalty / memory_latency use the supplier's stamps for a
//     probe-answered load (see below) and so leave out the probe's walk: compare AMAT instead;
//   * a shared miss that finds TwoLevelProbing or the TimeoutHandler full (`tracked` requests)
//     goes to the L2 as non-shared (counted: tracking_full); so does S - 1 = 0 probes
//     (IP(C,1,P<1)). Both track a request only while its load is unanswered (§III-F: "up to 32
//     outstanding requests, which is the MSHR size"), so with tracked = the L1's MSHRs (32 on
//     hpca6x6) they are never full when the L1 sends a miss;
//   * a returning probe (NACK, scout list) and a probe deflected back to its requester enter the
//     incoming probe queue like other cores' probes (§III-F: the queue's head "is processed to
//     differentiate between a leader probe, a scout probe, or a received NACK"); at the head it
//     needs no L1 lookup and no room in the reply / forwarded queues, one per cycle, but waits
//     while the probe ahead of it still waits for the L1 port (head-of-line, as the paper's queue
//     is one queue; until 2026-12 they skipped the queue); a returning leader is a NACK;
//   * when a load is answered (probe data or L2), its own probes still waiting in the outgoing or
//     processed-NACK queue are dropped (cancelled_probes): they can no longer help (the paper is
//     silent; a probe already in the network walks on and comes back stale);
//   * the predictor learns R from every probe data reply of its PC, used or dropped;
//   * Table I's oracle scenarios (location = nearest | perfect, evaluation devices, sharing = oracle):
//     DP's nearest sharer is by request-network hops from the requester at miss time (ties: lowest
//     core index), probed as a one-target leader (a NACK when it evicted the line: early release
//     to the L2); PP answers the held fetch in the cycle it is classified, with no network or L1
//     port use at either end and no change to the supplier's L1 (zero-cycle communication);
//   * the order a probe visits its targets: visit_order = selector | route (two_level_probing.h);
//   * queue sizes (incoming 8, replies 4, forwarded 4) are not given by the paper;
//   * a probe-answered load's MemExt gets t_mem_accept = the supplier's lookup and t_reply_inject
//     = its reply injection, so the block's memory/reply latency split stays meaningful;
//   * LA-LLC (last_sharer_llc.h): a read the L2 forwards here arrives on the reply network and
//     waits in the incoming probe queue for an L1 peer lookup; hit -> the line goes to the
//     requester (replies queue), miss -> the read goes back to its partition (forwarded queue);
//     at the requester such a reply counts as a remote answer;
//   * data values: a probe reply carries no bytes (the L1s keep none); with a BackingStore the
//     L1 fill of a probe-answered load has no data copied (workloads with real values: left).
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "common/clock_domain.h"
#include "common/msg_port.h"
#include "common/params.h"
#include "common/payload_pool.h"
#include "common/stats.h"
#include "gpu/sm_front_stage.h"
#include "probe/core_selector.h"
#include "probe/probe_ext.h"
#include "probe/probe_injection_arbiter.h"
#include "probe/sharing_predictor.h"
#include "probe/timeout_handler.h"
#include "probe/two_level_probing.h"

namespace gpusc {
class Cache;

namespace probe {

class ProbeFabric;

class ProbeHandler : public sc_core::sc_module, public SmFrontStage, private Tickable {
 public:
  struct Params {
    std::string sharing = "predictor";  // predictor | oracle | always | never
    std::string location = "search";    // search | nearest (DP) | perfect (PP): how a shared miss finds its data
    unsigned c = 5;                     // probe coverage C (000 §IV-B RP(5,2,0.5))
    unsigned s = 2;                     // probes per probed miss S
    double p = 0.5;                     // probability P of S probes (else S - 1)
    std::string selector = "supplier";  // supplier | index
    std::string visit_order = "selector";  // selector | route (two_level_probing.h)
    uint64_t period = 8192;             // supplier selector period [cycles]
    std::string index_order = "ascending";
    uint64_t timeout = 2048;            // selective L2 timeout [cycles]
    unsigned tracked = 32;              // probed requests tracked (timeout handler, two-level probing)
    unsigned incoming_queue = 8;        // incoming probe queue; full -> deflection [probes]
    unsigned reply_queue = 4;           // replies to incoming probes [messages]
    unsigned forward_queue = 4;         // forwarded incoming probes [messages]
    unsigned l1_queue = 4;              // messages from the L1 waiting to be classified [messages]
    unsigned nonshared_queue = 4;       // non-shared requests waiting for injection [messages]
    unsigned up_queue = 8;              // messages from the reply network waiting for the L1 [messages]
    std::string deflection = "ni";      // ni | router | off: where a full core's probes are deflected
    uint64_t seed = 1;                  // selector and probe-count draws (per core: seed + core)
    SharingPredictor::Params predictor;
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_C(sharing, "predictor|oracle|always|never",
                    "which read misses probe: PC sharing predictor (RP), ORACLE (an evaluation device: the line is in "
                    "another L1 now; IP, n-IP), every read miss, or none (a control: the handler's own cost)");
      GPUSC_PARAM_C(location, "search|nearest|perfect",
                    "how a shared read miss finds its data (needs sharing = oracle for nearest / perfect): search = "
                    "selector + two-level probing (IP, RP); nearest = DP (Table I): ORACLE location, one probe to the "
                    "nearest core holding the line now, the L2 if it evicted the line meanwhile; perfect = PP (Table I): "
                    "ORACLE location and a zero-cycle transfer, the load is answered at once (evaluation devices)");
      GPUSC_PARAM_R(c, 1, 31, "probe coverage C: target cores per probed miss, <= cores - 1 (000: IP 15, RP 5)");
      GPUSC_PARAM_R(s, 1, 31, "probes per probed miss S, <= C (000: 2)");
      GPUSC_PARAM_R(p, 0, 1, "probability P of sending S probes rather than S - 1 (000: IP 0.2, RP 0.5)");
      GPUSC_PARAM_C(selector, "supplier|index", "core selector: supplier-based (000 §III-C) or index-based (n-IP, CCN)");
      GPUSC_PARAM_C(visit_order, "selector|route",
                    "order a probe visits its targets (000 is silent): the selector's order, or a nearest-next tour "
                    "from the requester by request-network hops (two_level_probing.h; the ip / rp overlays: route)");
      GPUSC_PARAM_R(period, 1, uint64_t{1} << 40, "supplier selector counting period [core cycles] (000: 8192)");
      GPUSC_PARAM_C(index_order, "ascending|ring", "index selector order (index_selector.h)");
      GPUSC_PARAM_R(timeout, 1, uint64_t{1} << 40, "selective L2 request timeout [core cycles] (000: 2048)");
      GPUSC_PARAM_R(tracked, 1, 4096, "probed requests tracked at once [count] (000: 32, the MSHR size)");
      GPUSC_PARAM_R(incoming_queue, 1, 4096, "incoming probe queue; when full the core refuses probes [probes]");
      GPUSC_PARAM_R(reply_queue, 1, 4096, "replies to incoming probes queue [messages]");
      GPUSC_PARAM_R(forward_queue, 1, 4096, "forwarded incoming probes queue [messages]");
      GPUSC_PARAM_R(l1_queue, 1, 4096, "messages from the L1 waiting to be classified [messages]");
      GPUSC_PARAM_R(nonshared_queue, 1, 4096, "non-shared requests waiting for injection [messages]");
      GPUSC_PARAM_R(up_queue, 1, 4096, "reply-network messages waiting for the L1 [messages]");
      GPUSC_PARAM_C(deflection, "ni|router|off",
                    "deflect probes arriving at a core whose incoming queue is full (000 §III-F): router = its router "
                    "redirects it on the request network's escape VC (needs noc.escape_vcs >= 1; the hpca6x6 overlays "
                    "set it), ni = the core takes the probe and sends it straight on (no lookup), off = queue them");
      GPUSC_PARAM(seed, "seed of the selector and probe-count draws (core i uses seed + i)");
      GPUSC_PARAM(predictor, "PC-based sharing predictor (sharing = predictor)");
    }
  };

  // shared: the block's ProbeFabric (probe_stages.h builds it).
  ProbeHandler(sc_core::sc_module_name name, const Params& p, ClockDomain& clk, Cache& l1, unsigned node,
               unsigned core, ProbeFabric& fabric);
  ProbeHandler(const ProbeHandler&) = delete;
  ProbeHandler& operator=(const ProbeHandler&) = delete;

  // SmFrontStage
  MsgIn& from_l1() override { return from_l1_; }
  MsgOut& to_net() override { return to_net_; }
  MsgIn& from_net() override { return from_net_; }
  MsgOut& to_l1() override { return to_l1_; }
  MsgIn* peer_in() override { return &peer_in_; }
  MsgOut* peer_out() override { return &peer_out_; }
  bool idle() const override;
  void summarize(json& summary, const std::vector<const SmFrontStage*>& all) const override;

  // Observers.
  const Params& params() const { return p_; }
  unsigned core() const { return core_; }
  const ProbeFabric& fabric() const { return fabric_; }
  const SharingPredictor& predictor() const { return predictor_; }
  const TwoLevelProbing& probing() const { return tlp_; }
  const TimeoutHandler& timeout_handler() const { return th_; }
  const ProbeInjectionArbiter& arbiter() const { return arb_; }
  size_t incoming() const { return incoming_q_.size(); }
  uint64_t outstanding_probes() const { return probes_out_; }
  uint64_t stat(const char* name) const;  // a counter of this handler by name (tests)

 private:
  using Payload = tlm::tlm_generic_payload;
  struct Timed {
    uint64_t ready;
    Payload* gp;
  };
  struct Pending {  // a predicted-shared L1 fetch held until answered
    Payload* fetch;
    uint64_t since;  // cycle it was classified
  };
  bool tick(uint64_t cycle) override;
  bool latch(std::deque<Timed>& q, size_t limit, Payload& gp);
  void classify(uint64_t cycle);
  void take_peer(uint64_t cycle);
  void own_return(Payload& gp);
  void start_lookup(uint64_t cycle);
  void lookup_done(Payload& gp, bool hit);
  void from_network(uint64_t cycle);
  void answer(uint32_t group, const MemExt& from);  // the held fetch becomes the reply (stamps of `from`)
  void answer_fetch(Payload& f, const MemExt& from);
  void inject(uint64_t cycle);
  void send_replies();
  void send_up();
  Payload& make(MemKind kind, unsigned dst_core, uint64_t addr);
  Payload& probe_payload(const ProbeHeader& h, uint64_t pc, ProbeExt::Role role);
  void update_refusal();
  void queue_probe(std::deque<Payload*>& q, Payload& gp);  // stamps ProbeExt::queued (tracing)
  void queue_incoming(Payload& gp, uint64_t cycle);         // into the incoming probe queue
  bool head_is_return() const;                              // its head is an own probe back
  void cancel_queued_probes(uint32_t group);                // own / second-level probes not yet injected
  bool has_work() const;

  const Params p_;
  ClockDomain& clk_;
  Cache& l1_;
  const unsigned node_, core_;
  ProbeFabric& fabric_;
  MsgIn from_l1_{"from_l1"}, from_net_{"from_net"}, peer_in_{"peer_in"};
  MsgOut to_net_{"to_net"}, to_l1_{"to_l1"}, peer_out_{"peer_out"};
  PayloadPool pool_;
  SharingPredictor predictor_;
  std::unique_ptr<CoreSelector> selector_;
  TwoLevelProbing tlp_;
  TimeoutHandler th_;
  ProbeInjectionArbiter arb_;

  std::deque<Timed> l1_q_, up_in_q_, peer_q_;   // latched arrivals
  std::deque<Payload*> nonshared_q_, own_q_, fwd_q_, nack_q_, reply_q_, up_q_, incoming_q_;
  std::unordered_map<uint32_t, Pending> pend_;  // group -> held L1 fetch
  std::vector<unsigned> targets_;
  std::vector<ProbeHeader> headers_;
  bool lookup_busy_ = false;
  bool refusing_ = false;
  uint64_t probes_out_ = 0;   // own probes not yet back (returned or data received)
  uint64_t clones_out_ = 0;   // selective L2 requests whose reply is still due
  uint64_t lookup_start_ = 0;
  std::unordered_map<const Payload*, uint64_t> nonshared_since_;  // non-shared read -> classify cycle
  std::unordered_map<const Payload*, uint64_t> incoming_since_;   // incoming probe -> queue entry cycle

  StatGroup stats_;
  Counter &read_misses_, &oracle_shared_, &probed_misses_, &nonshared_, &writes_atomics_, &probes_sent_,
      &probes_received_, &lookups_, &lookup_hits_, &forwarded_, &returns_, &nacks_, &skipped_, &data_sent_,
      &data_received_, &remote_answers_, &l2_answers_, &dropped_data_, &dropped_l2_, &overflow_,
      &l2_reply_bytes_, &remote_reply_bytes_, &refusals_, &ni_deflections_, &llc_forwards_, &perfect_answers_, &tracking_full_, &cancelled_;
  // Where the time goes (tracing, core cycles from classification at this handler).
  Average &lat_nonshared_, &lat_remote_, &lat_selective_l2_, &incoming_wait_, &lookup_time_, &fwd_inject_wait_,
      &own_inject_wait_, &hop_network_, &return_wait_;
};

}  // namespace probe
}  // namespace gpusc
