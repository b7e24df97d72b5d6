// Coalescer tests: line requests, sector/word/lane masks and their order for hand-computed
// access patterns (unit stride, strides, scattered and partial warps, 1- to 16-byte accesses,
// broadcast, line-crossing), other line sizes, and bad configuration or access sizes.
#include <catch2/catch.hpp>

#include <systemc>

#include "mem/coalescer.h"

using namespace gpusc;

namespace {
WarpInstr mem_instr(uint8_t bytes, uint32_t mask, uint64_t base, uint64_t stride) {
  WarpInstr w;
  w.op = WarpInstr::Op::Load;
  w.pc = 0x40;
  w.access_bytes = bytes;
  w.active_mask = mask;
  for (unsigned l = 0; l < kWarpSize; ++l) w.addr[l] = base + l * stride;
  return w;
}

LineRequests run(const WarpInstr& w, unsigned line_bytes = 128) {
  Coalescer c(Coalescer::Params{line_bytes});
  LineRequests out;
  c.coalesce(w, out);
  CHECK(c.count(w) == out.size());
  return out;
}

void check_line(const LineRequest& r, uint64_t line, uint32_t sectors, uint64_t words, uint32_t lanes) {
  INFO("line 0x" << std::hex << r.line);
  CHECK(r.line == line);
  CHECK(r.sector_mask == sectors);
  CHECK(r.word_mask == words);
  CHECK(r.lanes == lanes);
}
}  // namespace

TEST_CASE("Coalescer: unit stride 4 B is one full line", "[coalescer]") {
  // 32 lanes x 4 B from a line-aligned base = bytes 0..127 of one line.
  const auto r = run(mem_instr(4, kAllLanes, 0x1000, 4));
  REQUIRE(r.size() == 1);
  check_line(r[0], 0x1000, 0xF, 0xFFFFFFFFu, kAllLanes);
}

TEST_CASE("Coalescer: stride 8 B is two lines, every other word", "[coalescer]") {
  // Lane l at offset 8l: lanes 0..15 in line 0x1000 (offsets 0..120), 16..31 in 0x1080.
  // Words 0, 2, ..., 30 = 0x55555555; every sector has at least one of them.
  const auto r = run(mem_instr(4, kAllLanes, 0x1000, 8));
  REQUIRE(r.size() == 2);
  check_line(r[0], 0x1000, 0xF, 0x55555555u, 0x0000FFFFu);
  check_line(r[1], 0x1080, 0xF, 0x55555555u, 0xFFFF0000u);
}

TEST_CASE("Coalescer: stride 128 B is 32 lines of one word each", "[coalescer]") {
  // Base 0x1004: every lane touches word 1 (sector 0) of its own line, in lane order.
  const auto r = run(mem_instr(4, kAllLanes, 0x1004, 128));
  REQUIRE(r.size() == 32);
  for (unsigned l = 0; l < 32; ++l) check_line(r[l], 0x1000 + 128 * l, 0x1, 0x2, 1u << l);
}

TEST_CASE("Coalescer: scattered lanes, ordered by the first lane touching each line", "[coalescer]") {
  WarpInstr w = mem_instr(4, 0x3F, 0, 0);
  w.addr[0] = 0x2008;  // line 0x2000, word 2, sector 0
  w.addr[1] = 0x1040;  // line 0x1000, word 16, sector 2
  w.addr[2] = 0x207C;  // line 0x2000, word 31, sector 3
  w.addr[3] = 0x3000;  // line 0x3000, word 0, sector 0
  w.addr[4] = 0x1000;  // line 0x1000, word 0, sector 0
  w.addr[5] = 0x203C;  // line 0x2000, word 15, sector 1
  w.addr[6] = 0x9000;  // inactive: ignored
  const auto r = run(w);
  REQUIRE(r.size() == 3);
  check_line(r[0], 0x2000, 0xB, (1u << 2) | (1u << 15) | (1u << 31), 0x25);
  check_line(r[1], 0x1000, 0x5, (1u << 0) | (1u << 16), 0x12);
  check_line(r[2], 0x3000, 0x1, 0x1, 0x08);
}

TEST_CASE("Coalescer: partial warps mark only active lanes' words", "[coalescer]") {
  // Lower half active: bytes 0..63 = words 0..15, sectors 0..1.
  auto r = run(mem_instr(4, 0x0000FFFFu, 0x1000, 4));
  REQUIRE(r.size() == 1);
  check_line(r[0], 0x1000, 0x3, 0x0000FFFFu, 0x0000FFFFu);
  // Odd lanes: odd words, one in every sector.
  r = run(mem_instr(4, 0xAAAAAAAAu, 0x1000, 4));
  REQUIRE(r.size() == 1);
  check_line(r[0], 0x1000, 0xF, 0xAAAAAAAAu, 0xAAAAAAAAu);
  // Upper half of a stride-8 warp: only the second line.
  r = run(mem_instr(4, 0xFFFF0000u, 0x1000, 8));
  REQUIRE(r.size() == 1);
  check_line(r[0], 0x1080, 0xF, 0x55555555u, 0xFFFF0000u);
  // No active lane: no request.
  CHECK(run(mem_instr(4, 0, 0x1000, 4)).empty());
}

