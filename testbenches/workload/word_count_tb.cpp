// WordCount (workload/word_count.h, Mars WordCount): on a two-line text written out here, the
// records, the map's byte loads, NUL stores and emits, the intermediate keys and values, the sort
// and the groups are checked against what Mars's code does, worked out by hand.
#include <catch2/catch.hpp>

#include <cstring>
#include <map>
#include <set>

#include "workload/word_count.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;
using Catch::Matchers::Contains;

namespace {
// Upper-cased: "THE MEMORY\n" (bytes 0..10), "NETWORK DATA\n" (11..23). Words of 6+ letters:
// MEMORY (4..9, NUL at 10), NETWORK (11..17, NUL at 18).
const std::string kText = "the memory\nnetwork data\n";

uint32_t le(const char* s) {
  uint32_t w;
  std::memcpy(&w, s, 4);
  return w;
}

struct Access {
  std::map<uint64_t, unsigned> loads;        // address -> loads
  std::map<uint64_t, uint32_t> stores;       // address -> last value
  std::map<uint64_t, unsigned> store_count;  // address -> stores
};

// Every lane's accesses of kernel k (values on).
Access accesses(const Kernel& k) {
  Access a;
  for (const Stream& s : drain_kernel(k))
    for (const WarpInstr& in : s)
      for (unsigned l = 0; l < kWarpSize; ++l) {
        if (!in.lane_active(l)) continue;
        if (in.op == WarpInstr::Op::Load) ++a.loads[in.addr[l]];
        if (in.op == WarpInstr::Op::Store) a.stores[in.addr[l]] = in.data[l], ++a.store_count[in.addr[l]];
      }
  return a;
}
}  // namespace

TEST_CASE("word-count: the map tokenizes each line, NULs the delimiters and emits the words of 6+ letters",
          "[workload][word-count]") {
  WordCountWorkload::Params p;
  WordCountWorkload w(p, kText);
  CHECK(w.counts() == std::map<std::string, uint32_t>{{"MEMORY", 1}, {"NETWORK", 1}});
  const auto& inter = w.job().intermediate();
  REQUIRE(inter.size() == 2);
  // Keys: the word, its NUL and the text after it up to a 4-byte multiple; values: the word size.
  CHECK(std::string(inter[0].key.begin(), inter[0].key.end()) == std::string("MEMORY\0N", 8));
  CHECK(std::string(inter[1].key.begin(), inter[1].key.end()) == std::string("NETWORK\0", 8));
  CHECK(inter[0].val == std::vector<uint8_t>{7, 0, 0, 0});
  CHECK(inter[1].val == std::vector<uint8_t>{8, 0, 0, 0});
  const auto names = w.launch_names();
  REQUIRE(names.size() == 5 + 36 + 14);  // map; 8 x 9 / 2 bitonic passes over 256; scatter and boundaries
  CHECK(names[0] == "word-count.map_count");
  CHECK(names[4] == "word-count.map");
  CHECK(names[5] == "word-count.bitonic");
  CHECK(names.back() == "word-count.setBoundaryInt2");

  w.enable_values();
  const AddressSpace& sp = w.address_space();
  const uint64_t text = sp.base("text");
  auto mc = w.next_kernel();
  REQUIRE(mc->num_ctas() == 1);
  REQUIRE(mc->threads_per_cta() == 256);
  check_invariants(sp, *mc, drain_kernel(*mc));
  const Access a = accesses(*mc);
  // Every byte of both lines is read; the first letter after each delimiter twice (the skip loop,
  // then the letter loop); nothing past the text.
  for (uint64_t b = 0; b < 24; ++b) CHECK(a.loads.at(text + b) == ((b == 4 || b == 19) ? 2u : 1u));
  CHECK(a.loads.count(text + 24) == 0);
  // NULs at bytes 3, 10 (line 0), 18, 23 (line 1): the aligned words as tokenized.
  std::map<uint64_t, uint32_t> nul;
  for (const auto& [addr, v] : a.stores)
    if (addr >= text && addr < text + 28) nul[addr - text] = v;
  CHECK(nul == std::map<uint64_t, uint32_t>{{0, le("THE\0")}, {8, le(std::string("RY\0N", 4).data())},
                                            {16, le(std::string("RK\0D", 4).data())},
                                            {20, le(std::string("ATA\0", 4).data())}});
  // EmitInterCount: key size 8, value size 4, one pair per thread.
  CHECK(a.stores.at(sp.base("wc.inter_keys_size_per_task")) == 8u);
  CHECK(a.stores.at(sp.base("wc.inter_keys_size_per_task") + 4) == 8u);
  CHECK(a.stores.at(sp.base("wc.inter_count_per_task") + 4) == 1u);
  CHECK(a.stores.count(sp.base("wc.inter_count_per_task") + 8) == 0);  // thread 2 has no record

  for (int i = 0; i < 3; ++i) w.next_kernel();  // the three prefix sums
  auto map = w.next_kernel();
  const Access m = accesses(*map);
  const uint64_t keys = sp.base("wc.inter_keys"), vals = sp.base("wc.inter_vals"), idx = sp.base("wc.inter_index");
  CHECK(m.stores.at(keys) == le("MEMO"));
  CHECK(m.stores.at(keys + 4) == le(std::string("RY\0N", 4).data()));
  CHECK(m.stores.at(keys + 8) == le("NETW"));
  CHECK(m.stores.at(keys + 12) == le(std::string("ORK\0", 4).data()));
  CHECK(m.stores.at(vals) == 7u);
  CHECK(m.stores.at(vals + 4) == 8u);
  // Index entries {key offset, key size, value offset, value size}.
  const uint32_t e1[4] = {8, 8, 4, 4};
  for (unsigned f = 0; f < 4; ++f) CHECK(m.stores.at(idx + 16 + 4 * f) == e1[f]);
  // The key copy reads the word's 8 bytes from the text, byte by byte.
  for (uint64_t b = 4; b < 12; ++b) CHECK(m.loads.at(text + b) >= 2u);

  // First bitonic pass (k = 2, j = 1): thread 0 compares entries 0 and 1 ("MEMORY" < "NETWORK":
  // one character each), which are in order: no store.
  auto b1 = w.next_kernel();
  REQUIRE(b1->num_ctas() == 1);
  const Access s1 = accesses(*b1);
  CHECK(s1.loads.at(keys) == 1u);
  CHECK(s1.loads.at(keys + 8) == 1u);
  CHECK(s1.loads.count(keys + 1) == 0);
  CHECK(s1.stores.empty());
}

