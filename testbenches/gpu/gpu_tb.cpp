// GPU blocks and the platform (gpu/): the node numbering; a block's node layout with a boundary;
// two blocks joined by a request link and a reply link under a first-touch page map, where every
// request that leaves a block is one whose page the other block owns, every one comes back as
// exactly one reply, and every load is answered once; contiguous CTA groups keep each group's
// CTAs on its own block; the summary adds up over blocks; configuration errors.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "common/first_touch_page_mapper.h"
#include "common/fine_interleave_mapper.h"
#include "common/payload_pool.h"
#include "common/stats.h"
#include "gpu/gpu_block.h"
#include "gpu/node_numbering.h"
#include "gpu/platform.h"
#include "harness/scripted_initiator.h"
#include "harness/scripted_target.h"
#include "noc/bandwidth_link.h"
#include "workload/workload_factory.h"

using namespace gpusc;

TEST_CASE("NodeNumbering: blocks get consecutive ids, partitions follow in order", "[gpu]") {
  NodeNumbering ids;
  CHECK(ids.add_block(5) == 0);
  CHECK(ids.add_partition(3) == 0);
  CHECK(ids.add_block(7) == 5);
  CHECK(ids.add_partition(5 + 6) == 1);
  CHECK(ids.nodes() == 12);
  CHECK(ids.blocks() == 2);
  CHECK(ids.partition_node(1, "t") == 11);
  REQUIRE_THROWS_WITH(ids.partition_node(2, "t"), Catch::Contains("memory partition 2 but the platform has 2"));
  REQUIRE_THROWS_WITH(ids.add_partition(12), Catch::Contains("only 12 nodes"));
  REQUIRE_THROWS_WITH(ids.add_block(0), Catch::Contains("at least one node"));
}

namespace {

// Two GPUs of 3 SMs and 2 MCs on a crossbar (the `boundaries` boundary ports last), joined by a
// request and a reply link; pages first-touch, CTAs in one contiguous group per GPU.
struct TwoGpus {
  static GpuBlock::Params block(unsigned boundaries, bool separate_mesh) {
    GpuBlock::Params p;
    p.sms = 3, p.mcs = 2, p.boundary = true, p.boundary_nodes = boundaries;
    p.noc.topology = "crossbar", p.noc.k = p.nodes();
    if (separate_mesh) {  // a k x 1 mesh of two physical networks, one class each
      p.noc.topology = "mesh", p.noc.m = 1;
      p.network = "separate", p.noc.router.vnets = 1;
    }
    return p;
  }
  explicit TwoGpus(unsigned boundaries = 1, bool separate_mesh = false)
      : g0{"gpu0", block(boundaries, separate_mesh), {{core, noc, dram}, pages, ids, stages, 0}},
        g1{"gpu1", block(boundaries, separate_mesh), {{core, noc, dram}, pages, ids, stages, 1}},
        platform(core, *wl, {&g0, &g1}, cta()) {
    for (auto [l, c] : {std::pair{&req, GpuBlock::kRequest}, std::pair{&rep, GpuBlock::kReply}}) {
      g0.out(c).bind(l->a_in);
      l->a_out.bind(g0.in(c));
      g1.out(c).bind(l->b_in);
      l->b_out.bind(g1.in(c));
    }
  }
  ClockDomain core{"core_clk", 1000}, noc{"noc_clk", 1000}, dram{"dram_clk", 924};
  FirstTouchPageMapper pages{{{0, 1}, {2, 3}}, 4096, 256};
  NodeNumbering ids;
  McStageRegistry stages;
  GpuBlock g0, g1;
  noc::BandwidthLink req{"req_link", link(), core}, rep{"rep_link", link(), core};
  std::unique_ptr<Workload> wl = make_workload("stencil2d", {{"rows", 48}, {"cols", 48}, {"iterations", 2}}, 1);
  Platform platform;

  static noc::BandwidthLink::Params link() {
    noc::BandwidthLink::Params p;
    p.bytes_per_cycle = 32;
    p.latency = 10;
    return p;
  }
  // Observers counting line requests the SMs of block b issue and the replies they get.
  uint64_t loads[2] = {0, 0}, answers[2] = {0, 0};
  GpuBlock::Observers counting(unsigned b) {
    GpuBlock::Observers o;
    o.sm_request = [this, b](unsigned, const tlm::tlm_generic_payload&) { ++loads[b]; };
    o.sm_reply = [this, b](unsigned, const tlm::tlm_generic_payload&) { ++answers[b]; };
    return o;
  }
  static CtaScheduler::Params cta() {
    CtaScheduler::Params p;
    p.policy = "contiguous-groups";
    return p;
  }
};

}  // namespace

