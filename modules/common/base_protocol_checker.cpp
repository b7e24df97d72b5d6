#include "common/base_protocol_checker.h"

#include <sstream>

#include "common/report.h"

namespace gpusc {

namespace {
const char* phase_name(const tlm::tlm_phase& ph) {
  if (ph == tlm::BEGIN_REQ) return "BEGIN_REQ";
  if (ph == tlm::END_REQ) return "END_REQ";
  if (ph == tlm::BEGIN_RESP) return "BEGIN_RESP";
  if (ph == tlm::END_RESP) return "END_RESP";
  return "a non-base-protocol phase";
}
}  // namespace

BaseProtocolChecker::BaseProtocolChecker(sc_core::sc_module_name name) : sc_core::sc_module(name) {
  target_socket.bind(*static_cast<tlm::tlm_fw_transport_if<>*>(this));
  initiator_socket.bind(*static_cast<tlm::tlm_bw_transport_if<>*>(this));
}

template <class... A>
void BaseProtocolChecker::violation(const tlm::tlm_generic_payload* gp, const A&... parts) {
  std::ostringstream os;
  os << "base protocol violation: ";
  (os << ... << parts);
  if (gp) os << " (payload " << static_cast<const void*>(gp) << ", address 0x" << std::hex << gp->get_address() << ")";
  violations_.push_back(os.str());
  if (fatal_) error(name(), violations_.back());
}

BaseProtocolChecker::Snapshot BaseProtocolChecker::snapshot(const tlm::tlm_generic_payload& gp) const {
  Snapshot s{gp.get_command(), gp.get_address(), gp.get_data_ptr(), gp.get_data_length(), gp.get_byte_enable_ptr(),
             gp.get_byte_enable_length(), gp.get_streaming_width(), {}};
  for (unsigned i = 0; i < tlm::max_num_extensions(); ++i)
    if (gp.get_extension(i)) s.exts.push_back(i);
  return s;
}

void BaseProtocolChecker::check_request(const tlm::tlm_generic_payload& gp, const char* where) {
  if (gp.get_response_status() != tlm::TLM_INCOMPLETE_RESPONSE)
    violation(&gp, where, ": response status is ", gp.get_response_string(), ", not TLM_INCOMPLETE_RESPONSE");
  const tlm::tlm_command c = gp.get_command();
  if (c != tlm::TLM_READ_COMMAND && c != tlm::TLM_WRITE_COMMAND && c != tlm::TLM_IGNORE_COMMAND)
    violation(&gp, where, ": command ", static_cast<int>(c), " is not read, write or ignore");
  if (c != tlm::TLM_IGNORE_COMMAND) {
    if (!gp.get_data_ptr()) violation(&gp, where, ": null data pointer on a ", c == tlm::TLM_READ_COMMAND ? "read" : "write");
    if (gp.get_data_length() == 0) violation(&gp, where, ": data length 0");
  }
  if (gp.get_streaming_width() == 0) violation(&gp, where, ": streaming width 0");
  if (gp.get_byte_enable_ptr() && gp.get_byte_enable_length() == 0)
    violation(&gp, where, ": byte enable pointer set with byte enable length 0");
  if (gp.is_dmi_allowed()) violation(&gp, where, ": DMI allowed already true");
  if (gp.has_mm() && gp.get_ref_count() <= 0)
    violation(&gp, where, ": payload with a memory manager and reference count ", gp.get_ref_count(),
              " (the initiator must hold a reference)");
}

void BaseProtocolChecker::check_unchanged(const tlm::tlm_generic_payload& gp, const Tx& tx, const char* where) {
  const Snapshot& s = tx.snap;
  if (gp.get_command() != s.cmd || gp.get_address() != s.addr || gp.get_data_ptr() != s.data ||
      gp.get_data_length() != s.len || gp.get_byte_enable_ptr() != s.be || gp.get_byte_enable_length() != s.be_len ||
      gp.get_streaming_width() != s.width)
    violation(&gp, where, ": a request attribute (command, address, data pointer or length, byte enables, streaming "
                          "width) changed while the transaction is open");
  for (unsigned i : s.exts)
    if (!gp.get_extension(i)) violation(&gp, where, ": extension slot ", i, " set at BEGIN_REQ is gone");
  if (gp.has_mm() && gp.get_ref_count() <= 0)
    violation(&gp, where, ": reference count ", gp.get_ref_count(), " while the transaction is open");
}

void BaseProtocolChecker::check_answered(const tlm::tlm_generic_payload& gp, const char* where) {
  if (gp.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE)
    violation(&gp, where, ": the target answered with response status still TLM_INCOMPLETE_RESPONSE");
}

void BaseProtocolChecker::advance(Tx& tx, const tlm::tlm_generic_payload& gp, const sc_core::sc_time& t,
                                  const char* where) {
  const sc_core::sc_time at = sc_core::sc_time_stamp() + t;
  if (at < tx.last)
    violation(&gp, where, ": takes effect at ", at, ", before the transaction's previous phase at ", tx.last);
  else
    tx.last = at;
}

void BaseProtocolChecker::enter(tlm::tlm_generic_payload& gp, Tx& tx, tlm::tlm_phase ph, const sc_core::sc_time& t,
                                const char* where) {
  advance(tx, gp, t, where);
  if (ph == tlm::END_REQ) {
    if (tx.st != St::Req) violation(&gp, where, ": END_REQ outside the request phase");
    tx.st = St::WaitResp;
    if (in_req_ == &gp) in_req_ = nullptr;
  } else if (ph == tlm::BEGIN_RESP) {
    if (tx.st == St::Resp) violation(&gp, where, ": BEGIN_RESP twice");
    if (tx.st == St::Req) ++resp_first_;
    if (in_req_ == &gp) in_req_ = nullptr;
    if (in_resp_ && in_resp_ != &gp)
      violation(&gp, where, ": BEGIN_RESP while another transaction (payload ", static_cast<const void*>(in_resp_),
                ") is in its response phase (response exclusion rule)");
    check_answered(gp, where);
    tx.st = St::Resp;
    in_resp_ = &gp;
  } else if (ph == tlm::END_RESP) {
    if (tx.st != St::Resp) violation(&gp, where, ": END_RESP before BEGIN_RESP");
    if (in_resp_ == &gp) in_resp_ = nullptr;
  } else {
    violation(&gp, where, ": phase ", phase_name(ph), " here");
  }
}

void BaseProtocolChecker::finish(tlm::tlm_generic_payload& gp, const char* where) {
  auto it = open_.find(&gp);
  if (it == open_.end()) return;
  if (it->second.st != St::Resp) check_answered(gp, where);  // early completion: no BEGIN_RESP
  if (in_req_ == &gp) in_req_ = nullptr;
  if (in_resp_ == &gp) in_resp_ = nullptr;
  open_.erase(it);
  ++completed_;
}

tlm::tlm_sync_enum BaseProtocolChecker::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                                        sc_core::sc_time& t) {
  const tlm::tlm_phase sent = ph;
  if (ph == tlm::BEGIN_REQ) {
    if (open_.count(&gp)) violation(&gp, "BEGIN_REQ", ": the payload is already in an open transaction");
    if (in_req_ && in_req_ != &gp)
      violation(&gp, "BEGIN_REQ", ": another transaction (payload ", static_cast<const void*>(in_req_),
                ") is still in its request phase (request exclusion rule)");
    check_request(gp, "BEGIN_REQ");
    Tx tx;
    tx.last = sc_core::sc_time_stamp() + t;
    tx.snap = snapshot(gp);
    open_[&gp] = std::move(tx);
    in_req_ = &gp;
    ++begun_;
  } else if (ph == tlm::END_RESP) {
    auto it = open_.find(&gp);
    if (it == open_.end()) {
      violation(&gp, "END_RESP", ": no open transaction for this payload");
    } else {
      check_unchanged(gp, it->second, "END_RESP");
      enter(gp, it->second, tlm::END_RESP, t, "END_RESP");
      ++end_resp_fw_;
    }
  } else {
    violation(&gp, "nb_transport_fw", ": ", phase_name(ph), " on the forward path");
  }

  const tlm::tlm_sync_enum r = initiator_socket->nb_transport_fw(gp, ph, t);

  auto it = open_.find(&gp);
  if (it == open_.end()) return r;  // ended meanwhile (a nested backward call), or never opened
  Tx& tx = it->second;
  const char* where = sent == tlm::BEGIN_REQ ? "return from BEGIN_REQ" : "return from END_RESP";
  if (sent == tlm::END_RESP) {
    if (r != tlm::TLM_COMPLETED) violation(&gp, where, ": END_RESP must be answered TLM_COMPLETED");
    finish(gp, where);
    return r;
  }
  if (r == tlm::TLM_ACCEPTED) {
    if (ph != sent) violation(&gp, where, ": TLM_ACCEPTED with the phase changed to ", phase_name(ph));
  } else if (r == tlm::TLM_UPDATED) {
    check_unchanged(gp, tx, where);
    if (ph == tlm::END_REQ) {
      if (tx.st == St::Req) ++upd_end_req_;
      enter(gp, tx, tlm::END_REQ, t, where);
    } else if (ph == tlm::BEGIN_RESP) {
      enter(gp, tx, tlm::BEGIN_RESP, t, where);
    } else {
      violation(&gp, where, ": TLM_UPDATED with phase ", phase_name(ph));
    }
  } else {  // TLM_COMPLETED
    check_unchanged(gp, tx, where);
    advance(tx, gp, t, where);
    if (tx.st == St::Req) ++early_;
    finish(gp, where);
  }
  return r;
}

