#include "multigpu/rdma_word_selector.h"

#include <cstring>

#include "common/mem_ext.h"
#include "common/report.h"
#include "multigpu/rdma_packet.h"

namespace gpusc::multigpu {

RdmaWordSelector::RdmaWordSelector(sc_core::sc_module_name name, const Params& p)
    : sc_core::sc_module(name),
      p_(p),
      selected_(stats_.counter("selected", Unit::Count, "fine-grained replies cut to their words")),
      passthrough_(stats_.counter("passthrough", Unit::Count, "other messages passed unchanged")),
      bytes_saved_(stats_.counter("bytes_saved", Unit::Bytes, "data bytes of the lines not sent")) {
  validate(p_, this->name());
  if (p_.line_bytes % p_.word_bytes || p_.line_bytes / p_.word_bytes > 32)
    error(this->name(), "line_bytes = ", p_.line_bytes, " must be a multiple of word_bytes = ", p_.word_bytes,
          " with at most 32 words (MemExt::word_mask)");
  in.set_accept([this](tlm::tlm_generic_payload& gp) { return accept(gp); });
  out.on_accept([this] { in.retry(); });
}

bool RdmaWordSelector::accept(tlm::tlm_generic_payload& gp) {
  if (out.busy()) return false;
  MemExt& e = mem_ext(gp, name());
  if (rdma_id(gp) && e.is_reply && e.kind == MemKind::Read) {
    const unsigned words = p_.line_bytes / p_.word_bytes;
    const uint64_t all = words >= 32 ? 0xffffffffull : (uint64_t{1} << words) - 1;
    if (e.word_mask == 0 || (e.word_mask & ~all))
      error(name(), "fine-grained reply for 0x", std::hex, gp.get_address(), " has word mask 0x", e.word_mask, std::dec,
            ": it must name words of its ", p_.line_bytes, " B line");
    unsigned char* d = gp.get_data_ptr();
    unsigned k = 0;
    for (unsigned w = 0; w < words; ++w) {
      if (!((e.word_mask >> w) & 1u)) continue;
      if (d && k != w) std::memmove(d + k * p_.word_bytes, d + w * p_.word_bytes, p_.word_bytes);
      ++k;
    }
    bytes_saved_ += gp.get_data_length() > k * p_.word_bytes ? gp.get_data_length() - k * p_.word_bytes : 0;
    gp.set_data_length(k * p_.word_bytes);
    gp.set_streaming_width(k * p_.word_bytes);
    ++selected_;
  } else {
    ++passthrough_;
  }
  out.send(gp);
  return true;
}

}  // namespace gpusc::multigpu
