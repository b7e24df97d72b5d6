#include "multigpu/rdma_decoalescer.h"

#include <cstring>

#include "common/mem_ext.h"
#include "common/report.h"
#include "multigpu/rdma_packet.h"

namespace gpusc::multigpu {

RdmaDecoalescer::RdmaDecoalescer(sc_core::sc_module_name name, const Params& p, ClockDomain& clk)
    : sc_core::sc_module(name),
      p_(p),
      clk_(clk),
      packets_(stats_.counter("packets", Unit::Packets, "coalesced packets split")),
      responses_(stats_.counter("responses", Unit::Count, "responses sent out of coalesced packets")),
      passthrough_(stats_.counter("passthrough", Unit::Count, "regular messages forwarded unchanged")),
      refused_(stats_.counter("refused", Unit::Count, "messages refused on `in` for want of queue room")) {
  validate(p_, this->name());
  in.set_accept([this](tlm::tlm_generic_payload& gp) { return accept(gp); });
  out.on_accept([this] { clk_.wake_after_now(*this); });
}

bool RdmaDecoalescer::accept(tlm::tlm_generic_payload& gp) {
  if (q_.size() >= p_.queue) {
    ++refused_;
    return false;
  }
  if (const RdmaPacketExt* x = coalesced_packet(gp)) {
    const unsigned wire = x->transactions * (x->id_bytes + x->data_bytes);
    unsigned txns = 0;
    for (const auto& it : x->items) txns += it.words;
    if (x->items.empty() || txns != x->transactions || gp.get_data_length() != wire)
      error(name(), "malformed coalesced packet: ", x->items.size(), " responses of ", txns, " transactions, header says ",
            x->transactions, ", data_length ", gp.get_data_length(), " (expected ", wire, ")");
  }
  const uint64_t latch = clk_.cycle_after(sc_core::sc_time_stamp());
  q_.push_back(Msg{&gp, latch});
  clk_.wake(*this, latch);
  return true;
}

tlm::tlm_generic_payload& RdmaDecoalescer::rebuild(Msg& m) {
  const RdmaPacketExt& x = *coalesced_packet(*m.gp);
  const RdmaPacketExt::Item& it = x.items[m.next];
  tlm::tlm_generic_payload& r = *it.response;
  const RdmaIdExt* id = rdma_id(r);
  const unsigned entry = x.id_bytes + x.data_bytes;
  const unsigned char* wire = m.gp->get_data_ptr();
  unsigned char* data = r.get_data_ptr();
  for (unsigned w = 0; w < it.words; ++w) {
    const unsigned char* slot = wire + (m.txn + w) * entry;
    unsigned wire_id = 0;
    for (unsigned k = 0; k < x.id_bytes; ++k) wire_id |= unsigned(slot[k]) << (8 * k);
    if (!id || wire_id != id->id)
      error(name(), "coalesced packet transaction ", m.txn + w, " carries response ID ", wire_id,
            " but its response (address 0x", std::hex, r.get_address(), std::dec, ") has ",
            id ? "ID " + std::to_string(id->id) : std::string("no ID"));
    if (data) std::memcpy(data + w * x.data_bytes, slot + x.id_bytes, x.data_bytes);
  }
  r.set_data_length(it.words * x.data_bytes);
  m.txn += it.words;
  ++m.next;
  return r;
}

bool RdmaDecoalescer::tick(uint64_t cycle) {
  for (unsigned sent = 0; sent < p_.per_cycle; ++sent) {
    if (out.busy() || q_.empty()) return false;  // on_accept / accept wake us
    Msg& m = q_.front();
    if (m.at > cycle) {
      clk_.wake(*this, m.at);
      return false;
    }
    if (coalesced_packet(*m.gp)) {
      tlm::tlm_generic_payload& r = rebuild(m);
      ++responses_;
      const bool last = m.next == coalesced_packet(*m.gp)->items.size();
      if (last) {
        ++packets_;
        m.gp->release();
        q_.pop_front();
        in.retry();
      }
      out.send(r);
    } else {
      tlm::tlm_generic_payload* gp = m.gp;
      q_.pop_front();
      ++passthrough_;
      in.retry();
      out.send(*gp);
    }
  }
  return !out.busy() && !q_.empty();
}

}  // namespace gpusc::multigpu
