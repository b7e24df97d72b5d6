// AtTargetBridge: the boundary adapter from a standard approximately-timed base-protocol
// initiator (IEEE 1666-2011 ch. 14-16; DESIGN §3; docs/tlm.md) to gpusc's internal message
// convention (common/msg_port.h). Bind any third-party AT initiator (2-phase, 4-phase, one that
// holds END_RESP back) to socket; bind out to a gpusc request receiver and a gpusc reply sender
// to in. Typical use: a GpuBlock's boundary as a target (out -> in(kRequest), out(kReply) -> in),
// or a network interface's TLM side (out -> ni.in[request vnet], ni.out[reply vnet] -> in).
//
// The initiator's payload is never handed into gpusc (gpusc units keep and rewrite the payloads
// they receive): each transaction gets an internal pooled payload with a valid data buffer
// (max_bytes), a copy of command, address, length and (for writes) data, and a MemExt: a copy of
// the initiator's if it attached one (a gpusc-aware initiator routes itself), else kind from the
// command, sector and word masks from address and length within a line_bytes line, and src/dst
// from `route` (e.g. the node of the partition that owns the address). The gpusc reply must come
// back on in as the same internal payload (what an L2 slice does); its data is copied into the
// initiator's buffer for reads, the response status set to TLM_OK_RESPONSE, and BEGIN_RESP sent.
// Phases: BEGIN_REQ is answered TLM_ACCEPTED; END_REQ follows on the backward path when gpusc
// takes the request (a full gpusc receiver withholds it: that is the back-pressure), at
// sc_time_stamp() + the request's timing annotation at the earliest; BEGIN_RESP follows when the
// reply arrives; the initiator may answer it TLM_COMPLETED, TLM_UPDATED with END_RESP, or
// TLM_ACCEPTED and END_RESP later (no other BEGIN_RESP until then: response exclusion).
// Byte enables: a write whose byte enables cover its length (byte enable length = data length),
// whole 4 B words each all 0xff or all 0x00, word-aligned within one line, becomes gpusc's partial
// write (line address, word_mask of the enabled words, their data packed), as an SM sends it;
// so does a write of whole words within one line that does not start at the line's start (its
// words are contiguous, hence already packed), so that an AtInitiatorBridge further on unpacks
// it to its place (found by a network used as a transport between two bridges, ni_conformance_tb).
// Requests the bridge cannot honour complete at once (TLM_COMPLETED) with the standard's error
// status instead of being silently changed: other byte enables (TLM_BYTE_ENABLE_ERROR_RESPONSE),
// a length of 0 or over max_bytes, or a streaming width below the length
// (TLM_BURST_ERROR_RESPONSE). TLM_IGNORE_COMMAND completes at once with TLM_OK_RESPONSE.
// Response exclusion honours END_RESP's timing annotation: after END_RESP (or a BEGIN_RESP
// answered TLM_COMPLETED / TLM_UPDATED(END_RESP)) annotated t, the next BEGIN_RESP goes at
// sc_time_stamp() + t at the earliest.
// Loosely-timed path: b_transport (called from the initiator's thread, as the standard requires)
// applies the same checks and error statuses, waits out its annotation, then its request queues
// with the AT ones for out (the AT request phase goes first) and the caller's thread waits until
// gpusc answers; it returns with the data, TLM_OK_RESPONSE and the annotation zero (the time was
// spent in wait). DMI: none; debug: 0 bytes.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <unordered_map>

#include <systemc>
#include <tlm>

#include "common/mem_ext.h"
#include "common/msg_port.h"
#include "common/payload_pool.h"

namespace gpusc {

class AtTargetBridge : public sc_core::sc_module, private tlm::tlm_fw_transport_if<> {
 public:
  // Sets MemExt::src and MemExt::dst for a request from the initiator (without a MemExt of its own).
  using Route = std::function<void(const tlm::tlm_generic_payload& request, MemExt& e)>;
  struct Params {
    unsigned max_bytes = 128;       // longest request accepted (bytes)
    unsigned line_bytes = 128;      // line the sector / word masks are relative to
    unsigned max_outstanding = 16;  // requests inside gpusc at once
  };

  tlm::tlm_target_socket<32> socket{"socket"};  // the base protocol, from the third-party initiator
  MsgOut out{"out"};                            // request messages into gpusc
  MsgIn in{"in"};                               // reply messages from gpusc

  AtTargetBridge(sc_core::sc_module_name name, const Params& p, Route route);

  uint64_t transactions() const { return begun_; }
  size_t inside() const { return inside_.size(); }  // requests gpusc has not answered yet

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t) override;
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }
  tlm::tlm_generic_payload& internal_of(const tlm::tlm_generic_payload& ext);
  bool word_enables(const tlm::tlm_generic_payload& gp) const;  // byte enables gpusc can carry
  // The error status of a request the bridge cannot honour (TLM_OK_RESPONSE for
  // TLM_IGNORE_COMMAND), or TLM_INCOMPLETE_RESPONSE when it goes into gpusc.
  tlm::tlm_response_status refusal(const tlm::tlm_generic_payload& gp) const;
  bool window_free() const { return !out.busy() && inside_.size() < p_.max_outstanding; }
  void pump();  // SC_METHOD

  const Params p_;
  Route route_;
  PayloadPool pool_;
  tlm::tlm_generic_payload* req_ = nullptr;       // initiator's transaction in its request phase
  sc_core::sc_time req_at_;                       // when it takes effect
  tlm::tlm_generic_payload* req_internal_ = nullptr;  // its message, sent but withheld by out
  std::unordered_map<tlm::tlm_generic_payload*, tlm::tlm_generic_payload*> inside_;  // internal -> initiator's
  std::deque<tlm::tlm_generic_payload*> replies_;  // internal replies waiting for BEGIN_RESP
  tlm::tlm_generic_payload* resp_open_ = nullptr;  // initiator's transaction in its response phase
  sc_core::sc_time resp_free_at_;                  // when the last response phase ended (END_RESP's annotation)
  std::deque<tlm::tlm_generic_payload*> blocking_;  // b_transport requests waiting for out
  std::unordered_map<tlm::tlm_generic_payload*, bool> lt_;  // b_transport requests inside: answered?
  sc_core::sc_event lt_done_;
  sc_core::sc_event wake_;
  uint64_t begun_ = 0;
};

}  // namespace gpusc
