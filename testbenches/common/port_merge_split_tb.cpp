// PortMerge passes messages in the cycle they are offered and, under back-pressure, serves its
// held inputs round-robin; PortSplit routes each message to its port, keeps the input's order (a
// message for a busy port holds back those behind it) and loses nothing.
// Harness: ScriptedInitiator sends at its scripted cycle (one per cycle, waits while END_REQ is
// withheld); ScriptedTarget takes a message into its queue in the cycle it is offered and
// consumes one per cycle from the next (msg_port_tb.cpp gives the exact convention).
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "common/clock_domain.h"
#include "common/payload_pool.h"
#include "common/port_merge.h"
#include "common/port_split.h"
#include "harness/scripted_initiator.h"
#include "harness/scripted_target.h"

using namespace gpusc;
using Catch::Contains;

namespace {

// Message: src = sender, warp = its sequence number there, dst as given.
tb::ScriptedInitiator::Fill message(unsigned src, unsigned seq, unsigned dst = 0) {
  return [=](tlm::tlm_generic_payload& gp, MemExt& e) {
    gp.set_address(0x1000 * (src + 1) + seq);
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_data_length(4);
    e.kind = MemKind::Read;
    e.src = src;
    e.warp = seq;
    e.dst = dst;
  };
}

PortSplit::Route by_dst(unsigned n) {
  return [n](const tlm::tlm_generic_payload& gp) { return gp.get_extension<MemExt>()->dst % n; };
}

struct Merge {
  ClockDomain clk{"clk", 1000};
  PayloadPool pool{64};
  PortMerge merge{"merge", 3};
  std::vector<std::unique_ptr<tb::ScriptedInitiator>> ini;
  tb::ScriptedTarget tgt;
  explicit Merge(unsigned depth) : tgt("tgt", clk, depth) {
    for (unsigned j = 0; j < 3; ++j) {
      ini.push_back(std::make_unique<tb::ScriptedInitiator>(("ini" + std::to_string(j)).c_str(), clk, pool));
      ini[j]->out.bind(merge.in[j]);
    }
    merge.out.bind(tgt.in);
  }
};

struct Split {
  ClockDomain clk{"clk", 1000};
  PayloadPool pool{64};
  PortSplit split{"split", 3, by_dst(3)};
  tb::ScriptedInitiator ini{"ini", clk, pool};
  std::vector<std::unique_ptr<tb::ScriptedTarget>> tgt;
  explicit Split(std::vector<unsigned> depth) {
    ini.out.bind(split.in);
    for (unsigned j = 0; j < 3; ++j) {
      tgt.push_back(std::make_unique<tb::ScriptedTarget>(("tgt" + std::to_string(j)).c_str(), clk, depth[j]));
      split.out[j].bind(tgt[j]->in);
    }
  }
};

}  // namespace

TEST_CASE("PortMerge: merged messages pass in the cycle they are offered, each input in order") {
  Merge m(64);
  const uint64_t when[3][3] = {{0, 1, 5}, {0, 3, 4}, {2, 3, 9}};
  for (unsigned j = 0; j < 3; ++j)
    for (unsigned s = 0; s < 3; ++s) m.ini[j]->at(when[j][s], message(j, s));
  sc_core::sc_start();
  const auto& got = m.tgt.arrivals();
  REQUIRE(got.size() == 9);
  unsigned next[3] = {0, 0, 0};
  for (const auto& a : got) {
    const unsigned j = a.ext.src, s = a.ext.warp;
    INFO("input " << j << " message " << s);
    REQUIRE(j < 3);
    CHECK(s == next[j]++);               // in order, none lost or repeated
    CHECK(a.cycle == when[j][s]);        // no delay through the merge
    CHECK(m.ini[j]->sent()[s].accepted == when[j][s]);
  }
  CHECK(m.merge.out.stalls() == 0);
  CHECK(m.pool.in_use() == 0);
}

