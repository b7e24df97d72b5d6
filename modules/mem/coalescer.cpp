#include "mem/coalescer.h"

#include "common/report.h"

namespace gpusc {

namespace {
// Bits lo..hi (inclusive) set; hi < 64.
uint64_t bit_range(unsigned lo, unsigned hi) {
  const unsigned n = hi - lo + 1;
  return (n >= 64 ? ~uint64_t{0} : ((uint64_t{1} << n) - 1)) << lo;
}
}  // namespace

Coalescer::Coalescer(const Params& p, std::string who)
    : p_(p), who_(std::move(who)), line_mask_(~uint64_t{p.line_bytes - 1u}) {
  validate(p, who_);
  if ((p.line_bytes & (p.line_bytes - 1)) != 0)
    error(who_, "line_bytes = ", p.line_bytes, " must be a power of two between 32 and 256");
}

void Coalescer::coalesce(const WarpInstr& in, LineRequests& out) const {
  out.n_ = 0;
  const unsigned size = in.access_bytes;
  if (size != 1 && size != 2 && size != 4 && size != 8 && size != 16)
    error(who_, "memory instruction at pc 0x", std::hex, in.pc, std::dec, " has access_bytes = ", size,
          "; a lane accesses 1, 2, 4, 8 or 16 bytes");
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    if (!in.lane_active(lane)) continue;
    const uint64_t first = in.addr[lane], last = first + size - 1;
    for (uint64_t line = first & line_mask_; line <= last; line += p_.line_bytes) {
      // Bytes of the access inside this line, as offsets from the line start.
      const uint64_t lo = (first > line ? first : line) - line;
      const uint64_t hi = (last < line + p_.line_bytes - 1 ? last : line + p_.line_bytes - 1) - line;
      // Lines are few and the most recent one is the likeliest match: search backwards.
      unsigned i = out.n_;
      while (i > 0 && out.v_[i - 1].line != line) --i;
      LineRequest* r;
      if (i > 0) {
        r = &out.v_[i - 1];
      } else {
        r = &out.v_[out.n_++];
        *r = LineRequest{line, 0, 0, 0};
      }
      r->sector_mask |= static_cast<uint32_t>(bit_range(unsigned(lo / 32), unsigned(hi / 32)));
      r->word_mask |= bit_range(unsigned(lo / 4), unsigned(hi / 4));
      r->lanes |= 1u << lane;
    }
  }
}

unsigned Coalescer::count(const WarpInstr& in) const {
  LineRequests tmp;
  coalesce(in, tmp);
  return tmp.size();
}

}  // namespace gpusc
