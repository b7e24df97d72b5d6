// RtlGroupingRegisters: the PCU's request grouping registers as RTL, rtl/pcu_rgr.v verilated
// (`verilator --sc`, N = 1024 RGRs of which `entries` are used, 41-bit blocks and 64 destination
// bits as in paper 001 §3.2) behind pin adapters (modules/rtl): an RgrAccess
// (coalesce/rgr_access.h) the PacketCoalescingUnit takes instead of the C++ model with
// rgr_model = rtl. Each operation is a gpusc message (the read or reply payload itself) through
// MsgToValidReady onto the RTL's req / rel port; each answer comes back through ValidReadyToMsg
// in the same cycle, in the delta cycles after the RTL clock's edge (rtl/rtl_clock.h), and is
// handed to the PCU's callbacks, then on_answered. The RTL's one-cycle latency is the edge the
// C++ model's answer happens in, so the PCU's timing does not change.
// Limits (errors at construction or on the operation): entries 1..1024, max_nodes <= 64, blocks
// below 2^41 (the RTL's fields). A build without Verilator has no RTL: make_rtl_grouping_registers
// is then an error saying so.
#pragma once
#include <memory>

#include "coalesce/rgr_access.h"
#include "common/clock_domain.h"

namespace gpusc {

struct RtlGroupingRegistersLimits {
  static constexpr unsigned kMaxEntries = 1024;  // N of the verilated rtl/pcu_rgr.v
  static constexpr unsigned kNodes = 64;         // destination bits (001 §3.2)
  static constexpr unsigned kBlockBits = 41;     // block address bits (001 §3.2)
};

// A child module `name` of the module being constructed, clocked by `clk`.
std::unique_ptr<RgrAccess> make_rtl_grouping_registers(const char* name, ClockDomain& clk, unsigned entries,
                                                       unsigned max_nodes);

}  // namespace gpusc
