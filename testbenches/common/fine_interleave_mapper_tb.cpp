// FineInterleaveMapper and AddressMap: the fine interleave is bit-identical to the AddressMap
// gpusc had before address mappers became an interface (its formulas are kept below as the
// reference), for random addresses and several partition counts and chunks; AddressMap copies
// share one mapper; the factory builds either kind and rejects bad configurations clearly.
// With hash = xor (ChunkInterleave): each row of chunks is still dealt one per partition
// (dense, invertible), by hand on 8 partitions, and a power-of-two stride is spread.
#include <catch2/catch.hpp>

#include <random>
#include <set>

#include "common/address_map.h"
#include "common/address_mapper.h"
#include "common/fine_interleave_mapper.h"
#include "common/first_touch_page_mapper.h"

using namespace gpusc;

namespace {
// common/address_map.h as of commit 4254b7c, verbatim arithmetic.
struct OldAddressMap {
  unsigned parts_, chunk_;
  unsigned partition(uint64_t addr) const { return static_cast<unsigned>((addr / chunk_) % parts_); }
  uint64_t local(uint64_t addr) const { return (addr / chunk_ / parts_) * chunk_ + addr % chunk_; }
  uint64_t global(unsigned p, uint64_t local_addr) const {
    return ((local_addr / chunk_) * parts_ + p) * chunk_ + local_addr % chunk_;
  }
};
}  // namespace

TEST_CASE("FineInterleaveMapper: equals the old AddressMap on random addresses", "[address_map]") {
  std::mt19937_64 rng(42);
  for (unsigned parts : {1u, 4u, 6u, 8u, 64u, 1000u})
    for (unsigned chunk : {1u, 32u, 256u, 4096u}) {
      INFO(parts << " partitions, " << chunk << " B chunks");
      const OldAddressMap old{parts, chunk};
      FineInterleaveMapper m(parts, chunk);
      const AddressMap handle(parts, chunk);
      CHECK(m.partitions() == parts);
      for (int i = 0; i < 20000; ++i) {
        // Mix full 64-bit addresses with small ones (the ranges kernels use).
        const uint64_t a = (i % 2) ? rng() : rng() % (uint64_t{1} << 32);
        const unsigned block = static_cast<unsigned>(rng() % 8);  // ignored by this mapper
        REQUIRE(m.partition(a) == old.partition(a));
        REQUIRE(m.local(a) == old.local(a));
        const AddressMapper::Target t = m.map(a, block);
        REQUIRE(t.partition == old.partition(a));
        REQUIRE(t.local == old.local(a));
        REQUIRE(handle.partition(a) == old.partition(a));
        REQUIRE(handle.local(a) == old.local(a));
        const uint64_t l = rng() % (uint64_t{1} << 40);
        const unsigned p = static_cast<unsigned>(rng() % parts);
        REQUIRE(m.global(p, l) == old.global(p, l));
        REQUIRE(m.global(t.partition, t.local) == a);
      }
    }
}

TEST_CASE("FineInterleaveMapper: 256 B chunks over 8 partitions, by hand", "[address_map]") {
  FineInterleaveMapper m(8, 256);
  CHECK(m.partition(0x000) == 0);
  CHECK(m.partition(0x0ff) == 0);
  CHECK(m.partition(0x100) == 1);
  CHECK(m.partition(0x700) == 7);
  CHECK(m.partition(0x800) == 0);
  CHECK(m.local(0x800) == 0x100);
  CHECK(m.local(0x8ff) == 0x1ff);
  CHECK(m.local(0x980) == 0x180);
  CHECK(m.placed(0xdeadbeef));
}

TEST_CASE("FineInterleaveMapper: xor hash on 8 partitions, by hand", "[address_map]") {
  FineInterleaveMapper m(8, 256, "m", true);
  // Row 0 (chunks 0-7) is plain: fold(0) = 0.
  CHECK(m.partition(0x000) == 0);
  CHECK(m.partition(0x700) == 7);
  // Row 1: fold(1) = 1, so chunk 8 -> 0 ^ 1 = 1 and chunk 9 -> 1 ^ 1 = 0.
  CHECK(m.partition(0x800) == 1);
  CHECK(m.partition(0x900) == 0);
  CHECK(m.local(0x800) == 0x100);  // the row is the local chunk number, as without the hash
  // Row 8 = 0b001'000: fold = 000 ^ 001 = 1, chunk 64 -> 1. Row 9 = 0b001'001: fold 0, chunk 73 -> 1.
  CHECK(m.partition(64 * 256) == 1);
  CHECK(m.partition(73 * 256) == 1);
  // Row 0b101'110'011 = 371: fold = 011 ^ 110 ^ 101 = 000, chunk 371 * 8 + 5 -> 5.
  CHECK(m.partition((371 * 8 + 5) * 256) == 5);
  CHECK(m.global(5, 371 * 256 + 0x40) == (371 * 8 + 5) * 256 + 0x40);
}

