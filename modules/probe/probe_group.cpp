#include "probe/probe_group.h"

#include "common/report.h"

namespace gpusc::probe {

namespace {
constexpr const char* kWho = "gpusc.probe.group";
}

ProbeGroup::ProbeGroup(uint32_t group, unsigned requester, uint64_t address, unsigned probes)
    : group_(group), requester_(requester), address_(address), outstanding_(probes) {
  if (probes < 1) error(kWho, "group ", group, " started with no probe");
}

ProbeGroup::Next ProbeGroup::on_data() {
  if (decided() || (phase_ == Phase::FirstLevel && leader_failed_))
    error(kWho, "group ", group_, ": a data reply arrived but no leader of this group is searching");
  phase_ = Phase::Found;
  return Next::Found;
}

ProbeGroup::Next ProbeGroup::on_return(const ProbeHeader& h) {
  if (h.group != group_ || !h.returning)
    error(kWho, "group ", group_, ": got a probe that is not one of its returning probes (group ", h.group, ")");
  if (decided()) return Next::Ignored;
  if (phase_ == Phase::SecondLevel) {  // only the second-level leader is out
    if (!h.leader) error(kWho, "group ", group_, ": a scout returned during the second level");
    phase_ = Phase::Failed;
    return Next::Failed;
  }
  if (!outstanding_) error(kWho, "group ", group_, ": more probes returned than were sent");
  if (h.leader) {
    if (leader_failed_) error(kWho, "group ", group_, ": the leader returned twice");
    leader_failed_ = true;
  } else {
    for (unsigned i = 0; i < h.n_candidates; ++i) candidates_.push_back(h.candidates[i]);
  }
  if (--outstanding_) return Next::Wait;
  if (!leader_failed_)
    error(kWho, "group ", group_, ": every probe returned but the leader neither brought data nor a NACK");
  if (candidates_.empty()) {
    phase_ = Phase::Failed;
    return Next::Failed;
  }
  second_ = ProbeHeader{};
  second_.leader = true;
  second_.group = group_;
  second_.requester = static_cast<uint8_t>(requester_);
  second_.address = address_;
  for (unsigned c : candidates_) second_.add_target(c);
  phase_ = Phase::SecondLevel;
  outstanding_ = 1;
  return Next::SecondLevel;
}

}  // namespace gpusc::probe
