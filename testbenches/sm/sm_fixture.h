// Shared set-up for the SM testbenches.
//   ScriptedMemory : stands where the L1 would: takes line requests on `in`, answers each one
//                    exactly `latency` cycles after it took it (reply = the same payload with
//                    is_reply and dst = src) on `out`; refuse_until(c) withholds acceptance of
//                    everything offered before cycle c (back-pressure on the SM's mem_out).
//   ScriptKernel / ScriptWorkload : kernels whose warps run a scripted instruction list.
//   SmBench        : n SmCores, each wired to its own ScriptedMemory, an issue log, and an
//                    optional CtaScheduler over all SMs.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "common/clock_domain.h"
#include "common/msg_port.h"
#include "sm/cta_scheduler.h"
#include "sm/sm_core.h"
#include "workload/kernel.h"

namespace gpusc::tb {

class ScriptedMemory : public sc_core::sc_module, private Tickable {
 public:
  struct Request {
    uint64_t cycle;  // cycle it was taken
    uint64_t address;
    tlm::tlm_command cmd;
    unsigned length;
    bool data_ptr_null;
    MemExt ext;
  };
  MsgIn in{"in"};
  MsgOut out{"out"};

  ScriptedMemory(sc_core::sc_module_name name, ClockDomain& clk, unsigned latency);
  void refuse_until(uint64_t cycle);
  const std::vector<Request>& requests() const { return requests_; }
  uint64_t replies_sent() const { return replies_; }
  size_t in_flight() const { return due_.size(); }

 private:
  bool accept(tlm::tlm_generic_payload& gp);
  bool tick(uint64_t cycle) override;
  ClockDomain& clk_;
  const unsigned latency_;
  uint64_t refuse_until_ = 0;
  std::vector<Request> requests_;
  std::vector<std::pair<uint64_t, tlm::tlm_generic_payload*>> due_;  // (reply cycle, payload), FIFO
  size_t due_head_ = 0;
  uint64_t replies_ = 0;
};

// Instruction builders.
WarpInstr compute(uint32_t pc, uint16_t cycles, uint32_t mask = kAllLanes);
// Memory instruction: lane l at base + l * stride.
WarpInstr mem(WarpInstr::Op op, uint32_t pc, uint64_t base, uint64_t stride, uint8_t bytes = 4,
              uint32_t mask = kAllLanes);

using Program = std::function<std::vector<WarpInstr>(unsigned cta, unsigned warp)>;

class ScriptKernel : public Kernel {
 public:
  ScriptKernel(std::string name, unsigned ctas, unsigned threads_per_cta, Program prog)
      : name_(std::move(name)), ctas_(ctas), threads_(threads_per_cta), prog_(std::move(prog)) {}
  std::string name() const override { return name_; }
  unsigned num_ctas() const override { return ctas_; }
  unsigned threads_per_cta() const override { return threads_; }
  unsigned warps_per_cta() const override { return (threads_ + kWarpSize - 1) / kWarpSize; }
  uint64_t shared_bytes_per_cta() const override { return shared_; }
  std::unique_ptr<WarpStream> warp(unsigned cta, unsigned warp_in_cta) const override;
  uint64_t shared_ = 0;  // shared memory per CTA [bytes]

 private:
  std::string name_;
  unsigned ctas_, threads_;
  Program prog_;
};

class ScriptWorkload : public Workload {
 public:
  void add(std::string name, unsigned ctas, unsigned threads_per_cta, Program prog) {
    specs_.push_back({std::move(name), ctas, threads_per_cta, std::move(prog)});
  }
  std::string name() const override { return "script"; }
  std::unique_ptr<Kernel> next_kernel() override;
  const AddressSpace& address_space() const override { return space_; }

 private:
  struct Spec {
    std::string name;
    unsigned ctas, threads;
    Program prog;
  };
  std::vector<Spec> specs_;
  size_t next_ = 0;
  AddressSpace space_;
};

struct Issue {
  uint64_t cycle;
  unsigned sm, warp, kernel_id, cta_id;
  uint32_t pc;
  WarpInstr::Op op;
};

struct SmBench : sc_core::sc_module {
  ClockDomain clk{"clk", 1000.0};
  sc_core::sc_vector<SmCore> sm{"sm"};
  sc_core::sc_vector<ScriptedMemory> mem{"mem"};
  std::unique_ptr<CtaScheduler> cta;
  std::vector<Issue> issues;  // every SM, in issue order

  // One SM per entry of `p`, SM i on node i + 10, each with a memory of `latency` cycles.
  SmBench(sc_core::sc_module_name name, const std::vector<SmCore::Params>& p, unsigned latency);
  // A CtaScheduler over all SMs running `w` (block_of_sm: the SMs' blocks, empty = one block).
  void schedule(Workload& w, const CtaScheduler::Params& p = {}, const std::vector<unsigned>& block_of_sm = {});
  void run(uint64_t cycles) { sc_core::sc_start(clk.time_of(cycles) - sc_core::sc_time_stamp()); }
  // Issues of SM `s` (all SMs when s < 0), optionally only of warp `warp`.
  std::vector<Issue> of(int s, int warp = -1) const;
  std::vector<uint64_t> cycles_of(int s, int warp = -1) const;
  // Value of counter `stat` of SM `s` (through the stats JSON, as a reporter sees it).
  uint64_t stat(unsigned s, const std::string& stat) const;
};

}  // namespace gpusc::tb