TEST_CASE("FineInterleaveMapper: xor hash keeps one chunk per partition per row, inverts, spreads strides", "[address_map]") {
  for (unsigned parts : {1u, 2u, 16u, 64u}) {
    FineInterleaveMapper m(parts, 256, "m", true);
    for (uint64_t row : {uint64_t{0}, uint64_t{1}, uint64_t{63}, uint64_t{4096}, uint64_t{123457}}) {
      std::set<unsigned> hit;
      for (uint64_t col = 0; col < parts; ++col) {
        const uint64_t a = ((row * parts + col) << 8) | 0x2a;
        hit.insert(m.partition(a));
        CHECK(m.local(a) == ((row << 8) | 0x2a));
        CHECK(m.global(m.partition(a), m.local(a)) == a);
      }
      CHECK(hit.size() == parts);  // a permutation of the partitions
    }
  }
  // kmeans's feature-major layout with 2^18 points: feature f of a point at f x 1 MiB. Plain
  // modulo puts all 34 features on one of 64 partitions (1 MiB is 64 rows of 64 x 256 B).
  FineInterleaveMapper plain(64, 256), hashed(64, 256, "m", true);
  std::set<unsigned> on_plain, on_hashed;
  for (uint64_t f = 0; f < 34; ++f) {
    on_plain.insert(plain.partition(f << 20));
    on_hashed.insert(hashed.partition(f << 20));
  }
  CHECK(on_plain.size() == 1);
  CHECK(on_hashed.size() == 34);
}

TEST_CASE("AddressMap: copies refer to one mapper, so first-touch state is shared", "[address_map]") {
  FirstTouchPageMapper ft({{0}, {1}}, 4096, 256);
  const AddressMap a(ft);
  const AddressMap b = a;  // as a unit copies it into a lambda
  auto in_lambda = [b](uint64_t x) { return b.local(x); };
  ft.map(0x5000, 1);  // placed through the platform's mapper
  CHECK(&a.mapper() == &ft);
  CHECK(&b.mapper() == &ft);
  CHECK(a.partition(0x5000) == 1);
  CHECK(b.partition(0x5010) == 1);
  CHECK(in_lambda(0x5010) == 0x10);
  CHECK(a.partitions() == 2);
}

TEST_CASE("make_address_mapper: builds both kinds, fine-interleave over every block's partitions", "[address_map]") {
  AddressMapper::Params p;
  auto fine = make_address_mapper(p, 256, {{0, 1}, {2, 3}});
  REQUIRE(dynamic_cast<FineInterleaveMapper*>(fine.get()));
  CHECK(fine->partitions() == 4);
  CHECK(fine->map(0x300, 0).partition == 3);  // the requester's block does not matter
  p.kind = "first-touch";
  p.page_bytes = 8192;
  auto ft = make_address_mapper(p, 256, {{0, 1}, {2, 3}});
  auto* f = dynamic_cast<FirstTouchPageMapper*>(ft.get());
  REQUIRE(f);
  CHECK(f->page_bytes() == 8192);
  CHECK(f->blocks() == 2);
  CHECK(ft->map(0x300, 1).partition == 3);  // block 1's frame 0, chunk 3 -> its 2nd partition
  p.hash = "xor";  // both kinds take the hash: block 1's chunk 2 (row 1, fold 1) -> index 0 ^ 1
  CHECK(make_address_mapper(p, 256, {{0, 1}, {2, 3}})->map(0x200, 1).partition == 3);
  p.kind = "fine-interleave";  // chunk 4 = row 1, index 0 ^ 1 over all four partitions
  CHECK(make_address_mapper(p, 256, {{0, 1}, {2, 3}})->map(0x400, 0).partition == 1);
}

TEST_CASE("make_address_mapper: bad configurations are clear errors", "[address_map][config]") {
  AddressMapper::Params p;
  p.kind = "random";
  REQUIRE_THROWS_WITH(make_address_mapper(p, 256, {{0}}, "gpu.address_map"),
                      Catch::Contains("gpu.address_map.kind") && Catch::Contains("fine-interleave|first-touch"));
  p.kind = "first-touch";
  p.page_bytes = 3000;
  REQUIRE_THROWS_WITH(make_address_mapper(p, 256, {{0}}, "gpu.address_map"),
                      Catch::Contains("gpu.address_map") && Catch::Contains("page_bytes must be a power of two, got 3000"));
  p.page_bytes = 4096;
  REQUIRE_THROWS_WITH(make_address_mapper(p, 256, {}, "gpu.address_map"),
                      Catch::Contains("needs at least one block, got 0"));
  p.kind = "fine-interleave";
  REQUIRE_THROWS_WITH(make_address_mapper(p, 256, {}, "gpu.address_map"),
                      Catch::Contains("needs at least one block, got 0"));
  REQUIRE_THROWS_WITH(make_address_mapper(p, 100, {{0}}, "gpu.address_map"),
                      Catch::Contains("chunk must be a power of two bytes, got 100"));
  REQUIRE_THROWS_WITH(FineInterleaveMapper(0, 256), Catch::Contains("needs at least one memory partition, got 0"));
  p.hash = "crc";
  REQUIRE_THROWS_WITH(make_address_mapper(p, 256, {{0}}, "gpu.address_map"),
                      Catch::Contains("gpu.address_map.hash") && Catch::Contains("none|xor"));
  p.hash = "xor";
  REQUIRE_THROWS_WITH(make_address_mapper(p, 256, {{0, 1, 2}, {3, 4, 5}}, "gpu.address_map"),
                      Catch::Contains("gpu.address_map") && Catch::Contains("hash = xor needs a power-of-two number") &&
                          Catch::Contains("got 6"));
  p.kind = "first-touch";
  REQUIRE_THROWS_WITH(make_address_mapper(p, 256, {{0, 1, 2}, {3}}, "gpu.address_map"),
                      Catch::Contains("hash = xor needs a power-of-two number") && Catch::Contains("got 3"));
}
