// DpcCodec on the real data files of GPUSC_DATA_DIR/matrices (built only when the folder
// exists): every 128 B line of each .mtx file's bytes and of its CSR arrays (row_ptr, col_idx,
// values as the GPU would hold them) round-trips bit-exactly in every mode; index arrays of a
// matrix with fewer than 2^16 columns leave the 16 high planes zero, so their lines are at most
// 1 + 32 + 16 * 32 + 16 = 561 bits.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "critical/dpc_codec.h"
#include "workload/matrix_market_reader.h"

using namespace gpusc;
using Line = std::array<uint8_t, 128>;

namespace {

std::vector<std::filesystem::path> mtx_files() {
  std::vector<std::filesystem::path> v;
  for (const auto& f : std::filesystem::directory_iterator(std::string(GPUSC_DATA_DIR) + "/matrices"))
    if (f.path().extension() == ".mtx") v.push_back(f.path());
  std::sort(v.begin(), v.end());
  return v;
}

// The lines of `bytes` (the last one zero-padded).
std::vector<Line> lines_of(const std::vector<uint8_t>& bytes) {
  std::vector<Line> out((bytes.size() + 127) / 128, Line{});
  for (size_t i = 0; i < bytes.size(); ++i) out[i / 128][i % 128] = bytes[i];
  return out;
}

template <class T> std::vector<uint8_t> bytes_of(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

Line zero_outside(Line l, unsigned map) {
  for (unsigned s = 0; s < 4; ++s)
    if (!(map >> s & 1)) std::memset(l.data() + 32 * s, 0, 32);
  return l;
}

// Round trip of `l` in the three modes, a few maps each; returns the Dpc size.
uint32_t round_trip(const Line& l, unsigned salt) {
  const auto e = DpcCodec::encode(l.data(), 0xF, DpcCodec::Mode::Dpc);
  REQUIRE(e.size_bits <= 1025);
  REQUIRE(DpcCodec::decode(e).line == l);
  for (unsigned map : {1u + salt % 15, 0b0101u, 0b1110u}) {
    const auto t = DpcCodec::encode(l.data(), map, DpcCodec::Mode::Truc);
    REQUIRE(DpcCodec::decode(t).line == zero_outside(l, map));
    const auto m = DpcCodec::encode(l.data(), map, DpcCodec::Mode::Man);
    REQUIRE(m.size_bits <= e.size_bits);
    REQUIRE(zero_outside(DpcCodec::decode(m).line, map) == zero_outside(l, map));
  }
  return e.size_bits;
}

}  // namespace

TEST_CASE("DPC data: the raw bytes of every matrix file round-trip in every mode", "[dpc][data]") {
  const auto files = mtx_files();
  REQUIRE(!files.empty());
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(!bytes.empty());
    unsigned n = 0;
    uint64_t bits = 0;
    for (const Line& l : lines_of(bytes)) bits += round_trip(l, n++);
    INFO(f.filename().string() << ": " << n << " lines, DPC " << bits << " bits of " << n * 1024);
    // ASCII text has bit 7 of every byte 0: planes 7, 15, 23, 31 are all zero, so every line
    // but the zero-padded last one is at most 1 + 32 + 28 * 32 + 4 = 933 bits.
    CHECK(bits <= uint64_t(n) * 933 + 1025);
  }
}

TEST_CASE("DPC data: the CSR arrays of every matrix round-trip, index lines compress", "[dpc][data]") {
  for (const auto& f : mtx_files()) {
    const CsrGraph g = read_matrix_market(f.string());
    INFO(f.filename().string() << " " << g.rows << " x " << g.cols << ", nnz " << g.nnz());
    REQUIRE(g.cols < 65536);
    unsigned n = 0;
    for (const Line& l : lines_of(bytes_of(g.col_idx))) CHECK(round_trip(l, n++) <= 561);
    for (const Line& l : lines_of(bytes_of(g.row_ptr))) round_trip(l, n++);
    for (const Line& l : lines_of(bytes_of(g.values))) round_trip(l, n++);
    CHECK(n > 0);
  }
}
