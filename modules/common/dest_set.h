// DestSet: a fixed-size set of network node ids, the destination list of a (multicast) packet.
// Paper 001 §3 keeps "destination bits" per request group and §4.3 splits a packet's
// destination list per output port; both are this set. Capacity is kMaxNodes (512: paper
// 003's monolithic 256-SM die has 320 nodes); topologies reject larger networks with an error
// rather than wrap around.
#pragma once
#include <array>
#include <cstdint>

namespace gpusc {

class DestSet {
 public:
  static constexpr unsigned kMaxNodes = 512;

  DestSet() = default;
  static DestSet single(unsigned node) { DestSet d; d.add(node); return d; }

  void add(unsigned n) { w_[n >> 6] |= bit(n); }
  void remove(unsigned n) { w_[n >> 6] &= ~bit(n); }
  bool contains(unsigned n) const { return (w_[n >> 6] & bit(n)) != 0; }
  bool empty() const {
    uint64_t any = 0;
    for (auto w : w_) any |= w;
    return any == 0;
  }
  void clear() { w_ = {}; }
  unsigned count() const {
    unsigned c = 0;
    for (auto w : w_) c += static_cast<unsigned>(__builtin_popcountll(w));
    return c;
  }
  // Exactly one member (cheaper than count() == 1).
  bool single_member() const {
    unsigned words = 0;
    for (auto w : w_) {
      if (!w) continue;
      if ((w & (w - 1)) || ++words > 1) return false;
    }
    return words == 1;
  }
  // Lowest member; only valid when !empty().
  unsigned first() const {
    for (unsigned i = 0; i < kWords; ++i)
      if (w_[i]) return i * 64 + static_cast<unsigned>(__builtin_ctzll(w_[i]));
    return kMaxNodes;
  }
  // Calls f(node) for every member in increasing order.
  template <class F> void for_each(F&& f) const {
    for (unsigned i = 0; i < kWords; ++i)
      for (uint64_t w = w_[i]; w; w &= w - 1)
        f(i * 64 + static_cast<unsigned>(__builtin_ctzll(w)));
  }
  DestSet& operator|=(const DestSet& o) { for (unsigned i = 0; i < kWords; ++i) w_[i] |= o.w_[i]; return *this; }
  bool operator==(const DestSet& o) const { return w_ == o.w_; }
  bool operator!=(const DestSet& o) const { return !(*this == o); }

 private:
  static uint64_t bit(unsigned n) { return uint64_t{1} << (n & 63); }
  static constexpr unsigned kWords = kMaxNodes / 64;
  std::array<uint64_t, kWords> w_{};
};

}  // namespace gpusc