TEST_CASE("GpuBlock: two blocks joined by links, requests cross exactly for the other block's pages",
          "[gpu]") {
  TwoGpus t;
  // Layout: a crossbar puts SMs first, then MCs, the boundary last; the second block's ids
  // follow the first's.
  CHECK(t.g0.base() == 0);
  CHECK(t.g1.base() == 6);
  CHECK(t.g0.sm_node(2) == 2);
  CHECK(t.g0.mc_node(0) == 3);
  CHECK(t.g0.boundary_node() == 5);
  CHECK(t.g1.sm_node(0) == 6);
  CHECK(t.g1.mc_node(1) == 10);
  CHECK(t.g1.first_partition() == 2);
  CHECK(t.ids.partition_node(3, "t") == 10);

  // Every request an SM injects, by the block its destination lies in; every load answered once.
  uint64_t leaving[2] = {0, 0}, loads[2] = {0, 0}, answers[2] = {0, 0};
  std::set<const tlm::tlm_generic_payload*> open[2];
  std::vector<std::string> errors;
  for (unsigned b = 0; b < 2; ++b) {
    GpuBlock& g = b ? t.g1 : t.g0;
    GpuBlock::Observers o;
    o.injected = [&, b](unsigned node, const tlm::tlm_generic_payload& gp) {
      const MemExt& e = mem_ext(const_cast<tlm::tlm_generic_payload&>(gp), "test");
      if (e.is_reply) return;
      CHECK(node == e.src);
      const unsigned owner = e.dst < 6 ? 0u : 1u;
      // The L1 routed to the partition that owns the page (first touch), in platform ids.
      CHECK(e.dst == t.ids.partition_node(t.pages.partition(gp.get_address()), "test"));
      if (owner != b) ++leaving[b];
    };
    o.sm_request = [&, b](unsigned, const tlm::tlm_generic_payload& gp) {
      if (!open[b].insert(&gp).second) errors.push_back("request issued twice");
      ++loads[b];
    };
    o.sm_reply = [&, b](unsigned, const tlm::tlm_generic_payload& gp) {
      if (!open[b].erase(&gp)) errors.push_back("reply without request");
      ++answers[b];
    };
    g.set_observers(o);
  }
  REQUIRE(t.platform.run(5000000));
  CHECK(errors.empty());
  CHECK(open[0].empty());
  CHECK(open[1].empty());
  CHECK(loads[0] == answers[0]);
  CHECK(loads[1] == answers[1]);
  CHECK(loads[0] > 0);
  CHECK(loads[1] > 0);
  // The request link carried exactly the requests for the other block's pages, each direction,
  // and the reply link one reply for each (write acks included).
  CHECK(leaving[0] > 0);
  CHECK(leaving[1] > 0);
  CHECK(t.req.delivered(noc::BandwidthLink::kAtoB) == leaving[0]);
  CHECK(t.req.delivered(noc::BandwidthLink::kBtoA) == leaving[1]);
  CHECK(t.rep.delivered(noc::BandwidthLink::kBtoA) == leaving[0]);
  CHECK(t.rep.delivered(noc::BandwidthLink::kAtoB) == leaving[1]);
  // Both GPUs own pages.
  CHECK(t.pages.pages_of(0) > 0);
  CHECK(t.pages.pages_of(1) > 0);
}

