// Two-level probing tests (no SystemC elaboration): the S / S - 1 draw with probability P over
// 1e5 misses (binomial bound), the disjoint even split (15 over 2 -> 8 and 7, leader first), and
// the protocol cases walked probe by probe over a scripted set of L1s holding the line: leader
// finds the data; leader fails and scouts bring candidates -> second level over them in order;
// a candidate evicted meanwhile is skipped; nobody has it -> early release; late scouts are
// dropped. Bad parameters are clear errors. The per-request state these walk is ProbeGroup
// (probe/probe_group.h), reached through TwoLevelProbing::on_data / on_return.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <vector>

#include "common/params.h"
#include "harness/params_checks.h"
#include "probe/two_level_probing.h"

using namespace gpusc;
using namespace gpusc::probe;
using P = TwoLevelProbing::Params;
using O = TwoLevelProbing::Outcome;

namespace {

P ip(unsigned c, unsigned s, double p) {
  P x;
  x.c = c, x.s = s, x.p = p;
  return x;
}

std::vector<unsigned> range(unsigned from, unsigned to) {  // [from, to]
  std::vector<unsigned> v;
  for (unsigned i = from; i <= to; ++i) v.push_back(i);
  return v;
}

// Walks one probe over its targets; `holders` = L1s that have the line. Returns the final step
// and the number of cores visited.
struct Walk {
  ProbeStep last;
  unsigned visited = 0;
};
Walk walk(ProbeHeader& h, const std::set<unsigned>& holders) {
  Walk w{};
  for (;;) {
    const unsigned here = h.next_target();
    ++w.visited;
    w.last = visit(h, holders.count(here) > 0);
    if (w.last.kind != ProbeStep::Forward) return w;
  }
}

std::vector<unsigned> list(const ProbeHeader& h) {
  return std::vector<unsigned>(h.targets.begin(), h.targets.begin() + h.n_targets);
}

}  // namespace

TEST_CASE("two-level: S probes with probability P, else S - 1 (1e5 draws within 5 sigma)") {
  TwoLevelProbing t(ip(15, 2, 0.2), 0, 28, 11);
  const unsigned n = 100000;
  unsigned two = 0;
  for (unsigned k = 0; k < n; ++k) {
    const unsigned d = t.draw_probes();
    REQUIRE((d == 1 || d == 2));
    two += d == 2;
  }
  CHECK(std::fabs(two / double(n) - 0.2) < 5 * std::sqrt(0.2 * 0.8 / n));
  TwoLevelProbing always(ip(5, 2, 1.0), 0, 28, 1), never(ip(5, 2, 0.0), 0, 28, 1), one(ip(27, 1, 0.5), 0, 28, 1);
  unsigned zeros = 0;
  for (int k = 0; k < 1000; ++k) {
    CHECK(always.draw_probes() == 2);
    CHECK(never.draw_probes() == 1);
    zeros += one.draw_probes() == 0;  // S - 1 = 0: the miss is not probed
  }
  CHECK(zeros > 400);
  CHECK(zeros < 600);
}

TEST_CASE("two-level: C targets split disjointly and evenly, leader first with the larger share") {
  CHECK(TwoLevelProbing::shares(15, 2) == std::vector<unsigned>{8, 7});
  CHECK(TwoLevelProbing::shares(5, 2) == std::vector<unsigned>{3, 2});
  CHECK(TwoLevelProbing::shares(10, 3) == std::vector<unsigned>{4, 3, 3});
  CHECK(TwoLevelProbing::shares(27, 1) == std::vector<unsigned>{27});
  CHECK_THROWS_WITH(TwoLevelProbing::shares(2, 3), Catch::Contains("3 probes cannot split 2 targets"));
  TwoLevelProbing t(ip(15, 2, 0.2), 0, 28, 1);
  std::vector<ProbeHeader> out;
  const auto targets = range(1, 15);
  const uint32_t g = t.start(0xABC00, targets, 2, out);
  REQUIRE(out.size() == 2);
  CHECK(out[0].leader);
  CHECK_FALSE(out[1].leader);
  CHECK(list(out[0]) == range(1, 8));
  CHECK(list(out[1]) == range(9, 15));
  for (const auto& h : out) CHECK((h.group == g && h.requester == 0 && h.address == 0xABC00 && !h.returning));
  CHECK(t.start(0xABC80, targets, 1, out) == g + 1);  // one probe: the leader takes all 15
  CHECK(list(out[2]) == targets);
  CHECK(t.tracked() == 2);
  CHECK(t.probes_sent() == 3);
}

