// ProbeGroup: the requester-side state of one request probed by two-level probing (paper 000
// §III-D, §III-F "In case of a returning own leader/scout"). The group starts with one leader and
// probes - 1 scouts in flight (first level):
//   * the leader brings the data at its first hit -> Found (the load is answered);
//   * the leader returns with a NACK (its list exhausted) and scouts return with candidate
//     suppliers; once every first-level probe is back and the leader failed:
//       - candidates -> SecondLevel: one leader-like probe walks the candidates in order (a
//         candidate that evicted the line meanwhile is simply a miss there and is skipped,
//         probe_header.h visit()); its data -> Found, its NACK -> Failed;
//       - no candidate -> Failed: early release of the selective L2 request (timeout_handler.h).
// Choices the paper left open:
//   * candidate order: scouts in the order they return, each scout's list in its walk order;
//   * the second-level probe is sent only when ALL first-level probes are back (a candidate list
//     can only be complete then); a scout that returns after the leader found the data changes
//     nothing (Found stays Found; the owner may already have retired the group);
//   * Failed after a second level that found nothing is also an early release.
#pragma once
#include <cstdint>
#include <vector>

#include "probe/probe_header.h"

namespace gpusc::probe {

class ProbeGroup {
 public:
  enum class Phase { FirstLevel, SecondLevel, Found, Failed };
  // What the owner does after a returning probe.
  enum class Next {
    Wait,         // probes still out
    SecondLevel,  // inject second_level_probe()
    Found,        // the load is answered by remote data
    Failed,       // nobody had it: early release to the L2
    Ignored       // a return after the group was decided (late scout)
  };

  // `probes` first-level probes (1 leader + probes - 1 scouts) are in flight for `address`.
  ProbeGroup(uint32_t group, unsigned requester, uint64_t address, unsigned probes);

  // The leader (first or second level) brought the data.
  Next on_data();
  // A probe of this group came back to the requester (returning: NACK or candidate list).
  Next on_return(const ProbeHeader& h);

  Phase phase() const { return phase_; }
  bool decided() const { return phase_ == Phase::Found || phase_ == Phase::Failed; }
  uint32_t group() const { return group_; }
  unsigned outstanding() const { return outstanding_; }
  const std::vector<unsigned>& candidates() const { return candidates_; }
  const ProbeHeader& second_level_probe() const { return second_; }  // valid after Next::SecondLevel

 private:
  const uint32_t group_;
  const unsigned requester_;
  const uint64_t address_;
  Phase phase_ = Phase::FirstLevel;
  unsigned outstanding_;
  bool leader_failed_ = false;
  std::vector<unsigned> candidates_;
  ProbeHeader second_;
};

}  // namespace gpusc::probe
