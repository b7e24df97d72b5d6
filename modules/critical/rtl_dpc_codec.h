// RtlDpcCodec: the DPC compressor (and decompressor) as RTL, rtl/dpc_compressor.v and
// rtl/dpc_decompressor.v verilated (`verilator --sc`) behind pin adapters (modules/rtl): what the
// PacketDataFilter drives instead of its C++ DpcCoDec with codec.model = rtl. A DpcJob (a line,
// its map and mode) is a gpusc message: MsgToValidReady puts it on the compressor's input, the
// encoding comes back through ValidReadyToMsg and, with the decompressor, goes on through a
// second pair of adapters into it; the finished job is handed to on_done. The compressor's 2
// cycles and the decompressor's 1 are the DpcCoDec defaults, and the adapters add none (rtl/
// rtl_clock.h): a job handed over in the owner's tick of cycle c is done in time for its tick
// of c + 2 (c + 3 with the decompressor), as the C++ model's reply would be ready.
// The pin formats (the RTL headers give the fields) are the functions below, shared with the
// equivalence testbench. A build without Verilator has no RTL: make_rtl_dpc_codec is then an
// error saying so.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>

#include <systemc>
#include <tlm>

#include "common/clock_domain.h"
#include "critical/dpc_codec.h"

namespace gpusc {

// One line through the codec: a message (the payload part carries nothing; the adapters read
// and write these fields).
struct DpcJob : tlm::tlm_generic_payload {
  std::array<uint8_t, DpcCodec::kLineBytes> line{};
  unsigned map = DpcCodec::kFullMap;
  DpcCodec::Mode mode = DpcCodec::Mode::Dpc;
  DpcCodec::Encoded enc;    // the compressor's output
  bool bad_input = false;   // the compressor refused mode / map (DpcCodec::encode would throw)
  DpcCodec::Decoded dec;    // the decompressor's output (when it is in the chain)
  bool malformed = false;   // the decompressor refused the encoding (DpcCodec::decode would throw)
  void* tag = nullptr;      // the owner's
};

class RtlDpcCodec {
 public:
  static constexpr unsigned kCompressLatency = 2;    // rtl/dpc_compressor.v
  static constexpr unsigned kDecompressLatency = 1;  // rtl/dpc_decompressor.v
  virtual ~RtlDpcCodec() = default;
  virtual bool can_take() const = 0;  // a job handed over now would be taken
  virtual void take(DpcJob& job) = 0;
  virtual unsigned in_flight() const = 0;
  void on_done(std::function<void(DpcJob&)> f) { done_ = std::move(f); }
  void on_space(std::function<void()> f) { space_ = std::move(f); }  // can_take() became true

 protected:
  std::function<void(DpcJob&)> done_;
  std::function<void()> space_;
};

// A child module `name` of the module being constructed, clocked by `clk`; with `decompress` the
// decompressor follows the compressor and fills DpcJob::dec.
std::unique_ptr<RtlDpcCodec> make_rtl_dpc_codec(const char* name, ClockDomain& clk, bool decompress);

// Pin formats of the RTL (rtl/dpc_compressor.v, rtl/dpc_decompressor.v).
constexpr unsigned kDpcCompressorInBits = 1030;    // {mode[1:0], map[3:0], line[1023:0]}
constexpr unsigned kDpcCompressorOutBits = 1044;   // {bad, trunc, manip, comp, size[10:0], stream[1028:0]}
constexpr unsigned kDpcDecompressorInBits = 1041;  // {trunc, size[10:0], stream[1028:0]}
constexpr unsigned kDpcDecompressorOutBits = 1029; // {malformed, map[3:0], line[1023:0]}
void dpc_pack_compressor_in(const uint8_t* line, unsigned map, DpcCodec::Mode mode, sc_dt::sc_bv_base& b);
void dpc_unpack_compressor_out(const sc_dt::sc_bv_base& b, DpcCodec::Encoded& e, bool& bad_input);
void dpc_pack_decompressor_in(const DpcCodec::Encoded& e, sc_dt::sc_bv_base& b);
void dpc_unpack_decompressor_out(const sc_dt::sc_bv_base& b, DpcCodec::Decoded& d, bool& malformed);

}  // namespace gpusc
