// TraceWorkload: an Accel-Sim trace folder (issue 22) behind the Workload interface, so a real
// application's kernels drive the SM model like the kernel models do (`--trace-dir DIR`, or
// workload "accel-sim" with params.dir). The folder holds `kernelslist.g`: one command per line,
// "kernel-N.traceg" (or ".traceg.xz") launches that file, "MemcpyHtoD,0xADDR,BYTES" names a
// device array, "MemcpyDtoH,..." is ignored; anything else is an error naming the line.
// Streaming: construction checks every kernel file line by line (each instruction parsed, so a
// malformed line, a missing #END_TB, a missing thread block or a warp with fewer lines than its
// "insts = n" is an error naming file and line before anything runs) and notes the 64 KiB
// chunks the memory instructions touch; next_kernel() scans its file again to index where each
// warp's instructions start (12 bytes per warp), and a warp's stream reads only its own lines.
// Memory holds the indexes of one kernel, never the instructions (the .xz case: trace_file.h).
// Choices: the address space is the union of the MemcpyHtoD arrays and the touched chunks (each
// run of adjacent chunks one array "trace.regionK"), so the footprint is what the trace touches;
// a trace has no memory contents (has_values() is false: DPC on a trace is refused); a CTA's
// linear id is x + gx (y + gy z); a warp the trace does not list runs no instruction; the
// header's nregs and binary version are not used (no register-file or opcode-table model), so a
// wrong value there (the tracer writes some) does not matter; shared memory per CTA is the
// header's shmem (Kernel::shared_bytes_per_cta, checked by the SM). There is one input size:
// "size": "small" runs the same trace.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "common/params.h"
#include "workload/accel_sim_trace.h"
#include "workload/kernel.h"

namespace gpusc {

class TraceWorkload : public Workload {
 public:
  struct Params {
    std::string dir = "";        // folder with kernelslist.g
    unsigned max_kernels = 0;    // launches to run; 0 = all
    static Params small() { return {}; }
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM(dir, "Accel-Sim trace folder (kernelslist.g and its kernel-*.traceg[.xz] files)");
      GPUSC_PARAM_R(max_kernels, 0, 1 << 30, "launches to run from the start of kernelslist.g; 0 = all");
    }
  };

  explicit TraceWorkload(const Params& p);
  std::string name() const override { return "accel-sim"; }
  std::unique_ptr<Kernel> next_kernel() override;
  const AddressSpace& address_space() const override { return space_; }

  // The kernel files in launch order (tests, reports).
  const std::vector<std::string>& kernel_files() const { return files_; }

 private:
  std::vector<std::string> files_;
  size_t next_ = 0;
  AddressSpace space_;
};

}  // namespace gpusc
