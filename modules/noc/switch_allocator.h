// SwitchAllocator: matches input-port requests to output ports once per cycle (DESIGN §4).
// Requests are per (input port, input VC) as a bitmask of output ports: a unicast VC asks for
// one output, a multicast VC for several (its replica branches). An input port drives at most
// one VC per cycle, but that VC may win several outputs at once (mux-based crossbar with
// replication, paper 001 §4.2). Two policies:
//   separable : input-first separable round-robin (each input picks a VC, each output an input)
//   islip     : one-iteration iSLIP (outputs grant inputs round-robin; an input accepts the
//               granting output first from its accept pointer, with the VC asking for that
//               output first from its VC pointer, as BookSim's iq router; pointers move only on
//               an accepted grant), as paper 000 §IV uses
// Limits: 64 ports, 64 VCs per port.
// When every input asks with one VC and no output is asked twice, both policies grant every
// request whole; allocate() then skips the arbitration loops (same grants, same pointer moves),
// and allocate_one() is that case for a cycle's single request.
// Implementation (speed): request() builds iSLIP's per-output request masks as it goes; per-input
// and per-VC state is reset lazily (at an input's first request of a cycle), so allocate() has no
// clearing loops, and an input asking with one VC accepts without a VC loop.
#pragma once
#include <cstdint>
#include <vector>

namespace gpusc::noc {

class SwitchAllocator {
 public:
  enum class Policy { Separable, ISlip };
  SwitchAllocator(unsigned in_ports, unsigned out_ports, unsigned vcs, Policy policy);
  SwitchAllocator(const SwitchAllocator&) = delete;
  SwitchAllocator& operator=(const SwitchAllocator&) = delete;

  void request(unsigned in, unsigned vc, uint64_t out_mask) {
    const uint64_t ib = uint64_t{1} << in, vb = uint64_t{1} << vc;
    // A second VC of the same input, or an output already asked for, needs real arbitration.
    contended_ |= (active_in_ & ib) | (outs_asked_ & out_mask);
    // Without branches (the outcomes are data-dependent): what is stale from an earlier cycle is
    // masked off, "& keep" with keep all ones when valid, zero when stale.
    const uint64_t vcs = in_vcs_[in] & (0 - (active_in_ >> in & 1));  // VCs already asking now
    active_in_ |= ib;
    uint64_t& r = req_[in * vcs_ + vc];
    r = (r & (0 - (vcs >> vc & 1))) | out_mask;
    in_vcs_[in] = vcs | vb;
    for (uint64_t o = out_mask; o; o &= o - 1) {
      const unsigned p = static_cast<unsigned>(__builtin_ctzll(o));
      out_req_[p] = (out_req_[p] & (0 - (outs_asked_ >> p & 1))) | ib;
    }
    outs_asked_ |= out_mask;
  }
  // Computes the grants and clears the requests.
  void allocate();
  // Same result as request(in, vc, out_mask) then allocate() when that is the cycle's only
  // request (none pending): the request wins all its outputs.
  void allocate_one(unsigned in, unsigned vc, uint64_t out_mask);
  // After allocate(): VC granted to input `in` (-1: none) and the outputs it won.
  int granted_vc(unsigned in) const { return granted_in_ >> in & 1 ? grant_vc_[in] : -1; }
  uint64_t granted_outs(unsigned in) const { return granted_in_ >> in & 1 ? grant_outs_[in] : 0; }
  uint64_t granted_inputs() const { return granted_in_; }

 private:
  static unsigned rr_pick(uint64_t mask, unsigned ptr, unsigned n);
  // The accept pointer moves past the output accepted (the first of `outs` from the pointer).
  void accepted(unsigned in, uint64_t outs) {
    const unsigned o = rr_pick(outs, acc_ptr_[in], out_);
    acc_ptr_[in] = o + 1 == out_ ? 0 : o + 1;
  }
  void uncontended();
  void separable();
  void islip();
  const unsigned in_, out_, vcs_;
  const Policy policy_;
  uint64_t active_in_ = 0;
  uint64_t outs_asked_ = 0;  // union of the requested outputs
  uint64_t contended_ = 0;   // nonzero: some input or output has more than one request
  uint64_t granted_in_ = 0;
  // Arrays, carved from one block (mem_) so that a router's allocator state is a few cache lines,
  // the ones a lone request touches first. Request state is valid only for the inputs in
  // active_in_ (and their VCs in in_vcs_) / outputs in outs_asked_; grants for granted_in_.
  unsigned* in_ptr_;       // [in] round-robin pointer over VCs
  unsigned* acc_ptr_;      // [in] iSLIP accept pointer over outputs
  unsigned* out_ptr_;      // [out] round-robin pointer over inputs
  int* grant_vc_;          // [in]
  uint64_t* grant_outs_;   // [in]
  uint64_t* req_;          // [in * vcs + vc] -> out mask
  uint64_t* in_vcs_;       // [in] -> VCs with requests
  uint64_t* out_req_;      // [out] -> requesting inputs (any VC); separable's scratch
  uint64_t* grants_to_;    // scratch: [in] -> outputs that granted it
  int* pick_;              // scratch: [in] -> VC chosen in stage 1
  std::vector<uint64_t> mem_;
};

}  // namespace gpusc::noc
