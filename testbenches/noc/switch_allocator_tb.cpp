// SwitchAllocator unit tests (no SystemC elaboration): matching invariants under random
// requests, round-robin fairness, multicast requests winning several outputs, and the iSLIP
// rules: pointers move only on an accepted grant, an input accepts by output.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "noc/switch_allocator.h"

using gpusc::noc::SwitchAllocator;
using Policy = SwitchAllocator::Policy;

namespace {

const char* name_of(Policy p) { return p == Policy::Separable ? "separable" : "islip"; }

uint64_t bit(unsigned i) { return uint64_t{1} << i; }

uint64_t all_ones(unsigned n) { return n >= 64 ? ~uint64_t{0} : bit(n) - 1; }

// Drives one allocator with a request table [in][vc] -> out mask and checks the invariants
// every matching must satisfy, whatever the policy.
struct Checked {
  SwitchAllocator sa;
  unsigned in, out, vcs;
  std::vector<uint64_t> req;  // [in * vcs + vc]

  Checked(unsigned i, unsigned o, unsigned v, Policy p) : sa(i, o, v, p), in(i), out(o), vcs(v), req(i * v, 0) {}

  void request(unsigned i, unsigned v, uint64_t mask) {
    req[i * vcs + v] |= mask;
    sa.request(i, v, mask);
  }

  // Allocates and checks; returns the number of outputs granted.
  unsigned allocate() {
    sa.allocate();
    uint64_t outs_taken = 0;
    unsigned grants = 0;
    bool any_request = false;
    for (unsigned i = 0; i < in; ++i) {
      uint64_t asked = 0;
      for (unsigned v = 0; v < vcs; ++v) asked |= req[i * vcs + v];
      any_request |= asked != 0;
      const int vc = sa.granted_vc(i);
      const uint64_t outs = sa.granted_outs(i);
      const bool in_set = (sa.granted_inputs() >> i) & 1;
      INFO("input " << i << " vc " << vc << " outs " << outs);
      // An input is granted exactly when it has a VC and at least one output.
      CHECK(in_set == (vc >= 0));
      CHECK(in_set == (outs != 0));
      if (vc < 0) continue;
      REQUIRE(static_cast<unsigned>(vc) < vcs);
      // One VC per input per cycle, and only outputs that this very VC asked for.
      CHECK((outs & ~req[i * vcs + static_cast<unsigned>(vc)]) == 0);
      // No output granted twice.
      CHECK((outs & outs_taken) == 0);
      outs_taken |= outs;
      grants += static_cast<unsigned>(__builtin_popcountll(outs));
    }
    CHECK((outs_taken & ~all_ones(out)) == 0);
    CHECK((sa.granted_inputs() & ~all_ones(in)) == 0);
    // Work conservation (weak): some request pending => some grant. Separable: every active
    // input's chosen VC asks for >= 1 output, which grants someone. iSLIP: every requested
    // output grants someone, who accepts at least that grant.
    if (any_request) CHECK(grants > 0);
    std::fill(req.begin(), req.end(), 0);
    return grants;
  }
};

}  // namespace

TEST_CASE("switch allocator: random requests give a valid matching", "[switch_allocator][property]") {
  struct Shape { unsigned in, out, vcs; };
  for (Policy pol : {Policy::Separable, Policy::ISlip}) {
    for (Shape s : {Shape{5, 5, 4}, Shape{3, 7, 2}, Shape{16, 16, 8}, Shape{64, 64, 3}, Shape{1, 1, 1}}) {
      INFO(name_of(pol) << " " << s.in << "x" << s.out << " vcs " << s.vcs);
      Checked c(s.in, s.out, s.vcs, pol);
      std::mt19937_64 rng(s.in * 131 + s.out * 7 + s.vcs + (pol == Policy::ISlip));
      for (int cycle = 0; cycle < 3000; ++cycle) {
        // Per (input, VC): no request, a unicast request or (1 in 8) a multicast mask.
        for (unsigned i = 0; i < s.in; ++i)
          for (unsigned v = 0; v < s.vcs; ++v) {
            const unsigned r = static_cast<unsigned>(rng() % 8);
            if (r < 4) continue;
            const uint64_t m = r == 7 ? (rng() & all_ones(s.out)) : bit(static_cast<unsigned>(rng() % s.out));
            if (m) c.request(i, v, m);
          }
        c.allocate();
      }
      // Requests are consumed by allocate(): a cycle without new requests grants nothing.
      c.sa.allocate();
      CHECK(c.sa.granted_inputs() == 0);
    }
  }
}

