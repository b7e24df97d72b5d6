// DpcCodec tests (paper 002 §3.4.1.2-3): worked examples computed by hand from the header's bit
// layout, bit-exact round trips on random, all-zero, all-one, small-integer, float and
// pointer-like lines in every mode, the size bound against an independent size count over 1e5
// lines, DF-TRUC restoring exactly the critical sectors, DF-MAN choosing the smaller encoding,
// and malformed encodings rejected with a message.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>

#include "critical/dpc_codec.h"

using namespace gpusc;
using Codec = DpcCodec;
using Mode = DpcCodec::Mode;
using Format = DpcCodec::Format;
using Line = std::array<uint8_t, 128>;
using Catch::Matchers::Contains;

namespace {

// Little-endian 32-bit word j of the line.
void put_word(Line& l, unsigned j, uint32_t v) {
  for (unsigned b = 0; b < 4; ++b) l[4 * j + b] = static_cast<uint8_t>(v >> (8 * b));
}

Line words(uint32_t (*f)(unsigned)) {
  Line l{};
  for (unsigned j = 0; j < 32; ++j) put_word(l, j, f(j));
  return l;
}

// Independent size count: bit i of segment j read straight from the bytes, per plane over the
// segments of `map`; returns the size the header's rules give (encoded if smaller, else raw).
uint32_t reference_bits(const Line& l, unsigned map, bool truncated) {
  unsigned segs = 0;
  uint32_t enc = 1 + (truncated ? 4 : 0) + 32;
  for (unsigned s = 0; s < 4; ++s) segs += (map >> s & 1) ? 8 : 0;
  for (unsigned i = 0; i < 32; ++i) {
    unsigned ones = 0;
    for (unsigned j = 0; j < 32; ++j)
      if (map >> (j / 8) & 1) ones += (l[4 * j + i / 8] >> (i % 8)) & 1;
    enc += (ones == 0 || ones == segs) ? 1 : segs;
  }
  const uint32_t raw = 1 + (truncated ? 4 : 0) + 32 * segs;
  return enc < raw ? enc : raw;
}

Line zero_outside(Line l, unsigned map) {
  for (unsigned s = 0; s < 4; ++s)
    if (!(map >> s & 1)) std::memset(l.data() + 32 * s, 0, 32);
  return l;
}

bool same_sectors(const Line& a, const Line& b, unsigned map) {
  for (unsigned s = 0; s < 4; ++s)
    if ((map >> s & 1) && std::memcmp(a.data() + 32 * s, b.data() + 32 * s, 32) != 0) return false;
  return true;
}

// Round trip in every mode and every map; the checks each mode promises.
void check_round_trips(const Line& l) {
  {
    const auto e = Codec::encode(l.data(), 0xF, Mode::Dpc);
    CHECK(e.format == Format::Line);
    CHECK(e.size_bits == reference_bits(l, 0xF, false));
    const auto d = Codec::decode(e);
    CHECK(d.line == l);
    CHECK(d.map == 0xF);
  }
  for (unsigned map = 1; map <= 15; ++map) {
    const auto t = Codec::encode(l.data(), map, Mode::Truc);
    CHECK(t.format == Format::Truncated);
    CHECK(t.size_bits == reference_bits(l, map, true));
    const auto dt = Codec::decode(t);
    CHECK(dt.map == map);
    CHECK(dt.line == zero_outside(l, map));  // exactly the critical sectors, nothing else

    const auto m = Codec::encode(l.data(), map, Mode::Man);
    const uint32_t orig = reference_bits(l, 0xF, false), man = reference_bits(zero_outside(l, map), 0xF, false);
    CHECK(m.size_bits == std::min(orig, man));
    const auto dm = Codec::decode(m);
    CHECK(same_sectors(dm.line, l, map));
    CHECK(dm.line == (m.manipulated ? zero_outside(l, map) : l));
  }
}

}  // namespace

