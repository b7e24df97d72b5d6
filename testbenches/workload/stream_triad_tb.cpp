// StreamTriad (STREAM / BabelStream triad): every element of b and c read once and a written once
// by the same lane, accesses coalesced to one line per warp, the tail CTA masked, stored values
// b + q c.
#include <catch2/catch.hpp>

#include <cstring>

#include "workload/stream_triad.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;

TEST_CASE("stream: a[i] = b[i] + q c[i] reads b and c once and writes a once per element, same lane") {
  StreamTriadWorkload::Params p;
  p.elements = 1000, p.threads_per_cta = 96;  // 11 CTAs, the last one partly past the end
  StreamTriadWorkload w(p);
  auto k = w.next_kernel();
  REQUIRE(k->num_ctas() == 11);
  const auto warps = drain_kernel(*k);
  check_invariants(w.address_space(), *k, warps);
  const AccessCount c = count_accesses(w.address_space(), warps);
  REQUIRE(c.loaded() == std::set<std::string>{"b", "c"});
  REQUIRE(c.stored() == std::set<std::string>{"a"});
  for (uint64_t i = 0; i < 1000; ++i) {
    REQUIRE(c.load("b", i) == 1);
    REQUIRE(c.load("c", i) == 1);
    REQUIRE(c.store("a", i) == 1);
  }
  const AddressSpace& s = w.address_space();
  for (const auto& st : warps) {
    const auto lb = on_array(s, st, "b", WarpInstr::Op::Load), lc = on_array(s, st, "c", WarpInstr::Op::Load),
               sa = on_array(s, st, "a", WarpInstr::Op::Store);
    REQUIRE(lb.size() == sa.size());
    REQUIRE(lc.size() == sa.size());
    for (size_t i = 0; i < sa.size(); ++i)
      for (unsigned l = 0; l < 32; ++l)
        if (sa[i].lane_active(l)) {
          REQUIRE(element(s, "b", lb[i], l) == element(s, "a", sa[i], l));
          REQUIRE(element(s, "c", lc[i], l) == element(s, "a", sa[i], l));
        }
  }
}

TEST_CASE("stream: each warp access is 32 consecutive floats (one 128 B line), the tail masked") {
  StreamTriadWorkload::Params p;
  p.elements = 100, p.threads_per_cta = 64;
  StreamTriadWorkload w(p);
  auto k = w.next_kernel();
  const auto full = drain(*k->warp(0, 1));
  unsigned mem = 0;
  for (const auto& i : full) {
    if (!i.is_memory()) continue;
    ++mem;
    REQUIRE(i.active_mask == kAllLanes);
    REQUIRE(i.addr[0] % 128 == 0);
    for (unsigned l = 1; l < 32; ++l) REQUIRE(i.addr[l] - i.addr[l - 1] == 4);
  }
  REQUIRE(mem == 3);
  // CTA 1, warp 1: threads 96..127, of which 96..99 exist in the arrays.
  for (const auto& i : drain(*k->warp(1, 1)))
    if (i.is_memory()) REQUIRE(i.active_mask == 0xfu);
}

TEST_CASE("stream: with values on, each store carries b + q c of its element") {
  StreamTriadWorkload::Params p;
  p.elements = 64, p.threads_per_cta = 32, p.scalar = 3.0;
  StreamTriadWorkload w(p);
  w.enable_values();
  auto k = w.next_kernel();
  const AddressSpace& s = w.address_space();
  unsigned checked = 0;
  for (const auto& st : drain_kernel(*k))
    for (const auto& i : on_array(s, st, "a", WarpInstr::Op::Store))
      for (unsigned l = 0; l < 32; ++l) {
        const uint64_t e = element(s, "a", i, l);
        float v;
        std::memcpy(&v, &i.data[l], 4);
        REQUIRE(v == StreamTriadWorkload::b_value(e) + 3.0f * StreamTriadWorkload::c_value(e));
        REQUIRE(v != 0.0f);
        ++checked;
      }
  REQUIRE(checked == 64);
}
