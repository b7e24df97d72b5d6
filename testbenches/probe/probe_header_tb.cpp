// ProbeHeader tests (no SystemC elaboration): the paper's 15 targets x 5 bits fit one 32 B flit
// (bit count worked out by hand), a hand-assembled bit layout, random round trips, the walk of a
// leader and of a scout (visit), deflection skipping the busy core, malformed headers.
#include <catch2/catch.hpp>

#include <random>

#include "probe/probe_header.h"

using namespace gpusc::probe;

namespace {
ProbeHeader make(bool leader, std::initializer_list<unsigned> targets) {
  ProbeHeader h;
  h.leader = leader;
  h.group = 77;
  h.requester = 3;
  h.address = 0x1000;
  for (unsigned t : targets) h.add_target(t);
  return h;
}
}  // namespace

TEST_CASE("probe header: 15 targets of 5 bits fit one 32 B flit, 27 targets too, 31 need two") {
  CHECK(core_bits_for(28) == 5);  // ceil(log2 27) = 5 in the paper; 28 cores numbered 0..27
  CHECK(core_bits_for(32) == 5);
  CHECK(core_bits_for(33) == 6);
  CHECK(core_bits_for(2) == 1);
  ProbeHeader h;
  for (unsigned i = 0; i < 15; ++i) h.add_target(i);
  // probe + leader + returning (3) + group (32) + requester (5) + two 5-bit counts (10) +
  // address (64) + 15 x 5 = 189 bits.
  CHECK(h.bits(5) == 189);
  CHECK(pack(h, 5).size() == 24);  // ceil(189 / 8)
  CHECK(h.flits(5, 32) == 1);
  for (unsigned i = 15; i < 27; ++i) h.add_target(i);
  CHECK(h.bits(5) == 114 + 27 * 5);  // 249
  CHECK(h.flits(5, 32) == 1);
  for (unsigned i = 27; i < 31; ++i) h.add_target(i % 28);
  CHECK(h.bits(5) == 114 + 31 * 5);  // 269 > 256
  CHECK(h.flits(5, 32) == 2);
  CHECK_THROWS_WITH(h.add_target(1), Catch::Contains("at most 31"));
}

TEST_CASE("probe header: bit layout of a hand-assembled scout header") {
  ProbeHeader h;
  h.leader = false;
  h.returning = true;
  h.group = 0x80000001;
  h.requester = 5;  // core_bits 3: 101
  h.address = 0;
  h.add_target(6);
  h.candidates[h.n_candidates++] = 2;
  const auto b = pack(h, 3);
  // bits: 0 probe=1, 1 leader=0, 2 returning=1, 3..34 group (bit 3 = group bit 0 = 1, bit 34 =
  // group bit 31 = 1), 35..37 requester 101, 38..42 n_targets = 1, 43..47 n_candidates = 1,
  // 48..111 address 0, 112..114 target 6 = 110, 115..117 candidate 2 = 010. 118 bits -> 15 bytes.
  REQUIRE(b.size() == 15);
  CHECK(b[0] == 0x0D);  // bits 0, 2, 3
  CHECK(b[1] == 0x00);
  CHECK(b[4] == 0x6C);  // bit 34 (group 31) -> 0x04, bits 35 and 37 (requester 101) -> 0x08 | 0x20, bit 38 (n_targets 1) -> 0x40
  CHECK(b[5] == 0x08);  // bit 43 (n_candidates 1)
  CHECK(b[14] == 0x16);  // bits 113, 114 (target 110) -> 0x02 | 0x04, bit 116 (candidate 010) -> 0x10
  CHECK(unpack(b, 3) == h);
}

TEST_CASE("probe header: random headers survive pack and unpack") {
  std::mt19937_64 rng(3);
  for (int k = 0; k < 2000; ++k) {
    const unsigned bits = 1 + rng() % 8;
    ProbeHeader h;
    h.leader = rng() & 1;
    h.returning = rng() & 1;
    h.group = static_cast<uint32_t>(rng());
    h.requester = static_cast<uint8_t>(rng() % (1u << bits));
    h.address = rng();
    const unsigned nt = rng() % 32, nc = rng() % (32 - nt);
    for (unsigned i = 0; i < nt; ++i) h.add_target(static_cast<unsigned>(rng() % (1u << bits)));
    for (unsigned i = 0; i < nc; ++i) h.candidates[h.n_candidates++] = static_cast<uint8_t>(rng() % (1u << bits));
    const auto b = pack(h, bits);
    CHECK(b.size() == (109 + bits * (1 + nt + nc) + 7) / 8);  // 3 + 32 + 5 + 5 + 64 fixed bits
    REQUIRE(unpack(b, bits) == h);
  }
}

TEST_CASE("probe header: a leader replies with data at its first hit, else returns a NACK") {
  ProbeHeader l = make(true, {4, 9, 12});
  ProbeStep st = visit(l, false);
  CHECK((st.kind == ProbeStep::Forward && st.dest == 9));
  st = visit(l, true);
  CHECK((st.kind == ProbeStep::ReplyData && st.dest == 3));
  ProbeHeader n = make(true, {4, 9});
  visit(n, false);
  st = visit(n, false);
  CHECK((st.kind == ProbeStep::Return && st.dest == 3));
  CHECK(n.returning);
  CHECK(n.n_candidates == 0);
  CHECK_THROWS_WITH(visit(n, false), Catch::Contains("returning to its requester"));
}

TEST_CASE("probe header: a scout appends hits to its candidates and always walks its whole list") {
  ProbeHeader s = make(false, {1, 2, 5, 6});
  CHECK(visit(s, true).dest == 2);
  CHECK(visit(s, false).dest == 5);
  CHECK(visit(s, true).dest == 6);
  const ProbeStep st = visit(s, true);
  CHECK((st.kind == ProbeStep::Return && st.dest == 3));
  REQUIRE(s.n_candidates == 3);
  CHECK((s.candidates[0] == 1 && s.candidates[1] == 5 && s.candidates[2] == 6));
  CHECK(s.n_targets == 0);
}

TEST_CASE("probe header: deflection skips the busy core, who is never a candidate, and the probe completes") {
  ProbeHeader s = make(false, {1, 2});
  CHECK(visit(s, false).dest == 2);  // core 1 deflected (its queue full) even though it has the line
  CHECK(visit(s, true).kind == ProbeStep::Return);
  REQUIRE(s.n_candidates == 1);
  CHECK(s.candidates[0] == 2);
}

TEST_CASE("probe header: malformed packed headers are clear errors") {
  ProbeHeader h = make(true, {1, 2});
  auto b = pack(h, 5);
  auto cut = b;
  cut.resize(b.size() - 1);
  CHECK_THROWS_WITH(unpack(cut, 5), Catch::Contains("truncated"));
  auto noprobe = b;
  noprobe[0] &= 0xFE;
  CHECK_THROWS_WITH(unpack(noprobe, 5), Catch::Contains("probe bit is clear"));
  ProbeHeader big = make(true, {40});
  CHECK_THROWS_WITH(pack(big, 5), Catch::Contains("target 40 does not fit in 5 bits"));
  CHECK_THROWS_WITH(pack(h, 9), Catch::Contains("core_bits = 9"));
  ProbeHeader empty;
  CHECK_THROWS_WITH(visit(empty, false), Catch::Contains("no target left"));
}
