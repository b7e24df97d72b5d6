// PayloadPool: no growth in steady state, clean payloads on re-acquire, return through
// tlm_mm_interface when the last reference is released.
#include <catch2/catch.hpp>

#include <cstdint>
#include <set>
#include <vector>

#include "common/payload_pool.h"

using namespace gpusc;

namespace {

// Counts the payloads the TLM reference counting hands back.
struct CountingPool : PayloadPool {
  unsigned frees = 0;
  using PayloadPool::PayloadPool;
  void free(tlm::tlm_generic_payload* gp) override {
    ++frees;
    PayloadPool::free(gp);
  }
};

// An auto-extension a model could add on the way (freed by the payload's reset()).
struct TagExt : tlm::tlm_extension<TagExt> {
  static int alive;
  TagExt() { ++alive; }
  TagExt(const TagExt&) : tlm::tlm_extension<TagExt>() { ++alive; }
  ~TagExt() override { --alive; }
  tlm::tlm_extension_base* clone() const override { return new TagExt(*this); }
  void copy_from(const tlm::tlm_extension_base&) override {}
};
int TagExt::alive = 0;

}  // namespace

TEST_CASE("PayloadPool: 1e5 acquire/release cycles with at most K in flight allocate exactly K") {
  constexpr size_t K = 8;
  PayloadPool pool(64);
  std::vector<tlm::tlm_generic_payload*> inflight;
  std::set<tlm::tlm_generic_payload*> seen;
  size_t max_allocated = 0;
  uint32_t rng = 12345;  // fixed LCG: in-flight count wanders between 0 and K, release order varies
  auto next = [&] { rng = rng * 1664525u + 1013904223u; return rng >> 8; };
  for (int i = 0; i < 100000; ++i) {
    const bool want_acquire = inflight.empty() || (inflight.size() < K && next() % 2 == 0);
    if (want_acquire) {
      tlm::tlm_generic_payload& gp = pool.acquire();
      inflight.push_back(&gp);
      seen.insert(&gp);
    } else {
      const size_t k = next() % inflight.size();
      inflight[k]->release();
      inflight.erase(inflight.begin() + static_cast<long>(k));
    }
    if (pool.allocated() > max_allocated) max_allocated = pool.allocated();
    if (pool.in_use() != inflight.size()) FAIL("in_use() " << pool.in_use() << " != " << inflight.size());
  }
  // The walk is capped at K in flight and (with this seed) reaches K, so exactly K payloads
  // may exist; one more would mean a released payload was not reused.
  CHECK(max_allocated == K);
  CHECK(pool.allocated() == K);
  CHECK(seen.size() == K);
  for (auto* gp : inflight) gp->release();
  CHECK(pool.in_use() == 0);
  CHECK(pool.allocated() == K);
}

TEST_CASE("PayloadPool: a re-acquired payload is cleared") {
  PayloadPool pool(128);
  tlm::tlm_generic_payload& gp = pool.acquire();
  unsigned char* const own_data = gp.get_data_ptr();
  unsigned char foreign[4] = {1, 2, 3, 4};
  unsigned char be[4] = {0xff, 0, 0xff, 0};
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_address(0xdead00);
  gp.set_data_ptr(foreign);
  gp.set_data_length(4);
  gp.set_streaming_width(4);
  gp.set_byte_enable_ptr(be);
  gp.set_byte_enable_length(4);
  gp.set_dmi_allowed(true);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  gp.set_auto_extension(new TagExt);
  MemExt* e = gp.get_extension<MemExt>();
  REQUIRE(e != nullptr);
  e->kind = MemKind::Write;
  e->is_reply = true;
  e->src = 7;
  e->dests.add(3);
  e->warp = 12;
  e->pc = 0x400;
  e->sector_mask = 0xf;
  e->probe_hops = 2;
  e->t_issue = sc_core::sc_time(5, sc_core::SC_NS);
  gp.release();
  CHECK(TagExt::alive == 0);  // the auto-extension went with the release
  REQUIRE(pool.in_use() == 0);

  tlm::tlm_generic_payload& again = pool.acquire();
  REQUIRE(&again == &gp);  // one payload in the pool: the same object comes back
  REQUIRE(pool.allocated() == 1);
  CHECK(again.get_ref_count() == 1);
  CHECK(again.get_command() == tlm::TLM_READ_COMMAND);
  CHECK(again.get_address() == 0);
  CHECK(again.get_data_ptr() == own_data);
  CHECK(again.get_data_length() == 128);
  CHECK(again.get_streaming_width() == 128);
  CHECK(again.get_byte_enable_ptr() == nullptr);
  CHECK(again.get_byte_enable_length() == 0);
  CHECK_FALSE(again.is_dmi_allowed());
  CHECK(again.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE);
  CHECK(again.get_extension<TagExt>() == nullptr);
  MemExt* e2 = again.get_extension<MemExt>();
  REQUIRE(e2 == e);  // still attached: the pool's own extension
  CHECK(e2->kind == MemKind::Read);
  CHECK_FALSE(e2->is_reply);
  CHECK(e2->src == 0);
  CHECK(e2->dests.empty());
  CHECK(e2->warp == 0);
  CHECK(e2->pc == 0);
  CHECK(e2->sector_mask == 0);
  CHECK(e2->probe_hops == 0);
  CHECK(e2->t_issue == sc_core::SC_ZERO_TIME);
  again.release();
}

TEST_CASE("PayloadPool: the last gp.release() returns the payload through tlm_mm_interface") {
  CountingPool pool(32);
  tlm::tlm_generic_payload& a = pool.acquire();
  tlm::tlm_generic_payload& b = pool.acquire();
  CHECK(a.has_mm());
  CHECK(pool.in_use() == 2);
  a.acquire();  // a second owner (e.g. a reply that reuses the request)
  CHECK(a.get_ref_count() == 2);
  a.release();
  CHECK(pool.frees == 0);  // one reference left: not back yet
  CHECK(pool.in_use() == 2);
  a.release();
  CHECK(pool.frees == 1);
  CHECK(pool.in_use() == 1);
  b.release();
  CHECK(pool.frees == 2);
  CHECK(pool.in_use() == 0);
  // Both come back before any new allocation.
  pool.acquire();
  pool.acquire();
  CHECK(pool.allocated() == 2);
}
