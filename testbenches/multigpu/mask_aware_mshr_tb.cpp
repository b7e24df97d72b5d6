// MaskAwareMshr tests: the stated rule's cases A, B and C on the paper's 2-entry, 8-bit example
// (Fig. 8), where Fig. 8(a)'s pair of disjoint masks is case B under the stated rule; containment
// per entry, not over the union; the oldest containing entry; full-line masks; reservation fails
// (no free entry, full merge list) that change nothing; fills; bad masks.
#include <catch2/catch.hpp>

#include "multigpu/mask_aware_mshr.h"

using namespace gpusc;
using multigpu::MaskAwareMshr;
using Case = MaskAwareMshr::Case;

namespace {
MaskAwareMshr fig8() {  // Fig. 8: a 2-entry MSHR, 8-bit masks
  MaskAwareMshr::Params p;
  p.entries = 2;
  p.mask_bits = 8;
  return MaskAwareMshr(p);
}
}  // namespace

TEST_CASE("MSHR: case A, the entry's mask contains the request's: merged, nothing sent", "[mshr]") {
  MaskAwareMshr m = fig8();
  auto r = m.access(0x100, 0b11000000, 1);
  CHECK(r.what == Case::C_Miss);
  const unsigned e = r.entry;
  r = m.access(0x100, 0b01000000, 2);  // a proper subset
  CHECK(r.what == Case::A_Merge);
  CHECK(r.entry == e);
  r = m.access(0x100, 0b11000000, 3);  // the same mask
  CHECK(r.what == Case::A_Merge);
  CHECK(r.entry == e);
  CHECK(m.in_use() == 1);
  CHECK(m.entry(e).reqs == std::vector<uint64_t>{1, 2, 3});
}

TEST_CASE("MSHR: Fig. 8(a)'s disjoint masks are case B under the stated rule, not the figure's hit", "[mshr]") {
  // The figure calls 0b01000000 "the subset" of 0b10000000; footnote 1's rule (every bit of the
  // request set in the entry) does not hold: a new entry and a new request.
  MaskAwareMshr m = fig8();
  m.access(0x100, 0b10000000, 1);
  CHECK(m.classify(0x100, 0b01000000).what == Case::B_NewEntrySameLine);
  const auto r = m.access(0x100, 0b01000000, 2);
  CHECK(r.what == Case::B_NewEntrySameLine);
  CHECK(m.in_use() == 2);
  CHECK(m.entries_for(0x100) == 2);
  CHECK(m.entry(r.entry).mask == 0b01000000);
  CHECK(m.entry(r.entry).reqs == std::vector<uint64_t>{2});
}

TEST_CASE("MSHR: Fig. 8(b), same line with a word the entry does not fetch: case B", "[mshr]") {
  MaskAwareMshr m = fig8();
  const auto a = m.access(0x100, 0b10000000, 1);
  const auto b = m.access(0x100, 0b00000010, 2);
  CHECK(b.what == Case::B_NewEntrySameLine);
  CHECK(b.entry != a.entry);
  // A request partly covered (one bit in, one out) is B too.
  MaskAwareMshr n = fig8();
  n.access(0x100, 0b10000000, 1);
  CHECK(n.access(0x100, 0b10000010, 2).what == Case::B_NewEntrySameLine);
}

TEST_CASE("MSHR: Fig. 8(c), no entry for the line: case C", "[mshr]") {
  MaskAwareMshr m = fig8();
  m.access(0x100, 0b10000000, 1);
  const auto r = m.access(0x200, 0b10000000, 2);  // same mask, other line
  CHECK(r.what == Case::C_Miss);
  CHECK(m.entries_for(0x200) == 1);
  CHECK(m.entries_for(0x100) == 1);
}

TEST_CASE("MSHR: containment is per entry, not over the union of the line's entries", "[mshr]") {
  MaskAwareMshr::Params p;
  p.entries = 4;
  MaskAwareMshr m(p);
  const auto lo = m.access(0x40, 0x0003, 1);
  const auto hi = m.access(0x40, 0x000C, 2);
  CHECK(hi.what == Case::B_NewEntrySameLine);
  // 0x0006 = words 1 and 2: in flight, but split over the two entries -> B.
  CHECK(m.access(0x40, 0x0006, 3).what == Case::B_NewEntrySameLine);
  // 0x0008 is inside the second entry only.
  const auto r = m.access(0x40, 0x0008, 4);
  CHECK(r.what == Case::A_Merge);
  CHECK(r.entry == hi.entry);
  CHECK(m.entry(lo.entry).reqs == std::vector<uint64_t>{1});
}

