// Accel-Sim trace format (issue 22): the header of a `kernel-N.traceg` file and one instruction
// line turned into a WarpInstr, as the NVBit tracer of Accel-Sim writes them (tracer versions
// 1-5). The layout, read from the format line the tracer writes and from Accel-Sim's reader:
//   header:  "-key = value" lines (kernel name, kernel id, grid dim = (x,y,z), block dim,
//            shmem, nregs, binary version, shmem base_addr, local mem base_addr, accelsim tracer
//            version, enable lineinfo, ...), up to the first line starting with '#';
//   body:    #BEGIN_TB / "thread block = x,y,z" / { "warp = w" / "insts = n" / n lines } / #END_TB;
//   a line:  [tb_x tb_y tb_z warp (tracer version < 3)] [line_num (enable lineinfo)] PC(hex)
//            mask(hex) dest_num dests... opcode src_num srcs... mem_width [address mode and
//            addresses when mem_width > 0] [immediate (newer tracers)].
// Address modes: 0 = one hex address per active lane; 1 = base (hex) + stride (decimal): the
// first active lane reads base, every next active lane the previous one + stride; 2 = base +
// (active lanes - 1) decimal deltas, each active lane after the first = previous + delta.
// Choices (the format leaves them to the simulator):
//   * global, local and generic loads/stores/atomics (LDG, LD, LDL, LDGSTS; STG, ST, STL; ATOM,
//     ATOMG, RED) become Load/Store/Atomic; local memory lives in device memory like global; a
//     generic access whose first active address is in the shared window [shmem base, + 2^24)
//     is a shared-memory access; shared (LDS, STS, ATOMS, LDSM), constant (LDC) and every other
//     instruction become a Compute issue slot; a memory instruction with no active lane too;
//   * the access width comes from the opcode (".128" = 16 B, ".64" = 8, ".U8"/".S8" = 1,
//     ".U16"/".S16" = 2, otherwise 4), not from mem_width, which the tracer can misreport (as
//     Accel-Sim also does);
//   * Compute latency: kSfuCycles for MUFU (SFU), double precision (D*), shared-memory and
//     barrier (BAR) instructions, kAluCycles for the rest;
//   * mode 1 over a mask with holes strides over the active lanes (Accel-Sim leaves the lanes
//     after the first hole at address 0; the tracer writes mode 1 for contiguous masks);
//   * the PC keeps its low 32 bits (per-kernel offsets; WarpInstr::pc).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "workload/trace_file.h"
#include "workload/warp_instr.h"

namespace gpusc {

struct TraceKernelHeader {
  std::string kernel_name;   // the (mangled) name the tracer wrote
  unsigned kernel_id = 0;
  unsigned grid[3] = {0, 0, 0};
  unsigned block[3] = {0, 0, 0};
  uint64_t shmem = 0;        // shared memory per CTA [bytes]
  unsigned nregs = 0;
  unsigned binary_version = 0;
  unsigned tracer_version = 0;
  bool lineinfo = false;
  uint64_t shmem_base = 0, local_base = 0;
  uint64_t body_offset = 0;  // byte offset of the line after the header
  uint64_t body_line = 0;    // its line number

  uint64_t ctas() const { return uint64_t{grid[0]} * grid[1] * grid[2]; }
  uint64_t threads_per_cta() const { return uint64_t{block[0]} * block[1] * block[2]; }
};

// Reads the header of `f`; a missing or malformed grid/block dimension is an error from `who`
// naming the file and line.
TraceKernelHeader read_trace_header(const TraceFile& f, const std::string& who);

// Parses one instruction line of a file with header `h`. On a malformed line returns false and
// sets `why`; `out` is then unspecified.
bool parse_trace_instruction(std::string_view line, const TraceKernelHeader& h, WarpInstr& out, std::string& why);

}  // namespace gpusc
