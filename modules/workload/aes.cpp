#include "workload/aes.h"

#include <array>

#include "common/report.h"
#include "workload/address_space.h"

namespace gpusc {

namespace {

uint8_t xtime(uint8_t a) { return static_cast<uint8_t>((a << 1) ^ ((a & 0x80) ? 0x1b : 0)); }

uint8_t gmul(uint8_t a, uint8_t b) {
  uint8_t p = 0;
  for (int i = 0; i < 8; ++i) {
    if (b & 1) p ^= a;
    a = xtime(a);
    b >>= 1;
  }
  return p;
}

std::array<uint8_t, 256> make_sbox() {
  std::array<uint8_t, 256> s{};
  for (unsigned x = 0; x < 256; ++x) {
    uint8_t inv = 0;  // multiplicative inverse in GF(2^8), 0 for 0
    for (unsigned y = 1; y < 256 && x; ++y)
      if (gmul(static_cast<uint8_t>(x), static_cast<uint8_t>(y)) == 1) inv = static_cast<uint8_t>(y);
    auto rotl = [](uint8_t v, int k) { return static_cast<uint8_t>((v << k) | (v >> (8 - k))); };
    s[x] = static_cast<uint8_t>(inv ^ rotl(inv, 1) ^ rotl(inv, 2) ^ rotl(inv, 3) ^ rotl(inv, 4) ^ 0x63);
  }
  return s;
}

void add_round_key(uint8_t st[16], const uint32_t w[60], unsigned round) {
  for (unsigned c = 0; c < 4; ++c)
    for (unsigned r = 0; r < 4; ++r) st[4 * c + r] ^= static_cast<uint8_t>(w[4 * round + c] >> (24 - 8 * r));
}

}  // namespace

const uint8_t* AesWorkload::sbox() {
  static const std::array<uint8_t, 256> s = make_sbox();
  return s.data();
}

void AesWorkload::expand_key(const uint8_t key[32], uint32_t w[60]) {
  const uint8_t* s = sbox();
  auto sub_word = [s](uint32_t v) {
    return uint32_t{s[v >> 24]} << 24 | uint32_t{s[(v >> 16) & 0xff]} << 16 | uint32_t{s[(v >> 8) & 0xff]} << 8 |
           s[v & 0xff];
  };
  for (unsigned i = 0; i < 8; ++i)
    w[i] = uint32_t{key[4 * i]} << 24 | uint32_t{key[4 * i + 1]} << 16 | uint32_t{key[4 * i + 2]} << 8 | key[4 * i + 3];
  uint8_t rcon = 1;
  for (unsigned i = 8; i < 60; ++i) {
    uint32_t t = w[i - 1];
    if (i % 8 == 0) {
      t = sub_word((t << 8) | (t >> 24)) ^ (uint32_t{rcon} << 24);
      rcon = xtime(rcon);
    } else if (i % 8 == 4) {
      t = sub_word(t);
    }
    w[i] = w[i - 8] ^ t;
  }
}

void AesWorkload::start(const uint32_t w[60], const uint8_t in[16], uint8_t st[16]) {
  for (unsigned i = 0; i < 16; ++i) st[i] = in[i];
  add_round_key(st, w, 0);
}

void AesWorkload::round(const uint32_t w[60], unsigned r, uint8_t st[16]) {
  const uint8_t* s = sbox();
  for (unsigned i = 0; i < 16; ++i) st[i] = s[st[i]];
  uint8_t t[16];  // ShiftRows: row r rotates left by r (state[row + 4 column], column-major)
  for (unsigned c = 0; c < 4; ++c)
    for (unsigned row = 0; row < 4; ++row) t[row + 4 * c] = st[row + 4 * ((c + row) % 4)];
  for (unsigned i = 0; i < 16; ++i) st[i] = t[i];
  if (r < 14)
    for (unsigned c = 0; c < 4; ++c) {  // MixColumns
      const uint8_t a0 = st[4 * c], a1 = st[4 * c + 1], a2 = st[4 * c + 2], a3 = st[4 * c + 3];
      st[4 * c] = static_cast<uint8_t>(gmul(a0, 2) ^ gmul(a1, 3) ^ a2 ^ a3);
      st[4 * c + 1] = static_cast<uint8_t>(a0 ^ gmul(a1, 2) ^ gmul(a2, 3) ^ a3);
      st[4 * c + 2] = static_cast<uint8_t>(a0 ^ a1 ^ gmul(a2, 2) ^ gmul(a3, 3));
      st[4 * c + 3] = static_cast<uint8_t>(gmul(a0, 3) ^ a1 ^ a2 ^ gmul(a3, 2));
    }
  add_round_key(st, w, r);
}

void AesWorkload::encrypt(const uint32_t w[60], const uint8_t in[16], uint8_t out[16]) {
  start(w, in, out);
  for (unsigned r = 1; r <= 14; ++r) round(w, r, out);
}

uint8_t AesWorkload::input_byte(uint64_t i) {
  return static_cast<uint8_t>(AddressSpace::hashed_unit(0xae5, i) * 256.0f);
}

const uint8_t* AesWorkload::key() {
  static const std::array<uint8_t, 32> k = [] {
    std::array<uint8_t, 32> a{};
    for (unsigned i = 0; i < 32; ++i) a[i] = static_cast<uint8_t>(AddressSpace::hashed_unit(0x6e7, i) * 256.0f);
    return a;
  }();
  return k.data();
}

struct AesWorkload::Data {
  Params p;
  uint64_t input, expanded_key, s;
  uint32_t w[60];
};

namespace {

enum Pc : uint32_t { kLdIn = 0x00, kLdKey = 0x10, kXor = 0x20, kLdS = 0x30, kShift = 0x40, kMix = 0x50, kStIn = 0x60 };

class AesWarp final : public BufferedWarpStream {
 public:
  using Data = AesWorkload::Data;
  AesWarp(std::shared_ptr<const Data> d, unsigned cta, unsigned warp)
      : d_(std::move(d)),
        first_(uint64_t(cta) * d_->p.threads_per_cta + uint64_t(warp) * kWarpSize),
        valid_(lanes_below(cta_lane_mask(d_->p.threads_per_cta, warp), first_, d_->p.bytes / 16)) {}