TEST_CASE("PortMerge: under back-pressure it serves held inputs round-robin, nothing lost") {
  Merge m(1);
  m.tgt.stall_until(20);
  for (unsigned j = 0; j < 3; ++j)
    for (unsigned s = 0; s < 5; ++s) m.ini[j]->at(0, message(j, s));
  sc_core::sc_start(m.clk.time_of(19));
  // The first message fills the target's queue, the second is held by the target (the merge
  // passed it on), every other input is refused and held in the merge.
  CHECK(m.tgt.occupancy() == 1);
  CHECK(m.tgt.in.has_pending());
  unsigned held = 0;
  for (unsigned j = 0; j < 3; ++j) held += m.merge.in[j].has_pending();
  CHECK(held == 3);
  sc_core::sc_start();
  const auto& got = m.tgt.arrivals();
  REQUIRE(got.size() == 15);
  unsigned next[3] = {0, 0, 0};
  for (size_t k = 0; k < got.size(); ++k) {
    INFO("arrival " << k << " from input " << got[k].ext.src);
    CHECK(got[k].ext.warp == next[got[k].ext.src]++);  // each input in order
    CHECK(got[k].consumed == 20 + k);                  // the target never idles once it runs
    if (k >= 1) CHECK(got[k].cycle == 19 + k);         // taken when the one before it left
    // Round-robin: while every input still has messages, any three in a row are one of each.
    if (k >= 1 && k + 2 < 14) {
      CHECK(got[k].ext.src != got[k + 1].ext.src);
      CHECK(got[k].ext.src != got[k + 2].ext.src);
      CHECK(got[k + 1].ext.src != got[k + 2].ext.src);
    }
  }
  for (unsigned j = 0; j < 3; ++j) CHECK(next[j] == 5);
  CHECK(m.pool.in_use() == 0);
}

TEST_CASE("PortSplit: it sends each message to its route's port in the cycle it is offered") {
  Split t({64, 64, 64});
  for (unsigned d = 0; d < 12; ++d) t.ini.at(d, message(0, d, d));
  sc_core::sc_start();
  for (unsigned j = 0; j < 3; ++j) {
    const auto& got = t.tgt[j]->arrivals();
    REQUIRE(got.size() == 4);
    for (unsigned k = 0; k < 4; ++k) {
      CHECK(got[k].ext.dst == j + 3 * k);
      CHECK(got[k].cycle == j + 3 * k);
    }
  }
  CHECK(t.pool.in_use() == 0);
}

TEST_CASE("PortSplit: a message for a busy port holds back the ones behind it, then all arrive") {
  Split t({64, 1, 64});
  t.tgt[1]->stall_until(30);
  for (unsigned d = 0; d < 9; ++d) t.ini.at(d, message(0, d, d));
  sc_core::sc_start();
  // dst 1 fills port 1's queue; dst 4 is passed on and held there (port 1 busy); dst 5 still
  // passes to port 2; dst 7 finds port 1 busy and waits in the split, and dst 8 behind it. At 30
  // port 1 consumes dst 1 and takes dst 4; the split then passes dst 7 (held by port 1) and the
  // initiator, freed, sends dst 8 at 31.
  const auto arrivals = [&](unsigned j) {
    std::vector<std::pair<unsigned, uint64_t>> v;
    for (const auto& a : t.tgt[j]->arrivals()) v.emplace_back(a.ext.dst, a.cycle);
    return v;
  };
  using V = std::vector<std::pair<unsigned, uint64_t>>;
  CHECK(arrivals(0) == V{{0, 0}, {3, 3}, {6, 6}});
  CHECK(arrivals(1) == V{{1, 1}, {4, 30}, {7, 31}});
  CHECK(arrivals(2) == V{{2, 2}, {5, 5}, {8, 31}});
  CHECK(t.ini.sent()[7].offered == 7);
  CHECK(t.ini.sent()[7].accepted == 30);
  CHECK(t.ini.sent()[8].offered == 31);
  CHECK(t.pool.in_use() == 0);
}

TEST_CASE("PortSplit and PortMerge: a route to a port that does not exist, or no ports, is an error") {
  struct Src : sc_core::sc_module {
    MsgOut out{"out"};
    explicit Src(sc_core::sc_module_name n) : sc_core::sc_module(n) {}
  };
  REQUIRE_THROWS_WITH(PortSplit("none", 0, by_dst(1)), Contains("at least one output"));
  REQUIRE_THROWS_WITH(PortMerge("nothing", 0), Contains("at least one input"));
  REQUIRE_THROWS_WITH(PortSplit("unrouted", 2, nullptr), Contains("needs a route"));
  ClockDomain clk{"clk", 1000};
  PayloadPool pool{4};
  PortSplit split("split", 2, [](const tlm::tlm_generic_payload&) { return 2u; });
  Src src("src");
  src.out.bind(split.in);
  tb::ScriptedTarget a("a", clk), b("b", clk);
  split.out[0].bind(a.in);
  split.out[1].bind(b.in);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  REQUIRE_THROWS_WITH(src.out.send(pool.acquire()), Contains("split") && Contains("port 2 of 2"));
}
