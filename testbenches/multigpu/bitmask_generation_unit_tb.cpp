// BitmaskGenerationUnit tests: 64-lane wavefronts on 64 B lines (unit stride, strides, one word
// per line, scattered with a broadcast, partial and empty), the paper's Fig. 7(b) example on a
// 4-lane wavefront, wide and line-crossing accesses, another word size, agreement with the
// generic Coalescer on random 32-lane warps, and bad configurations and inputs. Expected masks
// are worked out by hand in the comments: word = (address mod 64) / 4.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "mem/coalescer.h"
#include "multigpu/bitmask_generation_unit.h"

using namespace gpusc;
using multigpu::BitmaskGenerationUnit;
using LM = BitmaskGenerationUnit::LineMask;

namespace {
constexpr uint64_t kAll64 = ~uint64_t{0};

std::vector<LM> run(const std::vector<uint64_t>& addr, uint64_t active, unsigned bytes,
                    BitmaskGenerationUnit::Params p = {}) {
  p.lanes = static_cast<unsigned>(addr.size());
  BitmaskGenerationUnit bgu(p);
  std::vector<LM> out;
  bgu.generate(addr.data(), active, bytes, out);
  return out;
}

std::vector<uint64_t> strided(uint64_t base, uint64_t stride, unsigned lanes = 64) {
  std::vector<uint64_t> a(lanes);
  for (unsigned l = 0; l < lanes; ++l) a[l] = base + l * stride;
  return a;
}

void check(const LM& m, uint64_t line, uint64_t words, uint64_t lanes) {
  INFO("line 0x" << std::hex << m.line);
  CHECK(m.line == line);
  CHECK(m.word_mask == words);
  CHECK(m.lanes == lanes);
}
}  // namespace

TEST_CASE("BGU: 64 lanes of unit-stride 4 B words fill four 64 B lines", "[bgu]") {
  // Lanes 16k .. 16k + 15 read bytes 0..63 of line 0x1000 + 64k: all 16 words.
  const auto r = run(strided(0x1000, 4), kAll64, 4);
  REQUIRE(r.size() == 4);
  for (unsigned k = 0; k < 4; ++k) check(r[k], 0x1000 + 64 * k, 0xFFFF, uint64_t{0xFFFF} << (16 * k));
}

TEST_CASE("BGU: stride 8 B marks every other word of eight lines", "[bgu]") {
  // Lane l at offset 8l: 8 lanes per line, words 0, 2, ..., 14 = 0x5555.
  const auto r = run(strided(0x1000, 8), kAll64, 4);
  REQUIRE(r.size() == 8);
  for (unsigned k = 0; k < 8; ++k) check(r[k], 0x1000 + 64 * k, 0x5555, uint64_t{0xFF} << (8 * k));
}

TEST_CASE("BGU: stride 64 B gives 64 lines of one word each", "[bgu]") {
  // Base 0x1004: every lane reads word 1 of its own line, lines in lane order.
  const auto r = run(strided(0x1004, 64), kAll64, 4);
  REQUIRE(r.size() == 64);
  for (unsigned l = 0; l < 64; ++l) check(r[l], 0x1000 + 64 * l, 0x2, uint64_t{1} << l);
}

TEST_CASE("BGU: a scattered wavefront ORs the words of the lanes each line merges", "[bgu]") {
  std::vector<uint64_t> a(64, 0xdead0000);  // inactive lanes' addresses must not matter
  a[0] = 0x2000;   // line 0x2000 word 0
  a[5] = 0x3038;   // line 0x3000 word 14
  a[9] = 0x2004;   // line 0x2000 word 1
  a[17] = 0x303C;  // line 0x3000 word 15
  a[33] = 0x2000;  // line 0x2000 word 0 again (broadcast)
  a[40] = 0x09F0;  // line 0x09C0 word (0x30 / 4) = 12
  a[62] = 0x3000;  // line 0x3000 word 0
  a[63] = 0x2020;  // line 0x2000 word 8
  uint64_t active = 0;
  for (unsigned l : {0, 5, 9, 17, 33, 40, 62, 63}) active |= uint64_t{1} << l;
  const auto r = run(a, active, 4);
  REQUIRE(r.size() == 3);  // in the order of each line's first lane: 0, 5, 40
  check(r[0], 0x2000, 0x0103, (uint64_t{1} << 0) | (uint64_t{1} << 9) | (uint64_t{1} << 33) | (uint64_t{1} << 63));
  check(r[1], 0x3000, 0xC001, (uint64_t{1} << 5) | (uint64_t{1} << 17) | (uint64_t{1} << 62));
  check(r[2], 0x09C0, 0x1000, uint64_t{1} << 40);
}

TEST_CASE("BGU: a partial wavefront masks only its active lanes", "[bgu]") {
  // Lanes 0..19 active, unit stride from 0x1000: lanes 0..15 fill line 0x1000, lanes 16..19
  // read words 0..3 of line 0x1040. Lanes 20..63 would have reached two more lines.
  const auto r = run(strided(0x1000, 4), 0xFFFFF, 4);
  REQUIRE(r.size() == 2);
  check(r[0], 0x1000, 0xFFFF, 0xFFFF);
  check(r[1], 0x1040, 0x000F, 0xF0000);
  // Every other lane (even lanes): words 0, 2, ... of each of the four lines.
  const auto e = run(strided(0x1000, 4), 0x5555555555555555ull, 4);
  REQUIRE(e.size() == 4);
  for (unsigned k = 0; k < 4; ++k) check(e[k], 0x1000 + 64 * k, 0x5555, uint64_t{0x5555} << (16 * k));
  // No active lane: no line.
  CHECK(run(strided(0x1000, 4), 0, 4).empty());
}

