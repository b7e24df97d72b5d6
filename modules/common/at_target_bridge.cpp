#include "common/at_target_bridge.h"

#include <algorithm>
#include <cstring>

#include "common/report.h"

namespace gpusc {

AtTargetBridge::AtTargetBridge(sc_core::sc_module_name name, const Params& p, Route route)
    : sc_core::sc_module(name), p_(p), route_(std::move(route)), pool_(p.max_bytes) {
  SC_HAS_PROCESS(AtTargetBridge);
  if (p_.max_bytes == 0 || p_.line_bytes == 0 || p_.line_bytes > 128 || p_.max_outstanding == 0)
    error(this->name(), "max_bytes and max_outstanding must be >= 1 and line_bytes in 1..128");
  if (!route_) error(this->name(), "no route given");
  socket.bind(*static_cast<tlm::tlm_fw_transport_if<>*>(this));
  in.set_accept([this](tlm::tlm_generic_payload& gp) {
    if (!inside_.count(&gp))
      error(this->name(), "a reply arrived that is not the payload of a request this bridge sent (a unit that "
                          "answers with another payload, e.g. a merged reply, cannot sit behind this boundary)");
    replies_.push_back(&gp);
    wake_.notify(sc_core::SC_ZERO_TIME);
    return true;
  });
  out.on_accept([this] { wake_.notify(sc_core::SC_ZERO_TIME); });
  SC_METHOD(pump);
  sensitive << wake_;
  dont_initialize();
}

tlm::tlm_sync_enum AtTargetBridge::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                                   sc_core::sc_time& t) {
  if (ph == tlm::END_RESP) {
    if (&gp != resp_open_) error(name(), "END_RESP for a transaction whose response phase is not open");
    resp_open_ = nullptr;
    resp_free_at_ = sc_core::sc_time_stamp() + t;
    wake_.notify(t);
    return tlm::TLM_COMPLETED;
  }
  if (ph != tlm::BEGIN_REQ) error(name(), "phase ", ph, " on the forward path (BEGIN_REQ or END_RESP expected)");
  if (req_) error(name(), "BEGIN_REQ while an earlier request has not received END_REQ (request exclusion rule)");
  ++begun_;
  if (const tlm::tlm_response_status s = refusal(gp); s != tlm::TLM_INCOMPLETE_RESPONSE) {
    gp.set_response_status(s);
    return tlm::TLM_COMPLETED;
  }
  req_ = &gp;
  req_at_ = sc_core::sc_time_stamp() + t;
  wake_.notify(t);
  return tlm::TLM_ACCEPTED;
}

tlm::tlm_response_status AtTargetBridge::refusal(const tlm::tlm_generic_payload& gp) const {
  if (gp.get_command() == tlm::TLM_IGNORE_COMMAND) return tlm::TLM_OK_RESPONSE;
  if (gp.get_data_length() == 0 || gp.get_data_length() > p_.max_bytes ||
      gp.get_streaming_width() < gp.get_data_length())
    return tlm::TLM_BURST_ERROR_RESPONSE;
  if (gp.get_byte_enable_ptr() && !word_enables(gp)) return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
  return tlm::TLM_INCOMPLETE_RESPONSE;
}

bool AtTargetBridge::word_enables(const tlm::tlm_generic_payload& gp) const {
  const unsigned n = gp.get_data_length();
  const uint64_t off = gp.get_address() % p_.line_bytes;
  if (!gp.is_write() || gp.get_byte_enable_length() != n || n % 4 || off % 4 || off + n > p_.line_bytes) return false;
  const unsigned char* be = gp.get_byte_enable_ptr();
  for (unsigned w = 0; w < n / 4; ++w)
    for (unsigned b = 1; b < 4; ++b)
      if (be[4 * w + b] != be[4 * w] || (be[4 * w] != 0 && be[4 * w] != 0xff)) return false;
  return true;
}

tlm::tlm_generic_payload& AtTargetBridge::internal_of(const tlm::tlm_generic_payload& ext) {
  tlm::tlm_generic_payload& gp = pool_.acquire();
  MemExt& e = *gp.get_extension<MemExt>();
  const unsigned len = ext.get_data_length();
  gp.set_command(ext.get_command());
  gp.set_address(ext.get_address());
  gp.set_data_length(len);
  gp.set_streaming_width(len);
  if (ext.is_write()) std::memcpy(gp.get_data_ptr(), ext.get_data_ptr(), len);
  if (ext.get_byte_enable_ptr()) {  // word enables (checked): gpusc's packed partial write
    const uint64_t off = ext.get_address() % p_.line_bytes;
    unsigned k = 0;
    for (unsigned w = 0; w < len / 4; ++w)
      if (ext.get_byte_enable_ptr()[4 * w]) {
        std::memcpy(gp.get_data_ptr() + 4 * k++, ext.get_data_ptr() + 4 * w, 4);
        e.word_mask |= 1u << (off / 4 + w);
        e.sector_mask |= 1u << ((off + 4 * w) / 32);
      }
    gp.set_address(ext.get_address() - off);
    gp.set_data_length(k ? 4 * k : 4);
    gp.set_streaming_width(gp.get_data_length());
  }
  if (const MemExt* own = ext.get_extension<MemExt>()) {
    const uint32_t wm = e.word_mask, sm = e.sector_mask;
    e.copy_from(*own);
    e.is_reply = false;
    if (ext.get_byte_enable_ptr()) e.word_mask = wm, e.sector_mask = sm;
    return gp;
  }
  e.kind = ext.is_write() ? MemKind::Write : MemKind::Read;
  if (!ext.get_byte_enable_ptr()) {
    const uint64_t off = ext.get_address() % p_.line_bytes;
    const uint64_t last = std::min<uint64_t>(off + len, p_.line_bytes) - 1;  // within this line
    for (uint64_t w = off / 4; w <= last / 4; ++w) e.word_mask |= 1u << w;
    for (uint64_t s = off / 32; s <= last / 32; ++s) e.sector_mask |= 1u << s;
    // Whole words inside one line, not from its start: gpusc's partial write, as an SM sends it
    // (line address, word_mask, the words packed: here they are contiguous, so already packed).
    if (ext.is_write() && off && off % 4 == 0 && len % 4 == 0 && off + len <= p_.line_bytes)
      gp.set_address(ext.get_address() - off);
  }
  e.t_issue = sc_core::sc_time_stamp();
  route_(ext, e);
  return gp;
}

