// MsgOut / MsgIn: TLM-2.0 sockets that carry one-way messages with the approximately-timed
// base protocol and real back-pressure (DESIGN §3, STYLE P9). Memory requests, replies, probes
// and NACKs all travel this way between gpusc units; a request and its reply are two messages
// (the reply usually reuses the request's payload).
//
// Protocol (all delays zero; the receiver latches input at its next clock edge):
//   initiator --BEGIN_REQ--> target
//     target has room : returns TLM_COMPLETED                    (message taken)
//     target is full  : returns TLM_ACCEPTED, keeps the message, withholds END_REQ;
//                       later calls BEGIN_RESP on the backward path (implies END_REQ) when
//                       it takes it; the initiator answers TLM_COMPLETED.
//   The initiator may not send again while END_REQ is withheld (request exclusion rule).
// Ownership: send() hands over the caller's reference to the payload (acquire/release); the
// final consumer releases it.
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
  tlm::tlm_generic_payload* pending_ = nullptr;
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
  uint64_t received_ = 0;
};

}  // namespace gpusc