TEST_CASE("Platform: contiguous CTA groups run each group on its own block, the summary adds up", "[gpu]") {
  TwoGpus t;
  // CTA c of a kernel with n CTAs belongs to group 0 when c < ceil(n / 2) (ContiguousSplit).
  std::map<unsigned, std::set<unsigned>> block_of_cta;  // cta -> blocks that ran it
  unsigned max_cta = 0;
  for (unsigned b = 0; b < 2; ++b)
    for (unsigned i = 0; i < 3; ++i)
      (b ? t.g1 : t.g0).sm(i).core().add_cta_done_listener([&, b](SmCore&, unsigned cta) {
        block_of_cta[cta].insert(b);
        max_cta = std::max(max_cta, cta);
      });
  REQUIRE(t.platform.run(5000000));
  const unsigned n = max_cta + 1, first = (n + 1) / 2;  // the same grid every launch (stencil)
  REQUIRE(n == 9);  // 48 x 48 in 16 x 16 tiles
  for (const auto& [cta, blocks] : block_of_cta) {
    INFO("CTA " << cta);
    CHECK(blocks == std::set<unsigned>{cta < first ? 0u : 1u});
  }
  const json s = t.platform.summary();
  const json stats = collect_stats().at("stats");
  double instr = 0;
  for (const char* g : {"gpu0", "gpu1"})
    for (unsigned i = 0; i < 3; ++i)
      instr += stats.at(std::string(g) + ".sm_" + std::to_string(i) + ".core.thread_instructions").get<double>();
  CHECK(instr > 0);
  CHECK(s.at("thread_instructions").get<double>() == instr);
  CHECK(s.at("cycles").get<uint64_t>() == t.platform.cycles());
  CHECK(s.at("request_packets").get<uint64_t>() == t.g0.requests_injected() + t.g1.requests_injected());
}

TEST_CASE("Platform: a mechanism's summary lines appear, the platform names none", "[gpu]") {
  TwoGpus t;
  t.platform.add_summary([](json& s) { s["widget_hits"] = 7; });
  REQUIRE(t.platform.run(5000000));
  CHECK(t.platform.summary().at("widget_hits") == 7);
  CHECK(t.platform.mechanism_summary() == json{{"widget_hits", 7}});
}

TEST_CASE("GpuBlock: a request for another block's partition without a boundary is an error", "[gpu]") {
  ClockDomain core{"core_clk", 1000}, noc{"noc_clk", 1000}, dram{"dram_clk", 924};
  FineInterleaveMapper map(4, 256);  // partitions 2 and 3 are the second block's
  NodeNumbering ids;
  McStageRegistry stages;
  GpuBlock::Params p;
  p.sms = 2, p.mcs = 2;
  p.noc.topology = "crossbar", p.noc.k = 4;
  GpuBlock g0("gpu0", p, {{core, noc, dram}, map, ids, stages, 0});
  GpuBlock g1("gpu1", p, {{core, noc, dram}, map, ids, stages, 0});
  auto wl = make_workload("transpose", {{"size", "small"}}, 1);
  Platform platform(core, *wl, {&g0, &g1}, CtaScheduler::Params{});
  REQUIRE_THROWS_WITH(platform.run(1000000), Catch::Contains("outside this network's block, and the block has no boundary"));
}

TEST_CASE("GpuBlock: boundary ports and node counts are checked", "[gpu]") {
  ClockDomain core{"core_clk", 1000}, noc{"noc_clk", 1000}, dram{"dram_clk", 924};
  FineInterleaveMapper map(2, 256);
  NodeNumbering ids;
  McStageRegistry stages;
  GpuBlock::Params p;
  p.sms = 2, p.mcs = 2;
  p.noc.topology = "crossbar", p.noc.k = 4;
  GpuBlock g("gpu", p, {{core, noc, dram}, map, ids, stages, 0});
  REQUIRE_THROWS_WITH(g.out(GpuBlock::kRequest), Catch::Contains("no boundary node"));
  p.boundary = true;  // now 5 nodes on a 4-port crossbar
  REQUIRE_THROWS_WITH(GpuBlock("gpu2", p, {{core, noc, dram}, map, ids, stages, 0}),
                      Catch::Contains("a crossbar of 4 ports cannot connect sms + mcs + boundary_nodes = 5 nodes"));
  p.noc.topology = "mesh", p.noc.k = 2, p.noc.m = 2;
  REQUIRE_THROWS_WITH(GpuBlock("gpu3", p, {{core, noc, dram}, map, ids, stages, 0}),
                      Catch::Contains("a 2x2 mesh has 4 nodes but sms + mcs + boundary_nodes = 5"));
}

