// StringMatch ("string-match"): the map phase of Mars's StringMatch (He et al., "Mars: a
// MapReduce framework on graphics processors", PACT 2008), one of the text-processing kernels
// of paper 002's most favourable group: find a keyword in every line of a text.
// Input: a deterministic generated English-like text (generated_text below: words of a fixed
// 64-word vocabulary drawn with a skew towards the first ones, 6 to 14 words a line, lines ended
// by '\n'; seeded), and the line index Mars passes to its map tasks (record offsets:
// line_offsets[i] = first byte of line i, line_offsets[lines] = text size).
// Access pattern, thread i = line i (one Mars map task per record): loads line_offsets[i] and
// [i + 1] (coalesced), then scans its line in 4-byte words from the aligned word holding its
// first byte to the one holding its last (text + 4 k: one word per step; lanes whose line has
// ended are masked off), each step a load and 3 ALU ops (shift in, compare, match flag); finally
// stores result[i] (one word). Lines are about 15 to 120 bytes (47 on average), so the 32 lanes
// of a warp read 32 different lines: each load touches one or two 32 B sectors of many 128 B
// lines, the sparse reads paper 002's filter exploits.
// Choices (Mars leaves them to the map function): a thread scans its whole line (it does not stop
// at the first match) and stores the byte offset of the first match in the line, or 0xffffffff
// when there is none (Mars emits a key/value pair per match; the one-word result keeps the
// kernel's output fixed-size); word loads (a char-by-char loop would issue 4 times the loads at
// the same addresses); the keyword lives in __constant__ memory (no global traffic); no
// MapCount or Reduce phase (StringMatch has no reduce).
// Default: 8 MiB of text (about 178k lines), 256-thread CTAs: footprint 9.4 MiB (18.7 x a 512 KB
// L2), ~560k warp instructions (22% memory). size=small: 256 KiB of text (about 5.6k lines,
// 0.29 MiB, ~18k warp instructions).
// Values (kernel.h): the text bytes, the offsets, result 0; the store carries the host's match.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "common/params.h"
#include "workload/grid_kernel.h"

namespace gpusc {

// A text of at least `bytes` bytes cut at the first line end past it: words of a fixed 64-word
// vocabulary (word k of line l drawn from a hash of (seed, l, k), index floor(64 u^2) for u
// uniform in [0, 1): the first words are the most frequent), 6 to 14 words a line separated by
// single spaces, each line ended by '\n'.
std::string generated_text(uint64_t bytes, uint64_t seed);

class StringMatchWorkload : public SequenceWorkload {
 public:
  struct Params {
    unsigned bytes = 8u << 20;       // text size [bytes] (rounded up to a whole line)
    std::string keyword = "memory";  // the string searched (1 to 64 bytes, no '\n')
    unsigned threads_per_cta = 256;  // CTA size [threads]
    // size=small (tests, demos): 256 KiB of text.
    static Params small() {
      Params p;
      p.bytes = 256u << 10;
      return p;
    }
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(bytes, 64, 1u << 30, "text size [bytes], rounded up to a whole line");
      GPUSC_PARAM(keyword, "the string every line is searched for (1 to 64 bytes, no newline)");
      GPUSC_PARAM_R(threads_per_cta, 1, 1024, "CTA size [threads]");
    }
  };

  StringMatchWorkload(const Params& p, uint64_t seed);            // the generated text
  StringMatchWorkload(const Params& p, const std::string& text);  // a given text (p.bytes ignored)
  bool has_values() const override { return true; }
  static constexpr uint32_t kNoMatch = 0xffffffffu;
  struct Data;  // what the streams share (defined in the .cpp)
  uint32_t lines() const;
  // The offset of the keyword's first occurrence inside line i, or kNoMatch.
  uint32_t first_match(uint32_t line) const;

 protected:
  std::unique_ptr<Kernel> launch(unsigned index) override;

 private:
  std::shared_ptr<Data> d_;
};

}  // namespace gpusc
