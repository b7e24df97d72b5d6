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

// ---- fetch_granularity = sector (the critical data tracker, paper 002 §3.2-3.3) ----

namespace {

// Index of the first element where a and b differ (the shorter size if one is a prefix).
template <class V> size_t first_difference(const V& a, const V& b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  return i == a.size() && i == b.size() ? SIZE_MAX : i;
}

// Sector-fetch reference: one request at a time, fills at once. A read that misses fetches the
// sectors it needs that are not valid, and only those become valid.
struct RefSectorCache : RefCache {
  using RefCache::RefCache;
  // Returns the sectors fetched (0: a hit).
  uint32_t read_sectors(uint64_t line, uint32_t sectors, bool allocate) {
    Line* l = find(line);
    if (l && (l->valid & sectors) == sectors) {
      l->used = ++clock;
      return 0;
    }
    const uint32_t fetch = sectors & ~(l ? l->valid : 0u);
    if (!l && allocate) l = &place(line);
    if (l) {
      l->valid |= fetch;
      l->used = ++clock;
    }
    return fetch;
  }
};

void compare_sector_with_reference(Cache::Params p, bool (*allocate)(uint64_t)) {
  p.sectored = true;
  p.fetch_granularity = "sector";
  const auto ops = random_ops(10000, 16, 7);
  StreamBench b("b", p, ops);
  b.cache.set_allocate([allocate](const Payload& gp) { return allocate(gp.get_address()); });
  sc_core::sc_start(b.clk.time_of(400000));
  REQUIRE(b.drv.replies == ops.size());
  CHECK(b.drv.order_ok);

  RefSectorCache ref(p.sets, p.ways, p.write_policy == "write-back", true);
  std::vector<std::pair<uint64_t, uint32_t>> ref_fetches;  // (pc, sectors)
  uint64_t first = 0, hit_invalid = 0, sectors = 0;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].write) {
      ref.write(ops[i].addr, ops[i].sectors);
      continue;
    }
    const bool present = ref.find(ops[i].addr) != nullptr;
    if (const uint32_t f = ref.read_sectors(ops[i].addr, ops[i].sectors, allocate(ops[i].addr))) {
      ref_fetches.emplace_back(i, f);
      ++(present ? hit_invalid : first);
      sectors += static_cast<uint64_t>(__builtin_popcount(f));
    }
  }
  std::vector<std::pair<uint64_t, uint32_t>> dut_fetches;
  std::vector<uint64_t> dut_writebacks;
  for (const auto& r : b.mem.log()) {
    if (r.kind == MemKind::Read) dut_fetches.emplace_back(r.ext.pc, r.ext.sector_mask);
    else if (r.ext.src == kCacheNode) dut_writebacks.push_back(r.addr);
  }
  CHECK(dut_fetches == ref_fetches);
  CHECK(dut_writebacks == ref.writebacks);
  CHECK(stat(b.cache, "first_misses") == first);
  CHECK(stat(b.cache, "hit_but_invalid") == hit_invalid);
  CHECK(stat(b.cache, "subsequent_misses") == 0);  // one request at a time: no MSHR is ever shared
  CHECK(stat(b.cache, "sectors_fetched") == sectors);
  CHECK(hit_invalid > 500);  // the stream exercises HI
  CHECK(first > 500);
  CHECK(b.cache.idle());
  CHECK(b.pool.in_use() == 0);
  CHECK(invariant_failures().empty());
}

// Open loop: n requests offered at random cycles (several in flight, MSHR merges and limits),
// reads ask the whole line (sector_mask 0 or 1111), writes random sectors (whole_writes: 1111).
void offer_random(Bench& b, unsigned n, uint64_t seed, bool whole_writes) {
  std::mt19937_64 rng(seed);
  uint64_t c = 10;
  for (unsigned i = 0; i < n; ++i) {
    c += rng() % 4;
    const uint64_t addr = (rng() % 16) * 128;
    const uint32_t sectors = 1 + static_cast<uint32_t>(rng() % 15);
    if (rng() % 10 < 3) b.write(c, addr, i, whole_writes ? 0xfu : sectors);
    else b.read(c, addr, i, rng() % 2 ? 0xfu : 0u);
  }
}