TEST_CASE("GpuBlock: on a mesh the boundary is the highest node no MC sits on", "[gpu]") {
  ClockDomain core{"core_clk", 1000}, noc{"noc_clk", 1000}, dram{"dram_clk", 924};
  FineInterleaveMapper map(3, 256);
  NodeNumbering ids;
  McStageRegistry stages;
  GpuBlock::Params p;  // 3x3 mesh, MCs on the bottom row (nodes 0, 1, 2): boundary 8, SMs 3-7
  p.sms = 5, p.mcs = 3, p.boundary = true;
  p.noc.k = 3, p.noc.m = 3;
  GpuBlock g("gpu", p, {{core, noc, dram}, map, ids, stages, 0});
  CHECK(g.boundary_node() == 8);
  for (unsigned i = 0; i < 5; ++i) CHECK(g.sm_node(i) == 3 + i);
  std::set<unsigned> mcs{g.mc_node(0), g.mc_node(1), g.mc_node(2)};
  CHECK(mcs == std::set<unsigned>{0, 1, 2});
}

TEST_CASE("GpuBlock: on a mesh several boundary nodes spread over the nodes no MC sits on", "[gpu]") {
  ClockDomain core{"core_clk", 1000}, noc{"noc_clk", 1000}, dram{"dram_clk", 924};
  FineInterleaveMapper map(3, 256);
  NodeNumbering ids;
  McStageRegistry stages;
  GpuBlock::Params p;  // 3x3 mesh, MCs on the bottom row (0, 1, 2); the rest 3..8, every second one
  p.sms = 3, p.mcs = 3, p.boundary = true, p.boundary_nodes = 3;
  p.noc.k = 3, p.noc.m = 3;
  GpuBlock g("gpu", p, {{core, noc, dram}, map, ids, stages, 0});
  CHECK(g.boundary_count() == 3);
  CHECK(g.boundary_node(0) == 4);
  CHECK(g.boundary_node(1) == 6);
  CHECK(g.boundary_node(2) == 8);
  CHECK(g.sm_node(0) == 3);
  CHECK(g.sm_node(1) == 5);
  CHECK(g.sm_node(2) == 7);
  REQUIRE_THROWS_WITH(g.boundary_node(3), Catch::Contains("boundary node 3 asked for, but the block has 3"));
}

TEST_CASE("GpuBlock: with 2 boundary nodes each message leaves and enters by the node its destination names",
          "[gpu]") {
  TwoGpus t(2);
  // Crossbar: SMs 0-2, MCs 3-4 (partitions 0, 1), boundaries 5-6; the second block from 7 (MCs
  // 10, 11: partitions 2, 3). Rule: partition p -> boundary p mod 2, any other id -> its rank
  // among the ids that are no partition, mod 2 (ids 0-2 rank 0-2, 5-9 rank 3-7, 12-13 rank 8-9).
  CHECK(t.g0.boundary_node(0) == 5);
  CHECK(t.g0.boundary_node(1) == 6);
  CHECK(t.g1.base() == 7);
  CHECK(t.ids.partition_node(2, "t") == 10);
  const auto boundary_of = [&](unsigned id) {
    unsigned rank = 0;
    for (unsigned p = 0; p < 4; ++p)
      if (t.ids.partition_node(p, "t") == id) return p % 2;
    for (unsigned d = 0; d < id; ++d) {
      bool part = false;
      for (unsigned p = 0; p < 4; ++p) part = part || t.ids.partition_node(p, "t") == d;
      rank += !part;
    }
    return rank % 2;
  };
  // Expected per boundary node, from what the SMs and MCs inject: [block][class][boundary].
  uint64_t leave[2][2][2] = {}, enter[2][2][2] = {};
  for (unsigned b = 0; b < 2; ++b) {
    GpuBlock::Observers o = t.counting(b);
    o.injected = [&, b](unsigned, const tlm::tlm_generic_payload& gp) {
      const MemExt& e = mem_ext(const_cast<tlm::tlm_generic_payload&>(gp), "test");
      const unsigned owner = e.dst < 7 ? 0u : 1u, c = e.is_reply ? 1u : 0u;
      if (owner == b) return;
      ++leave[b][c][boundary_of(e.dst)];
      ++enter[owner][c][boundary_of(e.dst)];
    };
    (b ? t.g1 : t.g0).set_observers(o);
  }
  REQUIRE(t.platform.run(5000000));
  CHECK(t.loads[0] == t.answers[0]);
  CHECK(t.loads[1] == t.answers[1]);
  uint64_t crossed[2][2] = {};  // [from block][class]
  for (unsigned b = 0; b < 2; ++b) {
    GpuBlock& g = b ? t.g1 : t.g0;
    for (unsigned c = 0; c < 2; ++c)
      for (unsigned k = 0; k < 2; ++k) {
        INFO("block " << b << " class " << c << " boundary " << k);
        noc::NetworkInterface& ni = g.request_net().ni(g.boundary_node(k));
        CHECK(leave[b][c][k] > 0);  // every boundary node carried each class both ways
        CHECK(enter[b][c][k] > 0);
        CHECK(ni.out[c].sent() == leave[b][c][k]);
        CHECK(ni.in[c].received() == enter[b][c][k]);
        crossed[b][c] += leave[b][c][k];
      }
  }
  CHECK(t.req.delivered(noc::BandwidthLink::kAtoB) == crossed[0][0]);
  CHECK(t.req.delivered(noc::BandwidthLink::kBtoA) == crossed[1][0]);
  CHECK(t.rep.delivered(noc::BandwidthLink::kAtoB) == crossed[0][1]);
  CHECK(t.rep.delivered(noc::BandwidthLink::kBtoA) == crossed[1][1]);
  CHECK(t.g0.request_net().packets_in_flight() == 0);
  CHECK(t.g1.request_net().packets_in_flight() == 0);
}

