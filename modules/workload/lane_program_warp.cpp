#include "workload/lane_program_warp.h"

#include <algorithm>

#include "common/report.h"

namespace gpusc {

bool ListProgram::next(uint32_t& loop, std::vector<LaneOp>& ops) {
  if (at_ == its_.size()) return false;
  loop = its_[at_].loop;
  ops.insert(ops.end(), its_[at_].ops.begin(), its_[at_].ops.end());
  ++at_;
  return true;
}

bool ChainProgram::next(uint32_t& loop, std::vector<LaneOp>& ops) {
  for (; at_ < parts_.size(); ++at_)
    if (parts_[at_] && parts_[at_]->next(loop, ops)) return true;
  return false;
}

bool StepProgram::next(uint32_t& loop, std::vector<LaneOp>& ops) {
  OpList o(ops);
  return f_(step_++, loop, o);
}

void OpList::compute(uint32_t pc, uint16_t cycles) {
  LaneOp o;
  o.order = order_++;
  o.pc = pc;
  o.cycles = cycles;
  ops_.push_back(o);
}

void OpList::load(uint32_t pc, unsigned bytes, uint64_t addr) {
  LaneOp o;
  o.order = order_++;
  o.pc = pc;
  o.op = WarpInstr::Op::Load;
  o.bytes = static_cast<uint8_t>(bytes);
  o.cycles = 0;
  o.addr = addr;
  ops_.push_back(o);
}

void OpList::store(uint32_t pc, uint64_t addr, uint32_t value) {
  LaneOp o;
  o.order = order_++;
  o.pc = pc;
  o.op = WarpInstr::Op::Store;
  o.bytes = 4;
  o.cycles = 0;
  o.addr = addr;
  o.value = value;
  ops_.push_back(o);
}

LaneProgramWarp::LaneProgramWarp(const std::function<std::unique_ptr<LaneProgram>(unsigned)>& program, bool values)
    : lanes_(kWarpSize), values_(values) {
  for (unsigned l = 0; l < kWarpSize; ++l) lanes_[l].prog = program(l);
}

bool LaneProgramWarp::refill() {
  // Every lane with a program and no iteration in hand fetches its next one.
  bool any = false;
  uint32_t loop = UINT32_MAX;
  for (auto& ln : lanes_) {
    if (!ln.prog) continue;
    if (!ln.pending) {
      ln.ops.clear();
      if (!ln.prog->next(ln.loop, ln.ops)) {
        ln.prog.reset();
        continue;
      }
      ln.pending = true;
    }
    any = true;
    loop = std::min(loop, ln.loop);
  }
  if (!any) return false;
  // The lanes in the lowest loop run one iteration together, merged by order.
  size_t head[kWarpSize] = {};
  uint32_t part = 0;
  for (unsigned l = 0; l < kWarpSize; ++l)
    if (lanes_[l].prog && lanes_[l].pending && lanes_[l].loop == loop) part |= 1u << l;
  for (;;) {
    uint32_t order = UINT32_MAX;
    for (unsigned l = 0; l < kWarpSize; ++l)
      if (((part >> l) & 1u) && head[l] < lanes_[l].ops.size()) order = std::min(order, lanes_[l].ops[head[l]].order);
    if (order == UINT32_MAX) break;
    uint32_t mask = 0;
    const LaneOp* first = nullptr;
    const LaneOp* at[kWarpSize] = {};
    for (unsigned l = 0; l < kWarpSize; ++l) {
      if (!((part >> l) & 1u) || head[l] >= lanes_[l].ops.size()) continue;
      const LaneOp& o = lanes_[l].ops[head[l]];
      if (o.order != order) continue;
      if (!first) first = &o;
      else if (o.op != first->op || o.pc != first->pc || o.bytes != first->bytes || o.cycles != first->cycles)
        error("gpusc.workload", "lane program: lanes disagree at order ", order, " (pc 0x", std::hex, first->pc, " vs 0x",
              o.pc, std::dec, "): a kernel model gives two different instructions one position");
      at[l] = &o;
      mask |= 1u << l;
      ++head[l];
    }
    switch (first->op) {
      case WarpInstr::Op::Compute: compute(first->pc, mask, first->cycles); break;
      case WarpInstr::Op::Load: load(first->pc, first->bytes, mask, [&](unsigned l) { return at[l]->addr; }); break;
      case WarpInstr::Op::Store:
        store(first->pc, first->bytes, mask, [&](unsigned l) { return at[l]->addr; }, values_,
              [&](unsigned l) { return at[l]->value; });
        break;
      case WarpInstr::Op::Atomic: atomic(first->pc, first->bytes, mask, [&](unsigned l) { return at[l]->addr; }); break;
    }
  }
  for (unsigned l = 0; l < kWarpSize; ++l)
    if ((part >> l) & 1u) lanes_[l].pending = false;
  return true;
}

}  // namespace gpusc
