// rtl/dpc_compressor.v and rtl/dpc_decompressor.v (verilated) against the C++ reference
// gpusc::DpcCodec, at pin level (rtl_equivalence_bench.h): every output bit-exact (the stream,
// its size, the flags C / manipulated / format, the restored line and map, and which inputs each
// side refuses), the declared latencies (2 and 1 cycles) and the valid/ready handshake checked
// cycle by cycle against a model of the pipeline, with out_ready low on a share of the edges.
// Inputs: 1e5 lines of every kind DPC meets (random bytes, zeros, ones, small and negative
// integers, floats, pointers, repeated words, sparse lines, lines built plane by plane around
// the raw-fallback threshold, sectors of different kinds) in the three modes with random maps,
// a few refused inputs among them; the decompressor gets their encodings, one in ten corrupted
// (bit flips, wrong sizes, the other format). With GPUSC_DATA_DIR: every 128 B line of every file
// there, in every mode.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "Vdpc_compressor.h"
#include "Vdpc_decompressor.h"
#include "critical/dpc_codec.h"
#include "critical/rtl_dpc_codec.h"
#include "rtl/rtl_equivalence_bench.h"

using namespace gpusc;
using Line = std::array<uint8_t, DpcCodec::kLineBytes>;
using CBench = test::EquivalenceBench<Vdpc_compressor, kDpcCompressorInBits, kDpcCompressorOutBits>;
using DBench = test::EquivalenceBench<Vdpc_decompressor, kDpcDecompressorInBits, kDpcDecompressorOutBits>;

