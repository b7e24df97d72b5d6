#include "harness/third_party_tlm.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace gpusc::tb {

using sc_core::sc_time;

void Agenda::at(const sc_time& when, std::function<void()> f) {
  q_.emplace(when, std::move(f));
  ev_.notify(when - sc_core::sc_time_stamp());
}

void Agenda::run_due() {
  const sc_time now = sc_core::sc_time_stamp();
  while (!q_.empty() && q_.begin()->first <= now) {
    auto f = std::move(q_.begin()->second);
    q_.erase(q_.begin());
    f();
  }
  if (!q_.empty()) ev_.notify(q_.begin()->first - now);
}

// ---- PlainMemory ----

PlainMemory::PlainMemory(sc_core::sc_module_name name, Style style, uint64_t bytes, sc_time latency,
                         sc_time accept_delay)
    : sc_core::sc_module(name), style_(style), bytes_(bytes), latency_(latency), accept_delay_(accept_delay) {
  SC_HAS_PROCESS(PlainMemory);
  if (style == Style::FourPhase && !(accept_delay < latency)) throw std::invalid_argument("accept_delay >= latency");
  socket.bind(*static_cast<tlm::tlm_fw_transport_if<>*>(this));
  SC_METHOD(step);
  sensitive << agenda_.event();
  dont_initialize();
}

void PlainMemory::step() { agenda_.run_due(); }

unsigned char PlainMemory::byte(uint64_t a) const {
  auto it = pages_.find(a / 4096);
  return it == pages_.end() ? 0 : it->second[a % 4096];
}

void PlainMemory::execute(tlm::tlm_generic_payload& gp) {
  const uint64_t a = gp.get_address();
  const unsigned n = gp.get_data_length();
  if (a + n > bytes_) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  const unsigned char* be = gp.get_byte_enable_ptr();
  const unsigned be_len = gp.get_byte_enable_length();
  max_addr_ = std::max(max_addr_, a + n);
  for (unsigned done = 0; done < n;) {
    const uint64_t at = a + done, page = at / 4096, off = at % 4096;
    const unsigned len = static_cast<unsigned>(std::min<uint64_t>(n - done, 4096 - off));
    auto it = pages_.find(page);
    if (gp.is_write() && it == pages_.end()) it = pages_.emplace(page, std::vector<unsigned char>(4096, 0)).first;
    for (unsigned b = 0; b < len; ++b) {
      const unsigned i = done + b;  // byte i of the transaction; byte enables repeat every be_len
      if (be && be[i % be_len] != TLM_BYTE_ENABLED) continue;
      if (gp.is_read())
        gp.get_data_ptr()[i] = it == pages_.end() ? 0 : it->second[off + b];
      else if (gp.is_write())
        it->second[off + b] = gp.get_data_ptr()[i];
    }
    done += len;
  }
  if (gp.is_read()) ++reads_;
  if (gp.is_write()) ++writes_;
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

tlm::tlm_sync_enum PlainMemory::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_time& t) {
  if (ph == tlm::END_RESP) {
    if (&gp != resp_open_) throw std::logic_error("PlainMemory: END_RESP for a transaction not in its response phase");
    resp_open_ = nullptr;
    agenda_.at(sc_core::sc_time_stamp() + t, [this] { send_responses(); });
    return tlm::TLM_COMPLETED;
  }
  if (ph != tlm::BEGIN_REQ) throw std::logic_error("PlainMemory: unexpected phase on the forward path");
  const sc_time now = sc_core::sc_time_stamp() + t;
  execute(gp);
  switch (style_) {
    case Style::EarlyCompletion:
      t += latency_;
      return tlm::TLM_COMPLETED;
    case Style::UpdatedBeginResp:
      if (resp_open_ || !resp_q_.empty()) break;  // response exclusion: fall back to a later BEGIN_RESP
      t += latency_;
      ph = tlm::BEGIN_RESP;
      resp_open_ = &gp;
      return tlm::TLM_UPDATED;
    case Style::UpdatedEndReq:
      ph = tlm::END_REQ;
      agenda_.at(now + latency_, [this, &gp] { respond(&gp); });
      return tlm::TLM_UPDATED;
    case Style::FourPhase:
      agenda_.at(now + accept_delay_, [this, &gp] {
        tlm::tlm_phase p = tlm::END_REQ;
        sc_time d = sc_core::SC_ZERO_TIME;
        socket->nb_transport_bw(gp, p, d);
      });
      agenda_.at(now + latency_, [this, &gp] { respond(&gp); });
      return tlm::TLM_ACCEPTED;
    case Style::RespEndsReq:
      break;
  }
  agenda_.at(now + latency_, [this, &gp] { respond(&gp); });
  return tlm::TLM_ACCEPTED;
}

void PlainMemory::respond(tlm::tlm_generic_payload* gp) {
  resp_q_.push_back(gp);
  send_responses();
}

void PlainMemory::send_responses() {
  while (!resp_open_ && !resp_q_.empty()) {
    tlm::tlm_generic_payload* gp = resp_q_.front();
    resp_q_.erase(resp_q_.begin());
    tlm::tlm_phase ph = tlm::BEGIN_RESP;
    sc_time d = sc_core::SC_ZERO_TIME;
    const tlm::tlm_sync_enum r = socket->nb_transport_bw(*gp, ph, d);
    if (r == tlm::TLM_ACCEPTED) resp_open_ = gp;
  }
}

void PlainMemory::b_transport(tlm::tlm_generic_payload& gp, sc_time& t) {
  execute(gp);
  t += latency_;
}

// ---- PlainInitiator ----