tlm::tlm_sync_enum BaseProtocolChecker::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                                        sc_core::sc_time& t) {
  const tlm::tlm_phase sent = ph;
  auto it = open_.find(&gp);
  if (it == open_.end()) {
    violation(&gp, "nb_transport_bw", ": ", phase_name(ph), " for a payload with no open transaction");
    return target_socket->nb_transport_bw(gp, ph, t);
  }
  const char* where = ph == tlm::END_REQ ? "END_REQ" : "BEGIN_RESP";
  check_unchanged(gp, it->second, where);
  if (ph == tlm::END_REQ || ph == tlm::BEGIN_RESP)
    enter(gp, it->second, ph, t, where);
  else
    violation(&gp, "nb_transport_bw", ": ", phase_name(ph), " on the backward path");

  const tlm::tlm_sync_enum r = target_socket->nb_transport_bw(gp, ph, t);

  it = open_.find(&gp);
  if (it == open_.end()) return r;
  Tx& tx = it->second;
  where = sent == tlm::END_REQ ? "return from END_REQ" : "return from BEGIN_RESP";
  if (r == tlm::TLM_ACCEPTED) {
    if (ph != sent) violation(&gp, where, ": TLM_ACCEPTED with the phase changed to ", phase_name(ph));
  } else if (r == tlm::TLM_UPDATED) {
    if (sent == tlm::BEGIN_RESP && ph == tlm::END_RESP) {
      enter(gp, tx, tlm::END_RESP, t, where);
      finish(gp, where);
    } else {
      violation(&gp, where, ": TLM_UPDATED with phase ", phase_name(ph));
    }
  } else {  // TLM_COMPLETED
    advance(tx, gp, t, where);
    finish(gp, where);
  }
  return r;
}

void BaseProtocolChecker::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t) {
  if (open_.count(&gp)) violation(&gp, "b_transport", ": the payload is in an open nb_transport transaction");
  check_request(gp, "b_transport");
  const Snapshot s = snapshot(gp);
  ++begun_;
  initiator_socket->b_transport(gp, t);
  Tx tx;
  tx.snap = s;
  check_unchanged(gp, tx, "return from b_transport");
  check_answered(gp, "return from b_transport");
  ++completed_;
}

bool BaseProtocolChecker::get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& d) {
  return initiator_socket->get_direct_mem_ptr(gp, d);
}

unsigned int BaseProtocolChecker::transport_dbg(tlm::tlm_generic_payload& gp) {
  return initiator_socket->transport_dbg(gp);
}

void BaseProtocolChecker::invalidate_direct_mem_ptr(sc_dt::uint64 a, sc_dt::uint64 b) {
  target_socket->invalidate_direct_mem_ptr(a, b);
}

}  // namespace gpusc