namespace {

constexpr uint64_t kLines = 100000;

struct Request {  // a compressor input and what DpcCodec makes of it
  Line line{};
  unsigned map = 15;
  unsigned mode = 0;  // DpcCodec::Mode, or 3 (refused)
  bool bad = false;
  DpcCodec::Encoded enc;
};

void set_word(Line& l, unsigned j, uint32_t v) {
  for (unsigned b = 0; b < 4; ++b) l[4 * j + b] = static_cast<uint8_t>(v >> (8 * b));
}

// One sector (8 words from word w0) of a given kind.
void fill(Line& l, unsigned w0, unsigned words, unsigned kind, std::mt19937_64& rng) {
  std::uniform_int_distribution<uint32_t> u32;
  const uint32_t base = u32(rng);
  switch (kind) {
    case 0: for (unsigned j = 0; j < words; ++j) set_word(l, w0 + j, u32(rng)); break;          // random
    case 1: for (unsigned j = 0; j < words; ++j) set_word(l, w0 + j, 0); break;                 // zeros
    case 2: for (unsigned j = 0; j < words; ++j) set_word(l, w0 + j, ~0u); break;               // ones
    case 3: {                                                                                    // small ints
      const unsigned bits = static_cast<unsigned>(rng() % 33);
      const bool neg = rng() & 1;
      for (unsigned j = 0; j < words; ++j) {
        const uint32_t v = bits == 32 ? u32(rng) : u32(rng) & ((1u << bits) - 1);
        set_word(l, w0 + j, neg ? 0u - v : v);
      }
      break;
    }
    case 4: {                                                                                    // floats
      const float mag = std::ldexp(1.0f, static_cast<int>(rng() % 40) - 20);
      std::normal_distribution<float> nd(0.0f, 0.05f);
      for (unsigned j = 0; j < words; ++j) {
        const float f = mag * (1.0f + nd(rng)) * ((rng() % 8) ? 1.0f : -1.0f);
        uint32_t v;
        std::memcpy(&v, &f, 4);
        set_word(l, w0 + j, v);
      }
      break;
    }
    case 5: {                                                                                    // pointers
      const uint64_t p = (uint64_t(0x7f00) << 32) | (u32(rng) & ~7u);
      for (unsigned j = 0; j + 1 < words + 1; j += 2) {
        const uint64_t q = p + 8 * (rng() % 64);
        set_word(l, w0 + j, static_cast<uint32_t>(q));
        if (j + 1 < words) set_word(l, w0 + j + 1, static_cast<uint32_t>(q >> 32));
      }
      break;
    }
    case 6: for (unsigned j = 0; j < words; ++j) set_word(l, w0 + j, (rng() % 4) ? base : base ^ (1u << (rng() % 32))); break;
    case 7: for (unsigned j = 0; j < words; ++j) set_word(l, w0 + j, (rng() % 6) ? 0 : u32(rng)); break;  // sparse
    default: {  // plane by plane: np random planes, the others all 0 or all 1
      const unsigned np = static_cast<unsigned>(rng() % 33);
      uint32_t random_planes = 0;
      for (unsigned k = 0; k < np; ++k) random_planes |= 1u << (rng() % 32);
      const uint32_t ones = u32(rng);
      for (unsigned j = 0; j < words; ++j) set_word(l, w0 + j, (u32(rng) & random_planes) | (ones & ~random_planes));
      break;
    }
  }
}

Line random_line(std::mt19937_64& rng) {
  Line l{};
  if (rng() % 4 == 0) {  // sectors of different kinds
    for (unsigned s = 0; s < 4; ++s) fill(l, 8 * s, 8, static_cast<unsigned>(rng() % 9), rng);
  } else {
    fill(l, 0, 32, static_cast<unsigned>(rng() % 9), rng);
  }
  return l;
}

Request make_request(const Line& line, unsigned map, unsigned mode) {
  Request r;
  r.line = line;
  r.map = map;
  r.mode = mode;
  try {
    if (mode > 2) throw std::invalid_argument("mode 3");
    r.enc = DpcCodec::encode(line.data(), map, static_cast<DpcCodec::Mode>(mode));
  } catch (const std::invalid_argument&) {
    r.bad = true;
  }
  return r;
}

Request random_request(std::mt19937_64& rng) {
  const Line l = random_line(rng);
  unsigned mode = static_cast<unsigned>(rng() % 3), map = 1 + static_cast<unsigned>(rng() % 15);
  if (rng() % 500 == 0) {  // refused inputs: mode 3, or map 0 in DF-TRUC / DF-MAN
    if (rng() & 1) mode = 3;
    else mode = 1 + static_cast<unsigned>(rng() % 2), map = 0;
  }
  return make_request(l, map, mode);
}

std::string compare_encoding(const Request& r, const sc_dt::sc_bv_base& bits) {
  DpcCodec::Encoded e;
  bool bad = false;
  dpc_unpack_compressor_out(bits, e, bad);
  if (bad != r.bad) return std::string("refused ") + (bad ? "1" : "0") + ", DpcCodec " + (r.bad ? "throws" : "encodes");
  if (r.bad) return "";
  if (e.size_bits != r.enc.size_bits)
    return "size " + std::to_string(e.size_bits) + " bits, DpcCodec " + std::to_string(r.enc.size_bits);
  if (e.compressed != r.enc.compressed || e.manipulated != r.enc.manipulated || e.format != r.enc.format ||
      e.map != r.enc.map)
    return "flags differ (C, manipulated, format, map)";
  if (e.bytes != r.enc.bytes) return "stream bits differ";
  return "";
}

struct Decoding {  // a decompressor input and what DpcCodec makes of it
  DpcCodec::Encoded enc;
  bool malformed = false;
  DpcCodec::Decoded dec;
};

Decoding make_decoding(const DpcCodec::Encoded& e) {
  Decoding d;
  d.enc = e;
  try {
    d.dec = DpcCodec::decode(e.bytes.data(), e.size_bits, e.format);
  } catch (const DpcFormatError&) {
    d.malformed = true;
  }
  return d;
}

DpcCodec::Encoded corrupt(DpcCodec::Encoded e, std::mt19937_64& rng) {
  switch (rng() % 5) {
    case 0: {  // a bit flip inside the encoding
      const uint32_t k = static_cast<uint32_t>(rng() % std::max<uint32_t>(1, e.size_bits));
      e.bytes[k / 8] ^= static_cast<uint8_t>(0x80u >> (k % 8));
      break;
    }
    case 1: e.size_bits = static_cast<uint32_t>(std::max<int64_t>(0, int64_t(e.size_bits) + int64_t(rng() % 17) - 8)); break;
    case 2: e.format = e.format == DpcCodec::Format::Line ? DpcCodec::Format::Truncated : DpcCodec::Format::Line; break;
    case 3: e.size_bits = rng() % 2 ? 0 : 1030 + static_cast<uint32_t>(rng() % 1000); break;
    default: {  // a flip in the header (C, map, first status bits)
      const uint32_t k = static_cast<uint32_t>(rng() % 8);
      e.bytes[0] ^= static_cast<uint8_t>(0x80u >> k);
      break;
    }
  }
  if (e.size_bits < DpcCodec::kMaxBits) {  // DpcCodec reads only size_bits: keep the RTL's view the same
    for (uint32_t k = e.size_bits; k < 8 * DpcCodec::kMaxBytes; ++k) e.bytes[k / 8] &= static_cast<uint8_t>(~(0x80u >> (k % 8)));
  }
  return e;
}

std::string compare_decoding(const Decoding& d, const sc_dt::sc_bv_base& bits) {
  DpcCodec::Decoded got;
  bool malformed = false;
  dpc_unpack_decompressor_out(bits, got, malformed);
  if (malformed != d.malformed)
    return std::string("malformed ") + (malformed ? "1" : "0") + ", DpcCodec " + (d.malformed ? "throws" : "decodes") +
           " (" + std::to_string(d.enc.size_bits) + " bits)";
  if (d.malformed) return "";
  if (got.map != d.dec.map) return "map " + std::to_string(got.map) + ", DpcCodec " + std::to_string(d.dec.map);
  if (got.line != d.dec.line) return "restored line differs";
  return "";
}

// Full speed for the first 2000 beats, then blocks of 1000 with other valid / ready rates.
std::pair<double, double> phases(uint64_t i) {
  if (i < 2000) return {1.0, 1.0};
  static const std::pair<double, double> p[] = {{1.0, 0.5}, {0.6, 1.0}, {1.0, 0.25}, {0.8, 0.8}, {1.0, 1.0}};
  return p[(i / 1000) % 5];
}

template <class Bench> void require_clean(const Bench& b, uint64_t n, unsigned latency) {
  const auto& r = b.result();
  INFO(r.first_problem);
  REQUIRE(r.inputs == n);
  CHECK(r.outputs == n);
  CHECK(r.handshake_mismatches == 0);
  CHECK(r.data_mismatches == 0);
  CHECK(r.stalled_edges > n / 20);  // back-pressure happened
  // The declared latency: at full speed every beat moves exactly `latency` edges after it was taken.
  for (uint64_t i = 0; i < std::min<uint64_t>(n, 1000); ++i) REQUIRE(r.latency[i] == latency);
  CHECK(r.full_speed_beats >= std::min<uint64_t>(n, 2000));
}

#ifdef GPUSC_DATA_DIR
std::vector<Line> data_lines(std::vector<std::string>& files) {
  std::vector<Line> lines;
  std::vector<std::filesystem::path> paths;
  for (const auto& f : std::filesystem::recursive_directory_iterator(GPUSC_DATA_DIR))
    if (f.is_regular_file()) paths.push_back(f.path());
  std::sort(paths.begin(), paths.end());
  for (const auto& p : paths) {
    std::ifstream in(p, std::ios::binary);
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (size_t i = 0; i < bytes.size(); i += 128) {
      Line l{};
      std::memcpy(l.data(), bytes.data() + i, std::min<size_t>(128, bytes.size() - i));
      lines.push_back(l);
    }
    files.push_back(p.filename().string());
  }
  return lines;
}
#endif

}  // namespace