TEST_CASE("DPC: worked example, the line of words 0..31", "[dpc][example]") {
  // Segment j = j. Plane i holds bit i of 0..31: planes 0..4 mix 0s and 1s (raw, 32 bits each),
  // planes 5..31 are all 0 (pattern, 1 bit each). Size = C 1 + ES 32 + 5 * 32 + 27 = 220 < 1025.
  const Line l = words([](unsigned j) { return uint32_t(j); });
  const auto e = Codec::encode(l.data(), 0xF, Mode::Dpc);
  REQUIRE(e.size_bits == 220);
  CHECK(e.wire_bytes() == 28);
  CHECK(e.compressed);
  CHECK(e.bit(0) == 1);                                     // C
  for (unsigned i = 0; i < 5; ++i) CHECK(e.bit(1 + i) == 0);  // ES planes 0..4: raw
  for (unsigned i = 5; i < 32; ++i) CHECK(e.bit(1 + i) == 1); // ES planes 5..31: pattern
  CHECK(e.bytes[0] == 0x83);                                // 1 00000 11
  // ED from bit 33: plane 0 = bit 0 of segments 0, 1, 2, ... = 0 1 0 1 ...
  CHECK(e.bit(33) == 0);
  CHECK(e.bit(34) == 1);
  CHECK(e.bit(64) == 1);                                    // segment 31
  // plane 1 from bit 65: 0 0 1 1 0 0 1 1 ...
  CHECK(e.bit(65) == 0);
  CHECK(e.bit(66) == 0);
  CHECK(e.bit(67) == 1);
  CHECK(e.bit(68) == 1);
  // plane 4 from bit 161: segments 0..15 are 0, 16..31 are 1.
  CHECK(e.bit(161 + 15) == 0);
  CHECK(e.bit(161 + 16) == 1);
  // planes 5..31: one data bit each, 0, bits 193..219.
  for (unsigned k = 193; k < 220; ++k) CHECK(e.bit(k) == 0);
  CHECK(Codec::decode(e).line == l);
}

TEST_CASE("DPC: all-zero and all-one lines are 65 bits", "[dpc][example]") {
  // C + 32 status bits (all 1) + 32 one-bit planes.
  Line z{}, o;
  o.fill(0xFF);
  const auto ez = Codec::encode(z.data(), 0xF, Mode::Dpc), eo = Codec::encode(o.data(), 0xF, Mode::Dpc);
  CHECK(ez.size_bits == 65);
  CHECK(eo.size_bits == 65);
  for (unsigned k = 0; k < 33; ++k) {
    CHECK(ez.bit(k) == 1);
    CHECK(eo.bit(k) == 1);
  }
  for (unsigned k = 33; k < 65; ++k) {
    CHECK(ez.bit(k) == 0);
    CHECK(eo.bit(k) == 1);
  }
  CHECK(Codec::decode(ez).line == z);
  CHECK(Codec::decode(eo).line == o);
}

TEST_CASE("DPC: an incompressible line is sent raw, one bit over 1024", "[dpc][example]") {
  std::mt19937 rng(7);
  Line l;
  for (auto& b : l) b = static_cast<uint8_t>(rng());
  const auto e = Codec::encode(l.data(), 0xF, Mode::Dpc);
  REQUIRE(e.size_bits == 1025);
  CHECK_FALSE(e.compressed);
  CHECK(e.bit(0) == 0);
  for (unsigned b = 0; b < 8; ++b) CHECK(e.bit(1 + b) == ((l[0] >> (7 - b)) & 1));      // byte 0, MSB first
  for (unsigned b = 0; b < 8; ++b) CHECK(e.bit(1017 + b) == ((l[127] >> (7 - b)) & 1)); // byte 127
  CHECK(Codec::decode(e).line == l);
}

TEST_CASE("DF-TRUC: worked example, sector 2 of small integers", "[dpc][truc][example]") {
  // Map 0100: sector 2 = segments 16..23 = 0..7; the other sectors are noise the encoding must
  // ignore. Planes are 8 bits wide: planes 0..2 raw, 3..31 zero.
  // Size = C 1 + M 4 + ES 32 + 3 * 8 + 29 = 90 < raw 1 + 4 + 256 = 261.
  Line l;
  std::mt19937 rng(3);
  for (auto& b : l) b = static_cast<uint8_t>(rng());
  for (unsigned k = 0; k < 8; ++k) put_word(l, 16 + k, k);
  const auto e = Codec::encode(l.data(), 0b0100, Mode::Truc);
  REQUIRE(e.size_bits == 90);
  CHECK(e.bit(0) == 1);
  CHECK(e.bit(1) == 0);  // M = 0 0 1 0, sector 0 first
  CHECK(e.bit(2) == 0);
  CHECK(e.bit(3) == 1);
  CHECK(e.bit(4) == 0);
  for (unsigned i = 0; i < 3; ++i) CHECK(e.bit(5 + i) == 0);
  for (unsigned i = 3; i < 32; ++i) CHECK(e.bit(5 + i) == 1);
  const int p0[8] = {0, 1, 0, 1, 0, 1, 0, 1}, p1[8] = {0, 0, 1, 1, 0, 0, 1, 1}, p2[8] = {0, 0, 0, 0, 1, 1, 1, 1};
  for (unsigned k = 0; k < 8; ++k) {
    CHECK(e.bit(37 + k) == p0[k]);
    CHECK(e.bit(45 + k) == p1[k]);
    CHECK(e.bit(53 + k) == p2[k]);
  }
  for (unsigned k = 61; k < 90; ++k) CHECK(e.bit(k) == 0);
  const auto d = Codec::decode(e);
  CHECK(d.map == 0b0100);
  CHECK(d.line == zero_outside(l, 0b0100));
}

