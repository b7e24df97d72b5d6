// MsgOut / MsgIn: gpusc's internal message convention (DESIGN §3, STYLE P9, docs/tlm.md): TLM-2.0
// sockets that carry one-way messages with real back-pressure between gpusc units. Memory
// requests, replies, probes and NACKs all travel this way; a request and its reply are two
// messages (the reply usually reuses the request's payload). This is NOT the full base protocol
// at the level of payload ownership: send() hands the caller's reference over to the receiver,
// which keeps using the payload after the transaction has completed, and internal payloads may
// carry a null data pointer (no values attached). Models from outside gpusc are bound through
// the boundary bridges (common/at_initiator_bridge.h, common/at_target_bridge.h), which speak the
// full base protocol; see docs/tlm.md.
//
// Phases (all delays zero; the receiver latches input at its next clock edge). Between gpusc
// units only the first two sequences occur; the others are the remaining legal base-protocol
// sequences, which both ports accept from a peer that uses them:
//   BEGIN_REQ -> TLM_COMPLETED                       target has room: message taken (early completion)
//   BEGIN_REQ -> TLM_ACCEPTED ... bw BEGIN_RESP      target full: END_REQ withheld; BEGIN_RESP (implies
//                 -> TLM_COMPLETED                   END_REQ) when the target takes it
//   BEGIN_REQ -> TLM_UPDATED(END_REQ) ... bw BEGIN_RESP -> TLM_COMPLETED   (MsgOut: taken at END_REQ)
//   BEGIN_REQ -> TLM_ACCEPTED ... bw END_REQ -> TLM_ACCEPTED ... bw BEGIN_RESP -> TLM_COMPLETED
//   BEGIN_REQ -> TLM_UPDATED(BEGIN_RESP); MsgOut sends END_RESP at once
//   MsgIn: bw BEGIN_RESP -> TLM_ACCEPTED, later fw END_RESP: no other BEGIN_RESP until then
//   (response exclusion); a message refused meanwhile is retried when END_RESP arrives (from
//   inside that END_RESP call: its BEGIN_RESP is a nested backward call).
// MsgOut sets the response status to TLM_INCOMPLETE_RESPONSE on every send (a reused payload is a
// new transaction); MsgIn sets TLM_OK_RESPONSE when its owner takes the message.
// The initiator may not send again while END_REQ is withheld (request exclusion rule).
#pragma once
#include <functional>

#include <systemc>
#include <tlm>

namespace gpusc {

class MsgOut : public tlm::tlm_initiator_socket<32>, private tlm::tlm_bw_transport_if<> {
 public:
  explicit MsgOut(const char* name = "out");
  // Offers gp to the target. true: taken, the port is free again; false: the target holds it
  // but withholds END_REQ, busy() stays true until it takes it and on_accept runs.
  bool send(tlm::tlm_generic_payload& gp);
  bool busy() const { return pending_ != nullptr; }
  // Called (from the target's process) when a withheld message is finally taken.
  void on_accept(std::function<void()> f) { on_accept_ = std::move(f); }
  uint64_t sent() const { return sent_; }
  uint64_t stalls() const { return stalls_; }

 private:
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
  void end_response(tlm::tlm_generic_payload& gp, sc_core::sc_time t);
  tlm::tlm_generic_payload* pending_ = nullptr;
  uint64_t awaiting_resp_ = 0;  // messages taken with END_REQ whose BEGIN_RESP is still due
  std::function<void()> on_accept_;
  uint64_t sent_ = 0, stalls_ = 0;
};

class MsgIn : public tlm::tlm_target_socket<32>, private tlm::tlm_fw_transport_if<> {
 public:
  // accept(gp) returns true when the owner took the message (it now owns the reference),
  // false when it has no room: the message is then held here until retry() succeeds.
  using Accept = std::function<bool(tlm::tlm_generic_payload&)>;
  explicit MsgIn(const char* name = "in", Accept accept = {});
  void set_accept(Accept a) { accept_ = std::move(a); }
  // Optional observer, called with each message right after the owner took it (at once or on a
  // later retry()): platforms stamp timestamps and feed monitors here without a unit of their own.
  // Owners latch input in accept() and act at their next edge, so the payload is still valid.
  void set_tap(std::function<void(tlm::tlm_generic_payload&)> f) { tap_ = std::move(f); }
  // Optional loosely-timed path (caches, DRAM); without one b_transport is an error.
  void set_b_transport(std::function<void(tlm::tlm_generic_payload&, sc_core::sc_time&)> f) { b_ = std::move(f); }
  bool has_pending() const { return pending_ != nullptr; }
  // Offers the held message to accept() again; on success releases the initiator.
  bool retry();
  uint64_t received() const { return received_; }

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t) override;
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }
  Accept accept_;
  std::function<void(tlm::tlm_generic_payload&)> tap_;
  std::function<void(tlm::tlm_generic_payload&, sc_core::sc_time&)> b_;
  tlm::tlm_generic_payload* pending_ = nullptr;
  tlm::tlm_generic_payload* resp_open_ = nullptr;  // BEGIN_RESP answered TLM_ACCEPTED: END_RESP due
  uint64_t received_ = 0;
};

}  // namespace gpusc
