#include "common/at_initiator_bridge.h"

#include <algorithm>

#include "common/mem_ext.h"
#include "common/report.h"

namespace gpusc {

AtInitiatorBridge::AtInitiatorBridge(sc_core::sc_module_name name, const Params& p, Reply reply, Address address)
    : sc_core::sc_module(name), p_(p), reply_(std::move(reply)), address_(std::move(address)) {
  if (p_.max_outstanding == 0) error(this->name(), "max_outstanding must be >= 1");
  if (!reply_) error(this->name(), "no reply policy given");
  SC_HAS_PROCESS(AtInitiatorBridge);
  socket.bind(*static_cast<tlm::tlm_bw_transport_if<>*>(this));
  in.set_accept([this](tlm::tlm_generic_payload& gp) { return accept(gp); });
  in.set_b_transport([this](tlm::tlm_generic_payload& gp, sc_core::sc_time& t) { lt(gp, t); });
  out.on_accept([this] { wake_.notify(sc_core::SC_ZERO_TIME); });
  SC_METHOD(pump);
  sensitive << wake_;
  dont_initialize();
}

bool AtInitiatorBridge::reads_reply(tlm::tlm_generic_payload& gp) {
  MemExt& e = mem_ext(gp, "AtInitiatorBridge");
  if (e.kind != MemKind::Read) return false;
  e.is_reply = true;
  return true;
}

bool AtInitiatorBridge::all_reply(tlm::tlm_generic_payload& gp) {
  MemExt& e = mem_ext(gp, "AtInitiatorBridge");
  e.is_reply = true;
  e.dst = e.src;
  return true;
}

bool AtInitiatorBridge::accept(tlm::tlm_generic_payload& gp) {
  // Request exclusion / window full: refuse (the sender keeps it and we retry). Otherwise take it
  // and begin the transaction from our own process, never from inside the sender's call.
  if (in_req_ || starting_ || open_.size() >= p_.max_outstanding) return false;
  if (open_.count(&gp)) error(name(), "a payload already in an open transaction was sent again");
  starting_ = &gp;
  wake_.notify(sc_core::SC_ZERO_TIME);
  return true;  // the message is ours now (we hold its reference for the transaction)
}

AtInitiatorBridge::Open AtInitiatorBridge::prepare(tlm::tlm_generic_payload& gp) {
  Open o{gp.get_address(), gp.get_data_ptr(), {}, false, gp.get_data_length(), {}};
  if (gp.get_data_length() == 0) error(name(), "request with data length 0 at address 0x", std::hex, gp.get_address());
  const MemExt* e = gp.get_extension<MemExt>();
  const uint32_t wm = e && gp.is_write() ? e->word_mask : 0;
  if (wm && (wm & (wm + 1)) != 0 && gp.get_data_length() == 4u * __builtin_popcount(wm)) {
    const unsigned top = 32 - __builtin_clz(wm), len = 4 * top;  // words 0 .. top-1
    if (!spare_.empty()) {
      o.lent = std::move(spare_.back());
      spare_.pop_back();
    }
    o.lent.assign(len, 0);
    o.be.assign(len, 0);
    for (unsigned w = 0, k = 0; w < top; ++w)
      if (wm & (1u << w)) {
        if (o.data) std::copy(o.data + 4 * k, o.data + 4 * k + 4, o.lent.begin() + 4 * w);
        std::fill(o.be.begin() + 4 * w, o.be.begin() + 4 * w + 4, static_cast<unsigned char>(0xff));
        ++k;
      }
    gp.set_data_ptr(o.lent.data());
    gp.set_data_length(len);
    gp.set_byte_enable_ptr(o.be.data());
    gp.set_byte_enable_length(len);
  } else if (!o.data) {
    if (!spare_.empty()) {
      o.lent = std::move(spare_.back());
      spare_.pop_back();
    }
    o.lent.assign(gp.get_data_length(), 0);
    gp.set_data_ptr(o.lent.data());
  }
  if (address_) gp.set_address(address_(o.addr));
  if (gp.get_streaming_width() < gp.get_data_length())
    gp.set_streaming_width(gp.get_data_length());  // gpusc payloads are never streams
  gp.set_dmi_allowed(false);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  return o;
}

void AtInitiatorBridge::restore(tlm::tlm_generic_payload& gp, Open& o) {
  if (!gp.is_response_ok())
    error(name(), "target answered the ", gp.is_read() ? "read" : "write", " of 0x", std::hex, gp.get_address(),
          " with ", gp.get_response_string());
  gp.set_address(o.addr);
  gp.set_data_length(o.len);
  if (!o.be.empty()) {
    gp.set_byte_enable_ptr(nullptr);
    gp.set_byte_enable_length(0);
  }
  if (gp.get_data_ptr() != o.data) {
    gp.set_data_ptr(o.data);
    spare_.push_back(std::move(o.lent));
  }
}

void AtInitiatorBridge::lt(tlm::tlm_generic_payload& gp, sc_core::sc_time& t) {
  Open o = prepare(gp);
  socket->b_transport(gp, t);
  restore(gp, o);
  reply_(gp);  // sets the reply fields; the caller keeps the payload (a functional access)
}

void AtInitiatorBridge::begin(tlm::tlm_generic_payload& gp) {
  Open o = prepare(gp);
  open_.emplace(&gp, std::move(o));
  in_req_ = &gp;
  ++begun_;
  tlm::tlm_phase ph = tlm::BEGIN_REQ;
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  const tlm::tlm_sync_enum r = socket->nb_transport_fw(gp, ph, t);
  if (r == tlm::TLM_COMPLETED) {
    post(gp, Ev::Completed, t);
  } else if (r == tlm::TLM_UPDATED) {
    if (ph == tlm::END_REQ)
      post(gp, Ev::EndReq, t);
    else if (ph == tlm::BEGIN_RESP)
      post(gp, Ev::BeginResp, t);
    else
      error(name(), "target answered BEGIN_REQ with TLM_UPDATED and phase ", ph);
  } else if (ph != tlm::BEGIN_REQ) {
    error(name(), "target answered BEGIN_REQ with TLM_ACCEPTED and the phase changed to ", ph);
  }
}

tlm::tlm_sync_enum AtInitiatorBridge::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                                      sc_core::sc_time& t) {
  if (!open_.count(&gp)) error(name(), "backward call (phase ", ph, ") for a payload with no open transaction");
  if (ph == tlm::END_REQ)
    post(gp, Ev::EndReq, t);
  else if (ph == tlm::BEGIN_RESP)
    post(gp, Ev::BeginResp, t);
  else
    error(name(), "phase ", ph, " on the backward path (END_REQ or BEGIN_RESP expected)");
  return tlm::TLM_ACCEPTED;
}

