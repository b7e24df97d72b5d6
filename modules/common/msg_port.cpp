#include "common/msg_port.h"

#include "common/report.h"

namespace gpusc {

MsgOut::MsgOut(const char* name) : tlm::tlm_initiator_socket<32>(name) { bind(*static_cast<tlm::tlm_bw_transport_if<>*>(this)); }

bool MsgOut::send(tlm::tlm_generic_payload& gp) {
  if (pending_)
    error(name(), "protocol violation: BEGIN_REQ sent while the previous message's END_REQ is withheld");
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);  // a new transaction, even for a reused payload
  tlm::tlm_phase ph = tlm::BEGIN_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  ++sent_;
  const tlm::tlm_sync_enum r = (*this)->nb_transport_fw(gp, ph, t);
  if (r == tlm::TLM_COMPLETED) return true;
  if (r == tlm::TLM_UPDATED) {
    if (ph == tlm::END_REQ) {  // taken; the target owes a BEGIN_RESP
      ++awaiting_resp_;
      return true;
    }
    if (ph == tlm::BEGIN_RESP) {  // taken and answered at once: end the response phase
      end_response(gp, t);
      return true;
    }
    error(name(), "target answered BEGIN_REQ with TLM_UPDATED and phase ", ph);
  }
  if (ph != tlm::BEGIN_REQ) error(name(), "target answered BEGIN_REQ with TLM_ACCEPTED and the phase changed to ", ph);
  pending_ = &gp;
  ++stalls_;
  return false;
}

void MsgOut::end_response(tlm::tlm_generic_payload& gp, sc_core::sc_time t) {
  tlm::tlm_phase ph = tlm::END_RESP;  // no earlier than the response (the annotation t)
  if ((*this)->nb_transport_fw(gp, ph, t) != tlm::TLM_COMPLETED)
    error(name(), "target did not answer END_RESP with TLM_COMPLETED");
}

tlm::tlm_sync_enum MsgOut::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time&) {
  if (&gp == pending_ && (ph == tlm::END_REQ || ph == tlm::BEGIN_RESP)) {
    pending_ = nullptr;
    if (ph == tlm::END_REQ) ++awaiting_resp_;  // BEGIN_RESP follows later
    if (on_accept_) on_accept_();
    return ph == tlm::END_REQ ? tlm::TLM_ACCEPTED : tlm::TLM_COMPLETED;
  }
  if (ph == tlm::BEGIN_RESP && awaiting_resp_ > 0) {  // the response to a message taken with END_REQ
    --awaiting_resp_;
    return tlm::TLM_COMPLETED;
  }
  error(name(), "unexpected backward call (phase ", ph, ") for a message that is not pending");
}

MsgIn::MsgIn(const char* name, Accept accept) : tlm::tlm_target_socket<32>(name), accept_(std::move(accept)) {
  bind(*static_cast<tlm::tlm_fw_transport_if<>*>(this));
}

tlm::tlm_sync_enum MsgIn::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time&) {
  if (ph == tlm::END_RESP) {
    if (&gp != resp_open_) error(name(), "END_RESP for a message whose response phase is not open");
    resp_open_ = nullptr;
    if (pending_) retry();  // a message refused meanwhile may now be answered (its owner may be asleep)
    return tlm::TLM_COMPLETED;
  }
  if (ph != tlm::BEGIN_REQ) error(name(), "unexpected phase ", ph, " on a message target (BEGIN_REQ or END_RESP)");
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
  // Response exclusion: no BEGIN_RESP while the initiator has not ended the previous response.
  if (!pending_ || resp_open_ || !accept_(*pending_)) return false;
  tlm::tlm_generic_payload* gp = pending_;
  pending_ = nullptr;
  gp->set_response_status(tlm::TLM_OK_RESPONSE);
  if (tap_) tap_(*gp);
  tlm::tlm_phase ph = tlm::BEGIN_RESP;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum r = (*this)->nb_transport_bw(*gp, ph, t);
  if (r == tlm::TLM_ACCEPTED) {
    if (ph != tlm::BEGIN_RESP) error(name(), "initiator answered BEGIN_RESP with TLM_ACCEPTED and the phase changed");
    resp_open_ = gp;  // END_RESP follows on the forward path
  } else if (r == tlm::TLM_UPDATED && ph != tlm::END_RESP) {
    error(name(), "initiator answered BEGIN_RESP with TLM_UPDATED and phase ", ph, " (END_RESP expected)");
  }
  return true;
}

void MsgIn::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t) {
  if (!b_) error(name(), "this unit has no loosely-timed (b_transport) path");
  b_(gp, t);
}

}  // namespace gpusc
