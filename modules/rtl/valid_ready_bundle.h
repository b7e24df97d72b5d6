// ValidReadyBundle<W>: the three signals of one valid/ready stream of W-bit beats (DESIGN §3 "Pin
// level"): valid and data driven by the source, ready by the sink; a beat moves on a rising edge
// where valid and ready are both high, and a raised valid stays high, with its data, until its
// beat moves. W >= 1; data is an sc_bv<W> (what `verilator --sc --pins-bv 2` gives for every
// port of 2 bits or more). The adapters (rtl/msg_to_valid_ready.h, rtl/valid_ready_to_msg.h) and a
// Verilated module bind to the same bundle. An adapter writes its pins from the clock domain's
// tick or from its RtlClock's process (never both in one delta cycle), hence SC_MANY_WRITERS.
#pragma once
#include <string>

#include <systemc>

namespace gpusc {

template <unsigned W>
struct ValidReadyBundle {
  static_assert(W >= 1, "a valid/ready stream carries at least one bit per beat");
  using Bits = sc_dt::sc_bv<W>;
  sc_core::sc_signal<bool, sc_core::SC_MANY_WRITERS> valid;
  sc_core::sc_signal<bool, sc_core::SC_MANY_WRITERS> ready;
  sc_core::sc_signal<Bits, sc_core::SC_MANY_WRITERS> data;
  // Signals named <name>_valid, <name>_ready, <name>_data in the current module.
  explicit ValidReadyBundle(const std::string& name)
      : valid((name + "_valid").c_str()), ready((name + "_ready").c_str()), data((name + "_data").c_str()) {}
};

}  // namespace gpusc
