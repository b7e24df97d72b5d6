#include "mem/memory_request.h"

#include "common/report.h"

namespace gpusc {

MemExt& checked_memory_request(tlm::tlm_generic_payload& gp, const char* who, unsigned line_bytes) {
  MemExt& e = mem_ext(gp, who);
  if (e.is_reply) error(who, "received a reply (is_reply = true); a memory takes requests only");
  if (e.kind != MemKind::Read && e.kind != MemKind::Write)
    error(who, "takes Read and Write (write-back) requests only, got ", to_string(e.kind));
  if (gp.get_data_length() > line_bytes)
    error(who, "request of ", gp.get_data_length(), " bytes exceeds one line (line_bytes = ", line_bytes, ")");
  return e;
}

}  // namespace gpusc
