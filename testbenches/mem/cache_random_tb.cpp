// Cache property tests: 10^4 random reads and writes over a small footprint, sent one at a time,
// against a reference model written here (set-associative, LRU, same write and allocation
// policy, fills returned at once): the same requests must miss, the same dirty lines must be
// written back in the same order, and the counters must agree.
#include <catch2/catch.hpp>

#include <random>

#include "cache_fixture.h"

using namespace gpusc;
using namespace gpusc::tb;

namespace {


// Reference model: set-associative, LRU, one request at a time, fills return at once.
struct RefCache {
  struct Line {
    uint64_t tag = 0;
    uint32_t valid = 0;
    bool dirty = false;
    uint64_t used = 0;
  };
  unsigned sets, ways;
  bool write_back, sectored;
  std::vector<Line> lines;
  uint64_t clock = 0;
  std::vector<uint64_t> writebacks;
  std::vector<std::pair<uint64_t, bool>> evictions;  // (line, dirty), in order

  RefCache(unsigned s, unsigned w, bool wb, bool sec) : sets(s), ways(w), write_back(wb), sectored(sec), lines(s * w) {}
  Line* find(uint64_t line) {
    for (unsigned w = 0; w < ways; ++w) {
      Line& l = lines[(line / 128 % sets) * ways + w];
      if (l.valid && l.tag == line) return &l;
    }
    return nullptr;
  }
  Line& place(uint64_t line) {
    Line* best = nullptr;
    for (unsigned w = 0; w < ways; ++w) {
      Line& l = lines[(line / 128 % sets) * ways + w];
      if (!l.valid) { best = &l; break; }
      if (!best || l.used < best->used) best = &l;
    }
    if (best->valid) evictions.emplace_back(best->tag, best->dirty);
    if (best->valid && best->dirty) writebacks.push_back(best->tag);
    *best = Line{line, 0, false, 0};
    return *best;
  }
  // Returns true when the read missed (one fetch).
  bool read(uint64_t line, uint32_t sectors, bool allocate) {
    Line* l = find(line);
    const uint32_t need = sectored ? sectors : 0xf;
    if (l && (l->valid & need) == need) {
      l->used = ++clock;
      return false;
    }
    if (!l && allocate) l = &place(line);
    if (l) {
      l->valid = 0xf;
      l->used = ++clock;
    }
    return true;
  }
  void write(uint64_t line, uint32_t sectors) {
    Line* l = find(line);
    if (!l && !write_back) return;
    if (!l) l = &place(line);
    l->valid |= sectors;
    l->dirty = write_back;
    l->used = ++clock;
  }
};

// Sends ops one at a time: the next one the cycle after the previous one's reply arrived.
class ClosedLoop : public sc_core::sc_module, private Tickable {
 public:
  struct Op {
    bool write;
    uint64_t addr;
    uint32_t sectors;
  };
  MsgOut out{"out"};
  MsgIn in{"in"};
  size_t replies = 0;
  bool order_ok = true;

  ClosedLoop(sc_core::sc_module_name name, ClockDomain& clk, PayloadPool& pool, std::vector<Op> ops)
      : sc_core::sc_module(name), clk_(clk), pool_(pool), ops_(std::move(ops)) {
    in.set_accept([this](Payload& gp) {
      order_ok &= gp.get_extension<MemExt>()->pc == replies;
      ++replies;
      gp.release();
      clk_.wake_after_now(*this);
      return true;
    });
    clk_.wake(*this, 1);
  }

