// Core selector tests (no SystemC elaboration). SupplierSelector: the first-draw distribution of
// the paper's footnote-2 example (replies 5, 3, 2 -> 50/30/20 %) by a chi-square bound over 1e5
// draws, the exact inclusion probabilities of sampling two without replacement (worked out in
// the test from the successive-sampling definition) within 5 standard deviations, the zero-count
// rule (half the lowest non-zero probability), uniform when nothing was counted, the period
// reset at a multiple of 8192 cycles, never self, no repeats, determinism under a seed.
// IndexSelector: ascending index skipping self, and the ring order. Bad parameters.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <vector>

#include "common/params.h"
#include "probe/core_selector.h"
#include "probe/index_selector.h"
#include "probe/supplier_selector.h"

using namespace gpusc;
using namespace gpusc::probe;
using P = CoreSelector::Params;

namespace {

P supplier(uint64_t period = 8192) {
  P p;
  p.period = period;
  return p;
}

// Counts, over n draws of select(c), how often each core is in the result / is drawn first.
struct Tally {
  std::vector<double> included, first;
};
Tally draw(CoreSelector& s, unsigned c, unsigned n, uint64_t cycle) {
  Tally t{std::vector<double>(s.cores(), 0), std::vector<double>(s.cores(), 0)};
  std::vector<unsigned> out;
  for (unsigned k = 0; k < n; ++k) {
    s.select(c, cycle, out);
    REQUIRE(out.size() == c);
    std::set<unsigned> seen(out.begin(), out.end());
    REQUIRE(seen.size() == c);          // no repeats
    REQUIRE(seen.count(s.self()) == 0);  // never self
    for (unsigned j : out) t.included[j] += 1;
    t.first[out[0]] += 1;
  }
  return t;
}

// Pearson chi-square of observed counts against expected probabilities (cores with p > 0).
double chi_square(const std::vector<double>& obs, const std::vector<double>& p, unsigned n) {
  double x = 0;
  for (size_t j = 0; j < p.size(); ++j)
    if (p[j] > 0) x += (obs[j] - n * p[j]) * (obs[j] - n * p[j]) / (n * p[j]);
  return x;
}

void replies(CoreSelector& s, unsigned core, unsigned k, uint64_t cycle) {
  for (unsigned i = 0; i < k; ++i) s.data_reply_from(core, cycle);
}

}  // namespace

TEST_CASE("supplier selector: footnote 2 example, replies 5/3/2 -> first draw 50/30/20 percent (chi-square, 1e5 draws)") {
  SupplierSelector s(supplier(), 0, 4, 1234);
  replies(s, 1, 5, 10);
  replies(s, 2, 3, 10);
  replies(s, 3, 2, 10);
  CHECK(s.probability(1, 10) == Approx(0.5));
  CHECK(s.probability(2, 10) == Approx(0.3));
  CHECK(s.probability(3, 10) == Approx(0.2));
  CHECK(s.probability(0, 10) == 0.0);
  const unsigned n = 100000;
  const Tally t = draw(s, 1, n, 20);
  // 2 degrees of freedom: P(chi2 > 13.82) = 0.001.
  CHECK(chi_square(t.first, {0, 0.5, 0.3, 0.2}, n) < 13.82);
}

TEST_CASE("supplier selector: C = 2 of 3 without replacement matches the exact inclusion probabilities") {
  SupplierSelector s(supplier(), 0, 4, 99);
  replies(s, 1, 5, 0);
  replies(s, 2, 3, 0);
  replies(s, 3, 2, 0);
  // pi_j = p_j + sum_{i != j} p_i * p_j / (1 - p_i): 0.8392857, 0.675, 0.4857143 (sum 2).
  const double p[4] = {0, 0.5, 0.3, 0.2};
  std::vector<double> pi(4, 0);
  for (unsigned j = 1; j < 4; ++j) {
    pi[j] = p[j];
    for (unsigned i = 1; i < 4; ++i)
      if (i != j) pi[j] += p[i] * p[j] / (1 - p[i]);
  }
  CHECK(pi[1] + pi[2] + pi[3] == Approx(2.0));
  CHECK(pi[3] == Approx(0.2 + 0.2 + 0.3 * 0.2 / 0.7));
  const unsigned n = 100000;
  const Tally t = draw(s, 2, n, 1);
  for (unsigned j = 1; j < 4; ++j) {
    const double sd = std::sqrt(pi[j] * (1 - pi[j]) / n);
    INFO("core " << j << " included " << t.included[j] / n << " expected " << pi[j]);
    CHECK(std::fabs(t.included[j] / n - pi[j]) < 5 * sd);
  }
  CHECK(t.included[0] == 0);
}

TEST_CASE("supplier selector: a core without replies gets half the lowest non-zero probability") {
  // 5 cores, self 2. Replies: core 0: 4, core 3: 2, cores 1 and 4: none. p0 = 4/6, p3 = 2/6;
  // cores 1 and 4 get (2/6)/2 = 1/6 each; renormalised over 8/6: 1/2, 1/8, 1/4, 1/8.
  SupplierSelector s(supplier(), 2, 5, 7);
  replies(s, 0, 4, 100);
  replies(s, 3, 2, 100);
  const double expect[5] = {0.5, 0.125, 0, 0.25, 0.125};
  for (unsigned j = 0; j < 5; ++j) CHECK(s.probability(j, 100) == Approx(expect[j]));
  const unsigned n = 100000;
  const Tally t = draw(s, 1, n, 200);
  // 3 degrees of freedom: P(chi2 > 16.27) = 0.001.
  CHECK(chi_square(t.first, {0.5, 0.125, 0, 0.25, 0.125}, n) < 16.27);
}

