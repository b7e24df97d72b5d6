// LaneProgramWarp: a warp built from 32 per-thread programs, for kernels whose threads each run
// their own data-dependent control flow (the Mars MapReduce kernels: a thread tokenizes its own
// record, compares its own pair of keys, copies its own key). Each thread's program is a
// LaneProgram handing out its work one loop iteration at a time (lazily: a thread's state is a
// cursor, never its whole instruction list), and the warp executes them in SIMT lock step:
//   * loops reconverge: every iteration names the loop it belongs to (loop ids follow program
//     order and never decrease along a thread's program); the warp runs the lowest loop any of its
//     threads is in, so a thread that left a loop waits until every thread has left it;
//   * within an iteration, each op has an `order` (its position in the loop body, program order);
//     the ops of all participating threads with the same order form one warp instruction over
//     exactly those lanes (an if inside the body issues with the lanes that take it; a nested loop
//     of per-thread length is one order per inner step, so the longest thread sets the trip count);
//     ops of one order must agree on operation, pc, access size and compute latency (else an error:
//     a programming mistake in the kernel model).
// Straight-line code is a loop of one iteration. This is the SIMT stack's behaviour for structured
// code (reconvergence at the loop exit and after each if), which is all the Mars kernels use.
// Stores carry a 4-byte value per lane (LaneOp::value) when values are on (kernel.h).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "workload/buffered_warp_stream.h"

namespace gpusc {

struct LaneOp {
  uint32_t order = 0;  // position in the iteration (program order); equal across lanes = one instruction
  uint32_t pc = 0;     // static instruction
  WarpInstr::Op op = WarpInstr::Op::Compute;
  uint8_t bytes = 0;         // access size (memory ops)
  uint16_t cycles = kAluCycles;  // Compute latency
  uint64_t addr = 0;         // memory ops
  uint32_t value = 0;        // stores: the 4-byte word written
};

class LaneProgram {
 public:
  virtual ~LaneProgram() = default;
  // Appends the ops of this thread's next loop iteration to `ops` (sorted by order) and sets
  // `loop`; false when the thread has finished (nothing appended).
  virtual bool next(uint32_t& loop, std::vector<LaneOp>& ops) = 0;
};

// A program given as a list of (loop, ops) iterations, for short fixed sequences.
class ListProgram final : public LaneProgram {
 public:
  struct Iteration {
    uint32_t loop;
    std::vector<LaneOp> ops;
  };
  explicit ListProgram(std::vector<Iteration> its) : its_(std::move(its)) {}
  bool next(uint32_t& loop, std::vector<LaneOp>& ops) override;

 private:
  std::vector<Iteration> its_;
  size_t at_ = 0;
};

// Programs run one after the other (their loop ids must keep increasing across them).
class ChainProgram final : public LaneProgram {
 public:
  explicit ChainProgram(std::vector<std::unique_ptr<LaneProgram>> parts) : parts_(std::move(parts)) {}
  bool next(uint32_t& loop, std::vector<LaneOp>& ops) override;

 private:
  std::vector<std::unique_ptr<LaneProgram>> parts_;
  size_t at_ = 0;
};

// A program given step by step by a function (the thread's state lives in its captures); the
// function fills ops for step `step` and returns false once there is none.
class StepProgram final : public LaneProgram {
 public:
  using Fn = std::function<bool(unsigned step, uint32_t& loop, class OpList& ops)>;
  explicit StepProgram(Fn f) : f_(std::move(f)) {}
  bool next(uint32_t& loop, std::vector<LaneOp>& ops) override;

 private:
  Fn f_;
  unsigned step_ = 0;
};

// Builds one iteration's ops in program order: each add gets the next order.
class OpList {
 public:
  explicit OpList(std::vector<LaneOp>& ops, uint32_t first_order = 0) : ops_(ops), order_(first_order) {}
  void compute(uint32_t pc, uint16_t cycles = kAluCycles);
  void load(uint32_t pc, unsigned bytes, uint64_t addr);
  void store(uint32_t pc, uint64_t addr, uint32_t value);  // a 4-byte store
  // Leaves `n` orders unused (a branch not taken by this thread: keeps later ops aligned with
  // the threads that take it).
  void skip(uint32_t n) { order_ += n; }
  uint32_t order() const { return order_; }
  void set_order(uint32_t o) { order_ = o; }

 private:
  std::vector<LaneOp>& ops_;
  uint32_t order_;
};

class LaneProgramWarp final : public BufferedWarpStream {
 public:
  // program(lane) gives lane's program, or nullptr for a lane with no thread (it stays inactive).
  // values: stores carry their LaneOp::value (WarpInstr::data).
  LaneProgramWarp(const std::function<std::unique_ptr<LaneProgram>(unsigned lane)>& program, bool values);

 private:
  bool refill() override;

  struct Lane {
    std::unique_ptr<LaneProgram> prog;
    bool pending = false;  // ops hold the next iteration
    uint32_t loop = 0;
    std::vector<LaneOp> ops;
  };
  std::vector<Lane> lanes_;
  bool values_;
};

}  // namespace gpusc
