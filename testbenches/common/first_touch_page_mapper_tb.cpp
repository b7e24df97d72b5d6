// FirstTouchPageMapper: scripted access orders. Paper 003 §5.3's example (Figure 11), pages
// interleaved over the owner block's partitions (page-granular and in finer chunks), a later
// touch from another block never moving a page, dense partition-local addresses and their
// inverse, move() (a page takes the next frame of its new block once, its old frame is a hole),
// and clear errors for bad configurations and unplaced addresses.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <set>

#include "common/first_touch_page_mapper.h"

using namespace gpusc;

namespace {
constexpr uint64_t kPage = 4096;
uint64_t page(unsigned n, uint64_t offset = 0) { return n * kPage + offset; }

// 300 random pages (some twice, from another block) mapped line by line from 3 blocks: global()
// inverts every map(), no two lines share a place, and every partition's local lines are
// 0 .. n_p - 1 (dense, no holes), however the pages arrived.
void check_dense_and_invertible(FirstTouchPageMapper& m, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::set<std::pair<unsigned, uint64_t>> seen;  // (partition, local line)
  std::set<uint64_t> pages;
  for (int i = 0; i < 300; ++i) {
    const uint64_t pg = rng() % 1000;
    pages.insert(pg);
    const unsigned b = static_cast<unsigned>(rng() % 3);
    for (uint64_t off = 0; off < kPage; off += 128) {
      const uint64_t a = pg * kPage + off;
      const AddressMapper::Target t = m.map(a, b);
      REQUIRE(m.global(t.partition, t.local) == a);
      seen.emplace(t.partition, t.local);
    }
  }
  CHECK(pages.size() < 300);
  CHECK(seen.size() == pages.size() * (kPage / 128));
  std::map<unsigned, uint64_t> max_line, count;
  for (const auto& [p, l] : seen) {
    max_line[p] = std::max(max_line[p], l / 128);
    ++count[p];
  }
  for (const auto& [p, n] : count) CHECK(max_line[p] + 1 == n);
}
}  // namespace

TEST_CASE("FirstTouchPageMapper: paper 003 Figure 11, P0 by GPM0 -> MP0, P1 and P2 by GPM1 -> MP1", "[first_touch]") {
  // Two GPMs with one memory partition each. CTA-X runs on GPM0, CTA-Y on GPM1. Access order
  // of Figure 11(a): X touches P0, Y touches P1 and P2, X touches P3.
  FirstTouchPageMapper m({{0}, {1}}, kPage, 256);
  CHECK_FALSE(m.placed(page(0)));
  CHECK(m.map(page(0, 0x10), 0).partition == 0);  // P0 by CTA-X on GPM0 -> MP0
  CHECK(m.map(page(1, 0x80), 1).partition == 1);  // P1 by CTA-Y on GPM1 -> MP1
  CHECK(m.map(page(2), 1).partition == 1);        // P2 by CTA-Y on GPM1 -> MP1
  CHECK(m.map(page(3, 0xff0), 0).partition == 0);  // P3 by CTA-X on GPM0 -> MP0
  CHECK(m.owner(page(0)) == 0);
  CHECK(m.owner(page(1)) == 1);
  CHECK(m.owner(page(2)) == 1);
  CHECK(m.owner(page(3)) == 0);
  CHECK(m.pages_of(0) == 2);
  CHECK(m.pages_of(1) == 2);
  // Each MP holds its pages densely in touch order: MP0 = P0, P3; MP1 = P1, P2.
  CHECK(m.local(page(0, 0x10)) == 0x10);
  CHECK(m.local(page(3, 0xff0)) == kPage + 0xff0);
  CHECK(m.local(page(1, 0x80)) == 0x80);
  CHECK(m.local(page(2, 0x80)) == kPage + 0x80);
  // Every byte of a page goes where its page went.
  for (uint64_t off = 0; off < kPage; off += 128) {
    CHECK(m.partition(page(2, off)) == 1);
    CHECK(m.partition(page(3, off)) == 0);
  }
}

