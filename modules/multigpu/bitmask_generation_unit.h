// BitmaskGenerationUnit (BGU): the word mask a fine-grained remote read carries (paper 004
// §4.1.1, Fig. 7(b); Table 1: "2-byte addr. extension, OR & divider logic"). Next to the
// coalescer, each active lane's address selects its word in the line (address bits [5:2] for
// 64 B lines of 4 B words: bit i = word i); the lanes the coalescer merges into one line request
// are ORed into that request's mask. 64-lane wavefronts and 64 B lines give a 16-bit mask.
// Warp width, line size and word size are parameters (the §6.2 granularity sweep: 4/8/16 B).
//
// Output: one LineMask per line the active lanes touch, in the order of the first active lane
// that touches it (the generic coalescer's order), with the line address, the word mask and the
// lanes it serves.
// Choices the paper leaves open:
//   * an access wider than a word (8 or 16 B) marks every word it covers, a narrower one the
//     word that holds it; a misaligned access marks every word any of its bytes overlaps, and one
//     that crosses a line boundary contributes to both lines (the lower first);
//   * inactive lanes contribute nothing; a wavefront without active lanes gives no line.
// How it plugs in: the generic Coalescer (mem/coalescer.h) already ORs a 4 B word mask per line
// (LineRequest::word_mask) with the same order and rules; what it lacks for paper 004 is the
// warp width as a parameter (WarpInstr has kWarpSize = 32 lanes) and a word size other than 4 B.
// Once the SM model takes the warp width from its Params, the BGU is that mask copied into
// MemExt::word_mask (32 bits: lines up to 128 B at 4 B) by the SM when it issues a remote read;
// a word_bytes option of the Coalescer would cover the granularity sweep. On the platform
// (multi_gpu's coalescing overlay) the mask a fine-grained read carries is the SmCore's
// MemExt::word_mask from the generic Coalescer, i.e. this unit's output for 32-lane warps and 4 B
// words; this unit is the reference, and its testbench checks that both agree on 32-lane warps.
// Pure C++, not an sc_module (the hardware is combinational, in the coalescer's stage). No
// allocation once `out` has grown to the widest wavefront seen.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/params.h"

namespace gpusc::multigpu {

class BitmaskGenerationUnit {
 public:
  struct Params {
    unsigned lanes = 64;       // work items per wavefront [count] (004 §2.3, AMD GCN: 64)
    unsigned line_bytes = 64;  // cache line [bytes] (004 Table 1: 64 B)
    unsigned word_bytes = 4;   // fine-grained transfer unit = one mask bit [bytes] (004 §4.1.1: 4 B)
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(lanes, 1, 64, "work items per wavefront [count] (004: 64)");
      GPUSC_PARAM_R(line_bytes, 4, 4096, "cache line size [bytes], a power of two (004 Table 1: 64)");
      GPUSC_PARAM_R(word_bytes, 1, 4096,
                    "bytes per mask bit, a power of two; line_bytes / word_bytes <= 64 (004 §4.1.1: 4; §6.2 sweeps "
                    "4, 8, 16)");
    }
  };
  struct LineMask {
    uint64_t line = 0;       // line-aligned byte address
    uint64_t word_mask = 0;  // bit i = word i of the line (bits 0 .. words_per_line - 1)
    uint64_t lanes = 0;      // bit l = lane l is served by this line
  };

  explicit BitmaskGenerationUnit(const Params& p, std::string who = "gpusc.bgu");

  // addr[l]: byte address of lane l, read for l < lanes where bit l of `active` is set; bits of
  // `active` at or above `lanes` are an error. access_bytes: 1, 2, 4, 8 or 16.
  void generate(const uint64_t* addr, uint64_t active, unsigned access_bytes, std::vector<LineMask>& out) const;
  // The mask bit of one byte address: word (addr mod line_bytes) / word_bytes.
  unsigned word_of(uint64_t addr) const { return static_cast<unsigned>((addr & ~line_mask_) / p_.word_bytes); }
  unsigned words_per_line() const { return p_.line_bytes / p_.word_bytes; }
  const Params& params() const { return p_; }

 private:
  const Params p_;
  const std::string who_;
  const uint64_t line_mask_;  // ~(line_bytes - 1)
};

}  // namespace gpusc::multigpu
