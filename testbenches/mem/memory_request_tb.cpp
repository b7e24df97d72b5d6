// checked_memory_request: what a memory model behind an L2 (DramChannel, BandwidthMemory) takes
// on its request port, and the error it gives for anything else, naming the unit.
#include <catch2/catch.hpp>

#include "common/mem_ext.h"
#include "common/payload_pool.h"
#include "mem/memory_request.h"

using namespace gpusc;
using Catch::Contains;

TEST_CASE("memory request: reads and writes up to a line pass, replies, other kinds and longer requests are errors",
          "[memory_request][config]") {
  PayloadPool pool{2};
  auto& gp = pool.acquire();
  MemExt& e = *gp.get_extension<MemExt>();
  e.kind = MemKind::Read;
  gp.set_data_length(128);
  CHECK(&checked_memory_request(gp, "gpu.mc_3.dram", 128) == &e);
  e.kind = MemKind::Write;
  gp.set_data_length(32);
  CHECK(&checked_memory_request(gp, "gpu.mc_3.dram", 128) == &e);

  e.is_reply = true;
  REQUIRE_THROWS_WITH(checked_memory_request(gp, "gpu.mc_3.dram", 128),
                      Contains("gpu.mc_3.dram") && Contains("received a reply"));
  e.is_reply = false;
  e.kind = MemKind::Atomic;
  REQUIRE_THROWS_WITH(checked_memory_request(gp, "gpu.mc_3.dram", 128), Contains("takes Read and Write"));
  e.kind = MemKind::Read;
  gp.set_data_length(256);
  REQUIRE_THROWS_WITH(checked_memory_request(gp, "gpu.mc_3.dram", 128),
                      Contains("request of 256 bytes exceeds one line (line_bytes = 128)"));
  gp.release();
}
