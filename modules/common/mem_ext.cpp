#include "common/mem_ext.h"

#include <string>

namespace gpusc {

const char* to_string(MemKind k) {
  switch (k) {
    case MemKind::Read: return "read";
    case MemKind::Write: return "write";
    case MemKind::Atomic: return "atomic";
    case MemKind::Probe: return "probe";
    case MemKind::Nack: return "nack";
    case MemKind::ProbeReply: return "probe_reply";
  }
  return "?";
}

RequestStamps MemExt::stamps_of(uint32_t node) const {
  for (const RequestStamps& s : grouped)
    if (s.node == node) return s;
  return {src, t_issue, t_req_inject, t_mem_accept};
}

MemExt& mem_ext(tlm::tlm_generic_payload& gp, const char* who) {
  MemExt* e = nullptr;
  gp.get_extension(e);
  if (!e) {
    std::string msg = "payload for address 0x";
    char buf[24];
    snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(gp.get_address()));
    msg += buf;
    msg += " has no gpusc::MemExt; every gpusc transaction must come from a PayloadPool";
    SC_REPORT_ERROR(who, msg.c_str());
  }
  return *e;
}

}  // namespace gpusc