TEST_CASE("BGU: the paper's four-thread example gives three requests, one with two words", "[bgu]") {
  // Fig. 7(b): threads 2 (0x100) and 3 (0x104) share a line; threads 0 and 1 each have their own.
  const auto r = run({0x0C0, 0x200, 0x100, 0x104}, 0xF, 4);
  REQUIRE(r.size() == 3);
  check(r[0], 0x0C0, 0x1, 0x1);
  check(r[1], 0x200, 0x1, 0x2);
  check(r[2], 0x100, 0x3, 0xC);  // bits [5:2] of 0x100 and 0x104: words 0 and 1
}

TEST_CASE("BGU: wide, narrow and line-crossing accesses mark every word they touch", "[bgu]") {
  // 16 B at offset 16: words 4..7. 1 B at offset 7: word 1. 8 B at offset 60 of line 0x1000: word
  // 15 there and word 0 of line 0x1040 (lower line first; the lane appears in both).
  auto r = run({0x1010}, 1, 16);
  REQUIRE(r.size() == 1);
  check(r[0], 0x1000, 0x00F0, 1);
  r = run({0x1007}, 1, 1);
  REQUIRE(r.size() == 1);
  check(r[0], 0x1000, 0x0002, 1);
  r = run({0x103C}, 1, 8);
  REQUIRE(r.size() == 2);
  check(r[0], 0x1000, 0x8000, 1);
  check(r[1], 0x1040, 0x0001, 1);
}

TEST_CASE("BGU: a 16 B granularity gives a 4-bit mask per 64 B line", "[bgu]") {
  BitmaskGenerationUnit::Params p;
  p.word_bytes = 16;
  // Stride 12 B: lane l at 12l; line 0 holds lanes 0..5 (offsets 0..60): pieces 0, 0, 1, 2, 3, 3
  // -> 0xF; line 1 (0x40) holds lanes 6..10 (offsets 72..120 -> 8, 20, 32, 44, 56): pieces 0..3.
  const auto r = run(strided(0, 12, 11), 0x7FF, 4, p);
  REQUIRE(r.size() == 2);
  check(r[0], 0x00, 0xF, 0x3F);
  check(r[1], 0x40, 0xF, 0x7C0);
  // Stride 64 from offset 20: piece 1 of each line.
  const auto s = run(strided(20, 64, 3), 0x7, 4, p);
  REQUIRE(s.size() == 3);
  for (unsigned k = 0; k < 3; ++k) check(s[k], 64 * k, 0x2, uint64_t{1} << k);
}

TEST_CASE("BGU: agrees with the generic Coalescer's word masks on random 32-lane warps", "[bgu]") {
  // The plug-in claim of the header: same lines, order, word masks and lanes, for 64 B lines.
  BitmaskGenerationUnit::Params p;
  p.lanes = kWarpSize;
  BitmaskGenerationUnit bgu(p);
  Coalescer co(Coalescer::Params{64});
  std::mt19937_64 rng(7);
  const unsigned sizes[] = {1, 2, 4, 8, 16};
  std::vector<LM> out;
  LineRequests ref;
  unsigned mismatches = 0, lines = 0;
  for (unsigned t = 0; t < 2000; ++t) {
    WarpInstr w;
    w.op = WarpInstr::Op::Load;
    w.access_bytes = static_cast<uint8_t>(sizes[rng() % 5]);
    w.active_mask = static_cast<uint32_t>(rng());
    for (unsigned l = 0; l < kWarpSize; ++l) w.addr[l] = 0x10000 + rng() % 512;  // 8 lines: merging is frequent
    co.coalesce(w, ref);
    bgu.generate(w.addr.data(), w.active_mask, w.access_bytes, out);
    mismatches += out.size() != ref.size();
    for (unsigned i = 0; i < out.size() && i < ref.size(); ++i, ++lines)
      mismatches += out[i].line != ref[i].line || out[i].word_mask != ref[i].word_mask || out[i].lanes != ref[i].lanes;
  }
  CHECK(mismatches == 0);
  CHECK(lines > 2000);
}

TEST_CASE("BGU: bad configurations and inputs are clear errors", "[bgu][bad]") {
  BitmaskGenerationUnit::Params p;
  p.lanes = 0;
  CHECK_THROWS_WITH(BitmaskGenerationUnit(p), Catch::Contains("'gpusc.bgu.lanes' = 0 is out of range"));
  p = {};
  p.line_bytes = 48;
  CHECK_THROWS_WITH(BitmaskGenerationUnit(p), Catch::Contains("must be powers of two"));
  p = {};
  p.line_bytes = 512;  // 128 words of 4 B: more than 64 mask bits
  CHECK_THROWS_WITH(BitmaskGenerationUnit(p), Catch::Contains("line_bytes / word_bytes = 512 / 4 must be between 1 and 64"));
  p = {};
  p.lanes = 4;
  BitmaskGenerationUnit bgu(p);
  std::vector<uint64_t> a(4, 0);
  std::vector<LM> out;
  CHECK_THROWS_WITH(bgu.generate(a.data(), 0x10, 4, out), Catch::Contains("names lanes at or above lanes = 4"));
  CHECK_THROWS_WITH(bgu.generate(a.data(), 0x1, 3, out), Catch::Contains("access_bytes = 3"));
}
