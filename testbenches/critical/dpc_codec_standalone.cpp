// The DPC codec without SystemC (issue 19: "usable standalone"): this program includes only
// critical/dpc_codec.h and links only gpusc::dpc_codec (no SystemC library). It fails to build
// if the header pulls in SystemC or TLM, and fails to link if the codec needs SystemC.
#include "critical/dpc_codec.h"

#if defined(SYSTEMC_VERSION) || defined(SC_INCLUDE_FX) || defined(TLM_VERSION_MAJOR)
#error "critical/dpc_codec.h must not include SystemC"
#endif

#include <cstdio>

int main() {
  uint8_t line[gpusc::DpcCodec::kLineBytes] = {};
  for (unsigned j = 0; j < 32; ++j) line[4 * j] = static_cast<uint8_t>(j);
  const auto e = gpusc::DpcCodec::encode(line, 0xF, gpusc::DpcCodec::Mode::Dpc);
  const auto d = gpusc::DpcCodec::decode(e);
  for (unsigned i = 0; i < sizeof line; ++i)
    if (d.line[i] != line[i]) return 1;
  std::printf("dpc standalone: %u bits\n", e.size_bits);
  return e.size_bits == 220 ? 0 : 1;  // the worked example of dpc_codec_tb
}