TEST_CASE("word-count: the group stage sorts the words and finds one group per distinct word", "[workload][word-count]") {
  WordCountWorkload::Params p;
  p.min_length = 4;  // DATA counts too
  WordCountWorkload w(p, "data memory data\nnetwork data\n");
  CHECK(w.counts() == std::map<std::string, uint32_t>{{"DATA", 3}, {"MEMORY", 1}, {"NETWORK", 1}});
  const auto& sorted = w.job().sorted();
  REQUIRE(sorted.size() == 5);
  std::vector<std::string> words;
  for (const auto& pr : sorted) words.emplace_back(reinterpret_cast<const char*>(pr.key.data()));
  CHECK(words == std::vector<std::string>{"DATA", "DATA", "DATA", "MEMORY", "NETWORK"});
  CHECK(w.job().groups() == std::vector<std::pair<uint32_t, uint32_t>>{{0, 3}, {3, 4}, {4, 5}});
  // The streams of every launch keep the invariants, and the sorted keys are copied into the
  // output buffer in order.
  w.enable_values();
  const AddressSpace& sp = w.address_space();
  std::map<uint64_t, uint32_t> out;
  const uint64_t ok = sp.base("wc.group.output_keys");
  while (auto k = w.next_kernel()) {
    check_invariants(sp, *k, drain_kernel(*k));
    if (k->name() == "word-count.copyChunks")
      for (const auto& [addr, v] : accesses(*k).stores)
        if (addr >= ok && addr < ok + 64) out[addr - ok] = v;
  }
  REQUIRE(out.size() == 10);  // five 8-byte keys ("DATA", its NUL, 3 bytes of padding)
  CHECK(out.at(0) == le("DATA"));
  CHECK(out.at(16) == le("DATA"));
  CHECK(out.at(24) == le("MEMO"));
  CHECK(out.at(36) == le(std::string("ORK\0", 4).data()));
}

TEST_CASE("word-count: Mars's 2 KB blocks split at word ends; a bad text is an error", "[workload][word-count]") {
  WordCountWorkload::Params p;
  p.record_bytes = 4;
  WordCountWorkload w(p, kText);
  // Blocks: 4 bytes, then on to the first non-letter: [0, 11), [11, 19), [19, 24).
  REQUIRE(w.job().records() == 3);
  CHECK(w.job().input().index[1].z == 16);  // WC_VAL_T is 16 bytes
  CHECK(w.counts() == std::map<std::string, uint32_t>{{"MEMORY", 1}, {"NETWORK", 1}});
  REQUIRE_THROWS_WITH(WordCountWorkload(WordCountWorkload::Params{}, std::string("no newline")),
                      Contains("end with a newline"));
  REQUIRE_THROWS_WITH(WordCountWorkload(WordCountWorkload::Params{}, std::string("a b c\n")), Contains("emitted nothing"));
}