TEST_CASE("DPC RTL: the compressor equals DpcCodec::encode on 1e5 lines, latency 2 cycle by cycle", "[rtl][dpc]") {
  std::mt19937_64 rng(23);
  std::deque<Request> pending;  // inputs presented and not out yet, oldest first
  uint64_t first = 0;
  CBench b("b", RtlDpcCodec::kCompressLatency, 1);
  b.phase = phases;
  b.next_input = [&](uint64_t i, CBench::In& bits) {
    if (i >= kLines) return false;
    pending.push_back(random_request(rng));
    const Request& r = pending.back();
    dpc_pack_compressor_in(r.line.data(), r.map, static_cast<DpcCodec::Mode>(r.mode), bits);
    return true;
  };
  uint64_t compressed = 0, raw = 0, manipulated = 0, refused = 0;
  b.check_output = [&](uint64_t i, const CBench::Out& bits) {
    REQUIRE(i == first);
    const Request r = pending.front();
    pending.pop_front();
    ++first;
    (r.bad ? refused : r.enc.compressed ? compressed : raw)++;
    manipulated += !r.bad && r.enc.manipulated;
    return compare_encoding(r, bits);
  };
  sc_core::sc_start();
  require_clean(b, kLines, RtlDpcCodec::kCompressLatency);
  // The mix reached every path: compressed and raw encodings, DF-MAN's zero-filled choice, refusals.
  CHECK(compressed > kLines / 4);
  CHECK(raw > kLines / 20);
  CHECK(manipulated > kLines / 50);
  CHECK(refused > 50);
}

