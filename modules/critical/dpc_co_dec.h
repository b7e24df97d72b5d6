// DpcCoDec: the DPC compressor/decompressor pair as a latency model (paper 002 §3.4.1, Figure
// 3.6 pipeline, Figure 3.10 data flow: DPC compression at the MC, decompression at the SM). Not
// an sc_module: the unit that owns it (the PacketDataFilter at the MC) calls compress() when a
// reply enters the compressor and holds the reply compress_latency cycles; decompress_latency
// is the SM side's, which the filter charges at the MC as a stand-in until the SM has a
// decompressor of its own (PacketDataFilter::Params::charge_decompress).
// Named DpcCoDec, not CoDec: paper 004's CoDec (modules/multigpu) is another unit.
// Choices the thesis leaves open: the latencies (it gives none; DPC is a remap, a per-plane
// all-0/all-1 test and a shift network: 2 cycles to compress and 1 to decompress are our
// defaults); the compressor is pipelined (one line per cycle).
// model: which implementation the owner runs: this C++ model, or the RTL (rtl/dpc_compressor.v,
// rtl/dpc_decompressor.v, driven through critical/rtl_dpc_codec.h), whose latencies are fixed
// by its pipeline (2 and 1, these defaults); the owner refuses other latencies with model = rtl.
#pragma once
#include <cstdint>
#include <string>

#include "common/params.h"
#include "critical/dpc_codec.h"

namespace gpusc {

class DpcCoDec {
 public:
  struct Params {
    unsigned compress_latency = 2;    // a line enters the compressor to its encoding ready [cycles]
    unsigned decompress_latency = 1;  // an encoding arrives to its line restored [cycles]
    std::string model = "cpp";        // cpp | rtl: this C++ model or the verilated RTL (co-simulation)
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_C(model, "cpp|rtl",
                    "the codec: this C++ model, or rtl/dpc_compressor.v + rtl/dpc_decompressor.v verilated behind pin "
                    "adapters (bit-exact; latencies 2 and 1; needs a build with Verilator, docs/rtl-cosim.md)");
      GPUSC_PARAM_R(compress_latency, 0, 1000, "DPC compression latency at the MC [cycles] (not in 002: our choice 2)");
      GPUSC_PARAM_R(decompress_latency, 0, 1000, "DPC decompression latency at the SM [cycles] (not in 002: our choice 1)");
    }
  };

  DpcCoDec(const Params& p, DpcCodec::Mode mode) : p_(p), mode_(mode) {}

  // Encodes `line` for critical sectors `map` (DpcCodec::encode in this codec's mode) and adds
  // the sizes to the running totals.
  DpcCodec::Encoded compress(const uint8_t* line, unsigned map);
  // Plain DPC of the whole line, whatever the mode (a full-data request).
  DpcCodec::Encoded compress_full(const uint8_t* line);
  DpcCodec::Decoded decompress(const DpcCodec::Encoded& e) const { return DpcCodec::decode(e); }

  unsigned compress_latency() const { return p_.compress_latency; }
  unsigned decompress_latency() const { return p_.decompress_latency; }
  DpcCodec::Mode mode() const { return mode_; }
  const Params& params() const { return p_; }
  // Totals over every compress() / compress_full(): lines, raw bits in (1024 per line), bits out.
  uint64_t lines() const { return lines_; }
  uint64_t raw_bits() const { return raw_bits_; }
  uint64_t encoded_bits() const { return encoded_bits_; }

 private:
  DpcCodec::Encoded count(DpcCodec::Encoded e);
  Params p_;
  DpcCodec::Mode mode_;
  uint64_t lines_ = 0, raw_bits_ = 0, encoded_bits_ = 0;
};

}  // namespace gpusc
