#include "workload/buffered_warp_stream.h"

namespace gpusc {

bool BufferedWarpStream::next(WarpInstr& out) {
  while (head_ == buf_.size()) {
    if (done_) return false;
    buf_.clear();
    head_ = 0;
    done_ = !refill();
  }
  out = buf_[head_++];
  return true;
}

void BufferedWarpStream::compute(uint32_t pc, uint32_t mask, uint16_t cycles) {
  if (mask == 0) return;
  push(WarpInstr::Op::Compute, pc, mask).compute_cycles = cycles;
}

WarpInstr& BufferedWarpStream::push(WarpInstr::Op op, uint32_t pc, uint32_t mask) {
  WarpInstr& w = buf_.emplace_back();
  w.op = op;
  w.pc = pc;
  w.active_mask = mask;
  return w;
}

}  // namespace gpusc
