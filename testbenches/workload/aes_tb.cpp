// AES: the cipher against FIPS-197 (S-box entries, the AES-256 example of Appendix C.3 with its
// round-1 state), then the kernel's accesses: thread t's 16 byte loads and stores at 16t + i, four
// broadcast key loads per round, and each round's 16 S-box loads at the indices of the lane's
// cipher state, the first round's worked out by hand from the input bytes and the key.
#include <catch2/catch.hpp>

#include "workload/aes.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;

TEST_CASE("aes: the cipher is FIPS-197 AES-256") {
  const uint8_t* s = AesWorkload::sbox();
  CHECK(s[0x00] == 0x63);
  CHECK(s[0x53] == 0xed);  // FIPS-197 §5.1.1's example
  CHECK(s[0x10] == 0xca);
  CHECK(s[0xff] == 0x16);
  uint8_t key[32], in[16], out[16], st[16];
  for (unsigned i = 0; i < 32; ++i) key[i] = static_cast<uint8_t>(i);
  for (unsigned i = 0; i < 16; ++i) in[i] = static_cast<uint8_t>(0x11 * i);
  uint32_t w[60];
  AesWorkload::expand_key(key, w);
  // w[8] by hand: RotWord(w[7] = 1c1d1e1f) = 1d1e1f1c, SubWord = a4 72 c0 9c, ^ Rcon 01, ^ w[0].
  CHECK(w[8] == 0xa573c29fu);
  // The last round key, Appendix C.3 round[14].k_sch = 24fc79cc bf0979e9 371ac23c 6d68de36.
  CHECK(w[56] == 0x24fc79ccu);
  CHECK(w[59] == 0x6d68de36u);
  AesWorkload::start(w, in, st);  // Appendix C.3: round[1].start = 00102030...f0
  for (unsigned i = 0; i < 16; ++i) CHECK(st[i] == static_cast<uint8_t>(0x10 * i));
  AesWorkload::encrypt(w, in, out);
  const uint8_t expect[16] = {0x8e, 0xa2, 0xb7, 0xca, 0x51, 0x67, 0x45, 0xbf,
                              0xea, 0xfc, 0x49, 0x90, 0x4b, 0x49, 0x60, 0x89};
  for (unsigned i = 0; i < 16; ++i) CHECK(out[i] == expect[i]);
}

TEST_CASE("aes: byte loads and stores of the own block, key broadcasts, S-box loads at the cipher's indices") {
  AesWorkload::Params p;
  p.bytes = 16 * 40;  // 40 blocks
  p.threads_per_cta = 64;
  AesWorkload w(p);
  auto k = w.next_kernel();
  REQUIRE(k->num_ctas() == 1);
  const auto warps = drain_kernel(*k);
  check_invariants(w.address_space(), *k, warps);
  const AccessCount c = count_accesses(w.address_space(), warps);
  for (uint64_t i = 0; i < 16 * 40; ++i) {
    CHECK(c.load("input", i) == 1);
    CHECK(c.store("input", i) == 1);
  }
  const AddressSpace& s = w.address_space();
  const auto& st0 = warps[0];
  const auto keys = on_array(s, st0, "expanded_key", WarpInstr::Op::Load);
  REQUIRE(keys.size() == 15 * 4);
  for (unsigned r = 0; r < 15; ++r)
    for (unsigned c4 = 0; c4 < 4; ++c4) {
      const auto& i = keys[4 * r + c4];
      CHECK(element(s, "expanded_key", i, 0) == 4 * r + c4);
      CHECK(element(s, "expanded_key", i, 31) == 4 * r + c4);
    }
  const auto sb = on_array(s, st0, "s", WarpInstr::Op::Load);
  REQUIRE(sb.size() == 14 * 16);
  // Round 1 by hand: the index of state byte j is input byte j of the block XOR key byte j
  // (column c = j / 4 takes key word c, big-endian: byte j of the 32-byte key).
  const uint8_t* key = AesWorkload::key();
  for (unsigned lane : {0u, 5u, 31u})
    for (unsigned j = 0; j < 16; ++j) {
      const uint8_t idx = AesWorkload::input_byte(16 * lane + j) ^ key[j];
      CHECK(sb[j].addr[lane] - s.array("s").base == idx);
      CHECK(sb[j].access_bytes == 1);
    }
  // Later rounds: the indices of the lane's real cipher state, round by round.
  uint32_t kw[60];
  AesWorkload::expand_key(key, kw);
  const unsigned lane = 7;
  uint8_t in[16], st[16];
  for (unsigned i = 0; i < 16; ++i) in[i] = AesWorkload::input_byte(16 * lane + i);
  AesWorkload::start(kw, in, st);
  for (unsigned r = 1; r <= 14; ++r) {
    for (unsigned j = 0; j < 16; ++j) CHECK(sb[16 * (r - 1) + j].addr[lane] - s.array("s").base == st[j]);
    AesWorkload::round(kw, r, st);
  }
  // Block loads: lane l's i-th load reads input[16 (32 w + l) + i] (warp 1: blocks 32 .. 39).
  const auto ld1 = on_array(s, warps[1], "input", WarpInstr::Op::Load);
  REQUIRE(ld1.size() == 16);
  CHECK(ld1[3].active_mask == 0xffu);  // 8 blocks left
  CHECK(element(s, "input", ld1[3], 2) == 16 * 34 + 3);
  p.bytes = 100;
  REQUIRE_THROWS_WITH(AesWorkload(p), Catch::Contains("must be a multiple of 16"));
}