TEST_CASE("GpuBlock: on a mesh of separate networks 2 boundary nodes bring traffic in on its own virtual network",
          "[gpu]") {
  // 7 x 1 meshes (3 SMs, 2 MCs, 2 boundary nodes): with several boundary nodes on a mesh, what
  // enters the block travels on vnet 1 of each network (gpu/gpu_block.h), what leaves on vnet 0.
  TwoGpus t(2, true);
  t.g0.set_observers(t.counting(0));
  t.g1.set_observers(t.counting(1));
  REQUIRE(t.platform.run(5000000));
  CHECK(t.loads[0] > 0);
  CHECK(t.loads[0] == t.answers[0]);
  CHECK(t.loads[1] == t.answers[1]);
  for (unsigned b = 0; b < 2; ++b) {
    GpuBlock& g = b ? t.g1 : t.g0;
    REQUIRE(g.separate_reply_net());
    uint64_t in_req = 0, in_rep = 0, out_req = 0, out_rep = 0;
    for (unsigned k = 0; k < 2; ++k) {
      INFO("block " << b << " boundary " << k);
      auto& rq = g.request_net().ni(g.boundary_node(k));
      auto& rp = g.reply_net().ni(g.boundary_node(k));
      CHECK(rq.in[1].received() > 0);  // requests entering
      CHECK(rp.in[1].received() > 0);  // replies entering
      CHECK(rq.out[0].sent() > 0);     // requests leaving
      CHECK(rp.out[0].sent() > 0);     // replies leaving
      in_req += rq.in[1].received(), in_rep += rp.in[1].received();
      out_req += rq.out[0].sent(), out_rep += rp.out[0].sent();
    }
    CHECK(in_req == out_rep);  // every request that entered was answered back out
    CHECK(out_req == in_rep);  // every request that left came back answered
  }
  CHECK(t.req.delivered(noc::BandwidthLink::kAtoB) + t.req.delivered(noc::BandwidthLink::kBtoA) > 0);
}

