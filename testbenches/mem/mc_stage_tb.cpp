// The memory partition's stage chain (mem/mc_stage.h) with test stages registered here
// (harness/tag_stage.h), no paper folder: requests cross the stages in list order and replies in
// the reverse order, whatever the order; a stage on one path only is skipped by the other; the
// partition's in()/out() are the chain's ends; stage summaries merge over partitions; and every
// bad stage configuration is a clear error naming what is known.
#include <algorithm>

#include <catch2/catch.hpp>

#include "common/address_map.h"
#include "common/payload_pool.h"
#include "common/stats.h"
#include "harness/scripted_initiator.h"
#include "harness/scripted_target.h"
#include "harness/tag_stage.h"
#include "mem/memory_partition.h"

using namespace gpusc;
using P = MemoryPartition::Params;
using tb::TagStage;

namespace {

constexpr unsigned kSm = 5;

// Stage types "a" (tag 1), "b" (tag 2), "q" (tag 3, request path only), "r" (tag 4, reply
// path only) and "n" (tag 5, on neither path: a stage that works through the L2's hook points):
// one TagStage type, told apart by the parameters the partition hands each name.
McStageRegistry test_stages(std::vector<TagStage::Pass>* log) {
  McStageRegistry r;
  for (const char* n : {"a", "b", "q", "r", "n"}) r.add(n, TagStage::entry(log));
  return r;
}

P chain(std::vector<std::string> names) {
  P p;
  p.stages = std::move(names);
  p.stage_params = {{"a", {{"tag", 1}}},
                    {"b", {{"tag", 2}}},
                    {"q", {{"tag", 3}, {"replies", false}}},
                    {"r", {{"tag", 4}, {"requests", false}}},
                    {"n", {{"tag", 5}, {"requests", false}, {"replies", false}}}};
  for (auto it = p.stage_params.begin(); it != p.stage_params.end();)  // only the listed ones
    it = std::find(p.stages.begin(), p.stages.end(), it.key()) == p.stages.end() ? p.stage_params.erase(it) : ++it;
  return p;
}

// One partition between a scripted NI request side and a scripted NI reply side.
struct ChainBench : sc_core::sc_module {
  ClockDomain core{"core", 1400.0};
  ClockDomain dram_clk{"dram_clk", 924.0};
  AddressMap map{1};
  PayloadPool pool{64};
  std::vector<TagStage::Pass> log;
  tb::ScriptedInitiator noc{"noc", core, pool};
  MemoryPartition mc;
  tb::ScriptedTarget ni;
  std::vector<std::pair<uint64_t, uint64_t>> at_l2;  // (pc, cycle) of each request the L2 took

  ChainBench(sc_core::sc_module_name n, const P& p)
      : sc_core::sc_module(n), mc("mc", p, core, dram_clk, 0, map, test_stages(&log)), ni("ni", core, 8) {
    noc.out.bind(mc.in());
    mc.out().bind(ni.in);
    if (&mc.in() != &mc.l2().up_in)
      mc.l2().up_in.set_tap([this](tlm::tlm_generic_payload& gp) {
        at_l2.emplace_back(gp.get_extension<MemExt>()->pc, core.now());
      });
  }
  void read(uint64_t cycle, uint64_t address) {
    noc.at(cycle, [=](tlm::tlm_generic_payload& gp, MemExt& e) {
      e.kind = MemKind::Read;
      e.src = kSm;
      e.dst = 0;
      e.pc = 0;
      e.word_mask = 0xffffffffu;
      gp.set_command(tlm::TLM_READ_COMMAND);
      gp.set_address(address);
      gp.set_data_length(128);
    });
  }
  void run_to(uint64_t cycle) { sc_core::sc_start(core.time_of(cycle) - sc_core::sc_time_stamp()); }
  // Stage names in the order the log saw them for the request (reply) of `address`.
  std::string passes(uint64_t address, bool reply) const {
    std::string s;
    uint64_t last = 0;
    for (const auto& x : log)
      if (x.address == address && x.reply == reply) {
        CHECK(x.cycle >= last);  // a stage further along sees the message no earlier
        last = x.cycle;
        s += x.stage;
      }
    return s;
  }
};

// Two reads (an L2 miss, then a hit to the same line), through chain `names`: the L2 must see
// pc `l2_pc`, the NI `ni_pc`, and the stages the request and reply orders given.
void check_chain(const std::vector<std::string>& names, uint64_t l2_pc, uint64_t ni_pc, const std::string& req_order,
                 const std::string& rep_order) {
  ChainBench b("b", chain(names));
  REQUIRE(b.mc.stage_count() == names.size());
  for (size_t i = 0; i < names.size(); ++i) CHECK(b.mc.stage(names[i]) == &b.mc.stage(i));
  b.read(10, 0x0);
  b.read(600, 0x0);
  b.run_to(1200);

  REQUIRE(b.at_l2.size() == 2);
  REQUIRE(b.ni.arrivals().size() == 2);
  for (unsigned i = 0; i < 2; ++i) {
    INFO("read " << i);
    CHECK(b.at_l2[i].first == l2_pc);
    CHECK(b.ni.arrivals()[i].ext.pc == ni_pc);
    CHECK(b.ni.arrivals()[i].ext.is_reply);
  }
  // The request of the first read: the order, and one register stage per request stage.
  CHECK(b.passes(0x0, false) == req_order + req_order);
  CHECK(b.passes(0x0, true) == rep_order + rep_order);
  CHECK(b.at_l2[0].second == 10 + req_order.size());  // the L2 takes it when the last stage sends
  // The hit: 120 cycles in the L2 after its latch, then one cycle per reply stage.
  CHECK(b.ni.arrivals()[1].cycle == 600 + req_order.size() + 1 + 120 + rep_order.size());
  CHECK(b.mc.idle());
  CHECK(b.pool.in_use() == 0);
  CHECK(collect_stats()["stats"]["b.mc.request_latency"].is_number());
  CHECK(collect_stats()["invariant_failures"].empty());
}

}  // namespace

