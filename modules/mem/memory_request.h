// Checks shared by the memory models behind an L2 (DramChannel, BandwidthMemory): what they
// accept on their request port.
#pragma once
#include <tlm>

#include "common/mem_ext.h"

namespace gpusc {

// The request's MemExt after checking that it is a request (not a reply), a Read or a Write
// (write-back), and no longer than one line; otherwise an error naming `who`.
MemExt& checked_memory_request(tlm::tlm_generic_payload& gp, const char* who, unsigned line_bytes);

}  // namespace gpusc
