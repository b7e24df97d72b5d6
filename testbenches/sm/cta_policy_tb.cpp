// CTA policies in isolation: a FakeSms stands for the scheduler's view of the SMs (a fixed
// number of CTA slots per SM; tests retire CTAs by hand between cycles). Checks the exact
// per-cycle assignment of round-robin, contiguous-groups (grids not divisible by the block
// count, the same ids to the same block on a second launch, no stealing) and greedy (lowest SM
// first, filled to its limit), and the configuration errors of the factory.
#include <catch2/catch.hpp>

#include <map>

#include "common/contiguous_split.h"
#include "sm/contiguous_groups_cta_policy.h"
#include "sm/cta_policy.h"
#include "sm/greedy_cta_policy.h"
#include "sm/round_robin_cta_policy.h"

using namespace gpusc;

namespace {

struct FakeSms final : CtaPolicy::Sms {
  std::vector<unsigned> slots, resident;
  std::vector<std::pair<unsigned, unsigned>> cycle_log;  // (sm, cta) of the last assign()
  std::map<unsigned, unsigned> sm_of;                     // cta -> sm, this launch
  FakeSms(unsigned n, unsigned slots_each) : slots(n, slots_each), resident(n, 0) {}
  unsigned count() const override { return static_cast<unsigned>(slots.size()); }
  bool can_launch(unsigned sm) const override { return resident.at(sm) < slots.at(sm); }
  void launch(unsigned sm, unsigned cta) override {
    REQUIRE(can_launch(sm));
    REQUIRE(sm_of.count(cta) == 0);  // every CTA once
    ++resident[sm];
    sm_of[cta] = sm;
    cycle_log.emplace_back(sm, cta);
  }
  // One scheduler cycle: what the policy launched, as (sm, cta) in launch order.
  std::vector<std::pair<unsigned, unsigned>> cycle(CtaPolicy& p) {
    cycle_log.clear();
    const bool any = p.assign(*this);
    CHECK(any == !cycle_log.empty());
    return cycle_log;
  }
  void retire_all() { std::fill(resident.begin(), resident.end(), 0u); }
};
using Launches = std::vector<std::pair<unsigned, unsigned>>;

}  // namespace

namespace Catch {
template <> struct StringMaker<std::pair<unsigned, unsigned>> {
  static std::string convert(const std::pair<unsigned, unsigned>& l) {
    return "(sm " + std::to_string(l.first) + ", cta " + std::to_string(l.second) + ")";
  }
};
}  // namespace Catch

namespace {

// Runs a kernel of `ctas` CTAs to the end, retiring everything after each cycle.
std::map<unsigned, unsigned> run_kernel(CtaPolicy& p, FakeSms& sms, unsigned ctas) {
  sms.sm_of.clear();
  p.start_kernel(ctas);
  for (int c = 0; p.pending() > 0; ++c) {
    REQUIRE(c < 1000);
    sms.cycle(p);
    sms.retire_all();
  }
  REQUIRE(sms.sm_of.size() == ctas);
  return sms.sm_of;
}

}  // namespace

TEST_CASE("RoundRobinCtaPolicy: one CTA per SM per cycle from the SM after the last served, kept across kernels",
          "[cta_policy]") {
  RoundRobinCtaPolicy p;
  FakeSms sms(3, 1);
  p.start_kernel(5);
  CHECK(sms.cycle(p) == Launches{{0, 0}, {1, 1}, {2, 2}});
  CHECK(sms.cycle(p).empty());  // every SM is full
  sms.resident[0] = sms.resident[1] = 0;
  CHECK(sms.cycle(p) == Launches{{0, 3}, {1, 4}});
  CHECK(p.pending() == 0);
  sms.retire_all();
  sms.sm_of.clear();
  p.start_kernel(3);  // the next scan starts after SM 1
  CHECK(sms.cycle(p) == Launches{{2, 0}, {0, 1}, {1, 2}});
}