TEST_CASE("two-level: the leader finds the data, the scout's late candidate list is dropped") {
  TwoLevelProbing t(ip(15, 2, 0.2), 0, 28, 1);
  std::vector<ProbeHeader> out;
  const uint32_t g = t.start(0x100, range(1, 15), 2, out);
  const std::set<unsigned> holders{3, 12};
  const Walk l = walk(out[0], holders);
  CHECK((l.last.kind == ProbeStep::ReplyData && l.last.dest == 0 && l.visited == 3));  // 1, 2, 3
  CHECK(t.on_data(g) == O::Found);
  const Walk s = walk(out[1], holders);
  CHECK((s.last.kind == ProbeStep::Return && s.visited == 7));
  CHECK(t.on_return(out[1], nullptr) == O::Stale);
  CHECK((t.found() == 1 && t.stale_returns() == 1 && t.tracked() == 0 && t.second_levels() == 0));
}

TEST_CASE("two-level: the leader fails, scouts bring candidates, the second level walks them in order") {
  TwoLevelProbing t(ip(10, 3, 1.0), 0, 28, 1);  // shares 4, 3, 3
  std::vector<ProbeHeader> out;
  const uint32_t g = t.start(0x200, range(1, 10), 3, out);
  const std::set<unsigned> holders{6, 9, 10};
  for (auto& h : out) CHECK(walk(h, holders).last.kind == ProbeStep::Return);
  // Scout 2 (targets 8, 9, 10 -> candidates 9, 10) returns first, then the leader (NACK), then
  // scout 1 (5, 6, 7 -> candidate 6).
  ProbeHeader second;
  CHECK(t.on_return(out[2], &second) == O::Wait);
  CHECK(t.on_return(out[0], &second) == O::Wait);
  CHECK(t.group(g)->outstanding() == 1);
  CHECK(t.on_return(out[1], &second) == O::SecondLevel);
  CHECK(second.leader);
  CHECK(list(second) == std::vector<unsigned>{9, 10, 6});  // scouts in return order
  const Walk w = walk(second, holders);
  CHECK((w.last.kind == ProbeStep::ReplyData && w.visited == 1));
  CHECK(t.on_data(g) == O::Found);
  CHECK((t.second_levels() == 1 && t.probes_sent() == 4 && t.failed() == 0));
}

TEST_CASE("two-level: a candidate that evicted the line meanwhile is skipped") {
  TwoLevelProbing t(ip(5, 2, 1.0), 0, 28, 1);  // leader 1, 2, 3; scout 4, 5
  std::vector<ProbeHeader> out;
  const uint32_t g = t.start(0x300, range(1, 5), 2, out);
  std::set<unsigned> holders{4, 5};
  CHECK(walk(out[0], holders).last.kind == ProbeStep::Return);
  CHECK(walk(out[1], holders).last.kind == ProbeStep::Return);
  CHECK(t.on_return(out[0], nullptr) == O::Wait);
  ProbeHeader second;
  CHECK(t.on_return(out[1], &second) == O::SecondLevel);
  CHECK(list(second) == std::vector<unsigned>{4, 5});
  holders.erase(4);  // core 4 evicts the line before the second-level probe gets there
  const Walk w = walk(second, holders);
  CHECK((w.last.kind == ProbeStep::ReplyData && w.visited == 2));
  CHECK(t.on_data(g) == O::Found);
}

TEST_CASE("two-level: nobody has the line -> early release, a failed second level too") {
  TwoLevelProbing t(ip(5, 2, 1.0), 0, 28, 1);
  std::vector<ProbeHeader> out;
  const uint32_t g1 = t.start(0x400, range(1, 5), 2, out);
  for (auto& h : out) walk(h, {});
  CHECK(t.on_return(out[1], nullptr) == O::Wait);    // scout: no candidate
  CHECK(t.on_return(out[0], nullptr) == O::Failed);  // leader NACK: nothing left to try
  CHECK(t.group(g1) == nullptr);
  out.clear();
  const uint32_t g2 = t.start(0x480, range(1, 5), 2, out);
  std::set<unsigned> holders{5};
  for (auto& h : out) walk(h, holders);
  CHECK(t.on_return(out[0], nullptr) == O::Wait);
  ProbeHeader second;
  CHECK(t.on_return(out[1], &second) == O::SecondLevel);
  holders.clear();  // evicted
  CHECK(walk(second, holders).last.kind == ProbeStep::Return);
  CHECK(t.on_return(second, nullptr) == O::Failed);
  CHECK(t.group(g2) == nullptr);
  CHECK((t.failed() == 2 && t.found() == 0));
}