TEST_CASE("Coalescer: 1-, 2-, 8- and 16-byte accesses", "[coalescer]") {
  // 1 B, consecutive: bytes 0..31 -> words 0..7, sector 0.
  auto r = run(mem_instr(1, kAllLanes, 0x1000, 1));
  REQUIRE(r.size() == 1);
  check_line(r[0], 0x1000, 0x1, 0xFFu, kAllLanes);
  // 1 B at byte 4l+3: one byte per word, all 32 words.
  r = run(mem_instr(1, kAllLanes, 0x1003, 4));
  REQUIRE(r.size() == 1);
  check_line(r[0], 0x1000, 0xF, 0xFFFFFFFFu, kAllLanes);
  // 2 B, consecutive: bytes 0..63 -> words 0..15, sectors 0..1.
  r = run(mem_instr(2, kAllLanes, 0x1000, 2));
  REQUIRE(r.size() == 1);
  check_line(r[0], 0x1000, 0x3, 0xFFFFu, kAllLanes);
  // 8 B, consecutive: 256 bytes = two full lines of 16 lanes (2 words per lane).
  r = run(mem_instr(8, kAllLanes, 0x1000, 8));
  REQUIRE(r.size() == 2);
  check_line(r[0], 0x1000, 0xF, 0xFFFFFFFFu, 0x0000FFFFu);
  check_line(r[1], 0x1080, 0xF, 0xFFFFFFFFu, 0xFFFF0000u);
  // 16 B, consecutive: 512 bytes = four full lines of 8 lanes (4 words per lane).
  r = run(mem_instr(16, kAllLanes, 0x1000, 16));
  REQUIRE(r.size() == 4);
  for (unsigned i = 0; i < 4; ++i) check_line(r[i], 0x1000 + 128 * i, 0xF, 0xFFFFFFFFu, 0xFFu << (8 * i));
  // 16 B, stride 128 from offset 32: words 8..11 of sector 1 of each lane's line.
  r = run(mem_instr(16, 0x3, 0x1020, 128));
  REQUIRE(r.size() == 2);
  check_line(r[0], 0x1000, 0x2, 0xF00u, 0x1);
  check_line(r[1], 0x1080, 0x2, 0xF00u, 0x2);
}

TEST_CASE("Coalescer: all lanes on one address is one line and one word", "[coalescer]") {
  // 0x1234 = line 0x1200 + 52: word 13, sector 1.
  const auto r = run(mem_instr(4, kAllLanes, 0x1234, 0));
  REQUIRE(r.size() == 1);
  check_line(r[0], 0x1200, 0x2, 1u << 13, kAllLanes);
}

TEST_CASE("Coalescer: a line-crossing access contributes to both lines", "[coalescer]") {
  // Lane 0: 8 B at 0x107C = bytes 124..127 of line 0x1000 (word 31, sector 3) and 0..3 of
  // line 0x1080 (word 0, sector 0). Lane 1: 8 B at 0x1080 = words 0..1 of line 0x1080.
  WarpInstr w = mem_instr(8, 0x3, 0, 0);
  w.addr[0] = 0x107C;
  w.addr[1] = 0x1080;
  auto r = run(w);
  REQUIRE(r.size() == 2);
  check_line(r[0], 0x1000, 0x8, 0x80000000u, 0x1);
  check_line(r[1], 0x1080, 0x1, 0x3, 0x3);
  // Misaligned inside a line: 4 B at offset 2 touches words 0 and 1; at offset 30 it crosses
  // sectors 0 and 1 (bytes 30..33, words 7 and 8).
  w = mem_instr(4, 0x3, 0, 0);
  w.addr[0] = 0x1002;
  w.addr[1] = 0x101E;
  r = run(w);
  REQUIRE(r.size() == 1);
  check_line(r[0], 0x1000, 0x3, 0x183, 0x3);
}

TEST_CASE("Coalescer: 32 B and 256 B lines", "[coalescer]") {
  // 32 B lines: unit stride 4 B spans 4 lines of 8 words, one sector each.
  auto r = run(mem_instr(4, kAllLanes, 0x1000, 4), 32);
  REQUIRE(r.size() == 4);
  for (unsigned i = 0; i < 4; ++i) check_line(r[i], 0x1000 + 32 * i, 0x1, 0xFFu, 0xFFu << (8 * i));
  // 256 B lines: stride 8 B covers bytes 0..255 of one line, words 0, 2, ..., 62, 8 sectors.
  r = run(mem_instr(4, kAllLanes, 0x1100, 8), 256);
  REQUIRE(r.size() == 1);
  check_line(r[0], 0x1100, 0xFF, 0x5555555555555555ull, kAllLanes);
  // 64 B lines: a 16 B access at 0x1038 crosses from line 0x1000 (word 14..15, sector 1)
  // into 0x1040 (words 0..1, sector 0).
  WarpInstr w = mem_instr(16, 0x1, 0x1038, 0);
  r = run(w, 64);
  REQUIRE(r.size() == 2);
  check_line(r[0], 0x1000, 0x2, 0xC000u, 0x1);
  check_line(r[1], 0x1040, 0x1, 0x3, 0x1);
}

TEST_CASE("Coalescer: bad line size or access size is an error", "[coalescer][config]") {
  CHECK_THROWS_AS(Coalescer(Coalescer::Params{48}), sc_core::sc_report);
  CHECK_THROWS_AS(Coalescer(Coalescer::Params{16}), sc_core::sc_report);
  CHECK_THROWS_AS(Coalescer(Coalescer::Params{512}), sc_core::sc_report);
  CHECK_NOTHROW(Coalescer(Coalescer::Params{64}));
  Coalescer c(Coalescer::Params{128});
  LineRequests out;
  for (uint8_t bad : {0, 3, 32}) {
    INFO("access_bytes " << unsigned(bad));
    CHECK_THROWS_AS(c.coalesce(mem_instr(bad, kAllLanes, 0x1000, 4), out), sc_core::sc_report);
  }
}
