// MarsRuntime and MarsGroup (workload/mars_runtime.h, mars_group.h): a toy Mars application (record
// r emits key r * 7 mod 5 and value r, as 4-byte words; compare by key; reduce sums each group's
// values) run through map, group and reduce. The host results are the hand-computed ones, and
// replaying every launch's stores (initial contents overlaid by the stores, in launch order) leaves
// in memory exactly what the host says: the intermediate buffers, the sorted index (the bitonic
// passes' swaps), the scattered keys and values, the group ranges, the reduce output.
#include <catch2/catch.hpp>

#include <map>

#include "workload/mars_group.h"
#include "workload/mars_launch.h"
#include "workload_test_util.h"

using namespace gpusc;
using namespace gpusc::test;
using Catch::Matchers::Contains;

namespace {
std::vector<uint8_t> word(uint32_t v) { return {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)}; }

struct Toy final : MarsApp {
  void map_emits(const MarsJob& job, uint32_t r, std::vector<MarsPair>& out) const override {
    (void)job;
    out.push_back({word(r * 7 % 5), word(r)});
  }
  std::unique_ptr<LaneProgram> map_program(MarsThread t, bool count) const override {
    auto th = std::make_shared<MarsThread>(t);
    return std::make_unique<StepProgram>([th, count](unsigned s, uint32_t& loop, OpList& o) {
      if (s) return false;
      loop = 1;
      o.load(0x1000, 4, th->key_addr());
      if (count) th->emit_count(o);
      else th->emit(o, 0, true, th->val_addr(), false);
      return true;
    });
  }
  int compare(const uint8_t* a, const uint8_t* b) const override {
    return int(mars_word(a, 4, 0)) - int(mars_word(b, 4, 0));
  }
  std::unique_ptr<LaneProgram> compare_program(uint64_t a, const uint8_t*, uint64_t b, const uint8_t*,
                                               uint32_t first_loop) const override {
    return std::make_unique<StepProgram>([=](unsigned s, uint32_t& loop, OpList& o) {
      if (s) return false;
      loop = first_loop;
      o.load(0xa000, 4, a);
      o.load(0xa010, 4, b);
      return true;
    });
  }
  void reduce_emits(const std::vector<MarsPair>& g, std::vector<MarsPair>& out) const override {
    uint32_t sum = 0;
    for (const MarsPair& p : g) sum += mars_word(p.val.data(), 4, 0);
    out.push_back({g.front().key, word(sum)});
  }
  std::unique_ptr<LaneProgram> reduce_program(MarsThread t, bool count) const override {
    auto th = std::make_shared<MarsThread>(t);
    return std::make_unique<StepProgram>([th, count](unsigned s, uint32_t& loop, OpList& o) {
      if (s) return false;
      loop = 1;
      if (count) th->emit_count(o);
      else th->emit(o, th->key_addr(), false, 0, true);
      return true;
    });
  }
};

class ToyWorkload : public MarsWorkload {
 public:
  explicit ToyWorkload(unsigned records, MarsWorkflow wf) : MarsWorkload("toy") {
    MarsInput in;
    for (uint32_t r = 0; r < records; ++r) in.add(word(r), word(r));
    job = MarsJob::make(space_, "toy", "toy", std::make_shared<Toy>(), std::move(in), wf, launches_);
  }
  std::shared_ptr<MarsJob> job;
};

uint32_t read_word(const AddressSpace& sp, const std::map<uint64_t, uint32_t>& mem, uint64_t a) {
  const auto it = mem.find(a);
  if (it != mem.end()) return it->second;
  unsigned char b[4];
  sp.read_contents(a, 4, b);
  return mars_word(b, 4, 0);
}
}  // namespace

