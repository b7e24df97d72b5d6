#include "multigpu/rdma_coalescer.h"

#include <algorithm>
#include <cstring>

#include "common/mem_ext.h"
#include "common/report.h"
#include "multigpu/rdma_packet.h"

namespace gpusc::multigpu {

RdmaCoalescer::RdmaCoalescer(sc_core::sc_module_name name, const Params& p, ClockDomain& clk)
    : sc_core::sc_module(name),
      p_(p),
      clk_(clk),
      pool_(p.per_packet * (p.id_bytes + p.data_bytes)),
      packets_(stats_.counter("packets", Unit::Packets, "coalesced packets sent")),
      full_packets_(stats_.counter("full_packets", Unit::Packets, "packets sent because they were full")),
      timeout_packets_(stats_.counter("timeout_packets", Unit::Packets, "partly full packets flushed by the timeout")),
      responses_(stats_.counter("responses", Unit::Count, "fine-grained responses sent inside coalesced packets")),
      transactions_(stats_.counter("transactions", Unit::Count, "transactions (units of data_bytes) in coalesced packets")),
      passthrough_(stats_.counter("passthrough", Unit::Count, "messages sent unchanged (not coalesced)")),
      refused_(stats_.counter("refused", Unit::Count, "messages refused on `in` for want of buffer room")) {
  validate(p_, this->name());
  if (p_.self >= p_.gpus)
    error(this->name(), "self = ", p_.self, " is not a GPU of the fabric (gpus = ", p_.gpus, ")");
  if (p_.data_bytes % kWordBytes || (p_.data_bytes & (p_.data_bytes - 1)))
    error(this->name(), "data_bytes = ", p_.data_bytes, " must be a power of two and a multiple of the ", kWordBytes,
          " B mask word");
  if (p_.buffer_entries < p_.per_packet)
    error(this->name(), "buffer_entries = ", p_.buffer_entries, " is smaller than per_packet = ", p_.per_packet,
          "; a buffer must hold a full packet");
  for (unsigned g = 0; g < p_.gpus; ++g)
    if (g != p_.self) buf_.push_back(Buffer{g, {}, 0});
  in.set_accept([this](tlm::tlm_generic_payload& gp) { return accept(gp); });
  out.on_accept([this] { clk_.wake_after_now(*this); });
  stats_.derived("transactions_per_packet", Unit::Ratio, "transactions / packets", [this] {
    return packets_.value() ? static_cast<double>(transactions_.value()) / static_cast<double>(packets_.value()) : 0.0;
  });
  stats_.invariant("messages taken == responses in packets + pass-through sent + held", [this] {
    uint64_t held = pass_.size();
    for (const Buffer& b : buf_) held += b.q.size();
    return in.received() - (in.has_pending() ? 1 : 0) == responses_.value() + passthrough_.value() + held;
  });
}

unsigned RdmaCoalescer::buffered(unsigned gpu) const {
  if (gpu >= p_.gpus || gpu == p_.self) return 0;
  return buf_[slot_of(gpu)].txns;
}

bool RdmaCoalescer::idle() const {
  if (!pass_.empty() || out.busy() || in.has_pending()) return false;
  return std::all_of(buf_.begin(), buf_.end(), [](const Buffer& b) { return b.q.empty(); });
}

bool RdmaCoalescer::accept(tlm::tlm_generic_payload& gp) {
  const MemExt& e = mem_ext(gp, name());
  const RdmaIdExt* id = rdma_id(gp);
  const uint64_t latch = clk_.cycle_after(sc_core::sc_time_stamp());
  const unsigned words = static_cast<unsigned>(__builtin_popcountll(e.word_mask));
  const unsigned txns = words * kWordBytes / p_.data_bytes;  // transfer units (whole, checked below)
  if (id && e.is_reply && e.kind == MemKind::Read && txns <= p_.per_packet) {
    if (words == 0 || gp.get_data_length() != words * kWordBytes)
      error(name(), "fine-grained response (ID ", id->id, ", address 0x", std::hex, gp.get_address(), std::dec,
            ") has data_length ", gp.get_data_length(), " but word mask 0x", std::hex, e.word_mask, std::dec, " names ",
            words, " words of ", kWordBytes, " bytes; its data must be the masked words, packed");
    if (!whole_units(e.word_mask))
      error(name(), "fine-grained response (ID ", id->id, ") word mask 0x", std::hex, e.word_mask, std::dec,
            " does not name whole transfer units of data_bytes = ", p_.data_bytes, " (", p_.data_bytes / kWordBytes,
            " aligned words each)");
    const unsigned dst = gpu_of_ ? gpu_of_(e.dst) : e.dst;
    if (dst >= p_.gpus || dst == p_.self)
      error(name(), "fine-grained response (ID ", id->id, ") for GPU ", dst, ": the destination must be another GPU "
            "of the fabric (0 .. ", p_.gpus - 1, ", self = ", p_.self, ")");
    if (p_.id_bytes < 2 && id->id >= (1u << (8 * p_.id_bytes)))
      error(name(), "response ID ", id->id, " does not fit id_bytes = ", p_.id_bytes);
    Buffer& b = buf_[slot_of(dst)];
    if (b.txns + txns > p_.buffer_entries) {
      ++refused_;
      return false;
    }
    b.q.push_back(Resp{&gp, id->id, txns, latch});
    b.txns += txns;
  } else {
    if (pass_.size() >= p_.passthrough_queue) {
      ++refused_;
      return false;
    }
    pass_.push_back(Pass{&gp, latch});
  }
  clk_.wake(*this, latch);
  return true;
}

bool RdmaCoalescer::whole_units(uint64_t mask) const {
  const unsigned per = p_.data_bytes / kWordBytes;
  if (per == 1) return true;
  const uint64_t unit = per >= 64 ? ~uint64_t{0} : (uint64_t{1} << per) - 1;
  for (unsigned i = 0; i < 64 && (mask >> i); i += per) {
    const uint64_t g = (mask >> i) & unit;
    if (g && g != unit) return false;
  }
  return true;
}

RdmaCoalescer::Plan RdmaCoalescer::plan(const Buffer& b, uint64_t cycle) const {
  Plan pl;
  bool closed = false;  // a latched response did not fit the packet
  for (const Resp& r : b.q) {
    if (r.at > cycle) {
      pl.next_latch = r.at;
      break;
    }
    pl.any = true;
    pl.last_at = r.at;
    if (closed) continue;
    if (pl.txns + r.txns > p_.per_packet) {
      closed = true;
      continue;
    }
    pl.txns += r.txns;
    ++pl.responses;
  }
  pl.full = closed || pl.txns == p_.per_packet;
  pl.timed_out = pl.any && cycle >= pl.last_at + p_.timeout;
  return pl;
}

void RdmaCoalescer::send_packet(Buffer& b, const Plan& pl) {
  tlm::tlm_generic_payload& pkt = pool_.acquire();
  RdmaPacketExt* x = pkt.get_extension<RdmaPacketExt>();
  if (!x) {
    x = new RdmaPacketExt;  // stays with this pooled payload (freed with it)
    pkt.set_extension(x);
  }
  x->format = RdmaPacketExt::Format::Coalesced;
  x->id_bytes = static_cast<uint8_t>(p_.id_bytes);
  x->data_bytes = static_cast<uint8_t>(p_.data_bytes);
  x->transactions = pl.txns;
  x->items.clear();
  const unsigned entry = p_.id_bytes + p_.data_bytes;
  unsigned char* wire = pkt.get_data_ptr();
  unsigned t = 0;
  for (unsigned i = 0; i < pl.responses; ++i) {
    const Resp r = b.q.front();
    b.q.pop_front();
    b.txns -= r.txns;
    x->items.push_back(RdmaPacketExt::Item{r.gp, r.id, static_cast<uint8_t>(r.txns)});
    const unsigned char* data = r.gp->get_data_ptr();
    for (unsigned w = 0; w < r.txns; ++w, ++t) {
      unsigned char* slot = wire + t * entry;
      for (unsigned k = 0; k < p_.id_bytes; ++k) slot[k] = static_cast<unsigned char>(r.id >> (8 * k));
      if (data) std::memcpy(slot + p_.id_bytes, data + w * p_.data_bytes, p_.data_bytes);
      else std::memset(slot + p_.id_bytes, 0, p_.data_bytes);
    }
  }
  MemExt& e = *pkt.get_extension<MemExt>();
  e.kind = MemKind::Read;
  e.is_reply = true;
  e.src = p_.self;
  e.dst = gpu_of_ ? mem_ext(*x->items.front().response, name()).dst : b.gpu;
  pkt.set_command(tlm::TLM_READ_COMMAND);
  pkt.set_address(x->items.front().response->get_address());
  pkt.set_data_length(pl.txns * entry);
  pkt.set_streaming_width(pl.txns * entry);
  ++packets_;
  ++(pl.full ? full_packets_ : timeout_packets_);
  responses_ += pl.responses;
  transactions_ += pl.txns;
  out.send(pkt);
}

bool RdmaCoalescer::tick(uint64_t cycle) {
  if (out.busy()) return false;  // on_accept wakes us
  const unsigned n = static_cast<unsigned>(buf_.size()) + 1;
  // Up to per_cycle sends, each to the next ready participant in round-robin order, while out is free.
  for (unsigned sent = 0; sent < p_.per_cycle && !out.busy(); ++sent) {
    bool any = false;
    for (unsigned k = 0; k < n && !any; ++k) {
      const unsigned i = (rr_ + k) % n;
      if (i + 1 == n) {
        if (pass_.empty() || pass_.front().at > cycle) continue;
        tlm::tlm_generic_payload* gp = pass_.front().gp;
        pass_.pop_front();
        ++passthrough_;
        out.send(*gp);
      } else {
        const Plan pl = plan(buf_[i], cycle);
        if (!pl.full && !pl.timed_out) continue;
        send_packet(buf_[i], pl);
      }
      rr_ = (i + 1) % n;
      in.retry();  // room was freed: a refused message may enter (latched next cycle)
      any = true;
    }
    if (!any) break;
  }
  if (out.busy()) return false;
  // The earliest cycle something may become ready.
  uint64_t next = UINT64_MAX;
  if (!pass_.empty()) next = std::max(pass_.front().at, cycle + 1);
  for (const Buffer& b : buf_) {
    if (b.q.empty()) continue;
    const Plan pl = plan(b, cycle);
    if (pl.full || pl.timed_out) next = std::min(next, cycle + 1);
    if (pl.any) next = std::min(next, pl.last_at + p_.timeout);
    next = std::min(next, pl.next_latch);
  }
  if (next == UINT64_MAX) return false;
  if (next <= cycle + 1) return true;
  clk_.wake(*this, next);
  return false;
}

}  // namespace gpusc::multigpu
