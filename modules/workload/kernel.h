// Kernel model interfaces (DESIGN §6): a Workload is a sequence of kernel launches; a Kernel is
// one launch (a grid of CTAs); a WarpStream is the dynamic instruction stream of one warp.
//
// Contract every implementation keeps, and the SM model may rely on:
//   * lazy: a stream holds only its own warp's state and produces instructions on demand; no
//     kernel materialises the addresses of all its warps up front;
//   * order-independent: a warp's stream depends only on (kernel, cta, warp), never on which
//     other streams were created or pulled before it, so CTAs and warps may run in any order;
//   * self-contained: a Kernel and its streams share ownership of the data they read, so they
//     stay valid after the Workload (or the Kernel) that made them is gone;
//   * deterministic: the same workload parameters and seed give the same launches and streams.
// Multi-launch algorithms (BFS levels, PageRank iterations, stencil time steps) compute each
// launch from the real result of the previous one when next_kernel() is called.
// Values (issue 19, "real data first"): a workload with has_values() gives every array of its
// address_space() its initial contents (ArrayRecord::contents, lazy) and, once enable_values()
// was called, its stores carry the words they write (WarpInstr::data). A platform that needs
// memory contents (a stage asking for them, e.g. DPC's data filter) calls enable_values() before
// the first next_kernel() and sources a BackingStore from address_space().read_contents(); on a
// workload without values that is an error, never a run on zeros. Without enable_values() the
// streams are the same instruction for instruction (only WarpInstr::data stays 0), so a run that
// needs no values costs nothing more.
#pragma once
#include <memory>
#include <string>

#include "workload/address_space.h"
#include "workload/warp_instr.h"

namespace gpusc {

class WarpStream {
 public:
  virtual ~WarpStream() = default;
  // The warp's next instruction in program order; false once the warp has finished.
  virtual bool next(WarpInstr& out) = 0;
};

class Kernel {
 public:
  virtual ~Kernel() = default;
  virtual std::string name() const = 0;              // e.g. "bfs.level3"
  virtual unsigned num_ctas() const = 0;             // grid size [CTAs]
  virtual unsigned threads_per_cta() const = 0;      // CTA size [threads]
  virtual unsigned warps_per_cta() const = 0;        // ceil(threads_per_cta / 32)
  // Shared memory a CTA allocates [bytes] (the SM admits a CTA only when it has that much free);
  // the kernel models keep their tiles in registers' stead and report 0.
  virtual uint64_t shared_bytes_per_cta() const { return 0; }
  // A fresh stream for warp `warp_in_cta` of CTA `cta`; out-of-range indices are an error.
  virtual std::unique_ptr<WarpStream> warp(unsigned cta, unsigned warp_in_cta) const = 0;
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual std::string name() const = 0;
  // The next launch, or nullptr when the algorithm has finished.
  virtual std::unique_ptr<Kernel> next_kernel() = 0;
  // The device arrays of this workload (names, bases, sizes), fixed at construction.
  virtual const AddressSpace& address_space() const = 0;
  // True when this workload gives real memory contents (see the top of this file).
  virtual bool has_values() const { return false; }
  // Launches made after this call carry store values; ignored by a workload without values.
  virtual void enable_values() {}
};

}  // namespace gpusc