TEST_CASE("MSHR: a request contained by several entries merges into the oldest", "[mshr]") {
  MaskAwareMshr::Params p;
  p.entries = 4;
  MaskAwareMshr m(p);
  const auto first = m.access(0x40, 0x0011, 1);                  // C: words 0 and 4
  const auto second = m.access(0x40, 0x0013, 2);                 // B: words 0, 1, 4
  CHECK(second.what == Case::B_NewEntrySameLine);
  const auto r = m.access(0x40, 0x0001, 3);                      // contained by both
  CHECK(r.what == Case::A_Merge);
  CHECK(r.entry == first.entry);
  m.fill(first.entry);
  const auto s = m.access(0x40, 0x0001, 4);                      // now only the second contains it
  CHECK(s.what == Case::A_Merge);
  CHECK(s.entry == second.entry);
}

TEST_CASE("MSHR: a full-line entry serves any fine-grained request, a full-line request needs its own", "[mshr]") {
  MaskAwareMshr m(MaskAwareMshr::Params{});  // 16-bit masks
  m.access(0x80, 0xFFFF, 1);
  CHECK(m.access(0x80, 0x0010, 2).what == Case::A_Merge);
  m.access(0xC0, 0x0010, 3);
  CHECK(m.access(0xC0, 0xFFFF, 4).what == Case::B_NewEntrySameLine);
}

TEST_CASE("MSHR: with every entry taken, cases B and C are reservation fails that change nothing", "[mshr]") {
  MaskAwareMshr m = fig8();
  m.access(0x100, 0b10000000, 1);
  m.access(0x200, 0b00000001, 2);
  CHECK(m.access(0x300, 0b1, 3).what == Case::Full);             // C without a free entry
  CHECK(m.access(0x100, 0b01000000, 4).what == Case::Full);      // B without a free entry
  CHECK(m.access(0x100, 0b10000000, 5).what == Case::A_Merge);   // A needs no entry
  CHECK(m.in_use() == 2);
  CHECK(m.entries_for(0x300) == 0);
  // A fill frees its entry; the refused request now allocates it.
  const auto tags = m.fill(0);
  CHECK(tags == std::vector<uint64_t>{1, 5});
  const auto r = m.access(0x100, 0b01000000, 4);
  CHECK(r.what == Case::C_Miss);  // the line's only entry is gone: C, not B
  CHECK(r.entry == 0);
}

TEST_CASE("MSHR: a full merge list is a reservation fail even when the mask is contained", "[mshr]") {
  MaskAwareMshr::Params p;
  p.entries = 4;
  p.merge = 2;  // the allocating request and one merged
  MaskAwareMshr m(p);
  const auto e = m.access(0x40, 0x00F0, 1);
  CHECK(m.access(0x40, 0x0010, 2).what == Case::A_Merge);
  CHECK(m.access(0x40, 0x0020, 3).what == Case::Full);
  CHECK(m.entry(e.entry).reqs.size() == 2);
  CHECK(m.in_use() == 1);
}

TEST_CASE("MSHR: classify changes nothing, fill returns requests in arrival order", "[mshr]") {
  MaskAwareMshr m = fig8();
  CHECK(m.classify(0x100, 0b1).what == Case::C_Miss);
  CHECK(m.in_use() == 0);
  const auto e = m.access(0x100, 0b11, 10).entry;
  m.access(0x100, 0b01, 11);
  m.access(0x100, 0b10, 12);
  CHECK(m.fill(e) == std::vector<uint64_t>{10, 11, 12});
  CHECK(m.in_use() == 0);
  CHECK(m.classify(0x100, 0b01).what == Case::C_Miss);
}

TEST_CASE("MSHR: empty or oversized masks and fills of idle entries are clear errors", "[mshr][bad]") {
  MaskAwareMshr m = fig8();
  CHECK_THROWS_WITH(m.access(0x100, 0, 1), Catch::Contains("empty word mask"));
  CHECK_THROWS_WITH(m.access(0x100, 0x100, 1), Catch::Contains("has bits past the line's 8 words"));
  CHECK_THROWS_WITH(m.fill(0), Catch::Contains("MSHR entry 0, which is not waiting"));
  CHECK_THROWS_WITH(m.fill(7), Catch::Contains("MSHR entry 7"));
  MaskAwareMshr::Params p;
  p.entries = 0;
  CHECK_THROWS_WITH(MaskAwareMshr(p), Catch::Contains("'gpusc.mshr.entries' = 0 is out of range"));
}
