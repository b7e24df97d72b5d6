// Coalescer: the SM's intra-warp memory coalescing unit. It turns one warp memory instruction
// (32 lane addresses, access size, active mask) into line requests, each carrying the line
// address, the 32 B sectors and 4 B words the warp touches in that line (the masks of paper 002
// §3.1, the 4-bitmap of critical 32 B regions, and paper 004 §4.1.1, the BGU bitmask of 4 B
// entries) and the lanes it serves.
// Order: lines in the order of the first active lane that touches them (GPGPU-Sim's order), so
// lane 0's line goes first.
// Open choices:
//   * a 1- or 2-byte access marks the word (and sector) that holds it; an 8- or 16-byte access
//     marks the 2 or 4 words it covers;
//   * misaligned accesses are accepted: every word, sector and line that any byte of the access
//     overlaps is marked. An access crossing a line boundary contributes to both lines (the
//     lower line first) and its lane appears in the lane mask of both;
//   * inactive lanes contribute nothing; an instruction without active lanes gives no request;
//   * the word mask is 64 bits wide so 256 B lines fit (MemExt::word_mask holds 32: lines up to
//     128 B).
// Pure C++, not an sc_module: the SM owns one and calls it at issue. No allocation: results go
// into a caller-owned fixed-capacity LineRequests.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "common/params.h"
#include "workload/warp_instr.h"

namespace gpusc {

struct LineRequest {
  uint64_t line = 0;          // line-aligned byte address
  uint32_t sector_mask = 0;   // bit i = 32 B sector i of the line
  uint64_t word_mask = 0;     // bit i = 4 B word i of the line
  uint32_t lanes = 0;         // bit l = lane l is served by this line
};

// Fixed-capacity list of the line requests of one instruction (at most 2 per lane).
class LineRequests {
 public:
  static constexpr unsigned kCapacity = 2 * kWarpSize;
  unsigned size() const { return n_; }
  bool empty() const { return n_ == 0; }
  const LineRequest& operator[](unsigned i) const { return v_[i]; }
  const LineRequest* begin() const { return v_.data(); }
  const LineRequest* end() const { return v_.data() + n_; }
  void clear() { n_ = 0; }

 private:
  friend class Coalescer;
  std::array<LineRequest, kCapacity> v_{};
  unsigned n_ = 0;
};

class Coalescer {
 public:
  struct Params {
    unsigned line_bytes = 128;  // cache line size [bytes] (000 Table II: 128 B blocks)
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(line_bytes, 32, 256, "cache line size [bytes], a power of two");
    }
  };

  // `who` names the owner in error messages (the SM's hierarchical name).
  explicit Coalescer(const Params& p, std::string who = "gpusc.coalescer");

  // Line requests of memory instruction `in`, written into `out` (cleared first). An access
  // size other than 1, 2, 4, 8 or 16 bytes is an error.
  void coalesce(const WarpInstr& in, LineRequests& out) const;
  // Number of line requests `in` needs (same as coalesce(...).size()).
  unsigned count(const WarpInstr& in) const;

  unsigned line_bytes() const { return p_.line_bytes; }

 private:
  const Params p_;
  const std::string who_;
  const uint64_t line_mask_;  // ~(line_bytes - 1)
};

}  // namespace gpusc