// Where the two modes must agree: every line the cache holds is whole. A write-through cache
// never allocates on a write, so its lines come from fills only; a write-back cache gets whole
// writes here. (With partial writes, a write-back line can hold some sectors, a sector-mode HI
// fetches only the others, and if the line is evicted before that fill returns, the modes
// rightly part: line mode installs the whole line, sector mode the fetched sectors.)
void line_and_sector_agree(Cache::Params p) {
  p.sectored = true;
  p.sets = 4;
  p.ways = 2;
  p.mshrs = 4;
  p.mshr_merge = 2;
  Cache::Params s = p;
  s.fetch_granularity = "sector";
  const bool acks = p.write_policy == "write-through";  // a write-back L2's write-backs get no ack
  Bench line("line", p, /*mem_latency=*/20, acks), sector("sector", s, /*mem_latency=*/20, acks);
  for (Bench* b : {&line, &sector}) offer_random(*b, 3000, 11, !acks);
  sc_core::sc_start(line.clk.time_of(200000));
  REQUIRE(line.replies().size() == 3000);
  std::vector<std::tuple<uint64_t, uint64_t, bool>> ra, rb;  // (pc, cycle, kind is read)
  for (const auto& a : line.replies()) ra.emplace_back(a.ext.pc, a.cycle, a.ext.kind == MemKind::Read);
  for (const auto& a : sector.replies()) rb.emplace_back(a.ext.pc, a.cycle, a.ext.kind == MemKind::Read);
  CHECK(first_difference(ra, rb) == SIZE_MAX);  // the index of the first reply that differs
  std::vector<std::tuple<uint64_t, uint64_t, MemKind>> ma, mb;  // (cycle, address, kind) sent down
  for (const auto& r : line.mem.log()) ma.emplace_back(r.cycle, r.addr, r.kind);
  for (const auto& r : sector.mem.log()) mb.emplace_back(r.cycle, r.addr, r.kind);
  CHECK(first_difference(ma, mb) == SIZE_MAX);
  for (const char* n : {"reads", "writes", "read_hits", "read_misses", "mshr_merges", "sector_misses", "fetches",
                        "fills", "evictions", "writebacks", "reservation_fails", "reply_stall_cycles"}) {
    INFO(n);
    CHECK(stat(line.cache, n) == stat(sector.cache, n));
  }
  CHECK(stat(sector.cache, "subsequent_misses") == 0);  // whole-line reads never lack a pending sector
  CHECK(stat(line.cache, "mshr_merges") > 100);
  CHECK(stat(line.cache, "reservation_fails") > 100);
  CHECK(line.cache.idle());
  CHECK(sector.cache.idle());
  CHECK(invariant_failures().empty());
}

}  // namespace

TEST_CASE("Cache sector fetch: random stream through a write-through cache matches the sector reference",
          "[cache][sector][property]") {
  Cache::Params p;
  p.sets = 4;
  p.ways = 2;
  compare_sector_with_reference(p, [](uint64_t a) { return (a / 128) % 5 != 0; });
}

TEST_CASE("Cache sector fetch: random stream through a write-back cache matches the sector reference",
          "[cache][sector][property]") {
  Cache::Params p = l2_params();
  p.sets = 4;
  compare_sector_with_reference(p, [](uint64_t) { return true; });
}

TEST_CASE("Cache sector fetch: with whole-line reads, line and sector modes give the same replies, cycles and counters (write-through)",
          "[cache][sector][property]") {
  line_and_sector_agree(Cache::Params{});
}

TEST_CASE("Cache sector fetch: with whole-line reads, line and sector modes give the same replies, cycles and counters (write-back)",
          "[cache][sector][property]") {
  line_and_sector_agree(l2_params());
}