TEST_CASE("switch allocator: round-robin fairness on one contended output", "[switch_allocator][fairness]") {
  // All inputs, all VCs request output 0 every cycle. Output 0 passes its pointer to the input
  // after the winner and every input rotates over its VCs, so over a window of W cycles each
  // input wins W / inputs times and each (input, VC) W / (inputs * vcs) times, +-1 for the phase.
  for (Policy pol : {Policy::Separable, Policy::ISlip}) {
    const unsigned in = 5, vcs = 3, window = in * vcs * 40;
    INFO(name_of(pol));
    Checked c(in, 4, vcs, pol);
    std::vector<unsigned> per_in(in, 0), per_vc(in * vcs, 0);
    for (unsigned cycle = 0; cycle < window; ++cycle) {
      for (unsigned i = 0; i < in; ++i)
        for (unsigned v = 0; v < vcs; ++v) c.request(i, v, bit(0));
      CHECK(c.allocate() == 1);  // one output: exactly one grant per cycle
      for (unsigned i = 0; i < in; ++i)
        if (c.sa.granted_vc(i) >= 0) {
          ++per_in[i];
          ++per_vc[i * vcs + static_cast<unsigned>(c.sa.granted_vc(i))];
        }
    }
    for (unsigned i = 0; i < in; ++i) {
      CHECK(per_in[i] + 1 >= window / in);
      CHECK(per_in[i] <= window / in + 1);
      for (unsigned v = 0; v < vcs; ++v) {
        CHECK(per_vc[i * vcs + v] + 1 >= window / (in * vcs));
        CHECK(per_vc[i * vcs + v] <= window / (in * vcs) + 1);
      }
    }
  }
}

TEST_CASE("switch allocator: fairness when a subset of inputs competes", "[switch_allocator][fairness]") {
  // Inputs 1, 4 and 6 of 8 request output 2 continuously; the others idle. Round robin skips
  // idle inputs, so each of the three gets window / 3 (+-1) and nobody else gets anything.
  for (Policy pol : {Policy::Separable, Policy::ISlip}) {
    INFO(name_of(pol));
    const unsigned window = 300;
    Checked c(8, 8, 2, pol);
    std::vector<unsigned> wins(8, 0);
    for (unsigned cycle = 0; cycle < window; ++cycle) {
      for (unsigned i : {1u, 4u, 6u}) c.request(i, cycle % 2, bit(2));
      c.allocate();
      for (unsigned i = 0; i < 8; ++i) wins[i] += c.sa.granted_vc(i) >= 0;
    }
    for (unsigned i = 0; i < 8; ++i) {
      INFO("input " << i);
      if (i == 1 || i == 4 || i == 6) {
        CHECK(wins[i] + 1 >= window / 3);
        CHECK(wins[i] <= window / 3 + 1);
      } else {
        CHECK(wins[i] == 0);
      }
    }
  }
}

TEST_CASE("switch allocator: a multicast request wins several outputs at once", "[switch_allocator][multicast]") {
  for (Policy pol : {Policy::Separable, Policy::ISlip}) {
    INFO(name_of(pol));
    Checked c(4, 4, 1, pol);
    // Cycle 1: input 2 alone asks for outputs {0, 1, 3}: it wins all three in one cycle.
    // Every output's pointer then moves past input 2, to input 3.
    c.request(2, 0, bit(0) | bit(1) | bit(3));
    c.allocate();
    CHECK(c.sa.granted_vc(2) == 0);
    CHECK(c.sa.granted_outs(2) == (bit(0) | bit(1) | bit(3)));
    // Cycle 2: input 3 also wants output 1 and has priority there (pointer = 3). Input 2 gets
    // the part of its mask nobody else wants, {0, 3}; input 3 gets {1}.
    c.request(2, 0, bit(0) | bit(1) | bit(3));
    c.request(3, 0, bit(1));
    c.allocate();
    CHECK(c.sa.granted_outs(2) == (bit(0) | bit(3)));
    CHECK(c.sa.granted_outs(3) == bit(1));
    // Cycle 3: the remaining branch (output 1) now wins: output 1's pointer moved past input 3.
    c.request(2, 0, bit(1));
    c.allocate();
    CHECK(c.sa.granted_outs(2) == bit(1));
  }
}

