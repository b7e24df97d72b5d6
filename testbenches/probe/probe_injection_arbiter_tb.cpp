// ProbeInjectionArbiter tests (no SystemC elaboration): the strict priority order of §III-F
// cycle by cycle under a scripted readiness pattern, wait counts of the losing classes, and a
// bad mask.
#include <catch2/catch.hpp>

#include <vector>

#include "probe/probe_injection_arbiter.h"

using gpusc::probe::ProbeInjectionArbiter;
using A = ProbeInjectionArbiter;

TEST_CASE("injection arbiter: non-shared > selective L2 > forwarded probes > processed NACKs > own probes, cycle by cycle") {
  A arb;
  // Five queues with scripted contents: each class has `n[c]` messages ready from cycle 0; one
  // message per cycle leaves. Expected order worked out by hand: all 2 non-shared first, then
  // the selective L2 one, then 3 forwarded probes, 1 processed NACK, 2 own probes.
  unsigned n[5] = {2, 1, 3, 1, 2};
  std::vector<int> order;
  for (int cycle = 0; cycle < 10; ++cycle) {
    uint8_t ready = 0;
    for (unsigned c = 0; c < 5; ++c) ready |= static_cast<uint8_t>((n[c] > 0) << c);
    const int g = arb.arbitrate(ready);
    order.push_back(g);
    if (g >= 0) --n[g];
  }
  CHECK(order == std::vector<int>{0, 0, 1, 2, 2, 2, 3, 4, 4, A::kNone});
  CHECK(arb.grants(A::ForwardedProbe) == 3);
  // Own probes waited 7 cycles (cycles 0..6), processed NACKs 6 (0..5), selective L2 2.
  CHECK(arb.waits(A::OwnProbe) == 7);
  CHECK(arb.waits(A::ProcessedNack) == 6);
  CHECK(arb.waits(A::SelectiveL2) == 2);
  CHECK(arb.waits(A::NonShared) == 0);
}

TEST_CASE("injection arbiter: a newly ready higher class preempts the next cycle, lone classes always win") {
  A arb;
  CHECK(arb.arbitrate(A::bit(A::OwnProbe)) == A::OwnProbe);
  CHECK(arb.arbitrate(A::bit(A::OwnProbe) | A::bit(A::ProcessedNack)) == A::ProcessedNack);
  CHECK(arb.arbitrate(A::bit(A::OwnProbe) | A::bit(A::SelectiveL2)) == A::SelectiveL2);
  CHECK(arb.arbitrate(A::bit(A::ForwardedProbe) | A::bit(A::NonShared)) == A::NonShared);
  for (unsigned c = 0; c < 5; ++c) CHECK(arb.arbitrate(A::bit(static_cast<A::Class>(c))) == int(c));
  CHECK(arb.arbitrate(0) == A::kNone);
  CHECK_THROWS_WITH(arb.arbitrate(0x20), Catch::Contains("names a class >= 5"));
}