TEST_CASE("DPC: bit-exact round trips on typical line contents in every mode", "[dpc][roundtrip]") {
  std::mt19937 rng(11);
  Line random;
  for (auto& b : random) b = static_cast<uint8_t>(rng());
  Line ones;
  ones.fill(0xFF);
  Line small{};
  for (unsigned j = 0; j < 32; ++j) put_word(small, j, rng() % 100);
  Line negative{};  // small signed integers: high planes all 1 or mixed
  for (unsigned j = 0; j < 32; ++j) put_word(negative, j, static_cast<uint32_t>(-int32_t(rng() % 50)));
  Line floats{};
  for (unsigned j = 0; j < 32; ++j) {
    const float f = 1.0f + 0.01f * float(j);
    uint32_t v;
    std::memcpy(&v, &f, 4);
    put_word(floats, j, v);
  }
  Line pointers{};  // 64-bit pointers into one heap region
  for (unsigned j = 0; j < 16; ++j) {
    const uint64_t ptr = 0x00007f3a12340000ull + 16 * (rng() % 4096);
    put_word(pointers, 2 * j, static_cast<uint32_t>(ptr));
    put_word(pointers, 2 * j + 1, static_cast<uint32_t>(ptr >> 32));
  }
  for (const Line* l : {&random, &ones, &small, &negative, &floats, &pointers}) check_round_trips(*l);
  check_round_trips(Line{});
  // The structured lines compress in plain DPC; the random one does not.
  CHECK(Codec::encode(small.data(), 0xF, Mode::Dpc).size_bits < 1025);
  CHECK(Codec::encode(floats.data(), 0xF, Mode::Dpc).size_bits < 1025);
  CHECK(Codec::encode(pointers.data(), 0xF, Mode::Dpc).size_bits < 1025);
  CHECK(Codec::encode(random.data(), 0xF, Mode::Dpc).size_bits == 1025);
}

TEST_CASE("DPC: over 1e5 lines the size matches an independent count and never exceeds raw + 1 bit",
          "[dpc][property]") {
  std::mt19937_64 rng(2024);
  uint64_t compressed = 0;
  for (unsigned n = 0; n < 100000; ++n) {
    Line l;
    // Words of random width (0..32 bits) and random sign, so every plane pattern occurs.
    const unsigned width = rng() % 33;
    const bool neg = rng() & 1;
    for (unsigned j = 0; j < 32; ++j) {
      uint32_t v = width == 0 ? 0 : static_cast<uint32_t>(rng()) >> (32 - width);
      if (neg) v = ~v;
      put_word(l, j, v);
    }
    const unsigned map = 1 + rng() % 15;
    const auto e = Codec::encode(l.data(), 0xF, Mode::Dpc);
    REQUIRE(e.size_bits <= 1025);
    REQUIRE(e.size_bits == reference_bits(l, 0xF, false));
    REQUIRE(Codec::encoded_bits(l.data(), 0xF, Format::Line) == e.size_bits);
    const auto t = Codec::encode(l.data(), map, Mode::Truc);
    const unsigned k = unsigned(__builtin_popcount(map));
    REQUIRE(t.size_bits <= 1 + 4 + 256 * k);
    REQUIRE(t.size_bits == reference_bits(l, map, true));
    compressed += e.compressed;
    if (n % 100 == 0) {
      REQUIRE(Codec::decode(e).line == l);
      REQUIRE(Codec::decode(t).line == zero_outside(l, map));
    }
  }
  CHECK(compressed > 50000);  // most widths leave zero (or one) planes
}

