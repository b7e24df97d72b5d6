#include "noc/switch_allocator.h"

#include "common/report.h"

namespace gpusc::noc {

SwitchAllocator::SwitchAllocator(unsigned in_ports, unsigned out_ports, unsigned vcs, Policy policy)
    : in_(in_ports), out_(out_ports), vcs_(vcs), policy_(policy) {
  if (in_ports == 0 || in_ports > 64 || out_ports == 0 || out_ports > 64 || vcs == 0 || vcs > 64)
    error("gpusc.noc.switch_allocator", "ports and VCs must be in [1, 64]; got ", in_ports, " inputs, ",
          out_ports, " outputs, ", vcs, " VCs");
  // 32-bit arrays take half a word per entry, rounded up; all start zeroed.
  const size_t half = (in_ports + 1) / 2, half_out = (out_ports + 1) / 2;
  mem_.assign(4 * half + half_out + 3 * size_t{in_ports} + out_ports + size_t{in_ports} * vcs, 0);
  uint64_t* m = mem_.data();
  in_ptr_ = reinterpret_cast<unsigned*>(m), m += half;
  acc_ptr_ = reinterpret_cast<unsigned*>(m), m += half;
  out_ptr_ = reinterpret_cast<unsigned*>(m), m += half_out;
  grant_vc_ = reinterpret_cast<int*>(m), m += half;
  grant_outs_ = m, m += in_ports;
  req_ = m, m += size_t{in_ports} * vcs;
  in_vcs_ = m, m += in_ports;
  out_req_ = m, m += out_ports;
  grants_to_ = m, m += in_ports;
  pick_ = reinterpret_cast<int*>(m);
}

unsigned SwitchAllocator::rr_pick(uint64_t mask, unsigned ptr, unsigned n) {
  const uint64_t hi = ptr >= 64 ? 0 : mask & (~uint64_t{0} << ptr);
  const uint64_t m = hi ? hi : mask;
  (void)n;
  return static_cast<unsigned>(__builtin_ctzll(m));
}

void SwitchAllocator::allocate() {
  granted_in_ = 0;
  if (!active_in_) return;
  if (!contended_) uncontended();
  else if (policy_ == Policy::Separable) separable();
  else islip();
  active_in_ = 0;
  outs_asked_ = 0;
  contended_ = 0;
}

namespace {
[[noreturn]] void pending_error() {
  error("gpusc.noc.switch_allocator", "allocate_one() with requests pending; use allocate()");
}
}  // namespace

void SwitchAllocator::allocate_one(unsigned in, unsigned vc, uint64_t out_mask) {
  if (active_in_) pending_error();
  granted_in_ = 0;
  if (!out_mask) return;
  grant_vc_[in] = static_cast<int>(vc);
  grant_outs_[in] = out_mask;
  granted_in_ = uint64_t{1} << in;
  in_ptr_[in] = vc + 1 == vcs_ ? 0 : vc + 1;
  accepted(in, out_mask);
  const unsigned next_in = in + 1 == in_ ? 0 : in + 1;
  for (uint64_t o = out_mask; o; o &= o - 1) out_ptr_[static_cast<unsigned>(__builtin_ctzll(o))] = next_in;
}

// Every input asks with one VC and no output is asked twice: both policies grant every
// request whole and move the pointers past the winners, exactly as their general loops would.
void SwitchAllocator::uncontended() {
  for (uint64_t a = active_in_; a; a &= a - 1) {
    const unsigned i = static_cast<unsigned>(__builtin_ctzll(a));
    const unsigned v = static_cast<unsigned>(__builtin_ctzll(in_vcs_[i]));
    const uint64_t outs = req_[i * vcs_ + v];
    if (!outs) continue;
    grant_vc_[i] = static_cast<int>(v);
    grant_outs_[i] = outs;
    granted_in_ |= uint64_t{1} << i;
    in_ptr_[i] = v + 1 == vcs_ ? 0 : v + 1;
    accepted(i, outs);
    const unsigned next_in = i + 1 == in_ ? 0 : i + 1;
    for (uint64_t o = outs; o; o &= o - 1) out_ptr_[static_cast<unsigned>(__builtin_ctzll(o))] = next_in;
  }
}

void SwitchAllocator::separable() {
  // Stage 1: every input picks one requesting VC; collect per-output input requests.
  uint64_t* out_req = out_req_;
  int* pick = pick_;
  uint64_t outs_used = 0;
  for (uint64_t a = active_in_; a; a &= a - 1) {
    const unsigned i = static_cast<unsigned>(__builtin_ctzll(a));
    const unsigned v = rr_pick(in_vcs_[i], in_ptr_[i], vcs_);
    pick[i] = static_cast<int>(v);
    for (uint64_t o = req_[i * vcs_ + v]; o; o &= o - 1) {
      const unsigned p = static_cast<unsigned>(__builtin_ctzll(o));
      if (!(outs_used >> p & 1)) out_req[p] = 0;
      out_req[p] |= uint64_t{1} << i;
      outs_used |= uint64_t{1} << p;
    }
  }
  // Stage 2: every output picks one input.
  for (; outs_used; outs_used &= outs_used - 1) {
    const unsigned p = static_cast<unsigned>(__builtin_ctzll(outs_used));
    const unsigned i = rr_pick(out_req[p], out_ptr_[p], in_);
    out_ptr_[p] = i + 1 == in_ ? 0 : i + 1;
    if (!(granted_in_ >> i & 1)) grant_outs_[i] = 0;
    grant_outs_[i] |= uint64_t{1} << p;
    grant_vc_[i] = pick[i];
    granted_in_ |= uint64_t{1} << i;
  }
  for (uint64_t g = granted_in_; g; g &= g - 1) {
    const unsigned i = static_cast<unsigned>(__builtin_ctzll(g));
    in_ptr_[i] = (static_cast<unsigned>(grant_vc_[i]) + 1) % vcs_;
  }
}

void SwitchAllocator::islip() {
  // Request (built by request()): output p sees input i if any VC of i asks for p.
  const uint64_t* out_req = out_req_;
  // Grant: each output grants one input.
  uint64_t* grants_to = grants_to_;
  uint64_t granted = 0;
  for (uint64_t u = outs_asked_; u; u &= u - 1) {
    const unsigned p = static_cast<unsigned>(__builtin_ctzll(u));
    const unsigned i = rr_pick(out_req[p], out_ptr_[p], in_);
    if (!(granted >> i & 1)) grants_to[i] = 0;
    grants_to[i] |= uint64_t{1} << p;
    granted |= uint64_t{1} << i;
  }
  // Accept: each input accepts the granting output first from its accept pointer; the VC is the
  // one asking for that output first from the input's VC pointer, and it takes every output
  // that granted the input and that it asked for (a multicast VC's other branches).
  for (; granted; granted &= granted - 1) {
    const unsigned i = static_cast<unsigned>(__builtin_ctzll(granted));
    const uint64_t vcs = in_vcs_[i];
    unsigned vc;
    if (!(vcs & (vcs - 1))) {  // one VC asks: it asked for every output that granted
      vc = static_cast<unsigned>(__builtin_ctzll(vcs));
    } else {
      const uint64_t o = uint64_t{1} << rr_pick(grants_to[i], acc_ptr_[i], out_);
      uint64_t vcs_ok = 0;
      for (uint64_t v = vcs; v; v &= v - 1) {
        const unsigned c = static_cast<unsigned>(__builtin_ctzll(v));
        if (req_[i * vcs_ + c] & o) vcs_ok |= uint64_t{1} << c;
      }
      vc = rr_pick(vcs_ok, in_ptr_[i], vcs_);
    }
    const uint64_t outs = req_[i * vcs_ + vc] & grants_to[i];
    grant_vc_[i] = static_cast<int>(vc);
    grant_outs_[i] = outs;
    granted_in_ |= uint64_t{1} << i;
    in_ptr_[i] = vc + 1 == vcs_ ? 0 : vc + 1;
    accepted(i, outs);
    for (uint64_t o = outs; o; o &= o - 1) {
      const unsigned p = static_cast<unsigned>(__builtin_ctzll(o));
      out_ptr_[p] = i + 1 == in_ ? 0 : i + 1;
    }
  }
}

}  // namespace gpusc::noc
