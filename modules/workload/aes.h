// Aes: the Hetero-Mark AES kernel (paper 004 Table 2 "aes", local-dominated): AES-256 encryption
// (FIPS-197, 14 rounds) of a byte buffer in place, one thread per 16-byte block.
// Access pattern (Hetero-Mark / MGPUSim Encrypt): thread t loads input[16t + i] byte by byte
// (i = 0 .. 15), then AddRoundKey (4 word loads expanded_key[4r .. 4r + 3], the same for every
// lane), 13 rounds of SubBytes (16 byte loads s[state[j]]: data-dependent, inside the 256 B S-box)
// + ShiftRows + MixColumns + AddRoundKey, a last round without MixColumns, and 16 byte stores
// back to input[16t + i]. The S-box indices are the real cipher's: the workload runs AES-256 on
// each lane's block (the S-box is computed from GF(2^8) inverses, the key schedule is FIPS-197's),
// so the addresses are those of the encryption of this input under this key.
// Choices: the input bytes and the 32-byte key are hashed (Hetero-Mark reads a file and a fixed
// key); one copy of the key schedule and S-box (Hetero-Mark's multi-GPU version allocates them per
// GPU; at 240 + 256 B they stay in the L1s); ShiftRows, MixColumns and the XORs are compute
// instructions; no values are recorded for the stores.
// Default: 4 MiB (262,144 blocks), 64-thread CTAs (MGPUSim's local size). size=small: 64 KiB.
#pragma once
#include <cstdint>

#include "common/params.h"
#include "workload/grid_kernel.h"

namespace gpusc {

class AesWorkload : public SequenceWorkload {
 public:
  struct Params {
    uint64_t bytes = uint64_t{4} << 20;  // buffer size, a multiple of 16
    unsigned threads_per_cta = 64;       // MGPUSim's Hetero-Mark AES: local size 64
    static Params small() {
      Params p;
      p.bytes = 64 * 1024;
      return p;
    }
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(bytes, 16, uint64_t{1} << 32, "bytes to encrypt, a multiple of 16 (one thread per block)");
      GPUSC_PARAM_R(threads_per_cta, 1, 1024, "CTA size [threads]");
    }
  };
  explicit AesWorkload(const Params& p);

  // The FIPS-197 S-box (computed, not tabulated).
  static const uint8_t* sbox();
  // AES-256 key schedule: 60 words, word i = bytes 4i .. 4i + 3 big-endian (FIPS-197 §5.2).
  static void expand_key(const uint8_t key[32], uint32_t w[60]);
  // One block: start() = the state after the first AddRoundKey; round(w, r, st) = round r
  // (1 .. 14: SubBytes, ShiftRows, MixColumns unless r = 14, AddRoundKey r) on st, whose bytes
  // are that round's S-box indices on entry; encrypt() = start and the 14 rounds.
  static void start(const uint32_t w[60], const uint8_t in[16], uint8_t st[16]);
  static void round(const uint32_t w[60], unsigned r, uint8_t st[16]);
  static void encrypt(const uint32_t w[60], const uint8_t in[16], uint8_t out[16]);
  static uint8_t input_byte(uint64_t i);  // the buffer's contents
  static const uint8_t* key();            // the 32-byte key
  struct Data;

 protected:
  std::unique_ptr<Kernel> launch(unsigned index) override;

 private:
  std::shared_ptr<const Data> d_;
};

}  // namespace gpusc
