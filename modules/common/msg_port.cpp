#include "common/msg_port.h"

#include "common/report.h"

namespace gpusc {

MsgOut::MsgOut(const char* name) : tlm::tlm_initiator_socket<32>(name) { bind(*static_cast<tlm::tlm_bw_transport_if<>*>(this)); }

bool MsgOut::send(tlm::tlm_generic_payload& gp) {
  if (pending_)
    error(name(), "protocol violation: BEGIN_REQ sent while the previous message's END_REQ is withheld");
  tlm::tlm_phase ph = tlm::BEGIN_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  ++sent_;
  const tlm::tlm_sync_enum r = (*this)->nb_transport_fw(gp, ph, t);
  if (r == tlm::TLM_COMPLETED) return true;
  if (r == tlm::TLM_UPDATED && (ph == tlm::END_REQ || ph == tlm::BEGIN_RESP))
    error(name(), "target answered with phase ", ph, "; gpusc message targets complete or withhold END_REQ");
  pending_ = &gp;
  ++stalls_;
  return false;
}

tlm::tlm_sync_enum MsgOut::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time&) {
  if (&gp != pending_ || (ph != tlm::BEGIN_RESP && ph != tlm::END_REQ))
    error(name(), "unexpected backward call (phase ", ph, ") for a message that is not pending");
  pending_ = nullptr;
  if (on_accept_) on_accept_();
  return tlm::TLM_COMPLETED;
}

MsgIn::MsgIn(const char* name, Accept accept) : tlm::tlm_target_socket<32>(name), accept_(std::move(accept)) {
  bind(*static_cast<tlm::tlm_fw_transport_if<>*>(this));
}

tlm::tlm_sync_enum MsgIn::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time&) {
  if (ph != tlm::BEGIN_REQ) error(name(), "unexpected phase ", ph, " on a message target (only BEGIN_REQ is used)");
  if (pending_) error(name(), "protocol violation: BEGIN_REQ while END_REQ is withheld for an earlier message");
  if (!accept_) error(name(), "message target has no handler bound");
  ++received_;
  if (accept_(gp)) {
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    if (tap_) tap_(gp);
    return tlm::TLM_COMPLETED;
  }
  pending_ = &gp;
  return tlm::TLM_ACCEPTED;
}

bool MsgIn::retry() {
  if (!pending_ || !accept_(*pending_)) return false;
  tlm::tlm_generic_payload* gp = pending_;
  pending_ = nullptr;
  gp->set_response_status(tlm::TLM_OK_RESPONSE);
  if (tap_) tap_(*gp);
  tlm::tlm_phase ph = tlm::BEGIN_RESP;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  (*this)->nb_transport_bw(*gp, ph, t);
  return true;
}

void MsgIn::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t) {
  if (!b_) error(name(), "this unit has no loosely-timed (b_transport) path");
  b_(gp, t);
}

}  // namespace gpusc