TEST_CASE("FirstTouchPageMapper: a later touch from another block does not move a page", "[first_touch]") {
  FirstTouchPageMapper m({{0, 1}, {2, 3}}, kPage, kPage);
  const AddressMapper::Target first = m.map(page(7, 0x40), 1);
  CHECK((first.partition == 2 || first.partition == 3));
  for (unsigned b : {0u, 1u, 0u}) {
    const AddressMapper::Target t = m.map(page(7, 0x40), b);
    CHECK(t.partition == first.partition);
    CHECK(t.local == first.local);
    CHECK(m.map(page(7, 0x100), b).partition == first.partition);
  }
  CHECK(m.owner(page(7)) == 1);
  CHECK(m.pages_of(0) == 0);  // block 0's touches placed nothing
  CHECK(m.pages_of(1) == 1);
  CHECK(m.pages() == 1);
}

TEST_CASE("FirstTouchPageMapper: with chunk = page a block's pages take its partitions in turn", "[first_touch]") {
  // Block 0 owns partitions 0, 1, 2; block 1 owns 3, 4. Pages touched alternately.
  FirstTouchPageMapper m({{0, 1, 2}, {3, 4}}, kPage, kPage);
  std::vector<unsigned> got0, got1;
  for (unsigned n = 0; n < 12; ++n) {
    const unsigned b = n % 2;
    (b ? got1 : got0).push_back(m.map(page(100 + n), b).partition);
  }
  CHECK(got0 == std::vector<unsigned>{0, 1, 2, 0, 1, 2});
  CHECK(got1 == std::vector<unsigned>{3, 4, 3, 4, 3, 4});
  // The block's n-th page is frame n / k of partition n mod k: page 106 is block 0's 4th page
  // (n = 3) -> partition 0, local frame 1.
  CHECK(m.local(page(106, 0x24)) == kPage + 0x24);
  CHECK(m.local(page(111, 0x24)) == 2 * kPage + 0x24);  // block 1's 6th page -> partition 4, frame 2
}

TEST_CASE("FirstTouchPageMapper: chunks of a page interleave over the owner's partitions only", "[first_touch]") {
  // 4 KB pages, 256 B chunks: a page's 16 chunks go round-robin over the owner block's two
  // partitions, never to the other block's.
  FirstTouchPageMapper m({{0, 2}, {1, 3}}, kPage, 256);
  m.map(page(5), 1);
  std::map<unsigned, unsigned> chunks_per_partition;
  for (uint64_t off = 0; off < kPage; off += 256) {
    const AddressMapper::Target t = m.map(page(5, off), 0);  // block 0 touches it later: no effect
    CHECK(t.partition == (off / 256 % 2 == 0 ? 1u : 3u));
    ++chunks_per_partition[t.partition];
    CHECK(t.local == off / 512 * 256);
  }
  CHECK(chunks_per_partition == std::map<unsigned, unsigned>{{1, 8}, {3, 8}});
}

TEST_CASE("FirstTouchPageMapper: local addresses are dense and global() inverts them", "[first_touch]") {
  FirstTouchPageMapper m({{0, 1}, {2}, {3, 4, 5}}, kPage, 128);
  check_dense_and_invertible(m, 7);
}

TEST_CASE("FirstTouchPageMapper: with the xor hash local addresses stay dense, and a block's frames spread",
          "[first_touch]") {
  FirstTouchPageMapper m({{0, 1}, {2}, {3, 4, 5, 6}}, kPage, 128, "m", true);
  check_dense_and_invertible(m, 11);
  // chunk = page / 4 on 4 partitions: a page is one row, so the first chunk of frames 0..3 lands
  // on partitions 2 + (0, 1, 2, 3) with the hash (fold(frame) = frame), always on 2 without it.
  FirstTouchPageMapper plain({{0, 1}, {2, 3, 4, 5}}, 4096, 1024);
  FirstTouchPageMapper hashed({{0, 1}, {2, 3, 4, 5}}, 4096, 1024, "m", true);
  for (uint64_t f = 0; f < 4; ++f) {
    CHECK(plain.map(f * 4096, 1).partition == 2);
    CHECK(hashed.map(f * 4096, 1).partition == 2 + f);
  }
}