TEST_CASE("switch allocator: iSLIP pointers move only on accept", "[switch_allocator][islip]") {
  Checked c(2, 2, 2, Policy::ISlip);
  // Cycle 1: input 0 has VC0 -> out 0 and VC1 -> out 1; input 1 has VC0 -> out 1. All pointers
  // are 0, so both outputs grant input 0. Input 0 accepts one output (its accept pointer is at
  // output 0): output 0, with VC0. Output 1's grant is declined, so output 1 stays unused this cycle and its
  // pointer must stay at input 0 (output 0's moves to input 1).
  c.request(0, 0, bit(0));
  c.request(0, 1, bit(1));
  c.request(1, 0, bit(1));
  c.allocate();
  CHECK(c.sa.granted_vc(0) == 0);
  CHECK(c.sa.granted_outs(0) == bit(0));
  CHECK(c.sa.granted_vc(1) == -1);
  // Cycle 2: both inputs want output 1. Its pointer did not move, so it grants input 0 again
  // (had it moved past input 0 on the declined grant, input 1 would win).
  c.request(0, 1, bit(1));
  c.request(1, 0, bit(1));
  c.allocate();
  CHECK(c.sa.granted_vc(0) == 1);
  CHECK(c.sa.granted_outs(0) == bit(1));
  CHECK(c.sa.granted_vc(1) == -1);
  // Cycle 3: that grant was accepted, so now the pointer is past input 0 and input 1 wins.
  c.request(0, 1, bit(1));
  c.request(1, 0, bit(1));
  c.allocate();
  CHECK(c.sa.granted_vc(0) == -1);
  CHECK(c.sa.granted_vc(1) == 0);
  CHECK(c.sa.granted_outs(1) == bit(1));

  // The same cycle-1 requests under input-first separable allocation: each input first picks
  // one VC (input 0: VC0 -> out 0, input 1: VC0 -> out 1), so nothing conflicts and both win.
  Checked s(2, 2, 2, Policy::Separable);
  s.request(0, 0, bit(0));
  s.request(0, 1, bit(1));
  s.request(1, 0, bit(1));
  s.allocate();
  CHECK(s.sa.granted_outs(0) == bit(0));
  CHECK(s.sa.granted_outs(1) == bit(1));
}

TEST_CASE("switch allocator: an iSLIP input accepts by output, from its accept pointer", "[switch_allocator][islip]") {
  // iSLIP's accept step (McKeown 1999; BookSim's iq router) picks among the granting OUTPUTS
  // with a per-input pointer over outputs; the VC follows from the output. 2 inputs, 2 outputs,
  // 2 VCs.
  Checked c(2, 2, 2, Policy::ISlip);
  // Cycle 1: input 0's VC1 alone asks for output 0 and wins: its VC pointer moves to VC0
  // (past VC1, wrapping) and its accept pointer to output 1.
  c.request(0, 1, bit(0));
  c.allocate();
  REQUIRE(c.sa.granted_vc(0) == 1);
  // Cycle 2: VC0 -> output 0 and VC1 -> output 1; both outputs grant input 0 (the only one).
  // Accepting by output from the accept pointer takes output 1, hence VC1. (Accepting by VC from
  // the VC pointer would take VC0 and output 0.)
  c.request(0, 0, bit(0));
  c.request(0, 1, bit(1));
  c.allocate();
  CHECK(c.sa.granted_vc(0) == 1);
  CHECK(c.sa.granted_outs(0) == bit(1));
}

TEST_CASE("switch allocator: iSLIP desynchronises to a full matching under uniform saturation",
          "[switch_allocator][islip]") {
  // Classic iSLIP property (McKeown 1999): with every virtual output queue non-empty (here VC j
  // of every input always requests output j), the grant pointers desynchronise after at most
  // N cycles and from then on every cycle is a perfect matching (N grants). This relies on the
  // pointers moving only on accepted grants.
  const unsigned n = 6;
  Checked c(n, n, n, Policy::ISlip);
  std::vector<unsigned> wins(n * n, 0);
  for (unsigned cycle = 0; cycle < 20 * n; ++cycle) {
    for (unsigned i = 0; i < n; ++i)
      for (unsigned j = 0; j < n; ++j) c.request(i, j, bit(j));
    const unsigned g = c.allocate();
    if (cycle >= n) {
      INFO("cycle " << cycle);
      CHECK(g == n);
    }
    if (cycle >= n)
      for (unsigned i = 0; i < n; ++i)
        if (c.sa.granted_vc(i) >= 0) ++wins[i * n + static_cast<unsigned>(c.sa.granted_vc(i))];
  }
  // Desynchronised, output j grants input g_j with all g_j distinct; every input gets exactly
  // one grant and accepts it, and every g_j advances by one. So input i meets output j exactly
  // once every n cycles: 19 times in the 19 * n cycles after the warm-up.
  for (unsigned x = 0; x < n * n; ++x) CHECK(wins[x] == 19);
}

TEST_CASE("switch allocator: out-of-range sizes are a clear error", "[switch_allocator][config]") {
  REQUIRE_THROWS_WITH(SwitchAllocator(65, 4, 2, Policy::ISlip), Catch::Contains("ports and VCs must be in [1, 64]"));
  REQUIRE_THROWS_WITH(SwitchAllocator(4, 4, 0, Policy::Separable), Catch::Contains("0 VCs"));
}