TEST_CASE("MemoryPartition stages: with no stage, in() and out() are the L2's own ports", "[partition][stages]") {
  ChainBench b("b", P{});
  CHECK(b.mc.stage_count() == 0);
  CHECK(&b.mc.in() == &b.mc.l2().up_in);
  CHECK(&b.mc.out() == &b.mc.l2().up_out);
  CHECK(b.mc.stage("a") == nullptr);
}

TEST_CASE("MemoryPartition stages: chain [a, b]: requests cross a then b, replies b then a", "[partition][stages]") {
  // pc: 0 -> a: 1 -> b: 12 at the L2 -> b: 122 -> a: 1221 at the NI.
  check_chain({"a", "b"}, 12, 1221, "ab", "ba");
}

TEST_CASE("MemoryPartition stages: chain [b, a]: requests cross b then a, replies a then b", "[partition][stages]") {
  check_chain({"b", "a"}, 21, 2112, "ba", "ab");
}

TEST_CASE("MemoryPartition stages: a stage on one path only is skipped by the other", "[partition][stages]") {
  // q: requests only (tag 3), r: replies only (tag 4). Chain [q, a, r]: requests q, a; replies r, a.
  check_chain({"q", "a", "r"}, 31, 3141, "qa", "ra");
}

TEST_CASE("MemoryPartition stages: a stage on neither path is in the chain and on no message path",
          "[partition][stages]") {
  // n: no ports (works through the L2's hook points). Chain [n, a] behaves as [a] alone.
  check_chain({"n", "a"}, 1, 11, "a", "a");
}

TEST_CASE("MemoryPartition stages: the MC stall is the reply stage nearest the NI", "[partition][stages]") {
  // Chain [q, a]: q is not on the reply path, so a's out() is the partition's out() and its
  // stall the MC stall. The NI (8 entries) takes nothing until cycle 2000: of 12 replies, the
  // 9th waits at a's out().
  ChainBench b("b", chain({"q", "a"}));
  CHECK(&b.mc.out() == b.mc.stage("a")->out());
  CHECK(&b.mc.in() == b.mc.stage("q")->in());
  b.ni.stall_until(2000);
  for (unsigned i = 0; i < 12; ++i) b.read(10 + i, 0x200 * i);
  b.run_to(3000);
  REQUIRE(b.ni.arrivals().size() == 12);
  CHECK(b.mc.stage("a")->stall_cycles() > 0);
  CHECK(b.mc.mc_stall_cycles() == b.mc.stage("a")->stall_cycles());
  CHECK(b.mc.stage("q")->stall_cycles() == 0);
  CHECK(b.mc.idle());
}

TEST_CASE("MemoryPartition stages: stage summaries merge over the partitions", "[partition][stages]") {
  ClockDomain core{"core", 1400.0}, dram_clk{"dram_clk", 924.0};
  AddressMap map{2};
  PayloadPool pool{64};
  McStageRegistry reg = test_stages(nullptr);
  tb::ScriptedInitiator noc0{"noc0", core, pool}, noc1{"noc1", core, pool};
  MemoryPartition mc0("mc0", chain({"a", "b"}), core, dram_clk, 0, map, reg);
  MemoryPartition mc1("mc1", chain({"a", "b"}), core, dram_clk, 1, map, reg);
  tb::ScriptedTarget ni0{"ni0", core, 8}, ni1{"ni1", core, 8};
  noc0.out.bind(mc0.in());
  noc1.out.bind(mc1.in());
  mc0.out().bind(ni0.in);
  mc1.out().bind(ni1.in);
  auto read = [](tb::ScriptedInitiator& noc, uint64_t cycle, uint64_t address) {
    noc.at(cycle, [=](tlm::tlm_generic_payload& gp, MemExt& e) {
      e.kind = MemKind::Read;
      e.src = kSm;
      gp.set_command(tlm::TLM_READ_COMMAND);
      gp.set_address(address);
      gp.set_data_length(128);
    });
  };
  read(noc0, 10, 0x0);
  read(noc0, 20, 0x200);
  read(noc1, 10, 0x100);
  sc_core::sc_start(core.time_of(1000));
  REQUIRE(ni0.arrivals().size() == 2);
  REQUIRE(ni1.arrivals().size() == 1);

  json s = json::object();
  MemoryPartition::summarize_stages(s, {&mc0, &mc1});
  // Each read crosses a and b twice (request and reply): 3 reads, 6 passes per stage name.
  CHECK(s == json{{"a_messages", 6}, {"b_messages", 6}});
  json none = json::object();
  MemoryPartition::summarize_stages(none, {});
  CHECK(none.empty());
}