TEST_CASE("FirstTouchPageMapper: an address nobody touched is an error on the memory side", "[first_touch]") {
  FirstTouchPageMapper m({{0}, {1}}, kPage, 256);
  m.map(page(1), 0);
  REQUIRE_THROWS_WITH(m.local(page(2)), Catch::Contains("0x2000 is on a page no request has touched yet"));
  REQUIRE_THROWS_WITH(m.partition(page(9)), Catch::Contains("no request has touched yet"));
  REQUIRE_THROWS_WITH(m.global(1, 0), Catch::Contains("block 1, which holds only 0 pages"));
  REQUIRE_THROWS_WITH(m.map(page(3), 2), Catch::Contains("a request from block 2, but there are 2 blocks"));
}

TEST_CASE("FirstTouchPageMapper: bad configurations are clear errors", "[first_touch][config]") {
  REQUIRE_THROWS_WITH(FirstTouchPageMapper({{0}}, 3000, 256, "gpu.address_map"),
                      Catch::Contains("gpu.address_map") && Catch::Contains("page_bytes must be a power of two, got 3000"));
  REQUIRE_THROWS_WITH(FirstTouchPageMapper({{0}}, 0, 256), Catch::Contains("page_bytes must be a power of two, got 0"));
  REQUIRE_THROWS_WITH(FirstTouchPageMapper({{0}}, 4096, 96), Catch::Contains("chunk must be a power of two bytes, got 96"));
  REQUIRE_THROWS_WITH(FirstTouchPageMapper({{0}}, 1024, 4096),
                      Catch::Contains("chunk (4096 B) must not be larger than page_bytes (1024 B)"));
  REQUIRE_THROWS_WITH(FirstTouchPageMapper({}, 4096, 256), Catch::Contains("needs at least one block, got 0"));
  REQUIRE_THROWS_WITH(FirstTouchPageMapper({{0}, {}}, 4096, 256), Catch::Contains("block 1 has no memory partition"));
  REQUIRE_THROWS_WITH(FirstTouchPageMapper({{0, 1}, {1}}, 4096, 256), Catch::Contains("partition 1 is listed twice"));
  REQUIRE_THROWS_WITH(FirstTouchPageMapper({{0}, {5}}, 4096, 256),
                      Catch::Contains("block 1 lists partition 5, but the blocks hold 2 partitions"));
}

TEST_CASE("FirstTouchPageMapper: move gives a page the next frame of its new block, once, and leaves a hole",
          "[first_touch]") {
  // Blocks 0 (partitions 0, 1) and 1 (partitions 2, 3); page-granular interleave.
  FirstTouchPageMapper m({{0, 1}, {2, 3}}, kPage, kPage);
  m.map(page(10), 0);  // block 0, frame 0 -> partition 0
  m.map(page(11), 0);  // block 0, frame 1 -> partition 1
  m.map(page(20), 1);  // block 1, frame 0 -> partition 2
  m.move(page(11, 0x44), 1);  // block 1's next frame is 1 -> partition 3, local 0 + offset
  CHECK(m.owner(page(11)) == 1);
  CHECK(m.partition(page(11, 0x44)) == 3);
  CHECK(m.local(page(11, 0x44)) == 0x44);
  CHECK(m.global(3, 0x44) == page(11, 0x44));
  CHECK(m.moves() == 1);
  CHECK(m.pages() == 3);
  CHECK(m.pages_of(0) == 2);  // frame 1 of block 0 is a hole now
  CHECK(m.pages_of(1) == 2);
  // Its old place (partition 1, local 0 + offset) maps to no page any more.
  REQUIRE_THROWS_WITH(m.global(1, 0x44), Catch::Contains("whose page has moved to another block"));
  // Page 10 did not move; moving a page to its own block does nothing; a later touch keeps it.
  CHECK(m.partition(page(10)) == 0);
  m.move(page(11), 1);
  CHECK(m.moves() == 1);
  CHECK(m.map(page(11, 8), 0).partition == 3);
  // The hole is not reused: block 0's next page takes frame 2 -> partition 0, local 4 KB.
  CHECK(m.map(page(30), 0).partition == 0);
  CHECK(m.local(page(30)) == kPage);
  REQUIRE_THROWS_WITH(m.move(page(99), 0), Catch::Contains("its page is not placed"));
  REQUIRE_THROWS_WITH(m.move(page(10), 2), Catch::Contains("move to block 2, but there are 2 blocks"));
}
