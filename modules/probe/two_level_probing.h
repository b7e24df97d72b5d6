// TwoLevelProbing: the requester-side two-level probing unit of paper 000 §III-B/§III-D/§III-F,
// IP(C,S,P). For a read miss predicted shared it
//   1. draws how many probes to send: S with probability P, S - 1 otherwise (draw_probes());
//   2. splits the C targets of the core selector disjointly and as evenly as possible among
//      them (15 over 2 -> 8 and 7), builds one leader and probes - 1 scouts (start());
//   3. tracks the request's ProbeGroup (probe_group.h) until it is decided: data found, or
//      failed (early release of the selective L2 request), via a second-level probe over the
//      scouts' candidates when the leader fails.
// Up to max_requests groups are tracked (§III-F: 32, the MSHR size): a group is tracked while its
// read miss holds its MSHR, so it ends when the data comes (on_data), when every probe failed,
// or when the L2 answered the load first (finish(): after a timeout, with probes still walking;
// until 2026-12 such a group stayed tracked until its last probe came back, which on a congested
// request network kept later shared misses from being probed).
// Choices the paper left open:
//   * the leader is probe 0 and takes the first ceil(C / probes) targets in selector order (the
//     supplier selector's first draws, i.e. the likeliest suppliers); earlier probes take the
//     larger shares (C mod probes of them get one more), each share is contiguous in selector
//     order: IP(15,2,.) -> leader 8 targets, scout 7;
//   * the order in which a probe visits its share (paper silent: §III-C's selector decides which
//     cores are probed, §III-D that a probe searches its cores "sequentially"; Fig. 8 draws a path):
//     visit_order = selector keeps the share in selector order (supplier: draw order; index:
//     ascending, as §III-C states for n-IP); visit_order = route reorders each share into a
//     greedy nearest-next tour from the requester (fewest request-network hops to the next target,
//     ties: selector order), so a walk of k targets crosses the mesh about once rather than k
//     times. The shares themselves are cut in selector order either way (the leader keeps the
//     likeliest suppliers);
//   * S - 1 = 0 probes (S = 1 with probability 1 - P) means the miss is not probed at all: the
//     caller sends it to the L2 as a non-shared request (no group, no timeout entry);
//   * group ids count up from 0 per requester (32 bits, wrapping); the requester id in the header
//     makes them unique network-wide;
//   * a return or data reply for a group no longer tracked (a scout back after the leader found
//     the data) is dropped and counted as stale_returns.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/params.h"
#include "probe/probe_group.h"
#include "probe/probe_header.h"
#include "workload/seeded_rng.h"

namespace gpusc {
class StatGroup;

namespace probe {

class TwoLevelProbing {
 public:
  struct Params {
    unsigned c = 15;             // probe coverage C: target cores per probed miss (000 §IV-B: IP(15,2,0.2))
    unsigned s = 2;              // probes per probed miss S (S - 1 with probability 1 - P)
    double p = 0.2;              // probability P of sending S probes
    unsigned max_requests = 32;  // requests tracked at once (000 §III-F: 32 = MSHR size)
    std::string visit_order = "selector";  // selector | route: the order a probe visits its targets
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(c, 1, ProbeHeader::kMaxSlots, "probe coverage C: target cores per probed miss, <= cores - 1 (000: 15)");
      GPUSC_PARAM_R(s, 1, ProbeHeader::kMaxSlots, "probes per probed miss S, <= C (000: 2)");
      GPUSC_PARAM_R(p, 0, 1, "probability P of sending S probes rather than S - 1 (000: 0.2)");
      GPUSC_PARAM_R(max_requests, 1, 4096, "probed requests tracked at once [count] (000 §III-F: 32)");
      GPUSC_PARAM_C(visit_order, "selector|route",
                    "order a probe visits its share of the targets: selector order, or a nearest-next tour from the "
                    "requester by request-network hops (needs set_hops)");
    }
  };
  enum class Outcome { Wait, SecondLevel, Found, Failed, Stale };

  TwoLevelProbing(const Params& p, unsigned self, unsigned cores, uint64_t seed);
  TwoLevelProbing(const TwoLevelProbing&) = delete;
  TwoLevelProbing& operator=(const TwoLevelProbing&) = delete;

  // Request-network hops between two cores, for visit_order = route: read once for every pair
  // of cores into a table here.
  using Hops = std::function<unsigned(unsigned from, unsigned to)>;
  void set_hops(const Hops& hops);
  // S with probability P, else S - 1 (may be 0: then do not probe).
  unsigned draw_probes();
  // Share sizes of c targets over `probes` probes, leader first (larger shares first).
  static std::vector<unsigned> shares(unsigned c, unsigned probes);
  // Starts a group for `address` over `targets` (C cores, selector order) with `probes` probes;
  // appends the headers to inject to `out`, leader first, and returns the group id.
  uint32_t start(uint64_t address, const std::vector<unsigned>& targets, unsigned probes,
                 std::vector<ProbeHeader>& out);
  // A leader (first or second level) of `group` brought the data.
  Outcome on_data(uint32_t group);
  // A probe came back (returning). On SecondLevel, *second is the probe to inject.
  Outcome on_return(const ProbeHeader& h, ProbeHeader* second);
  // The load of `group` was answered by the L2 (its selective L2 request): the group is no
  // longer tracked, its probes still out come back stale. No-op for a group not tracked.
  void finish(uint32_t group);

  const Params& params() const { return p_; }
  bool full() const { return groups_.size() >= p_.max_requests; }
  size_t tracked() const { return groups_.size(); }
  const ProbeGroup* group(uint32_t id) const;
  uint64_t started() const { return started_; }
  uint64_t probes_sent() const { return probes_sent_; }       // first- and second-level
  uint64_t second_levels() const { return second_levels_; }
  uint64_t found() const { return found_; }
  uint64_t failed() const { return failed_; }                 // early releases asked for
  uint64_t finished_by_l2() const { return by_l2_; }          // answered by the L2 with probes out
  uint64_t stale_returns() const { return stale_; }
  // Registers the counts as derived stats of `g` (name prefix "probing_").
  void add_stats(StatGroup& g) const;

 private:
  void order_by_route(ProbeHeader& h) const;  // visit_order = route: nearest-next tour from self_

  const Params p_;
  const unsigned self_, cores_;
  SeededRng rng_;
  const bool route_;             // visit_order == "route"
  std::vector<unsigned> hops_;   // cores x cores request-network hops (set_hops); empty until set
  uint32_t next_group_ = 0;
  std::map<uint32_t, ProbeGroup> groups_;
  uint64_t started_ = 0, probes_sent_ = 0, second_levels_ = 0, found_ = 0, failed_ = 0, stale_ = 0, by_l2_ = 0;
};

}  // namespace probe
}  // namespace gpusc