TEST_CASE("DF-MAN: the smaller of the original and the zero-filled line is sent", "[dpc][man]") {
  SECTION("all-one line: zero-filling breaks every plane, the original (65 bits) is kept") {
    // Map 0001: the manipulated line has 8 one-segments and 24 zero-segments, so every plane
    // is mixed: 1 + 32 + 1024 > 1025, raw. The original is 65 bits.
    Line o;
    o.fill(0xFF);
    const auto m = Codec::encode(o.data(), 0b0001, Mode::Man);
    CHECK(m.size_bits == 65);
    CHECK_FALSE(m.manipulated);
    CHECK(Codec::decode(m).line == o);
  }
  SECTION("small integers in sector 0 and noise elsewhere: the zero-filled line (158 bits) is sent") {
    // Manipulated: segments 0..7 = 0..7, the rest 0: planes 0..2 raw (32 bits), 3..31 zero.
    // 1 + 32 + 3 * 32 + 29 = 158. The original is noise: raw, 1025.
    Line l;
    std::mt19937 rng(5);
    for (auto& b : l) b = static_cast<uint8_t>(rng());
    for (unsigned k = 0; k < 8; ++k) put_word(l, k, k);
    REQUIRE(Codec::encode(l.data(), 0xF, Mode::Dpc).size_bits == 1025);
    const auto m = Codec::encode(l.data(), 0b0001, Mode::Man);
    CHECK(m.size_bits == 158);
    CHECK(m.manipulated);
    CHECK(m.format == Format::Line);
    const auto d = Codec::decode(m);
    CHECK(same_sectors(d.line, l, 0b0001));
    CHECK(d.line == zero_outside(l, 0b0001));
  }
  SECTION("a tie keeps the original") {
    Line z{};
    const auto m = Codec::encode(z.data(), 0b0010, Mode::Man);
    CHECK(m.size_bits == 65);
    CHECK_FALSE(m.manipulated);
  }
}

TEST_CASE("DPC: malformed encodings are errors with a message", "[dpc][errors]") {
  const Line l = words([](unsigned j) { return uint32_t(j); });
  const auto e = Codec::encode(l.data(), 0xF, Mode::Dpc);  // 220 bits
  CHECK_THROWS_WITH(Codec::decode(e.bytes.data(), 0, Format::Line), Contains("empty"));
  CHECK_THROWS_WITH(Codec::decode(e.bytes.data(), 219, Format::Line), Contains("truncated"));
  CHECK_THROWS_WITH(Codec::decode(e.bytes.data(), 221, Format::Line), Contains("trailing"));
  CHECK_THROWS_WITH(Codec::decode(e.bytes.data(), 5000, Format::Line), Contains("more than any DPC encoding"));
  CHECK_THROWS_WITH(Codec::decode(nullptr, 10, Format::Line), Contains("null"));
  // Flip ES of plane 31 (bit 32): pattern -> raw, the stream now ends 31 bits early.
  auto bad = e;
  bad.bytes[4] ^= 0x80;
  CHECK_THROWS_AS(Codec::decode(bad), DpcFormatError);
  // A raw Line encoding must be exactly 1025 bits.
  Line noise;
  std::mt19937 rng(1);
  for (auto& b : noise) b = static_cast<uint8_t>(rng());
  const auto r = Codec::encode(noise.data(), 0xF, Mode::Dpc);
  CHECK_THROWS_WITH(Codec::decode(r.bytes.data(), 1024, Format::Line), Contains("truncated"));
  // Truncated format: map 0000.
  std::array<uint8_t, Codec::kMaxBytes> m0{};
  m0[0] = 0x80;  // C = 1, M = 0000
  CHECK_THROWS_WITH(Codec::decode(m0.data(), 90, Format::Truncated), Contains("0000"));
  // Truncated, C = 1, M = 1000 (one sector: 8-bit planes), every ES 0: 1 + 4 + 32 + 256 = 293
  // bits, not smaller than raw 261: a corrupted flag.
  std::array<uint8_t, Codec::kMaxBytes> big{};
  big[0] = 0x80 | 0x40;  // C = 1, M[0] = 1
  CHECK_THROWS_WITH(Codec::decode(big.data(), 293, Format::Truncated), Contains("not smaller"));
  // Bad arguments to encode.
  CHECK_THROWS_AS(Codec::encode(l.data(), 0, Mode::Truc), std::invalid_argument);
  CHECK_THROWS_AS(Codec::encode(l.data(), 16, Mode::Man), std::invalid_argument);
  CHECK_THROWS_AS(Codec::encode(nullptr, 1, Mode::Dpc), std::invalid_argument);
}

TEST_CASE("DPC: random bit strings either decode or throw DpcFormatError, never anything else", "[dpc][errors][fuzz]") {
  std::mt19937 rng(99);
  unsigned decoded = 0;
  for (unsigned n = 0; n < 20000; ++n) {
    std::array<uint8_t, Codec::kMaxBytes> b{};
    for (auto& x : b) x = static_cast<uint8_t>(rng());
    const uint32_t size = rng() % (Codec::kMaxBits + 8);
    const Format f = (n & 1) ? Format::Truncated : Format::Line;
    try {
      const auto d = Codec::decode(b.data(), size, f);
      ++decoded;
      // Whatever decodes re-encodes to a stream no longer than the one given, with the same line.
      const auto again = Codec::encode(d.line.data(), d.map, f == Format::Line ? Mode::Dpc : Mode::Truc);
      REQUIRE(again.size_bits <= size);
      REQUIRE(Codec::decode(again).line == d.line);
    } catch (const DpcFormatError&) {
    }
  }
  CHECK(decoded > 0);
}