 private:
  void round_key(unsigned round) {  // AddRoundKey: 4 broadcast word loads and the XORs
    for (unsigned c = 0; c < 4; ++c) load(kLdKey, 4, valid_, [&](unsigned) { return d_->expanded_key + 4 * (4 * round + c); });
    compute(kXor, valid_);
  }
  bool refill() override {
    const uint64_t blk = first_;
    if (step_ == 0) {
      for (unsigned i = 0; i < 16; ++i) load(kLdIn, 1, valid_, [&](unsigned l) { return d_->input + 16 * (blk + l) + i; });
      round_key(0);
      for (unsigned l = 0; l < kWarpSize; ++l) {  // the lane's cipher state (the S-box indices to come)
        if (!((valid_ >> l) & 1u)) continue;
        uint8_t in[16];
        for (unsigned i = 0; i < 16; ++i) in[i] = AesWorkload::input_byte(16 * (blk + l) + i);
        AesWorkload::start(d_->w, in, st_[l]);
      }
    } else if (step_ <= 14) {
      const unsigned r = step_;
      for (unsigned j = 0; j < 16; ++j) load(kLdS, 1, valid_, [&](unsigned l) { return d_->s + st_[l][j]; });
      compute(kShift, valid_);
      if (r < 14) compute(kMix, valid_);
      round_key(r);
      for (unsigned l = 0; l < kWarpSize; ++l)
        if ((valid_ >> l) & 1u) AesWorkload::round(d_->w, r, st_[l]);
    } else {
      for (unsigned i = 0; i < 16; ++i) store(kStIn, 1, valid_, [&](unsigned l) { return d_->input + 16 * (blk + l) + i; });
      return false;
    }
    ++step_;
    return true;
  }
  std::shared_ptr<const Data> d_;
  uint64_t first_;
  uint32_t valid_;
  unsigned step_ = 0;
  uint8_t st_[kWarpSize][16] = {};  // each lane's cipher state before the next SubBytes
};

}  // namespace

AesWorkload::AesWorkload(const Params& p) : SequenceWorkload("aes", 1) {
  validate(p, "aes");
  if (p.bytes % 16 != 0) error("gpusc.workload", "aes.bytes = ", p.bytes, " must be a multiple of 16 (AES blocks)");
  auto d = std::make_shared<Data>();
  d->p = p;
  d->input = space_.allocate("input", p.bytes);
  d->expanded_key = space_.allocate("expanded_key", 60 * 4);
  d->s = space_.allocate("s", 256);
  expand_key(key(), d->w);
  d_ = std::move(d);
}

std::unique_ptr<Kernel> AesWorkload::launch(unsigned) {
  return std::make_unique<KernelOf<AesWarp, Data>>("aes", ctas_for(d_->p.bytes / 16, d_->p.threads_per_cta),
                                                   d_->p.threads_per_cta, d_);
}

}  // namespace gpusc
