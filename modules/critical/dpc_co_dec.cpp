#include "critical/dpc_co_dec.h"

namespace gpusc {

DpcCodec::Encoded DpcCoDec::count(DpcCodec::Encoded e) {
  ++lines_;
  raw_bits_ += DpcCodec::kRawBits;
  encoded_bits_ += e.size_bits;
  return e;
}

DpcCodec::Encoded DpcCoDec::compress(const uint8_t* line, unsigned map) {
  return count(DpcCodec::encode(line, map, mode_));
}

DpcCodec::Encoded DpcCoDec::compress_full(const uint8_t* line) {
  return count(DpcCodec::encode(line, DpcCodec::kFullMap, DpcCodec::Mode::Dpc));
}

}  // namespace gpusc
