// ProbeExt: the TLM extension that carries paper 000's probe traffic state on a payload, next to
// MemExt (common/mem_ext.h). The generic units never read it: a probe travels the request network
// as a MemKind::Probe / MemKind::Nack control message (one flit: the NI sizes it by MemExt), and
// its header (probe_header.h: leader/scout, group, requester, targets, candidates; 189 bits for
// the paper's 15 targets, so one 32 B flit, §III-F) rides here. Only the probe folder's units
// (ProbeHandler, the deflection HeadHook of ProbeFabric) read it.
// A handler attaches one to each payload of its own pool the first time it uses it; the payload
// owns it from then on (tlm_generic_payload deletes set extensions when destroyed) and `role` is
// reset when the payload is reused.
#pragma once
#include <cstdint>

#include <tlm>

#include "probe/probe_header.h"

namespace gpusc::probe {

struct ProbeExt : tlm::tlm_extension<ProbeExt> {
  enum class Role : uint8_t {
    None,         // not probe traffic (a reused payload)
    Probe,        // a probe on its way to a target (request network, MemKind::Probe)
    Return,       // a probe back at / on its way to its requester: NACK or candidate list (MemKind::Nack)
    DataReply,    // a remote L1's line for the requester (reply network, MemKind::ProbeReply)
    SelectiveL2,  // the L2 request of a predicted-shared miss (a copy of the L1's fetch)
    // LA-LLC (last_sharer_llc.h): the requester's own L1 fetch, forwarded by the L2
    LlcForward,   // L2 -> last sharer (reply network, MemKind::Probe, header only)
    LlcMiss,      // last sharer -> back to the L2 (request network, MemKind::Read): the L2 serves it
    LlcServed     // last sharer -> requester: its L1 had the line (reply network, MemKind::Read reply)
  };
  Role role = Role::None;
  ProbeHeader h;         // Probe / Return: the header; DataReply / SelectiveL2: group and requester
  uint8_t supplier = 0;  // DataReply: the core whose L1 had the line
  unsigned home = 0;     // LlcForward / LlcMiss: platform id of the memory partition that forwarded it
  // Tracing only (core cycles): when a Probe / Return entered its current core's injection queue,
  // and when it entered the request network.
  uint64_t queued = 0, sent = 0;

  tlm::tlm_extension_base* clone() const override { return new ProbeExt(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override { *this = static_cast<const ProbeExt&>(o); }
};

// The payload's ProbeExt if it is probe traffic (role != None), else nullptr.
inline ProbeExt* probe_ext(const tlm::tlm_generic_payload& gp) {
  ProbeExt* x = gp.get_extension<ProbeExt>();
  return x && x->role != ProbeExt::Role::None ? x : nullptr;
}

}  // namespace gpusc::probe