void AtTargetBridge::pump() {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  // An AT request whose BEGIN_REQ has taken effect and that is not inside gpusc yet.
  const auto at_due = [&] { return req_ && !req_internal_ && req_at_ <= now; };
  // The request phase: hand the request in, END_REQ once gpusc has taken it.
  if (at_due() && window_free()) {
    tlm::tlm_generic_payload& gp = internal_of(*req_);
    inside_[&gp] = req_;
    req_internal_ = &gp;
    out.send(gp);  // withheld: out.busy() until on_accept wakes us
  }
  if (req_ && req_internal_ && !out.busy()) {
    tlm::tlm_generic_payload* ext = req_;
    req_ = nullptr;
    req_internal_ = nullptr;
    tlm::tlm_phase ph = tlm::END_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    if (socket->nb_transport_bw(*ext, ph, t) != tlm::TLM_ACCEPTED)
      error(name(), "initiator did not answer END_REQ with TLM_ACCEPTED");
  } else if (req_ && req_at_ > now) {
    wake_.notify(req_at_ - now);
  }
  // A b_transport request when no AT request is due (the AT request phase goes first).
  if (!blocking_.empty() && !at_due() && window_free()) {
    tlm::tlm_generic_payload& gp = internal_of(*blocking_.front());
    inside_[&gp] = blocking_.front();
    blocking_.pop_front();
    out.send(gp);
  }
  // The response phase: one at a time, from when the previous one ended (END_RESP's annotation).
  // A b_transport request's reply needs no phase: its caller's thread wakes.
  while (!resp_open_ && !replies_.empty() && (resp_free_at_ <= now || lt_.count(inside_.at(replies_.front())))) {
    tlm::tlm_generic_payload* gp = replies_.front();
    replies_.pop_front();
    auto it = inside_.find(gp);
    tlm::tlm_generic_payload& ext = *it->second;
    inside_.erase(it);
    if (ext.is_read() && gp->get_data_ptr())
      std::memcpy(ext.get_data_ptr(), gp->get_data_ptr(), std::min(ext.get_data_length(), gp->get_data_length()));
    gp->release();
    ext.set_response_status(tlm::TLM_OK_RESPONSE);
    if (auto lt = lt_.find(&ext); lt != lt_.end()) {
      lt->second = true;
      lt_done_.notify(sc_core::SC_ZERO_TIME);
      continue;
    }
    tlm::tlm_phase ph = tlm::BEGIN_RESP;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    const tlm::tlm_sync_enum r = socket->nb_transport_bw(ext, ph, t);
    if (r == tlm::TLM_ACCEPTED) {
      if (ph != tlm::BEGIN_RESP) error(name(), "initiator answered BEGIN_RESP with TLM_ACCEPTED and the phase changed");
      resp_open_ = &ext;
    } else if (r == tlm::TLM_UPDATED && ph != tlm::END_RESP) {
      error(name(), "initiator answered BEGIN_RESP with TLM_UPDATED and phase ", ph, " (END_RESP expected)");
    } else {
      resp_free_at_ = now + t;  // TLM_COMPLETED or TLM_UPDATED(END_RESP), annotated t
    }
  }
  if (!resp_open_ && !replies_.empty() && resp_free_at_ > now) wake_.notify(resp_free_at_ - now);
  // A freed window slot may admit the waiting request.
  if ((at_due() || !blocking_.empty()) && window_free())
    wake_.notify(sc_core::SC_ZERO_TIME);
}

void AtTargetBridge::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t) {
  ++begun_;
  if (const tlm::tlm_response_status s = refusal(gp); s != tlm::TLM_INCOMPLETE_RESPONSE) {
    gp.set_response_status(s);
    return;
  }
  if (lt_.count(&gp)) error(name(), "b_transport with a payload already inside gpusc");
  sc_core::wait(t);  // the initiator's local time, synchronized: gpusc runs on the kernel's time
  t = sc_core::SC_ZERO_TIME;
  lt_[&gp] = false;
  blocking_.push_back(&gp);
  wake_.notify(sc_core::SC_ZERO_TIME);
  while (!lt_.at(&gp)) sc_core::wait(lt_done_);
  lt_.erase(&gp);
}

}  // namespace gpusc