TEST_CASE("mars runtime: map, group and reduce give the hand results and leave them in memory", "[workload][mars]") {
  ToyWorkload w(300, MarsWorkflow::MapReduce);  // keys r * 7 mod 5: 60 records per key
  const MarsJob& j = *w.job;
  REQUIRE(j.intermediate().size() == 300);
  REQUIRE(j.groups().size() == 5);
  for (uint32_t g = 0; g < 5; ++g) {
    CHECK(j.groups()[g] == std::pair<uint32_t, uint32_t>{60 * g, 60 * (g + 1)});
    CHECK(mars_word(j.sorted()[60 * g].key.data(), 4, 0) == g);
  }
  // Key g's values: the r with 7 r = g mod 5, i.e. r = 3 g mod 5: sum over 60 such r.
  REQUIRE(j.output().size() == 5);
  for (uint32_t g = 0; g < 5; ++g) {
    uint32_t sum = 0;
    for (uint32_t r = 0; r < 300; ++r)
      if (r * 7 % 5 == g) sum += r;
    CHECK(mars_word(j.output()[g].key.data(), 4, 0) == g);
    CHECK(mars_word(j.output()[g].val.data(), 4, 0) == sum);
  }
  // Replay every launch with values.
  w.enable_values();
  const AddressSpace& sp = w.address_space();
  std::map<uint64_t, uint32_t> mem;
  unsigned launches = 0, bitonic = 0;
  while (auto k = w.next_kernel()) {
    ++launches;
    bitonic += k->name() == "toy.bitonic";
    for (const Stream& s : drain_kernel(*k))
      for (const WarpInstr& in : s)
        if (in.op == WarpInstr::Op::Store)
          for (unsigned l = 0; l < kWarpSize; ++l)
            if (in.lane_active(l)) mem[in.addr[l]] = in.data[l];
  }
  CHECK(bitonic == 9 * 10 / 2);  // 300 entries padded to 512
  const auto& a = j.arrays();
  for (uint32_t i = 0; i < 300; ++i) {
    CHECK(read_word(sp, mem, a.map.keys + 4 * i) == i * 7 % 5);
    for (unsigned f = 0; f < 4; ++f) CHECK(read_word(sp, mem, a.map.index + 16 * i + 4 * f) == j.inter_index()[i].field(f));
  }
  // The sorted d_R: 212 padding entries first, then the 300 sorted ones.
  const uint64_t dr = sp.base("toy.group.sort_R");
  CHECK(int32_t(read_word(sp, mem, dr)) == -1);
  uint32_t prev = 0;
  for (uint32_t i = 212; i < 512; ++i) {
    const uint32_t key_off = read_word(sp, mem, dr + 16 * i);
    const uint32_t key = read_word(sp, mem, a.map.keys + key_off);
    CHECK(key >= prev);
    prev = key;
  }
  const uint64_t ok = sp.base("toy.group.output_keys"), ov = sp.base("toy.group.output_vals");
  const uint64_t oi = sp.base("toy.group.output_index"), kr = sp.base("toy.group.key_list_range");
  for (uint32_t i = 0; i < 300; ++i) {
    CHECK(read_word(sp, mem, ok + 4 * i) == mars_word(j.sorted()[i].key.data(), 4, 0));
    CHECK(read_word(sp, mem, ov + 4 * i) == mars_word(j.sorted()[i].val.data(), 4, 0));
    CHECK(read_word(sp, mem, oi + 16 * i) == 4 * i);  // new key offset
  }
  for (uint32_t g = 0; g < 5; ++g) {
    CHECK(read_word(sp, mem, kr + 8 * g) == 60 * g);
    CHECK(read_word(sp, mem, kr + 8 * g + 4) == 60 * (g + 1));
    CHECK(read_word(sp, mem, a.reduce.vals + 4 * g) == mars_word(j.output()[g].val.data(), 4, 0));
    CHECK(read_word(sp, mem, a.reduce.keys + 4 * g) == g);
  }
  CHECK(launches > bitonic + 20);
}

TEST_CASE("mars runtime: a map-only job has no group; emitting nothing is an error", "[workload][mars]") {
  ToyWorkload w(10, MarsWorkflow::MapOnly);
  CHECK(w.launches() == 5);  // map_count, three one-block scans, map
  REQUIRE_THROWS_WITH(w.job->groups(), Contains("map-only"));
  REQUIRE_THROWS_WITH(ToyWorkload(0, MarsWorkflow::MapOnly), Contains("without input records"));
}