 private:
  bool tick(uint64_t) override {
    if (replies == ops_.size() || sent_ > replies || out.busy()) return false;
    const Op& op = ops_[sent_];
    Payload& gp = pool_.acquire();
    MemExt& e = *gp.get_extension<MemExt>();
    e.kind = op.write ? MemKind::Write : MemKind::Read;
    e.src = kSmNode;
    e.pc = sent_++;
    e.sector_mask = op.sectors;
    gp.set_address(op.addr);
    gp.set_command(op.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    gp.set_data_length(op.write ? 8 : 128);
    out.send(gp);
    return false;
  }
  ClockDomain& clk_;
  PayloadPool& pool_;
  std::vector<Op> ops_;
  size_t sent_ = 0;
};

struct StreamBench : sc_core::sc_module {
  ClockDomain clk{"clk", 1000.0};
  PayloadPool pool{128};
  Cache cache;
  ClosedLoop drv;
  MemModel mem;
  StreamBench(sc_core::sc_module_name name, const Cache::Params& p, std::vector<ClosedLoop::Op> ops)
      : sc_core::sc_module(name),
        cache("cache", p, clk, kCacheNode),
        drv("drv", clk, pool, std::move(ops)),
        mem("mem", clk, 3, p.write_policy == "write-through") {
    drv.out.bind(cache.up_in);
    cache.up_out.bind(drv.in);
    cache.down_out.bind(mem.in);
    mem.out.bind(cache.down_in);
  }
};

std::vector<ClosedLoop::Op> random_ops(unsigned n, unsigned lines, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<ClosedLoop::Op> ops(n);
  for (auto& op : ops) {
    op.write = rng() % 10 < 3;
    op.addr = (rng() % lines) * 128;
    op.sectors = 1 + static_cast<uint32_t>(rng() % 15);
  }
  return ops;
}

// Runs `ops` through a cache with params p and through the reference; compares which requests
// fetched, the write-back sequence and the counters. With `observe`, two eviction observers and a
// miss observer are attached and must see each eviction and each miss of the reference exactly
// once, in order.
void compare_with_reference(const Cache::Params& p, bool (*allocate)(uint64_t), bool observe = false) {
  const auto ops = random_ops(10000, 16, 42);
  StreamBench b("b", p, ops);
  b.cache.set_allocate([allocate](const Payload& gp) { return allocate(gp.get_address()); });
  std::vector<std::pair<uint64_t, bool>> evicted, evicted2;
  std::vector<uint64_t> missed;  // pc of the request that allocated the MSHR
  if (observe) {
    b.cache.on_evict([&](uint64_t line, bool dirty) { evicted.emplace_back(line, dirty); });
    b.cache.on_evict([&](uint64_t line, bool dirty) { evicted2.emplace_back(line, dirty); });
    b.cache.on_miss([&](const Payload& gp, uint64_t) { missed.push_back(gp.get_extension<MemExt>()->pc); });
  }
  sc_core::sc_start(b.clk.time_of(400000));
  REQUIRE(b.drv.replies == ops.size());
  CHECK(b.drv.order_ok);

  RefCache ref(p.sets, p.ways, p.write_policy == "write-back", p.sectored);
  std::vector<uint64_t> ref_misses;
  uint64_t reads = 0, writes = 0;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].write) {
      ref.write(ops[i].addr, ops[i].sectors);
      ++writes;
    } else {
      ++reads;
      if (ref.read(ops[i].addr, ops[i].sectors, allocate(ops[i].addr))) ref_misses.push_back(i);
    }
  }
  std::vector<uint64_t> dut_misses, dut_writebacks;
  uint64_t forwarded_writes = 0;
  for (const auto& r : b.mem.log()) {
    if (r.kind == MemKind::Read) dut_misses.push_back(r.ext.pc);
    else if (r.ext.src == kCacheNode) dut_writebacks.push_back(r.addr);
    else ++forwarded_writes;
  }
  CHECK(dut_misses == ref_misses);
  CHECK(dut_writebacks == ref.writebacks);
  CHECK(forwarded_writes == (p.write_policy == "write-through" ? writes : 0));
  CHECK(stat(b.cache, "reads") == reads);
  CHECK(stat(b.cache, "writes") == writes);
  CHECK(stat(b.cache, "read_misses") == ref_misses.size());
  CHECK(stat(b.cache, "read_hits") == reads - ref_misses.size());
  // Sanity: the stream exercises both outcomes and, for write-back, evictions of dirty lines.
  CHECK(ref_misses.size() > 1000);
  CHECK(reads - ref_misses.size() > 1000);
  if (p.write_policy == "write-back") CHECK(ref.writebacks.size() > 100);
  if (observe) {
    CHECK(evicted == ref.evictions);
    CHECK(evicted2 == ref.evictions);
    CHECK(evicted.size() == stat(b.cache, "evictions"));
    CHECK(missed == ref_misses);
    CHECK(ref.evictions.size() > 1000);
  }
  CHECK(b.cache.idle());
  CHECK(b.pool.in_use() == 0);
  CHECK(invariant_failures().empty());
}


}  // namespace

TEST_CASE("Cache: random stream through a write-through cache matches the reference model",
          "[cache][property]") {
  Cache::Params p;  // 4 sets x 2 ways, 16 lines of footprint; lines 0, 5, 10, 15 never allocate
  p.sets = 4;
  p.ways = 2;
  compare_with_reference(p, [](uint64_t a) { return (a / 128) % 5 != 0; });
}

TEST_CASE("Cache: random stream through a sectored write-back cache matches the reference model",
          "[cache][property]") {
  Cache::Params p = l2_params();
  p.sets = 4;
  compare_with_reference(p, [](uint64_t) { return true; });
}

TEST_CASE("Cache: random stream: observers see each eviction and each miss exactly once (write-through)",
          "[cache][property][hooks]") {
  Cache::Params p;
  p.sets = 4;
  p.ways = 2;
  compare_with_reference(p, [](uint64_t a) { return (a / 128) % 5 != 0; }, true);
}

TEST_CASE("Cache: random stream: observers see each eviction and each miss exactly once (write-back)",
          "[cache][property][hooks]") {
  Cache::Params p = l2_params();
  p.sets = 4;
  compare_with_reference(p, [](uint64_t) { return true; }, true);
}