struct PlainInitiator::Mm : tlm::tlm_mm_interface {
  std::vector<std::unique_ptr<tlm::tlm_generic_payload>> all;
  std::vector<std::unique_ptr<std::vector<unsigned char>>> bufs;
  std::vector<tlm::tlm_generic_payload*> free_list;
  tlm::tlm_generic_payload* get(unsigned bytes) {
    tlm::tlm_generic_payload* gp;
    if (free_list.empty()) {
      all.push_back(std::make_unique<tlm::tlm_generic_payload>(this));
      bufs.push_back(std::make_unique<std::vector<unsigned char>>(256));
      gp = all.back().get();
      gp->set_data_ptr(bufs.back()->data());
    } else {
      gp = free_list.back();
      free_list.pop_back();
    }
    if (bytes > 256) throw std::invalid_argument("PlainInitiator: request over 256 bytes");
    gp->acquire();
    return gp;
  }
  void free(tlm::tlm_generic_payload* gp) override {
    unsigned char* d = gp->get_data_ptr();
    gp->reset();
    gp->set_data_ptr(d);
    free_list.push_back(gp);
  }
};

PlainInitiator::PlainInitiator(sc_core::sc_module_name name, Style style, std::vector<Request> script,
                               unsigned max_open, sc_time annotate, sc_time resp_delay)
    : sc_core::sc_module(name),
      style_(style),
      script_(std::move(script)),
      max_open_(max_open),
      annotate_(annotate),
      resp_delay_(resp_delay),
      mm_(std::make_unique<Mm>()) {
  SC_HAS_PROCESS(PlainInitiator);
  socket.bind(*static_cast<tlm::tlm_bw_transport_if<>*>(this));
  SC_METHOD(step);
  sensitive << agenda_.event();
  dont_initialize();
  agenda_.at(sc_core::SC_ZERO_TIME, [this] { issue(); });
}

PlainInitiator::~PlainInitiator() = default;

size_t PlainInitiator::payloads_in_use() const { return mm_->all.size() - mm_->free_list.size(); }

void PlainInitiator::step() { agenda_.run_due(); }

void PlainInitiator::issue() {
  if (in_req_ || open_ >= max_open_ || next_ >= script_.size()) return;
  const Request& q = script_[next_++];
  tlm::tlm_generic_payload& gp = *mm_->get(q.length);
  gp.set_command(q.cmd);
  gp.set_address(q.address);
  gp.set_data_length(q.length);
  gp.set_streaming_width(q.length);
  gp.set_byte_enable_ptr(nullptr);
  gp.set_byte_enable_length(0);
  gp.set_dmi_allowed(false);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  std::memset(gp.get_data_ptr(), q.cmd == tlm::TLM_WRITE_COMMAND ? q.fill : 0xEE, q.length);
  ++open_;
  in_req_ = &gp;
  tlm::tlm_phase ph = tlm::BEGIN_REQ;
  sc_time t = annotate_;
  const tlm::tlm_sync_enum r = socket->nb_transport_fw(gp, ph, t);
  const sc_time at = sc_core::sc_time_stamp() + t;
  if (r == tlm::TLM_COMPLETED) {
    in_req_ = nullptr;
    agenda_.at(at, [this, &gp] { complete(gp); });
    agenda_.at(at, [this] { issue(); });
  } else if (r == tlm::TLM_UPDATED && ph == tlm::END_REQ) {
    in_req_ = nullptr;
    agenda_.at(at, [this] { issue(); });
  } else if (r == tlm::TLM_UPDATED && ph == tlm::BEGIN_RESP) {
    in_req_ = nullptr;
    agenda_.at(at, [this, &gp] {
      tlm::tlm_phase p = tlm::END_RESP;
      sc_time d = sc_core::SC_ZERO_TIME;
      socket->nb_transport_fw(gp, p, d);
      complete(gp);
      issue();
    });
  }
}

tlm::tlm_sync_enum PlainInitiator::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_time& t) {
  const sc_time at = sc_core::sc_time_stamp() + t;
  if (ph == tlm::END_REQ) {
    if (in_req_ != &gp) throw std::logic_error("PlainInitiator: END_REQ for a transaction not in its request phase");
    in_req_ = nullptr;
    agenda_.at(at, [this] { issue(); });
    return tlm::TLM_ACCEPTED;
  }
  if (ph != tlm::BEGIN_RESP) throw std::logic_error("PlainInitiator: unexpected phase on the backward path");
  if (in_req_ == &gp) in_req_ = nullptr;  // BEGIN_RESP ends the request phase
  agenda_.at(at, [this] { issue(); });
  switch (style_) {
    case Style::TwoPhase:
      agenda_.at(at, [this, &gp] { complete(gp); });
      return tlm::TLM_COMPLETED;
    case Style::UpdatedEndResp:
      ph = tlm::END_RESP;
      agenda_.at(at, [this, &gp] { complete(gp); });
      return tlm::TLM_UPDATED;
    case Style::FourPhase:
      agenda_.at(at + resp_delay_, [this, &gp] {
        tlm::tlm_phase p = tlm::END_RESP;
        sc_time d = sc_core::SC_ZERO_TIME;
        socket->nb_transport_fw(gp, p, d);
        complete(gp);
        issue();
      });
      return tlm::TLM_ACCEPTED;
  }
  return tlm::TLM_ACCEPTED;
}

void PlainInitiator::complete(tlm::tlm_generic_payload& gp) {
  Response r{gp.get_address(), gp.get_response_status(),
             std::vector<unsigned char>(gp.get_data_ptr(), gp.get_data_ptr() + gp.get_data_length()),
             sc_core::sc_time_stamp()};
  done_.push_back(std::move(r));
  --open_;
  gp.release();
}

}  // namespace gpusc::tb