TEST_CASE("MemoryPartition stages: an unknown stage is an error naming the registered ones", "[partition][stages][config]") {
  ClockDomain core{"core", 1400.0}, dram_clk{"dram_clk", 924.0};
  AddressMap map{1};
  P p = chain({"a", "pcux"});
  REQUIRE_THROWS_WITH(MemoryPartition("mc", p, core, dram_clk, 0, map, test_stages(nullptr)),
                      Catch::Contains("unknown memory-partition stage 'pcux' in mc.stages") &&
                          Catch::Contains("known stages: a, b, n, q, r"));
  // Without a registry (the default argument), no stage is known.
  REQUIRE_THROWS_WITH(MemoryPartition("mc2", chain({"a"}), core, dram_clk, 0, map),
                      Catch::Contains("unknown memory-partition stage 'a'") &&
                          Catch::Contains("none (this registry is empty)"));
}

TEST_CASE("MemoryPartition stages: bad stage configurations are clear errors", "[partition][stages][config]") {
  const McStageRegistry reg = test_stages(nullptr);
  auto load = [&](const P& p) { return P::with_stage_defaults(p, reg, "mc"); };

  // The effective parameters: defaults filled in, for listed stages only.
  P ok = chain({"b"});
  const P eff = load(ok);
  CHECK(eff.stage_params == json{{"b", {{"tag", 2}, {"requests", true}, {"replies", true}, {"depth", 2}, {"spin", false}}}});
  ok.stage_params = json::object();
  CHECK(load(ok).stage_params == json{{"b", {{"tag", 1}, {"requests", true}, {"replies", true}, {"depth", 2}, {"spin", false}}}});

  P twice = chain({"a", "a"});
  REQUIRE_THROWS_WITH(load(twice), Catch::Contains("stage 'a' is listed twice in mc.stages"));

  P stray = chain({"a"});
  stray.stage_params["b"] = {{"tag", 2}};
  REQUIRE_THROWS_WITH(load(stray), Catch::Contains("mc.stage_params.b configures a stage that is not in mc.stages (a)"));

  P bad_key = chain({"a"});
  bad_key.stage_params["a"]["bogus"] = 1;
  REQUIRE_THROWS_WITH(load(bad_key), Catch::Contains("unknown parameter 'mc.stage_params.a.bogus'") &&
                                         Catch::Contains("known keys: tag, requests, replies, depth"));

  P bad_value = chain({"a"});
  bad_value.stage_params["a"]["tag"] = 12;
  REQUIRE_THROWS_WITH(load(bad_value), Catch::Contains("'mc.stage_params.a.tag' = 12 is out of range"));

  McStageRegistry r2;
  r2.add("a", TagStage::entry());
  REQUIRE_THROWS_WITH(r2.add("a", TagStage::entry()), Catch::Contains("stage 'a' is added twice"));
  REQUIRE_THROWS_WITH(r2.add("z", {"no functions", {}, {}}), Catch::Contains("without a parameter or a build function"));
  CHECK(r2.names() == std::vector<std::string>{"a"});
}

TEST_CASE("MemoryPartition stages: the stages and their parameters are configuration keys", "[partition][stages][config]") {
  // Loaded from JSON like every other key; a stage_params key merges, so one key changes one key.
  const json j = {{"stages", {"b", "a"}}, {"stage_params", {{"a", {{"depth", 4}}}}}};
  P p = params_from_json<P>(j, "mc");
  CHECK(p.stages == std::vector<std::string>{"b", "a"});
  p = params_from_json<P>(json{{"stage_params", {{"a", {{"tag", 3}}}}}}, "mc", p);
  CHECK(p.stage_params == json{{"a", {{"depth", 4}, {"tag", 3}}}});
  REQUIRE_THROWS_WITH(params_from_json<P>(json{{"stage_params", {"a"}}}, "mc"),
                      Catch::Contains("'mc.stage_params' must be a JSON object"));
}
