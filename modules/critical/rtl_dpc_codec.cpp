#include "critical/rtl_dpc_codec.h"

#include "common/report.h"

namespace gpusc {

namespace {
constexpr unsigned kStreamBits = DpcCodec::kMaxBits;  // 1029

uint8_t reverse8(uint8_t v) {
  v = static_cast<uint8_t>((v & 0xf0) >> 4 | (v & 0x0f) << 4);
  v = static_cast<uint8_t>((v & 0xcc) >> 2 | (v & 0x33) << 2);
  return static_cast<uint8_t>((v & 0xaa) >> 1 | (v & 0x55) << 1);
}

// Bits [lo, lo + 8) of b (lo a multiple of 8).
uint8_t byte_at(const sc_dt::sc_bv_base& b, unsigned lo) {
  return static_cast<uint8_t>(b.get_word(static_cast<int>(lo / 32)) >> (lo % 32));
}

// The stream (bit k at b[k]) as DpcCodec's bytes (stream bit k = bit 7 - k % 8 of byte k / 8).
void stream_to_bytes(const sc_dt::sc_bv_base& b, DpcCodec::Encoded& e) {
  for (unsigned i = 0; i < DpcCodec::kMaxBytes; ++i) {
    uint8_t v = byte_at(b, 8 * i);
    if (8 * i + 8 > kStreamBits) v &= static_cast<uint8_t>((1u << (kStreamBits - 8 * i)) - 1);
    e.bytes[i] = reverse8(v);
  }
}

unsigned bits_at(const sc_dt::sc_bv_base& b, unsigned lo, unsigned n) {
  unsigned v = 0;
  for (unsigned i = 0; i < n; ++i) v |= unsigned(b.get_bit(static_cast<int>(lo + i))) << i;
  return v;
}

uint32_t le32(const uint8_t* p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }
}  // namespace

void dpc_pack_compressor_in(const uint8_t* line, unsigned map, DpcCodec::Mode mode, sc_dt::sc_bv_base& b) {
  for (unsigned j = 0; j < DpcCodec::kSegments; ++j) b.set_word(static_cast<int>(j), le32(line + 4 * j));
  b.set_word(32, (map & 0xfu) | (unsigned(mode) & 3u) << 4);
}

void dpc_unpack_compressor_out(const sc_dt::sc_bv_base& b, DpcCodec::Encoded& e, bool& bad_input) {
  stream_to_bytes(b, e);
  e.size_bits = bits_at(b, 1029, 11);
  e.compressed = b.get_bit(1040);
  e.manipulated = b.get_bit(1041);
  e.format = b.get_bit(1042) ? DpcCodec::Format::Truncated : DpcCodec::Format::Line;
  bad_input = b.get_bit(1043);
  e.map = static_cast<uint8_t>(e.format == DpcCodec::Format::Truncated ? bits_at(b, 1, 4) : DpcCodec::kFullMap);
}

void dpc_pack_decompressor_in(const DpcCodec::Encoded& e, sc_dt::sc_bv_base& b) {
  for (unsigned w = 0; w * 32 < kStreamBits; ++w) {
    uint32_t v = 0;
    for (unsigned k = 0; k < 4; ++k) {
      const unsigned i = 4 * w + k;
      if (i < DpcCodec::kMaxBytes) v |= uint32_t(reverse8(e.bytes[i])) << (8 * k);
    }
    if (w == kStreamBits / 32) v &= (1u << (kStreamBits % 32)) - 1;  // the word with size and format
    else {
      b.set_word(static_cast<int>(w), v);
      continue;
    }
    v |= (e.size_bits & 0x7ffu) << (1029 - 1024);
    v |= uint32_t(e.format == DpcCodec::Format::Truncated) << (1040 - 1024);
    b.set_word(static_cast<int>(w), v);
  }
}

void dpc_unpack_decompressor_out(const sc_dt::sc_bv_base& b, DpcCodec::Decoded& d, bool& malformed) {
  for (unsigned j = 0; j < DpcCodec::kSegments; ++j) {
    const uint32_t v = b.get_word(static_cast<int>(j));
    for (unsigned k = 0; k < 4; ++k) d.line[4 * j + k] = static_cast<uint8_t>(v >> (8 * k));
  }
  d.map = static_cast<uint8_t>(bits_at(b, 1024, 4));
  malformed = b.get_bit(1028);
}

}  // namespace gpusc

#if GPUSC_HAVE_RTL
#include <deque>

#include "Vdpc_compressor.h"
#include "Vdpc_decompressor.h"
#include "common/msg_port.h"
#include "rtl/msg_to_valid_ready.h"
#include "rtl/rtl_clock.h"
#include "rtl/valid_ready_to_msg.h"

