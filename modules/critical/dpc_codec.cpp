#include "critical/dpc_codec.h"

#include <cstring>

namespace gpusc {

namespace {

using Encoded = DpcCodec::Encoded;
using Decoded = DpcCodec::Decoded;
using Format = DpcCodec::Format;

constexpr unsigned kSegBytes = 4;

// The critical segments (indices into the line, address order) and their count.
struct Selection {
  std::array<uint8_t, DpcCodec::kSegments> seg{};
  unsigned n = 0;
};

Selection select(unsigned map) {
  Selection s;
  for (unsigned sec = 0; sec < DpcCodec::kSectors; ++sec)
    if (map & (1u << sec))
      for (unsigned j = 0; j < DpcCodec::kSegmentsPerSector; ++j)
        s.seg[s.n++] = static_cast<uint8_t>(sec * DpcCodec::kSegmentsPerSector + j);
  return s;
}

uint32_t segment(const uint8_t* line, unsigned j) {  // little-endian 32-bit word j
  const uint8_t* p = line + kSegBytes * j;
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

// The remap function: plane i, bit k = bit i of the k-th selected segment.
std::array<uint32_t, DpcCodec::kPlanes> remap(const uint8_t* line, const Selection& s) {
  std::array<uint32_t, DpcCodec::kPlanes> plane{};
  for (unsigned k = 0; k < s.n; ++k) {
    const uint32_t v = segment(line, s.seg[k]);
    for (unsigned i = 0; i < DpcCodec::kPlanes; ++i) plane[i] |= ((v >> i) & 1u) << k;
  }
  return plane;
}

uint32_t width_mask(unsigned w) { return w >= 32 ? ~0u : (1u << w) - 1; }

unsigned header_bits(Format f) { return 1 + (f == Format::Truncated ? DpcCodec::kMapBits : 0); }

class BitWriter {
 public:
  explicit BitWriter(Encoded& e) : e_(e) {}
  void put(bool v) {
    if (v) e_.bytes[n_ / 8] = static_cast<uint8_t>(e_.bytes[n_ / 8] | (0x80u >> (n_ % 8)));
    ++n_;
  }
  uint32_t size() const { return n_; }

 private:
  Encoded& e_;
  uint32_t n_ = 0;
};

class BitReader {
 public:
  BitReader(const uint8_t* b, uint32_t size) : b_(b), size_(size) {}
  bool get(const char* field) {
    if (pos_ >= size_)
      throw DpcFormatError(std::string("DPC decode: the encoding is truncated: it ends after ") +
                           std::to_string(size_) + " bits while reading " + field);
    const bool v = (b_[pos_ / 8] >> (7 - pos_ % 8)) & 1u;
    ++pos_;
    return v;
  }
  uint32_t pos() const { return pos_; }

 private:
  const uint8_t* b_;
  uint32_t size_, pos_ = 0;
};

void check_map(unsigned map, const char* mode) {
  if (map > DpcCodec::kFullMap)
    throw std::invalid_argument(std::string("DPC encode (") + mode + "): sector map " + std::to_string(map) +
                                " has bits past the 4 sectors of a 128 B line; use 1..15");
  if (map == 0)
    throw std::invalid_argument(std::string("DPC encode (") + mode +
                                "): sector map 0 selects no critical sector; use 1..15");
}

Encoded encode_format(const uint8_t* line, unsigned map, Format f) {
  Encoded e;
  e.format = f;
  e.map = static_cast<uint8_t>(f == Format::Truncated ? map : DpcCodec::kFullMap);
  const Selection s = select(e.map);
  const auto plane = remap(line, s);
  const uint32_t mask = width_mask(s.n);
  const uint32_t raw = header_bits(f) + 8 * kSegBytes * s.n;
  uint32_t enc = header_bits(f) + DpcCodec::kPlanes;
  for (uint32_t p : plane) enc += (p == 0 || p == mask) ? 1 : s.n;
  e.compressed = enc < raw;
  BitWriter w(e);
  w.put(e.compressed);
  if (f == Format::Truncated)
    for (unsigned sec = 0; sec < DpcCodec::kSectors; ++sec) w.put((map >> sec) & 1u);
  if (e.compressed) {
    for (uint32_t p : plane) w.put(p == 0 || p == mask);  // ES
    for (uint32_t p : plane) {                              // ED
      if (p == 0 || p == mask) w.put(p != 0);
      else
        for (unsigned k = 0; k < s.n; ++k) w.put((p >> k) & 1u);
    }
  } else {
    for (unsigned k = 0; k < s.n; ++k)
      for (unsigned b = 0; b < kSegBytes; ++b) {
        const uint8_t byte = line[kSegBytes * s.seg[k] + b];
        for (int bit = 7; bit >= 0; --bit) w.put((byte >> bit) & 1u);
      }
  }
  e.size_bits = w.size();
  return e;
}

}  // namespace

const char* DpcCodec::to_string(Mode m) {
  switch (m) {
    case Mode::Dpc: return "dpc";
    case Mode::Truc: return "dftruc";
    case Mode::Man: return "dfman";
  }
  return "?";
}

Encoded DpcCodec::encode(const uint8_t* line, unsigned map, Mode mode) {
  if (!line) throw std::invalid_argument("DPC encode: the line pointer is null");
  switch (mode) {
    case Mode::Dpc:
      if (map > kFullMap) check_map(map, to_string(mode));
      return encode_format(line, kFullMap, Format::Line);
    case Mode::Truc:
      check_map(map, to_string(mode));
      return encode_format(line, map, Format::Truncated);
    case Mode::Man: {
      check_map(map, to_string(mode));
      Encoded orig = encode_format(line, kFullMap, Format::Line);
      if (map == kFullMap) return orig;
      std::array<uint8_t, kLineBytes> zeroed;
      std::memcpy(zeroed.data(), line, kLineBytes);
      for (unsigned sec = 0; sec < kSectors; ++sec)
        if (!(map & (1u << sec))) std::memset(zeroed.data() + sec * (kLineBytes / kSectors), 0, kLineBytes / kSectors);
      Encoded man = encode_format(zeroed.data(), kFullMap, Format::Line);
      if (man.size_bits < orig.size_bits) {
        man.manipulated = true;
        return man;
      }
      return orig;
    }
  }
  throw std::invalid_argument("DPC encode: unknown mode");
}

uint32_t DpcCodec::encoded_bits(const uint8_t* line, unsigned map, Format format) {
  if (format == Format::Line) map = kFullMap;
  else check_map(map, "dftruc");
  const Selection s = select(map);
  const auto plane = remap(line, s);
  const uint32_t mask = width_mask(s.n);
  const uint32_t raw = header_bits(format) + 8 * kSegBytes * s.n;
  uint32_t enc = header_bits(format) + kPlanes;
  for (uint32_t p : plane) enc += (p == 0 || p == mask) ? 1 : s.n;
  return enc < raw ? enc : raw;
}

Decoded DpcCodec::decode(const uint8_t* bytes, uint32_t size_bits, Format format) {
  if (size_bits == 0) throw DpcFormatError("DPC decode: the encoding is empty (0 bits); it needs at least the flag C");
  if (!bytes) throw DpcFormatError("DPC decode: the encoding has no data (null pointer)");
  if (size_bits > kMaxBits)
    throw DpcFormatError("DPC decode: the encoding has " + std::to_string(size_bits) +
                         " bits, more than any DPC encoding of a 128 B line (" + std::to_string(kMaxBits) + ")");
  BitReader r(bytes, size_bits);
  const bool compressed = r.get("the compression flag C");
  Decoded d;
  unsigned map = kFullMap;
  if (format == Format::Truncated) {
    map = 0;
    for (unsigned sec = 0; sec < kSectors; ++sec) map |= unsigned(r.get("the sector map M")) << sec;
    if (map == 0) throw DpcFormatError("DPC decode (DF-TRUC): the sector map M is 0000: no sector to restore");
  }
  d.map = static_cast<uint8_t>(map);
  const Selection s = select(map);
  const uint32_t raw = header_bits(format) + 8 * kSegBytes * s.n;
  if (!compressed) {
    for (unsigned k = 0; k < s.n; ++k)
      for (unsigned b = 0; b < kSegBytes; ++b) {
        uint8_t byte = 0;
        for (int bit = 7; bit >= 0; --bit) byte = static_cast<uint8_t>(byte | unsigned(r.get("the raw data")) << bit);
        d.line[kSegBytes * s.seg[k] + b] = byte;
      }
  } else {
    std::array<bool, kPlanes> es{};
    for (unsigned i = 0; i < kPlanes; ++i) es[i] = r.get("the encoding status bits ES");
    std::array<uint32_t, kPlanes> plane{};
    for (unsigned i = 0; i < kPlanes; ++i) {
      if (es[i]) plane[i] = r.get("the encoded data ED") ? width_mask(s.n) : 0;
      else
        for (unsigned k = 0; k < s.n; ++k) plane[i] |= uint32_t(r.get("the encoded data ED")) << k;
    }
    for (unsigned k = 0; k < s.n; ++k) {
      uint32_t v = 0;
      for (unsigned i = 0; i < kPlanes; ++i) v |= ((plane[i] >> k) & 1u) << i;
      uint8_t* p = d.line.data() + kSegBytes * s.seg[k];
      for (unsigned b = 0; b < kSegBytes; ++b) p[b] = static_cast<uint8_t>(v >> (8 * b));
    }
  }
  if (r.pos() != size_bits)
    throw DpcFormatError("DPC decode: the encoding has " + std::to_string(size_bits) + " bits but its fields end after " +
                         std::to_string(r.pos()) + " (trailing bits: a wrong length or a corrupted status bit)");
  if (compressed && size_bits >= raw)
    throw DpcFormatError("DPC decode: flag C says compressed, but the " + std::to_string(size_bits) +
                         "-bit encoding is not smaller than the raw form (" + std::to_string(raw) +
                         " bits); an encoder sends that raw, so the flag or the status bits are corrupted");
  return d;
}

}  // namespace gpusc
