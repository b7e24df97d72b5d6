// MemExt: clone/copy_from/clear keep or reset every field; a payload without the extension is
// a clear error naming the unit and the missing extension.
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "common/mem_ext.h"
#include "common/payload_pool.h"

using namespace gpusc;
using sc_core::sc_time;
using sc_core::SC_NS;

namespace {

// Every field set to a value different from its default.
MemExt filled() {
  MemExt e;
  e.kind = MemKind::ProbeReply;
  e.is_reply = true;
  e.src = 11;
  e.dst = 42;
  e.dests.add(3);
  e.dests.add(200);
  e.warp = 31;
  e.pc = 0x7f001234;
  e.sector_mask = 0xa;
  e.word_mask = 0x80000001;
  e.kernel_id = 5;
  e.cta_id = 77;
  e.probe_origin = 9;
  e.probe_hops = 4;
  e.probe_leader = true;
  e.t_issue = sc_time(1, SC_NS);
  e.t_req_inject = sc_time(2, SC_NS);
  e.t_mem_accept = sc_time(3, SC_NS);
  e.t_reply_inject = sc_time(4, SC_NS);
  e.t_done = sc_time(5, SC_NS);
  return e;
}

void check_same(const MemExt& a, const MemExt& b) {
  CHECK(a.kind == b.kind);
  CHECK(a.is_reply == b.is_reply);
  CHECK(a.src == b.src);
  CHECK(a.dst == b.dst);
  CHECK(a.dests == b.dests);
  CHECK(a.warp == b.warp);
  CHECK(a.pc == b.pc);
  CHECK(a.sector_mask == b.sector_mask);
  CHECK(a.word_mask == b.word_mask);
  CHECK(a.kernel_id == b.kernel_id);
  CHECK(a.cta_id == b.cta_id);
  CHECK(a.probe_origin == b.probe_origin);
  CHECK(a.probe_hops == b.probe_hops);
  CHECK(a.probe_leader == b.probe_leader);
  CHECK(a.t_issue == b.t_issue);
  CHECK(a.t_req_inject == b.t_req_inject);
  CHECK(a.t_mem_accept == b.t_mem_accept);
  CHECK(a.t_reply_inject == b.t_reply_inject);
  CHECK(a.t_done == b.t_done);
}

}  // namespace

TEST_CASE("MemExt: clone and copy_from preserve every field") {
  const MemExt src = filled();
  std::unique_ptr<MemExt> copy(dynamic_cast<MemExt*>(src.clone()));
  REQUIRE(copy != nullptr);
  check_same(*copy, src);

  MemExt dst;  // defaults, then overwritten through the base-class interface
  const tlm::tlm_extension_base& base = src;
  dst.copy_from(base);
  check_same(dst, src);
}

TEST_CASE("MemExt: clear restores every default") {
  MemExt e = filled();
  e.clear();
  check_same(e, MemExt{});
  CHECK(e.kind == MemKind::Read);
  CHECK(e.dests.empty());
}

TEST_CASE("MemExt: mem_ext on a payload without the extension is an error naming MemExt") {
  tlm::tlm_generic_payload gp;  // not from a pool: no MemExt
  gp.set_address(0x1f40);
  try {
    mem_ext(gp, "gpu.sm0.l1");
    FAIL("mem_ext returned for a payload without MemExt");
  } catch (const sc_core::sc_report& r) {
    const std::string m = r.what();
    CHECK_THAT(m, Catch::Contains("MemExt"));
    CHECK_THAT(m, Catch::Contains("gpu.sm0.l1"));
    CHECK_THAT(m, Catch::Contains("0x1f40"));
  }
}

TEST_CASE("MemExt: mem_ext on a pooled payload returns its extension") {
  PayloadPool pool;
  tlm::tlm_generic_payload& gp = pool.acquire();
  MemExt& e = mem_ext(gp, "tb");
  CHECK(&e == gp.get_extension<MemExt>());
  e.src = 5;
  CHECK(mem_ext(gp, "tb").src == 5);
  gp.release();
}

TEST_CASE("MemExt: every kind has a name") {
  CHECK(std::string(to_string(MemKind::Read)) == "read");
  CHECK(std::string(to_string(MemKind::Write)) == "write");
  CHECK(std::string(to_string(MemKind::Atomic)) == "atomic");
  CHECK(std::string(to_string(MemKind::Probe)) == "probe");
  CHECK(std::string(to_string(MemKind::Nack)) == "nack");
  CHECK(std::string(to_string(MemKind::ProbeReply)) == "probe_reply");
}