TEST_CASE("GpuBlock: alone with 2 boundary nodes it serves a request that enters from outside", "[gpu]") {
  // One block numbered from 0 (no node map): a request from an outside agent enters at
  // in(kRequest), is split to a boundary node, served by the partition, and its reply (to a
  // boundary node's id, as an L1.5 or RDMA cache sends) leaves at out(kReply). The split's
  // table of which boundary node an id uses must exist here too (it used to be built only with
  // a node map: the request stopped with "a message for id 3 arrived at the boundary").
  ClockDomain core{"core_clk", 1000}, noc{"noc_clk", 1000}, dram{"dram_clk", 924};
  FineInterleaveMapper map(2, 256);
  NodeNumbering ids;
  McStageRegistry stages;
  GpuBlock::Params p;
  p.sms = 2, p.mcs = 2, p.boundary = true, p.boundary_nodes = 2;
  p.noc.topology = "crossbar", p.noc.k = p.nodes();  // SMs 0-1, MCs 2-3, boundaries 4-5
  GpuBlock g("gpu", p, {{core, noc, dram}, map, ids, stages, 0});
  PayloadPool pool{8};
  tb::ScriptedInitiator agent("agent", core, pool), quiet("quiet", core, pool);
  tb::ScriptedTarget replies("replies", core), requests("requests", core);
  agent.out.bind(g.in(GpuBlock::kRequest));
  g.out(GpuBlock::kReply).bind(replies.in);
  quiet.out.bind(g.in(GpuBlock::kReply));
  g.out(GpuBlock::kRequest).bind(requests.in);
  const unsigned to = g.mc_node(1), from = g.boundary_node(1);
  agent.at(0, [&](tlm::tlm_generic_payload& gp, MemExt& e) {
    gp.set_address(0x100);  // 256 B chunks over 2 partitions: partition 1
    gp.set_command(tlm::TLM_READ_COMMAND);
    gp.set_data_length(128);
    e.kind = MemKind::Read;
    e.src = from;
    e.dst = to;
  });
  sc_core::sc_start(core.time_of(5000));
  REQUIRE(replies.arrivals().size() == 1);
  CHECK(replies.arrivals()[0].address == 0x100);
  CHECK(replies.arrivals()[0].ext.is_reply);
  CHECK(replies.arrivals()[0].ext.dst == from);
  CHECK(requests.arrivals().empty());
}

TEST_CASE("Platform: 256 SMs in four 64-SM blocks joined by a 4-port fabric network build and run", "[gpu]") {
  // Nothing in a block caps the platform at 255 SMs or 256 nodes: each block's mesh has 72
  // nodes (64 SMs, 7 MCs, the boundary), platform ids run to 288, and a 4-port crossbar whose
  // NodeMap sends every id to its block's port joins the boundaries (requests on vnet 0,
  // replies on vnet 1).
  ClockDomain core{"core_clk", 1000}, noc{"noc_clk", 1000}, dram{"dram_clk", 924};
  FineInterleaveMapper map(28, 256);
  NodeNumbering ids;
  McStageRegistry stages;
  GpuBlock::Params p;
  p.sms = 64, p.mcs = 7, p.boundary = true;
  p.noc.k = 8, p.noc.m = 9;
  std::vector<std::unique_ptr<GpuBlock>> blocks;
  std::vector<GpuBlock*> ptrs;
  for (unsigned b = 0; b < 4; ++b) {
    blocks.push_back(std::make_unique<GpuBlock>(("gpm" + std::to_string(b)).c_str(), p,
                                                GpuBlock::Context{{core, noc, dram}, map, ids, stages, b}));
    ptrs.push_back(blocks.back().get());
  }
  noc::Network::Params fp;
  fp.topology = "crossbar", fp.k = 4, fp.router.vnets = 2;
  noc::Network fabric("fabric", fp, noc);
  noc::NodeMap to_port;
  for (unsigned b = 0; b < 4; ++b) to_port.node.insert(to_port.node.end(), p.nodes(), b);
  fabric.set_node_map(to_port);
  for (unsigned b = 0; b < 4; ++b)
    for (GpuBlock::Class c : {GpuBlock::kRequest, GpuBlock::kReply}) {
      blocks[b]->out(c).bind(fabric.ni(b).in[c]);
      fabric.ni(b).out[c].bind(blocks[b]->in(c));
    }
  CHECK(ids.nodes() == 288);
  CHECK(blocks[3]->sm_node(63) > 255);
  auto wl = make_workload("transpose", {{"size", "small"}}, 1);
  Platform platform(core, *wl, ptrs, CtaScheduler::Params{});
  REQUIRE(platform.sm_count() == 256);
  REQUIRE(platform.run(2000000));
  // Three quarters of the partitions are in other blocks: the fabric carried requests and as many
  // replies (every transpose request, load or store, is answered once).
  uint64_t req = 0, rep = 0;
  for (unsigned b = 0; b < 4; ++b) {
    req += blocks[b]->requests_injected();
    rep += blocks[b]->replies_injected();
  }
  CHECK(req == rep);
  CHECK(fabric.flit_hops() > 0);
  CHECK(fabric.packets_in_flight() == 0);
}