void AtInitiatorBridge::post(tlm::tlm_generic_payload& gp, Ev ev, const sc_core::sc_time& t) {
  due_.emplace(sc_core::sc_time_stamp() + t, std::make_pair(&gp, ev));
  wake_.notify(t);
}

void AtInitiatorBridge::pump() {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  bool freed = false;
  if (starting_ && !in_req_) {
    tlm::tlm_generic_payload* gp = starting_;
    starting_ = nullptr;
    begin(*gp);
  }
  while (!due_.empty() && due_.begin()->first <= now) {
    auto [gp, ev] = due_.begin()->second;
    due_.erase(due_.begin());
    Open& o = open_.at(gp);
    if (in_req_ == gp) {  // END_REQ, or BEGIN_RESP / completion ending the request phase
      in_req_ = nullptr;
      freed = true;
    }
    o.end_req = true;
    if (ev == Ev::EndReq) continue;
    done_.push_back({gp, ev == Ev::BeginResp});
  }
  while (!done_.empty() && !out.busy()) {
    const Done d = done_.front();
    done_.pop_front();
    finish(d);
    freed = true;
  }
  if (!due_.empty()) wake_.notify(due_.begin()->first - now);
  if (freed && in.has_pending()) in.retry();
}

void AtInitiatorBridge::finish(const Done& d) {
  tlm::tlm_generic_payload& gp = *d.gp;
  if (d.end_resp) {
    tlm::tlm_phase ph = tlm::END_RESP;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    if (socket->nb_transport_fw(gp, ph, t) != tlm::TLM_COMPLETED)
      error(name(), "target did not answer END_RESP with TLM_COMPLETED");
  }
  auto it = open_.find(&gp);
  restore(gp, it->second);
  open_.erase(it);
  if (reply_(gp))
    out.send(gp);  // handed over even if withheld: out.busy() holds further replies
  else
    gp.release();
}

}  // namespace gpusc