TEST_CASE("RoundRobinCtaPolicy: 10 CTAs on 4 SMs of 2 slots ignore blocks", "[cta_policy]") {
  RoundRobinCtaPolicy p;
  FakeSms sms(4, 2);
  p.start_kernel(10);
  CHECK(sms.cycle(p) == Launches{{0, 0}, {1, 1}, {2, 2}, {3, 3}});
  CHECK(sms.cycle(p) == Launches{{0, 4}, {1, 5}, {2, 6}, {3, 7}});
  CHECK(sms.cycle(p).empty());
  sms.resident[2] = 1;
  CHECK(sms.cycle(p) == Launches{{2, 8}});
  CHECK(p.pending() == 1);
}

TEST_CASE("ContiguousGroupsCtaPolicy: 10 CTAs over 4 blocks, cycle by cycle, and again on a second launch",
          "[cta_policy]") {
  // One SM per block, one slot each. Groups (first 10 mod 4 = 2 one larger): 0-2, 3-5, 6-7, 8-9.
  ContiguousGroupsCtaPolicy p({0, 1, 2, 3}, 4);
  FakeSms sms(4, 1);
  p.start_kernel(10);
  CHECK(sms.cycle(p) == Launches{{0, 0}, {1, 3}, {2, 6}, {3, 8}});
  sms.retire_all();
  CHECK(sms.cycle(p) == Launches{{0, 1}, {1, 4}, {2, 7}, {3, 9}});
  sms.retire_all();
  CHECK(sms.cycle(p) == Launches{{0, 2}, {1, 5}});  // blocks 2 and 3 are done and idle
  CHECK(p.pending() == 0);
  sms.retire_all();
  sms.sm_of.clear();
  // Second launch: the scan starts after SM 1 (the last served, as round-robin), but each SM
  // still takes its own block's CTAs.
  p.start_kernel(10);
  CHECK(sms.cycle(p) == Launches{{2, 6}, {3, 8}, {0, 0}, {1, 3}});
  sms.retire_all();
  CHECK(sms.cycle(p) == Launches{{2, 7}, {3, 9}, {0, 1}, {1, 4}});
  sms.retire_all();
  CHECK(sms.cycle(p) == Launches{{0, 2}, {1, 5}});
  CHECK(p.pending() == 0);
  for (unsigned c = 0; c < 10; ++c) CHECK(p.block_of_cta(c) == (c < 3 ? 0u : c < 6 ? 1u : c < 8 ? 2u : 3u));
}

TEST_CASE("ContiguousGroupsCtaPolicy: same ids to the same block at every launch, blocks of several SMs",
          "[cta_policy]") {
  // 8 SMs in 4 blocks (SMs 2b and 2b+1 form block b), 2 slots each; then 7 CTAs over 3 blocks.
  for (const auto& [blocks, ctas] : std::vector<std::pair<unsigned, unsigned>>{{4, 10}, {3, 7}, {4, 3}, {4, 37}}) {
    INFO(ctas << " CTAs over " << blocks << " blocks");
    std::vector<unsigned> block_of_sm;
    for (unsigned s = 0; s < 2 * blocks; ++s) block_of_sm.push_back(s / 2);
    ContiguousGroupsCtaPolicy p(block_of_sm, blocks);
    FakeSms sms(2 * blocks, 2);
    const ContiguousSplit split(ctas, blocks);
    std::map<unsigned, unsigned> first_block;
    for (int launch = 0; launch < 3; ++launch) {
      const auto where = run_kernel(p, sms, ctas);
      for (const auto& [cta, sm] : where) {
        CHECK(block_of_sm[sm] == split.group_of(cta));
        if (launch == 0) first_block[cta] = block_of_sm[sm];
        CHECK(block_of_sm[sm] == first_block[cta]);
      }
    }
  }
  // The uneven rule, 7 over 3: 3, 2, 2.
  const ContiguousSplit s(7, 3);
  CHECK(std::vector<unsigned>{s.group_of(0), s.group_of(2), s.group_of(3), s.group_of(4), s.group_of(5), s.group_of(6)} ==
        std::vector<unsigned>{0, 0, 1, 1, 2, 2});
}

