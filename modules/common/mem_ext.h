// MemExt: the one TLM-2.0 extension every gpusc memory transaction carries (DESIGN §3).
// The generic payload holds command, address, data pointer and length; MemExt adds what
// GPU memory-system and NoC models need to route, merge and account for the transaction.
// Masks: a 128 B line has 4 sectors of 32 B (sector_mask bits 0..3) and 32 words of 4 B
// (word_mask bits 0..31); smaller lines use the low bits (paper 002 §3.1, paper 004 §4.1.1).
#pragma once
#include <cstdint>
#include <vector>

#include <systemc>
#include <tlm>

#include "common/dest_set.h"

namespace gpusc {

enum class MemKind : uint8_t { Read, Write, Atomic, Probe, Nack, ProbeReply };
const char* to_string(MemKind k);

// The timestamps of one request up to the memory partition, and the node that sent it.
struct RequestStamps {
  uint32_t node = 0;
  sc_core::sc_time t_issue, t_req_inject, t_mem_accept;
};

struct MemExt : tlm::tlm_extension<MemExt> {
  MemKind kind = MemKind::Read;
  bool is_reply = false;        // false: request travelling to memory; true: its reply
  uint32_t src = 0;             // originating unit / network node id
  uint32_t dst = 0;             // destination node id (unicast)
  DestSet dests;                // destination set for a multicast reply (empty = unicast dst)
  uint32_t warp = 0;            // warp id within the source SM
  uint64_t pc = 0;              // PC of the memory instruction
  uint32_t sector_mask = 0;     // 32 B sectors touched
  uint32_t word_mask = 0;       // 4 B words touched
  // Data bytes on the wire when they differ from the payload's data_length (a compressed reply,
  // e.g. paper 002's DPC): the NI packetizes this many bytes; the data buffer keeps data_length
  // bytes of plain data. 0 = data_length.
  uint32_t wire_bytes = 0;
  uint32_t kernel_id = 0;
  uint32_t cta_id = 0;
  // Probe fields (paper 000): who started the probe, hops so far, leader/scout flag.
  uint32_t probe_origin = 0;
  uint8_t probe_hops = 0;
  bool probe_leader = false;
  // Timestamps (simulation time) for latency split: request / memory / reply.
  sc_core::sc_time t_issue, t_req_inject, t_mem_accept, t_reply_inject, t_done;
  // A reply merged for several requesters (PacketCoalescingUnit): the stamps of each requester
  // whose read was grouped into it; the fields above stay those of the read that became the
  // reply (src). Empty otherwise.
  std::vector<RequestStamps> grouped;

  // The stamps of the request `node` sent: its entry in `grouped`, else this payload's own.
  RequestStamps stamps_of(uint32_t node) const;

  void clear() { *this = MemExt{}; }
  tlm::tlm_extension_base* clone() const override { return new MemExt(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const MemExt&>(other);
  }
};

// The MemExt of a payload; an SC_REPORT_ERROR names `who` when it is missing (a malformed payload).
MemExt& mem_ext(tlm::tlm_generic_payload& gp, const char* who);

// Data bytes a message carries on a wire (a network or a link): the payload length for
// write/atomic requests and read/atomic/probe replies (MemExt::wire_bytes instead when set: a
// compressed payload), 0 for control messages (read requests, acks, probes, NACKs).
inline uint32_t wire_data_bytes(const tlm::tlm_generic_payload& gp, const MemExt& e) {
  const bool carries = e.is_reply ? (e.kind == MemKind::Read || e.kind == MemKind::Atomic || e.kind == MemKind::ProbeReply)
                                  : (e.kind == MemKind::Write || e.kind == MemKind::Atomic);
  if (!carries) return 0;
  return e.wire_bytes ? e.wire_bytes : gp.get_data_length();
}

}  // namespace gpusc
