// DpcCodec: Dual Pattern Compression of one 128 B line, with the two data-filtering variants
// DF-TRUC and DF-MAN (paper 002 §3.4.1.2-§3.4.1.3, Figures 3.6-3.9). Plain C++: no SystemC, no
// gpusc header, so a testbench, a decompressor model at the SM or an RTL reference model can use
// it on its own (`#include "critical/dpc_codec.h"`, link gpusc::dpc_codec).
//
// Algorithm (§3.4.1.2). The line is cut into 32 segments of 4 B; the remap function makes
// bit-plane i (i = 0..31) from bit i of every segment; a plane whose bits are all 0 or all 1 is
// encoded as status bit 1 + one data bit (its value), any other plane as status bit 0 + the
// plane's raw bits. Output: compression flag C, then the 32 encoding-status bits ES, then the
// encoded data ED. When the encoding is not strictly smaller than the raw data it is sent raw
// (C = 0 + the raw bits), so an encoding is never more than one bit over the raw size.
//
// DF-TRUC (§3.4.1.3.1, Figure 3.9): only the critical 32 B sectors (4-bit map, bit s = sector s,
// the thesis writes "1000" for sector 0) are remapped and encoded; with k critical sectors the
// planes are 8k bits wide. The encoding carries the map, because the decompressor needs it.
// DF-MAN (§3.4.1.3.2): the non-critical sectors are set to zero and, of the original and the
// manipulated line, the one whose DPC encoding is smaller is sent ("the copy that exhibits more
// bit level redundancy"); a full line either way.
//
// Bit stream. Stream bit k is bit (7 - k % 8) of byte k / 8 (most significant bit first, so a
// stream reads left to right like the thesis's figures); bits past size_bits in the last byte
// are zero. Fields, in order:
//   Line format (plain DPC, DF-MAN):  C | ES[0..31] | ED                  (C = 1)
//                                     C | 1024 raw bits                   (C = 0)
//   Truncated format (DF-TRUC):       C | M[0..3] | ES[0..31] | ED        (C = 1)
//                                     C | M[0..3] | 256 k raw bits        (C = 0)
// ES[i] is the status of plane i; ED holds, for i = 0..31, one bit (the pattern value) when
// ES[i] = 1, else the plane's raw bits. A raw plane lists bit i of segment 0 first, then of
// segment 1, ... (only the critical segments, in address order, in the Truncated format). Raw
// data is the line's (or the critical sectors') bytes in address order, each MSB first. M[s] is
// bit s of the sector map (sector 0 first).
//
// Choices the thesis leaves open (our own, stated here):
//   * segments are little-endian 32-bit words (GPU memory order): byte 4j is bits 0..7 of
//     segment j, so small integers leave the high planes all-zero;
//   * plane i is bit i (i = 0 the least significant), ES and ED list planes 0..31 in order;
//   * ES = 1 means "pattern" (the thesis: "if an encoding status bit is one, a segment is
//     recovered as ... consecutive zeros, or ones depending on its encoded data");
//   * raw fallback when the encoding is not strictly smaller than the raw data;
//   * the format (Line or Truncated) is not in the bits: it is how the system is built (a
//     DF-TRUC system's decompressor expects the map), carried beside the bits in Encoded like the
//     packet header's type. The map bits of the Truncated format are counted in size_bits;
//   * DF-MAN keeps the original when both encodings have the same size; the Line format decodes
//     to a full line with map 1111 (which sectors are critical travels in the reply header);
//   * DF-TRUC with map 1111 is the Line format plus the 4 map bits; a map of 0 is refused (a
//     request asks for at least one sector).
// Errors: a bad argument to encode() is std::invalid_argument; a malformed encoding given to
// decode() (empty, truncated, trailing bits, map 0, a compressed encoding not smaller than raw,
// more bits than any encoding has) is a DpcFormatError whose message says what is wrong.
#pragma once
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace gpusc {

class DpcFormatError : public std::runtime_error {
 public:
  explicit DpcFormatError(const std::string& what) : std::runtime_error(what) {}
};

class DpcCodec {
 public:
  static constexpr unsigned kLineBytes = 128;   // one L1/L2 line (002 §3.4.1.2: 128 B input)
  static constexpr unsigned kSegments = 32;     // 4 B segments per line = bits per full plane
  static constexpr unsigned kPlanes = 32;       // bits per segment
  static constexpr unsigned kSectors = 4;       // 32 B sectors per line (002 §2.2)
  static constexpr unsigned kSegmentsPerSector = kSegments / kSectors;
  static constexpr unsigned kFullMap = (1u << kSectors) - 1;
  static constexpr unsigned kMapBits = kSectors;
  static constexpr unsigned kRawBits = 8 * kLineBytes;  // 1024
  // Largest encoding: a Truncated raw fallback of the full line (1 + 4 + 1024 bits).
  static constexpr unsigned kMaxBits = 1 + kMapBits + kRawBits;
  static constexpr unsigned kMaxBytes = (kMaxBits + 7) / 8;

  enum class Mode : uint8_t {
    Dpc,   // the whole line, Line format (the map is ignored)
    Truc,  // DF-TRUC: only the sectors of the map, Truncated format
    Man,   // DF-MAN: the smaller of the line and the line with non-critical sectors zeroed
  };
  enum class Format : uint8_t { Line, Truncated };

  struct Encoded {
    std::array<uint8_t, kMaxBytes> bytes{};  // the stream, MSB first; unused bits zero
    uint32_t size_bits = 0;                  // bits on the wire, C and (Truncated) M included
    Format format = Format::Line;
    bool compressed = false;   // C
    bool manipulated = false;  // DF-MAN sent the zero-filled line
    uint8_t map = kFullMap;    // sectors the decoder restores (Line format: 1111)
    uint32_t wire_bytes() const { return (size_bits + 7) / 8; }
    bool bit(uint32_t k) const { return (bytes[k / 8] >> (7 - k % 8)) & 1u; }
  };
  struct Decoded {
    std::array<uint8_t, kLineBytes> line{};  // sectors outside `map` are zero
    uint8_t map = kFullMap;
  };

  // Encodes `line` (kLineBytes bytes). `map` (bits 0..3) selects the critical sectors for Truc
  // and Man (1..15); Dpc ignores it. No allocation.
  static Encoded encode(const uint8_t* line, unsigned map, Mode mode);
  // Decodes `size_bits` bits of `bytes` in `format`; a malformed stream throws DpcFormatError.
  static Decoded decode(const uint8_t* bytes, uint32_t size_bits, Format format);
  static Decoded decode(const Encoded& e) { return decode(e.bytes.data(), e.size_bits, e.format); }

  // Size of the DPC encoding of the segments of `map` (C and, for Truncated, M included),
  // without building it. Equal to encode(...).size_bits for Dpc (map 1111) and Truc.
  static uint32_t encoded_bits(const uint8_t* line, unsigned map, Format format);
  static const char* to_string(Mode m);
};

}  // namespace gpusc