TEST_CASE("DPC RTL: the decompressor equals DpcCodec::decode on 1e5 encodings, one in ten corrupted, latency 1",
          "[rtl][dpc]") {
  std::mt19937_64 rng(2301);
  std::deque<Decoding> pending;
  DBench b("b", RtlDpcCodec::kDecompressLatency, 2);
  b.phase = phases;
  b.next_input = [&](uint64_t i, DBench::In& bits) {
    if (i >= kLines) return false;
    Request r;
    do r = random_request(rng);
    while (r.bad);
    pending.push_back(make_decoding(rng() % 10 == 0 ? corrupt(r.enc, rng) : r.enc));
    dpc_pack_decompressor_in(pending.back().enc, bits);
    return true;
  };
  uint64_t malformed = 0, truncated = 0;
  b.check_output = [&](uint64_t, const DBench::Out& bits) {
    const Decoding d = pending.front();
    pending.pop_front();
    malformed += d.malformed;
    truncated += !d.malformed && d.enc.format == DpcCodec::Format::Truncated;
    return compare_decoding(d, bits);
  };
  sc_core::sc_start();
  require_clean(b, kLines, RtlDpcCodec::kDecompressLatency);
  CHECK(malformed > kLines / 40);
  CHECK(truncated > kLines / 5);
}

#ifdef GPUSC_DATA_DIR
TEST_CASE("DPC RTL: every 128 B line of the real data files, in every mode, through both units", "[rtl][dpc][data]") {
  std::vector<std::string> files;
  const std::vector<Line> lines = data_lines(files);
  INFO(files.size() << " files, " << lines.size() << " lines");
  REQUIRE(lines.size() > 1000);
  std::deque<Request> cq;
  std::deque<Decoding> dq;
  CBench c("c", RtlDpcCodec::kCompressLatency, 3);
  DBench d("d", RtlDpcCodec::kDecompressLatency, 4);
  // Input k is line k / 3 in mode k % 3 (plain DPC, DF-TRUC, DF-MAN; the filters' map 1 + (k / 3) % 15): every
  // line in every mode.
  const uint64_t n = 3 * lines.size();
  auto request = [&](uint64_t k) {
    return make_request(lines[k / 3], 1 + static_cast<unsigned>(k / 3 % 15), static_cast<unsigned>(k % 3));
  };
  c.phase = d.phase = phases;
  unsigned finished = 0;
  c.finished = d.finished = [&finished] {
    if (++finished == 2) sc_core::sc_stop();
  };
  c.next_input = [&](uint64_t i, CBench::In& bits) {
    if (i >= n) return false;
    cq.push_back(request(i));
    dpc_pack_compressor_in(cq.back().line.data(), cq.back().map, static_cast<DpcCodec::Mode>(cq.back().mode), bits);
    return true;
  };
  c.check_output = [&](uint64_t, const CBench::Out& bits) {
    const Request r = cq.front();
    cq.pop_front();
    return compare_encoding(r, bits);
  };
  d.next_input = [&](uint64_t i, DBench::In& bits) {
    if (i >= n) return false;
    dq.push_back(make_decoding(request(i).enc));
    dpc_pack_decompressor_in(dq.back().enc, bits);
    return true;
  };
  d.check_output = [&](uint64_t, const DBench::Out& bits) {
    const Decoding x = dq.front();
    dq.pop_front();
    REQUIRE(!x.malformed);
    return compare_decoding(x, bits);
  };
  sc_core::sc_start();
  require_clean(c, n, RtlDpcCodec::kCompressLatency);
  require_clean(d, n, RtlDpcCodec::kDecompressLatency);
}
#endif