TEST_CASE("supplier selector: no replies -> uniform, counts reset at each multiple of the period") {
  SupplierSelector s(supplier(), 3, 6, 5);
  for (unsigned j = 0; j < 6; ++j) CHECK(s.probability(j, 0) == Approx(j == 3 ? 0.0 : 0.2));
  replies(s, 0, 9, 8000);
  CHECK(s.count(0, 8191) == 9);
  // p0 = 9/9 = 1; the four cores without replies get 1/2 each; renormalised over 3: p0 = 1/3.
  CHECK(s.probability(0, 8191) == Approx(1.0 / 3.0));
  CHECK(s.probability(4, 8191) == Approx(1.0 / 6.0));
  CHECK(s.count(0, 8192) == 0);                          // period 1 starts at cycle 8192
  CHECK(s.periods_reset() == 1);
  for (unsigned j = 0; j < 6; ++j) CHECK(s.probability(j, 8192) == Approx(j == 3 ? 0.0 : 0.2));
  const unsigned n = 100000;
  const Tally t = draw(s, 1, n, 9000);
  CHECK(chi_square(t.first, {0.2, 0.2, 0.2, 0, 0.2, 0.2}, n) < 18.47);  // 4 dof, p = 0.001
  // A reply in period 3 (cycle 3 * 8192 + 5) after nothing in period 2: reset again, one count.
  s.data_reply_from(4, 3 * 8192 + 5);
  CHECK(s.count(4, 3 * 8192 + 5) == 1);
  CHECK(s.periods_reset() == 2);
}

TEST_CASE("supplier selector: C = cores - 1 returns every remote core, the same seed gives the same draws") {
  SupplierSelector a(supplier(), 5, 28, 42), b(supplier(), 5, 28, 42);
  replies(a, 7, 3, 0);
  replies(b, 7, 3, 0);
  std::vector<unsigned> x, y;
  for (int k = 0; k < 100; ++k) {
    a.select(27, 10, x);
    b.select(27, 10, y);
    REQUIRE(x == y);
    std::set<unsigned> seen(x.begin(), x.end());
    CHECK(seen.size() == 27);
    CHECK(seen.count(5) == 0);
  }
}

TEST_CASE("index selector: ascending core index skipping self, ring order starts after self") {
  IndexSelector asc(P{}, 3, 8);
  std::vector<unsigned> out;
  asc.select(4, 0, out);
  CHECK(out == std::vector<unsigned>{0, 1, 2, 4});
  asc.select(7, 0, out);
  CHECK(out == std::vector<unsigned>{0, 1, 2, 4, 5, 6, 7});
  asc.data_reply_from(7, 0);  // ignored
  asc.select(2, 0, out);
  CHECK(out == std::vector<unsigned>{0, 1});
  P ring;
  ring.index_order = "ring";
  IndexSelector r(ring, 3, 8);
  r.select(4, 0, out);
  CHECK(out == std::vector<unsigned>{4, 5, 6, 7});
  r.select(7, 0, out);
  CHECK(out == std::vector<unsigned>{4, 5, 6, 7, 0, 1, 2});
  IndexSelector last(ring, 7, 8);
  last.select(3, 0, out);
  CHECK(out == std::vector<unsigned>{0, 1, 2});
}

TEST_CASE("core selector: factory by name, and bad parameters are clear errors") {
  P p;
  CHECK(dynamic_cast<SupplierSelector*>(make_core_selector(p, 0, 28, 1).get()) != nullptr);
  p.selector = "index";
  CHECK(dynamic_cast<IndexSelector*>(make_core_selector(p, 0, 28, 1).get()) != nullptr);
  p.selector = "random";
  CHECK_THROWS_WITH(make_core_selector(p, 0, 28, 1), Catch::Contains("supplier|index"));
  CHECK_THROWS_WITH(params_from_json<P>(json{{"selector", "nearest"}}, "selector"), Catch::Contains("selector.selector"));
  auto s = make_core_selector(P{}, 0, 28, 1);
  std::vector<unsigned> out;
  CHECK_THROWS_WITH(s->select(28, 0, out), Catch::Contains("C = 28 target cores cannot be selected: it must be in [1, cores - 1 = 27]"));
  CHECK_THROWS_WITH(s->select(0, 0, out), Catch::Contains("C = 0"));
  CHECK_THROWS_WITH(s->data_reply_from(0, 0), Catch::Contains("is the selecting core itself"));
  CHECK_THROWS_WITH(s->data_reply_from(28, 0), Catch::Contains("core 28 does not exist"));
  CHECK_THROWS_WITH(make_core_selector(P{}, 4, 4, 1), Catch::Contains("core 4 does not exist"));
  P zero;
  zero.period = 0;
  CHECK_THROWS_WITH(make_core_selector(zero, 0, 4, 1), Catch::Contains("period"));
}