TEST_CASE("two-level: a group the L2 answered is no longer tracked, its probes still out come back stale") {
  // §III-F: up to 32 tracked requests, the MSHR size. Until 2026-12 a group answered by the L2
  // (after its timeout) stayed tracked until its last probe was back.
  P x = ip(5, 2, 1.0);
  x.max_requests = 1;
  TwoLevelProbing t(x, 0, 28, 1);
  std::vector<ProbeHeader> out;
  const uint32_t g = t.start(0x500, range(1, 5), 2, out);
  CHECK(t.full());
  t.finish(g);  // the L2 answered the load; both probes still walk
  CHECK(t.tracked() == 0);
  CHECK_FALSE(t.full());
  CHECK(t.finished_by_l2() == 1);
  std::vector<ProbeHeader> out2;
  const uint32_t g2 = t.start(0x580, range(1, 5), 1, out2);  // the next shared miss is probed
  for (auto& h : out) walk(h, {});
  CHECK(t.on_return(out[0], nullptr) == O::Stale);
  CHECK(t.on_return(out[1], nullptr) == O::Stale);
  CHECK(t.group(g2) != nullptr);
  t.finish(g);  // no-op for a group no longer tracked
  CHECK((t.finished_by_l2() == 1 && t.stale_returns() == 2 && t.failed() == 0));
}

TEST_CASE("two-level: bad parameters are clear errors") {
  CHECK_THROWS_WITH(TwoLevelProbing(ip(28, 1, 1), 0, 28, 1), Catch::Contains("'probe.c' = 28 is more target cores"));
  CHECK_THROWS_WITH(TwoLevelProbing(ip(5, 6, 1), 0, 28, 1), Catch::Contains("'probe.s' = 6 probes cannot split C = 5"));
  CHECK_THROWS_WITH(TwoLevelProbing(ip(5, 2, 1.5), 0, 28, 1), Catch::Contains("probe.p"));
  CHECK_THROWS_WITH(TwoLevelProbing(ip(5, 2, -0.1), 0, 28, 1), Catch::Contains("probe.p"));
  CHECK_THROWS_WITH(TwoLevelProbing(ip(5, 0, 1), 0, 28, 1), Catch::Contains("probe.s"));
  CHECK_THROWS_WITH(params_from_json<P>(json{{"C", 5}}, "probe"), Catch::Contains("unknown parameter 'probe.C'"));
  P small = ip(2, 1, 1);
  small.max_requests = 1;
  TwoLevelProbing t(small, 0, 4, 1);
  std::vector<ProbeHeader> out;
  t.start(0, {1, 2}, 1, out);
  CHECK(t.full());
  CHECK_THROWS_WITH(t.start(0, {1, 2}, 1, out), Catch::Contains("already tracked"));
  CHECK(tb::check_one_key_overrides<P>().keys.size() == 5);
}

TEST_CASE("two-level: visit_order = route walks each share as a nearest-next tour from the requester") {
  // Cores on a line, hops = |a - b|; requester 10. Selector order 25 11 3 | 12 9 20 (2 probes).
  const std::vector<unsigned> targets{25, 11, 3, 12, 9, 20};
  const auto line = [](unsigned a, unsigned b) { return a > b ? a - b : b - a; };
  P route = ip(6, 2, 1);
  route.visit_order = "route";
  TwoLevelProbing r(route, 10, 28, 1);
  std::vector<ProbeHeader> out;
  CHECK_THROWS_WITH(r.start(0x100, targets, 2, out), Catch::Contains("visit_order = route needs"));
  r.set_hops(line);
  out.clear();
  r.start(0x100, targets, 2, out);
  REQUIRE(out.size() == 2);
  CHECK(list(out[0]) == std::vector<unsigned>{11, 3, 25});  // 10 -> 11 (1) -> 3 (8) -> 25: the leader keeps its share
  CHECK(list(out[1]) == std::vector<unsigned>{9, 12, 20});  // 10 -> 9 (1) -> 12 (3) -> 20
  out.clear();
  r.start(0x180, {12, 8, 14}, 1, out);  // 12 and 8 both 2 hops away: selector order breaks the tie
  CHECK(list(out[0]) == std::vector<unsigned>{12, 14, 8});
  TwoLevelProbing s(ip(6, 2, 1), 10, 28, 1);  // visit_order = selector: the shares as drawn
  s.set_hops(line);
  out.clear();
  s.start(0x100, targets, 2, out);
  CHECK(list(out[0]) == std::vector<unsigned>{25, 11, 3});
  CHECK(list(out[1]) == std::vector<unsigned>{12, 9, 20});
  CHECK_THROWS_WITH(params_from_json<P>(json{{"visit_order", "nearest"}}, "probe"), Catch::Contains("visit_order"));
}
