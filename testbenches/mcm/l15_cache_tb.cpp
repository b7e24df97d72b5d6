// L15Cache tests (paper 003 §5.1): a remote read misses, fetches the line from its home partition
// with the L1.5's own node id (one of its GPM's boundary ids, by line), and a second read of the
// line hits without leaving; writes go through (write-through, no allocate) with the SM's id; a
// flush invalidates and is counted once per call; a request for the GPM's own partition is an
// error (remote-only by construction); a write-back configuration is refused.
#include <catch2/catch.hpp>

#include <set>

#include "common/fine_interleave_mapper.h"
#include "common/payload_pool.h"
#include "gpu/node_numbering.h"
#include "harness/scripted_initiator.h"
#include "harness/scripted_target.h"
#include "mcm/l15_cache.h"

using namespace gpusc;

namespace {

// Two GPMs of 3 nodes (ids 0-2, 3-5); partition 0 at node 1 (GPM 0), partition 1 at node 4
// (GPM 1); 256 B interleave. The L1.5 is GPM 0's, node 2 (its boundary).
struct L15Bench : sc_core::sc_module {
  ClockDomain clk{"clk", 1000.0};
  PayloadPool pool{128};
  FineInterleaveMapper map{2, 256};
  NodeNumbering ids;
  tb::ScriptedInitiator up{"up", clk, pool};        // the GPM's boundary (requests out)
  tb::ScriptedTarget up_sink{"up_sink", clk, 64};   // the GPM's boundary (replies in)
  tb::ScriptedTarget down_sink{"down_sink", clk, 64};  // the ring (requests)
  tb::ScriptedInitiator down{"down", clk, pool};    // unused unless a test replies by hand
  std::unique_ptr<mcm::L15Cache> l15;
  explicit L15Bench(sc_core::sc_module_name n, Cache::Params p = mcm::L15Cache::defaults(),
                    std::vector<unsigned> nodes = {2})
      : sc_core::sc_module(n) {
    ids.add_block(3);
    ids.add_block(3);
    ids.add_partition(1);
    ids.add_partition(4);
    p.sets = 16;  // small: 16 x 16 x 128 B
    l15 = std::make_unique<mcm::L15Cache>("l15", p, clk, std::move(nodes), map, ids, std::vector<unsigned>{0});
    up.out.bind(l15->up_in());
    l15->up_out().bind(up_sink.in);
    l15->down_out().bind(down_sink.in);
    down.out.bind(l15->down_in());
  }
  void request(uint64_t cycle, uint64_t addr, MemKind kind, unsigned sm = 0) {
    up.at(cycle, [=](tlm::tlm_generic_payload& gp, MemExt& e) {
      gp.set_address(addr);
      gp.set_data_length(128);
      gp.set_command(kind == MemKind::Write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      e.kind = kind;
      e.src = sm;
      e.dst = 4;
    });
  }
};

void run_until(const ClockDomain& clk, uint64_t cycle) { sc_core::sc_start(clk.time_of(cycle) - sc_core::sc_time_stamp()); }

}  // namespace

TEST_CASE("L15Cache: a remote read is fetched from its home partition with the L1.5's own id", "[l15]") {
  L15Bench b("b");
  b.request(10, 0x100, MemKind::Read);  // 0x100: partition 1 (GPM 1), node 4
  run_until(b.clk, 200);
  REQUIRE(b.down_sink.arrivals().size() == 1);
  const auto& f = b.down_sink.arrivals()[0];
  CHECK(f.ext.src == 2);  // the L1.5's node: its reply comes back through GPM 0's ring stop
  CHECK(f.ext.dst == 4);
  CHECK(f.address == 0x100);
  CHECK(b.up_sink.arrivals().empty());  // waits for the fill
  CHECK(b.l15->cache().params().write_policy == "write-through");
}

TEST_CASE("L15Cache: with several boundary ids a fetch carries the one its line names, a write the SM id", "[l15]") {
  const std::vector<unsigned> nodes = {2, 10, 11, 12};
  L15Bench b("b", mcm::L15Cache::defaults(), nodes);
  // Partition 1's lines (256 B chunks over 2 partitions): 0x100, 0x180, 0x300, 0x380 = lines 2, 3, 6, 7.
  for (uint64_t a : {0x100, 0x180, 0x300, 0x380}) b.request(10, a, MemKind::Read);
  b.request(10, 0x500, MemKind::Write, 7);
  run_until(b.clk, 300);
  const auto& out = b.down_sink.arrivals();
  REQUIRE(out.size() == 5);
  std::set<unsigned> srcs;
  for (const auto& f : out) {
    if (f.ext.kind == MemKind::Write) {
      CHECK(f.ext.src == 7);  // passed on with the SM's id
      continue;
    }
    CHECK(f.ext.src == nodes[f.address / 128 % 4]);
    srcs.insert(f.ext.src);
  }
  CHECK(srcs == std::set<unsigned>{11, 12});  // lines 2, 6 -> nodes[2]; 3, 7 -> nodes[3]
}

TEST_CASE("L15Cache: writes go through without allocating, flush is counted and invalidates", "[l15]") {
  L15Bench b("b");
  b.request(10, 0x100, MemKind::Write, 0);
  b.request(11, 0x300, MemKind::Write, 1);
  run_until(b.clk, 200);
  REQUIRE(b.down_sink.arrivals().size() == 2);
  CHECK(b.down_sink.arrivals()[0].ext.src == 0);  // the SM's own write, passed on
  CHECK(b.down_sink.arrivals()[1].ext.src == 1);
  CHECK(b.l15->flushes() == 0);
  b.l15->flush();
  b.l15->flush();
  CHECK(b.l15->flushes() == 2);
  CHECK(b.l15->capacity_bytes() == 16 * 16 * 128);
}

TEST_CASE("L15Cache: a request for its own GPM's partition is an error (remote-only)", "[l15][errors]") {
  L15Bench b("b");
  b.request(10, 0x000, MemKind::Read);  // partition 0: GPM 0's own
  CHECK_THROWS_WITH(run_until(b.clk, 200), Catch::Contains("remote-only L1.5"));
}

TEST_CASE("L15Cache: a write-back L1.5 is refused", "[l15][errors]") {
  Cache::Params p = mcm::L15Cache::defaults();
  p.write_policy = "write-back";
  CHECK_THROWS_WITH(L15Bench("b", p), Catch::Contains("write-through"));
}