namespace gpusc {

namespace {

using CIn = sc_dt::sc_bv<kDpcCompressorInBits>;
using COut = sc_dt::sc_bv<kDpcCompressorOutBits>;
using DIn = sc_dt::sc_bv<kDpcDecompressorInBits>;
using DOut = sc_dt::sc_bv<kDpcDecompressorOutBits>;

// The decompressor and its adapters, when it follows the compressor.
struct Decompressor {
  ValidReadyBundle<kDpcDecompressorInBits> in_pins{"d_in"};
  ValidReadyBundle<kDpcDecompressorOutBits> out_pins{"d_out"};
  MsgToValidReady<kDpcDecompressorInBits> src;
  ValidReadyToMsg<kDpcDecompressorOutBits> sink;
  Vdpc_decompressor rtl{"dpc_decompressor"};
  Decompressor(RtlClock& clk, std::deque<DpcJob*>& inside)
      : src("d_src", clk, [](const tlm::tlm_generic_payload& gp, DIn& b) {
          dpc_pack_decompressor_in(static_cast<const DpcJob&>(gp).enc, b);
        }),
        sink("d_sink", clk, [&inside](const DOut& b) -> tlm::tlm_generic_payload& {
          DpcJob& j = *inside.front();
          inside.pop_front();
          dpc_unpack_decompressor_out(b, j.dec, j.malformed);
          return j;
        }) {
    src.bind(in_pins);
    sink.bind(out_pins);
    rtl.clk(clk.clk), rtl.rst(clk.rst);
    rtl.in_valid(in_pins.valid), rtl.in_ready(in_pins.ready), rtl.in_data(in_pins.data);
    rtl.out_valid(out_pins.valid), rtl.out_ready(out_pins.ready), rtl.out_data(out_pins.data);
    src.on_taken([&inside](tlm::tlm_generic_payload& gp) { inside.push_back(static_cast<DpcJob*>(&gp)); });
  }
};

class RtlDpcCodecImpl : public sc_core::sc_module, public RtlDpcCodec {
 public:
  RtlDpcCodecImpl(sc_core::sc_module_name name, ClockDomain& clk, bool decompress)
      : sc_core::sc_module(name),
        clock_("clock", clk),
        c_in_("c_in"), c_out_("c_out"),
        c_src_("c_src", clock_, [](const tlm::tlm_generic_payload& gp, CIn& b) {
          const auto& j = static_cast<const DpcJob&>(gp);
          dpc_pack_compressor_in(j.line.data(), j.map, j.mode, b);
        }),
        c_sink_("c_sink", clock_, [this](const COut& b) -> tlm::tlm_generic_payload& {
          DpcJob& j = *in_comp_.front();
          in_comp_.pop_front();
          dpc_unpack_compressor_out(b, j.enc, j.bad_input);
          return j;
        }),
        comp_("dpc_compressor") {
    c_src_.bind(c_in_);
    c_sink_.bind(c_out_);
    comp_.clk(clock_.clk), comp_.rst(clock_.rst);
    comp_.in_valid(c_in_.valid), comp_.in_ready(c_in_.ready), comp_.in_data(c_in_.data);
    comp_.out_valid(c_out_.valid), comp_.out_ready(c_out_.ready), comp_.out_data(c_out_.data);
    c_src_.on_taken([this](tlm::tlm_generic_payload& gp) { in_comp_.push_back(static_cast<DpcJob*>(&gp)); });
    to_rtl_.bind(c_src_.in);
    if (decompress) {
      dec_ = std::make_unique<Decompressor>(clock_, in_decomp_);
      c_sink_.out.bind(dec_->src.in);
      dec_->sink.out.bind(from_rtl_);
    } else {
      c_sink_.out.bind(from_rtl_);
    }
    to_rtl_.on_accept([this] {
      if (space_) space_();
    });
    from_rtl_.set_accept([this](tlm::tlm_generic_payload& gp) {
      --in_flight_;
      done_(static_cast<DpcJob&>(gp));
      return true;
    });
    clock_.add_activity([this] { return !in_comp_.empty() || !in_decomp_.empty(); });
  }

  bool can_take() const override { return !to_rtl_.busy(); }
  void take(DpcJob& job) override {
    if (to_rtl_.busy()) error(name(), "a job was handed over while the compressor's input was full (check can_take())");
    ++in_flight_;
    to_rtl_.send(job);
  }
  unsigned in_flight() const override { return in_flight_; }

 private:
  RtlClock clock_;
  ValidReadyBundle<kDpcCompressorInBits> c_in_;
  ValidReadyBundle<kDpcCompressorOutBits> c_out_;
  MsgToValidReady<kDpcCompressorInBits> c_src_;
  ValidReadyToMsg<kDpcCompressorOutBits> c_sink_;
  Vdpc_compressor comp_;
  std::deque<DpcJob*> in_comp_, in_decomp_;  // jobs inside each RTL unit, oldest first
  std::unique_ptr<Decompressor> dec_;
  MsgOut to_rtl_{"to_rtl"};
  MsgIn from_rtl_{"from_rtl"};
  unsigned in_flight_ = 0;
};

}  // namespace

std::unique_ptr<RtlDpcCodec> make_rtl_dpc_codec(const char* name, ClockDomain& clk, bool decompress) {
  return std::make_unique<RtlDpcCodecImpl>(name, clk, decompress);
}

}  // namespace gpusc

#else  // a build without Verilator

namespace gpusc {

std::unique_ptr<RtlDpcCodec> make_rtl_dpc_codec(const char* name, ClockDomain&, bool) {
  error(name, "codec.model = rtl, but this gpusc was built without Verilator, so it has no RTL units; install "
              "verilator (scripts/setup) and reconfigure, or use codec.model = cpp");
}

}  // namespace gpusc

#endif
