#include "multigpu/bitmask_generation_unit.h"

#include "common/report.h"

namespace gpusc::multigpu {

namespace {
bool pow2(unsigned x) { return x != 0 && (x & (x - 1)) == 0; }
// Bits lo..hi (inclusive) set; hi < 64.
uint64_t bit_range(unsigned lo, unsigned hi) {
  const unsigned n = hi - lo + 1;
  return (n >= 64 ? ~uint64_t{0} : ((uint64_t{1} << n) - 1)) << lo;
}
}  // namespace

BitmaskGenerationUnit::BitmaskGenerationUnit(const Params& p, std::string who)
    : p_(p), who_(std::move(who)), line_mask_(~uint64_t{p.line_bytes - 1u}) {
  validate(p_, who_);
  if (!pow2(p_.line_bytes) || !pow2(p_.word_bytes))
    error(who_, "line_bytes = ", p_.line_bytes, " and word_bytes = ", p_.word_bytes, " must be powers of two");
  if (p_.word_bytes > p_.line_bytes || p_.line_bytes / p_.word_bytes > 64)
    error(who_, "line_bytes / word_bytes = ", p_.line_bytes, " / ", p_.word_bytes,
          " must be between 1 and 64 (one mask bit per word, at most 64 bits)");
}

void BitmaskGenerationUnit::generate(const uint64_t* addr, uint64_t active, unsigned access_bytes,
                                     std::vector<LineMask>& out) const {
  out.clear();
  if (access_bytes != 1 && access_bytes != 2 && access_bytes != 4 && access_bytes != 8 && access_bytes != 16)
    error(who_, "access_bytes = ", access_bytes, "; a lane accesses 1, 2, 4, 8 or 16 bytes");
  if (p_.lanes < 64 && (active >> p_.lanes) != 0)
    error(who_, "active mask 0x", std::hex, active, std::dec, " names lanes at or above lanes = ", p_.lanes);
  for (unsigned lane = 0; lane < p_.lanes; ++lane) {
    if (!((active >> lane) & 1u)) continue;
    const uint64_t first = addr[lane], last = first + access_bytes - 1;
    for (uint64_t line = first & line_mask_; line <= last; line += p_.line_bytes) {
      const uint64_t lo = (first > line ? first : line) - line;
      const uint64_t hi = (last < line + p_.line_bytes - 1 ? last : line + p_.line_bytes - 1) - line;
      size_t i = out.size();
      while (i > 0 && out[i - 1].line != line) --i;  // the latest line is the likeliest match
      if (i == 0) {
        out.push_back(LineMask{line, 0, 0});
        i = out.size();
      }
      LineMask& m = out[i - 1];
      m.word_mask |= bit_range(unsigned(lo / p_.word_bytes), unsigned(hi / p_.word_bytes));
      m.lanes |= uint64_t{1} << lane;
    }
  }
}

}  // namespace gpusc::multigpu