TEST_CASE("ContiguousGroupsCtaPolicy: a block whose group is out does not take another block's CTAs", "[cta_policy]") {
  // 7 CTAs over 3 blocks (0-2, 3-4, 5-6), SMs 0..5 in blocks 0, 1, 2, 0, 1, 2, one slot each.
  ContiguousGroupsCtaPolicy p({0, 1, 2, 0, 1, 2}, 3);
  FakeSms sms(6, 1);
  p.start_kernel(7);
  CHECK(sms.cycle(p) == Launches{{0, 0}, {1, 3}, {2, 5}, {3, 1}, {4, 4}, {5, 6}});
  CHECK(p.pending() == 1);
  sms.resident[4] = 0;  // block 1 has room, but its group is out
  sms.resident[2] = 0;  // block 2 as well
  CHECK(sms.cycle(p).empty());
  sms.resident[3] = 0;  // block 0 has room: CTA 2
  CHECK(sms.cycle(p) == Launches{{3, 2}});
  CHECK(p.pending() == 0);
}

TEST_CASE("GreedyCtaPolicy: the lowest SM with room takes the next CTAs, filled to its limit", "[cta_policy]") {
  GreedyCtaPolicy p;
  FakeSms sms(3, 2);
  p.start_kernel(8);
  CHECK(sms.cycle(p) == Launches{{0, 0}, {0, 1}, {1, 2}, {1, 3}, {2, 4}, {2, 5}});
  CHECK(sms.cycle(p).empty());
  CHECK(p.pending() == 2);
  sms.resident[2] = 1;  // SM 2 and SM 0 free a slot in the same cycle: the lowest goes first
  sms.resident[0] = 1;
  CHECK(sms.cycle(p) == Launches{{0, 6}, {2, 7}});
  CHECK(p.pending() == 0);

  // A grid smaller than one SM's capacity stays on SM 0; the next kernel starts there again.
  FakeSms big(4, 4);
  p.start_kernel(3);
  CHECK(big.cycle(p) == Launches{{0, 0}, {0, 1}, {0, 2}});
  big.retire_all();
  big.sm_of.clear();
  p.start_kernel(5);
  CHECK(big.cycle(p) == Launches{{0, 0}, {0, 1}, {0, 2}, {0, 3}, {1, 4}});
}

TEST_CASE("make_cta_policy: builds each policy by name, and bad configurations are clear errors", "[cta_policy][config]") {
  CHECK(dynamic_cast<RoundRobinCtaPolicy*>(make_cta_policy("round-robin", 4, {}).get()));
  CHECK(dynamic_cast<GreedyCtaPolicy*>(make_cta_policy("greedy", 4, {}).get()));
  auto cg = make_cta_policy("contiguous-groups", 4, {0, 0, 1, 1});
  auto* c = dynamic_cast<ContiguousGroupsCtaPolicy*>(cg.get());
  REQUIRE(c);
  CHECK(c->blocks() == 2);
  CHECK(dynamic_cast<ContiguousGroupsCtaPolicy&>(*make_cta_policy("contiguous-groups", 4, {})).blocks() == 1);

  REQUIRE_THROWS_WITH(make_cta_policy("fifo", 4, {}, "gpu.cta.policy"),
                      Catch::Contains("gpu.cta.policy") &&
                          Catch::Contains("'fifo' is not a CTA policy; known: round-robin, contiguous-groups, greedy"));
  REQUIRE_THROWS_WITH(make_cta_policy("contiguous-groups", 3, {0, 2, 2}),
                      Catch::Contains("block 1 has no SM, so its group of CTAs could never run"));
  REQUIRE_THROWS_WITH(make_cta_policy("round-robin", 3, {0, 1}), Catch::Contains("block_of_sm lists 2 SMs, but there are 3"));
  REQUIRE_THROWS_WITH(ContiguousGroupsCtaPolicy({}, 0), Catch::Contains("needs at least one block, got 0"));
  REQUIRE_THROWS_WITH(ContiguousGroupsCtaPolicy({0, 3}, 2), Catch::Contains("SM 1 is in block 3, but there are 2 blocks"));
  ContiguousGroupsCtaPolicy p({0, 1}, 2);
  FakeSms three(3, 1);
  p.start_kernel(4);
  REQUIRE_THROWS_WITH(p.assign(three), Catch::Contains("built for 2 SMs but the scheduler has 3"));
}
