// BufferedWarpStream: the building block of every kernel model's WarpStream. A kernel's warp is
// a small state machine; refill() appends the instructions of its next step (a phase of the
// kernel body or one loop iteration, a handful of instructions), next() hands them out one by
// one. Per-warp state is therefore the state machine plus one step's worth of instructions.
// Helpers give the lane masks of 1-D launches (thread id = cta * threads_per_cta + lane index);
// LinearWarpStream is the base of a 1-D launch's warp.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "workload/kernel.h"

namespace gpusc {

inline unsigned warps_for(unsigned threads) { return (threads + kWarpSize - 1) / kWarpSize; }

// Lanes of warp `warp` that are threads of a CTA of `threads_per_cta` threads.
inline uint32_t cta_lane_mask(unsigned threads_per_cta, unsigned warp) {
  const unsigned first = warp * kWarpSize;
  if (first >= threads_per_cta) return 0;
  const unsigned n = threads_per_cta - first;
  return n >= kWarpSize ? kAllLanes : ((1u << n) - 1u);
}

// Lanes of `exist` whose thread id (first_tid + lane) is below `limit`.
inline uint32_t lanes_below(uint32_t exist, uint64_t first_tid, uint64_t limit) {
  if (first_tid >= limit) return 0;
  const uint64_t n = limit - first_tid;
  return n >= kWarpSize ? exist : (exist & ((1u << n) - 1u));
}

class BufferedWarpStream : public WarpStream {
 public:
  bool next(WarpInstr& out) final;

 protected:
  // Appends the next step's instructions; returns false when the warp has finished (it may
  // append its last instructions in that same call). Appending nothing is a phase change.
  virtual bool refill() = 0;

  void compute(uint32_t pc, uint32_t mask, uint16_t cycles = kAluCycles);
  // A memory instruction over the lanes of `mask`; addr_of(lane) gives each lane's address.
  // An empty mask emits nothing (the branch around it is taken by every lane).
  template <class F>
  void memory(WarpInstr::Op op, uint32_t pc, unsigned bytes, uint32_t mask, F&& addr_of) {
    if (mask == 0) return;
    WarpInstr& w = push(op, pc, mask);
    w.access_bytes = static_cast<uint8_t>(bytes);
    for (unsigned l = 0; l < kWarpSize; ++l)
      if ((mask >> l) & 1u) w.addr[l] = addr_of(l);
  }
  template <class F> void load(uint32_t pc, unsigned bytes, uint32_t mask, F&& f) {
    memory(WarpInstr::Op::Load, pc, bytes, mask, f);
  }
  template <class F> void store(uint32_t pc, unsigned bytes, uint32_t mask, F&& f) {
    memory(WarpInstr::Op::Store, pc, bytes, mask, f);
  }
  // A 4-byte store that carries values when `values` is on: value_of(lane) is the word (or
  // float) the lane writes, called only then (WarpInstr::data).
  template <class F, class V>
  void store(uint32_t pc, unsigned bytes, uint32_t mask, F&& addr_of, bool values, V&& value_of) {
    if (mask == 0) return;
    memory(WarpInstr::Op::Store, pc, bytes, mask, addr_of);
    if (!values) return;
    WarpInstr& w = buf_.back();
    for (unsigned l = 0; l < kWarpSize; ++l)
      if ((mask >> l) & 1u) w.data[l] = word_bits(value_of(l));
  }
  static uint32_t word_bits(uint32_t w) { return w; }
  static uint32_t word_bits(int32_t w) { return static_cast<uint32_t>(w); }
  static uint32_t word_bits(float f) {
    uint32_t w;
    std::memcpy(&w, &f, 4);
    return w;
  }
  template <class F> void atomic(uint32_t pc, unsigned bytes, uint32_t mask, F&& f) {
    memory(WarpInstr::Op::Atomic, pc, bytes, mask, f);
  }

 private:
  WarpInstr& push(WarpInstr::Op op, uint32_t pc, uint32_t mask);

  std::vector<WarpInstr> buf_;  // the current step
  size_t head_ = 0;             // next instruction of buf_ to hand out
  bool done_ = false;           // refill() reported the end
};

// A warp of a 1-D launch: lane l runs thread first_ + l, exist_ holds the lanes its CTA has.
class LinearWarpStream : public BufferedWarpStream {
 protected:
  LinearWarpStream(unsigned threads_per_cta, unsigned cta, unsigned warp)
      : exist_(cta_lane_mask(threads_per_cta, warp)),
        first_(uint64_t(cta) * threads_per_cta + uint64_t(warp) * kWarpSize) {}

  const uint32_t exist_;
  const uint64_t first_;  // thread id of lane 0
};

}  // namespace gpusc
