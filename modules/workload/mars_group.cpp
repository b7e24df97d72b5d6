#include "workload/mars_group.h"

#include <algorithm>

#include "common/report.h"

namespace gpusc {

namespace {

using namespace mars_pc;
constexpr uint32_t kAfterCompare = 1000000;  // loop id of the code after a compare

// Host view of the index being sorted: entry ids (-1 = padding) and the pairs they point to.
struct SortState {
  std::shared_ptr<const MarsApp> app;
  std::shared_ptr<const std::vector<MarsPair>> pairs;
  std::shared_ptr<const std::vector<MarsInt4>> index;  // per entry id
  MarsInt4 entry(int32_t id) const { return id < 0 ? MarsInt4{-1, -1, 0, 0} : (*index)[id]; }
  // Mars's getCompareValue.
  int compare(int32_t a, int32_t b) const {
    if (a < 0 || b < 0) return a == b ? 0 : (a < 0 ? -1 : 1);
    const int c = app->compare((*pairs)[a].key.data(), (*pairs)[b].key.data());
    return c > 0 ? 1 : (c < 0 ? -1 : 0);
  }
};

void bitonic_step(const SortState& s, std::vector<int32_t>& r, uint64_t k, uint64_t j) {
  for (uint64_t i = 0; i < r.size(); ++i) {
    const uint64_t p = i ^ j;
    if (p <= i) continue;
    const int c = s.compare(r[i], r[p]);
    if (((i & k) == 0 && c == 1) || ((i & k) != 0 && c == -1)) std::swap(r[i], r[p]);
  }
}

// The ops of getCompareValue(a, b) between ops `before` and `after` of one thread: the app's
// compare when both entries are real, keys at key_base + x.
std::unique_ptr<LaneProgram> with_compare(const SortState& s, uint64_t key_base, const std::vector<uint8_t>* ka,
                                          int32_t a, const std::vector<uint8_t>* kb, int32_t b,
                                          ListProgram::Iteration before, ListProgram::Iteration after) {
  std::vector<std::unique_ptr<LaneProgram>> parts;
  parts.push_back(std::make_unique<ListProgram>(std::vector<ListProgram::Iteration>{std::move(before)}));
  if (a >= 0 && b >= 0)
    parts.push_back(s.app->compare_program(key_base + uint32_t(s.entry(a).x), ka->data(),
                                           key_base + uint32_t(s.entry(b).x), kb->data(), 1));
  parts.push_back(std::make_unique<ListProgram>(std::vector<ListProgram::Iteration>{std::move(after)}));
  return std::make_unique<ChainProgram>(std::move(parts));
}

void store_int4(OpList& o, uint32_t pc, uint64_t addr, const MarsInt4& v) {
  for (unsigned f = 0; f < 4; ++f) o.store(pc + 0x10 * f, addr + 4 * f, v.field(f));
}

// 1-D helper launches as Mars runs them: chunks of `chunk` elements, `threads`-thread CTAs.
void add_chunked(std::vector<MarsLaunch>& launches, const std::string& name, uint64_t n, unsigned threads,
                 uint64_t chunk, const std::function<std::unique_ptr<LaneProgram>(uint64_t pos)>& f) {
  for (uint64_t start = 0; start < n; start += chunk) {
    const uint64_t len = std::min(chunk, n - start);
    MarsLaunch m;
    m.name = name;
    m.threads = threads;
    m.ctas = ctas_for(len, threads);
    m.program = [f, start, n](uint64_t tid) -> std::unique_ptr<LaneProgram> {
      const uint64_t pos = start + tid;
      if (pos >= n) {  // if (pos < rLen) fails
        std::vector<LaneOp> ops;
        OpList o(ops, 999999);  // after the bound test every thread makes, at its own position
        o.compute(kScatter + 0x3f0);
        return std::make_unique<ListProgram>(std::vector<ListProgram::Iteration>{{0, ops}});
      }
      return f(pos);
    };
    launches.push_back(std::move(m));
  }
}

std::unique_ptr<LaneProgram> list1(const std::function<void(OpList&)>& f) {
  std::vector<LaneOp> ops;
  OpList o(ops);
  f(o);
  return std::make_unique<ListProgram>(std::vector<ListProgram::Iteration>{{0, std::move(ops)}});
}

// copyChunks' kernel: pair `pos` copies `size` bytes from src + offset to dst + sum, byte loads
// and one word store per 4 bytes; then records (sum, size) in d_PA[pos].
std::unique_ptr<LaneProgram> copy_thread(uint64_t pa, uint64_t sum_arr, uint64_t pos, uint64_t src, uint64_t dst,
                                         std::shared_ptr<const std::vector<uint8_t>> bytes, uint32_t sum,
                                         uint32_t size) {
  return std::make_unique<StepProgram>([=](unsigned s, uint32_t& loop, OpList& o) {
    if (s == 0) {
      loop = 0;
      o.load(kScatter + 0x100, 8, pa + 8 * pos);
      o.load(kScatter + 0x110, 4, sum_arr + 4 * pos);
      o.compute(kScatter + 0x120);
      return true;
    }
    if (s <= size) {
      const uint32_t i = s - 1;
      loop = 1;
      o.load(kScatter + 0x130, 1, src + i);
      o.compute(kScatter + 0x140);
      if (i % 4 == 3) o.store(kScatter + 0x150, dst + i - 3, mars_word(bytes->data(), bytes->size(), i - 3));
      return true;
    }
    if (s == size + 1) {
      loop = 2;
      o.store(kScatter + 0x160, pa + 8 * pos, sum);
      o.store(kScatter + 0x170, pa + 8 * pos + 4, size);
      return true;
    }
    return false;
  });
}

}  // namespace

std::unique_ptr<MarsGroupResult> mars_group(AddressSpace& space, const std::string& prefix, const std::string& kp,
                                            std::shared_ptr<const MarsApp> app, uint64_t inter_keys,
                                            uint64_t inter_vals, const std::vector<MarsPair>& inter,
                                            const std::vector<MarsInt4>& inter_index,
                                            std::vector<MarsLaunch>& launches) {
  const uint64_t n = inter.size();
  if (n == 0) error("gpusc.workload", kp, ": the map emitted nothing, so there is nothing to group");
  auto res = std::make_unique<MarsGroupResult>();
  SortState st{app, std::make_shared<std::vector<MarsPair>>(inter), std::make_shared<std::vector<MarsInt4>>(inter_index)};
  uint64_t nr = 256;
  while (nr < n) nr *= 2;
  const std::string g = prefix + ".group.";
  auto alloc = [&](const std::string& name, uint64_t bytes) {
    const uint64_t base = space.allocate(g + name, bytes);
    space.set_contents(g + name, AddressSpace::zeros());
    return base;
  };

  // 1. Bitonic sort of d_R (the index copied in, padded with -1 entries).
  std::vector<int32_t> init(nr, -1);
  for (uint64_t i = 0; i < n; ++i) init[i] = static_cast<int32_t>(i);
  const uint64_t d_r = alloc("sort_R", 16 * nr);
  {
    auto ids = std::make_shared<const std::vector<int32_t>>(init);
    space.set_contents(g + "sort_R", AddressSpace::words([st, ids](uint64_t w) {
                         return st.entry((*ids)[w / 4]).field(static_cast<unsigned>(w % 4));
                       }));
  }
  auto cur = std::make_shared<std::vector<int32_t>>(init);  // state at launch time
  std::vector<int32_t> host = init;
  for (uint64_t k = 2; k <= nr; k *= 2)
    for (uint64_t j = k / 2; j > 0; j /= 2) {
      bitonic_step(st, host, k, j);
      auto before = std::make_shared<std::shared_ptr<const std::vector<int32_t>>>();
      MarsLaunch m;
      m.name = kp + ".bitonic";
      m.threads = 256;
      m.ctas = static_cast<unsigned>(nr / 256);
      m.prepare = [cur, before, st, k, j] {
        *before = std::make_shared<const std::vector<int32_t>>(*cur);
        bitonic_step(st, *cur, k, j);
      };
      m.program = [before, st, k, j, d_r, inter_keys](uint64_t i) -> std::unique_ptr<LaneProgram> {
        const std::vector<int32_t>& r = **before;
        const uint64_t p = i ^ j;
        ListProgram::Iteration head{0, {}}, tail{kAfterCompare, {}};
        OpList h(head.ops);
        h.compute(kBitonic);
        h.compute(kBitonic + 0x10);
        h.compute(kBitonic + 0x20);  // ixj > dataIdx
        if (p <= i) return std::make_unique<ListProgram>(std::vector<ListProgram::Iteration>{std::move(head)});
        h.load(kBitonic + 0x30, 16, d_r + 16 * i);
        h.load(kBitonic + 0x40, 16, d_r + 16 * p);
        h.compute(kBitonic + 0x50);  // (dataIdx & k) == 0, the -1 tests
        const int c = st.compare(r[i], r[p]);
        OpList t(tail.ops);
        t.compute(kBitonic + 0x60);
        if (((i & k) == 0 && c == 1) || ((i & k) != 0 && c == -1)) {
          store_int4(t, kBitonic + 0x100, d_r + 16 * i, st.entry(r[p]));
          store_int4(t, kBitonic + 0x200, d_r + 16 * p, st.entry(r[i]));
        }
        const std::vector<uint8_t>* ka = r[i] >= 0 ? &(*st.pairs)[r[i]].key : nullptr;
        const std::vector<uint8_t>* kb = r[p] >= 0 ? &(*st.pairs)[r[p]].key : nullptr;
        return with_compare(st, inter_keys, ka, r[i], kb, r[p], std::move(head), std::move(tail));
      };
      launches.push_back(std::move(m));
      ++res->sort_launches;
    }
  // The sorted entries (d_R's last n) are copied to d_outputPointerArray.
  std::vector<int32_t> order(host.end() - n, host.end());
  for (int32_t id : order)
    if (id < 0) error("gpusc.workload", kp, ": internal: a padding entry sorted after a real one");
  res->sorted.reserve(n);
  for (int32_t id : order) res->sorted.push_back(inter[id]);
  // New offsets: values, then keys, in sorted order.
  std::vector<MarsInt4> old_index(n), mid_index(n), new_index(n);
  {
    uint32_t ko = 0, vo = 0;
    for (uint64_t i = 0; i < n; ++i) {
      const MarsInt4 e = inter_index[order[i]];
      old_index[i] = e;
      mid_index[i] = MarsInt4{e.x, e.y, int32_t(vo), e.w};
      new_index[i] = MarsInt4{int32_t(ko), e.y, int32_t(vo), e.w};
      ko += e.y;
      vo += e.w;
    }
  }
  res->index = new_index;
  uint64_t key_bytes = 0, val_bytes = 0;
  for (const auto& p : inter) key_bytes += p.key.size(), val_bytes += p.val.size();
  res->index_arr = alloc("output_index", 16 * n);
  {
    auto oi = std::make_shared<const std::vector<MarsInt4>>(old_index);
    space.set_contents(g + "output_index",
                       AddressSpace::words([oi](uint64_t w) { return (*oi)[w / 4].field(static_cast<unsigned>(w % 4)); }));
  }
  res->vals = alloc("output_vals", val_bytes);
  res->keys = alloc("output_keys", key_bytes);
  const uint64_t d_pa = alloc("PA", 8 * n);
  const uint64_t out_index = res->index_arr;

  // 2. Scatter the values (z, w), then the keys (x, y).
  auto sorted = std::make_shared<const std::vector<MarsPair>>(res->sorted);
  for (const bool keys : {false, true}) {
    const std::string what = keys ? "keys" : "vals";
    const unsigned f0 = keys ? 0 : 2;  // first field of the pair
    auto before = std::make_shared<const std::vector<MarsInt4>>(keys ? mid_index : old_index);
    auto after = std::make_shared<const std::vector<MarsInt4>>(keys ? new_index : mid_index);
    add_chunked(launches, kp + (keys ? ".getXYArray" : ".getZWArray"), n, 512, 512 * 512, [=](uint64_t pos) {
      return list1([&](OpList& o) {
        o.compute(kScatter);
        o.load(kScatter + 0x10, 16, out_index + 16 * pos);
        o.store(kScatter + 0x20, d_pa + 8 * pos, (*before)[pos].field(f0));
        o.store(kScatter + 0x30, d_pa + 8 * pos + 4, (*before)[pos].field(f0 + 1));
      });
    });
    const uint64_t d_size = alloc(what + ".size", 4 * n), d_sum = alloc(what + ".sum", 4 * n);
    std::vector<uint32_t> sizes(n);
    for (uint64_t i = 0; i < n; ++i) sizes[i] = (*before)[i].field(f0 + 1);
    add_chunked(launches, kp + ".getIntYArray", n, 512, 512 * 512, [=](uint64_t pos) {
      return list1([&](OpList& o) {
        o.compute(kScatter + 0x40);
        o.load(kScatter + 0x50, 8, d_pa + 8 * pos);
        o.store(kScatter + 0x60, d_size + 4 * pos, (*before)[pos].field(f0 + 1));
      });
    });
    const std::vector<uint32_t> sums = mars_scan(space, g + what + ".scan", kp + ".scan_" + what, d_size, d_sum, sizes, launches);
    const uint64_t src = keys ? inter_keys : inter_vals, dst = keys ? res->keys : res->vals;
    add_chunked(launches, kp + ".copyChunks", n, 128, 128 * 512, [=](uint64_t pos) {
      const MarsPair& pr = (*sorted)[pos];
      auto bytes = std::shared_ptr<const std::vector<uint8_t>>(sorted, keys ? &pr.key : &pr.val);
      return copy_thread(d_pa, d_sum, pos, src + (*before)[pos].field(f0), dst + sums[pos], bytes, sums[pos],
                         (*before)[pos].field(f0 + 1));
    });
    add_chunked(launches, kp + (keys ? ".setXYArray" : ".setZWArray"), n, 512, 512 * 512, [=](uint64_t pos) {
      return list1([&](OpList& o) {
        o.compute(kScatter + 0x200);
        o.load(kScatter + 0x210, 16, out_index + 16 * pos);
        o.load(kScatter + 0x220, 8, d_pa + 8 * pos);
        store_int4(o, kScatter + 0x230, out_index + 16 * pos, (*after)[pos]);
      });
    });
  }

  // 3. Group boundaries.
  std::vector<uint32_t> start(n, 0);
  for (uint64_t i = 0; i < n; ++i)
    start[i] = i == 0 || st.app->compare((*sorted)[i].key.data(), (*sorted)[i - 1].key.data()) != 0;
  const uint64_t d_start = alloc("start", 4 * n), d_start_sum = alloc("start_sum", 4 * n);
  {
    auto ni = std::make_shared<const std::vector<MarsInt4>>(new_index);
    SortState ss{app, sorted, ni};
    const uint64_t out_keys = res->keys;
    add_chunked(launches, kp + ".getChunkBoundary", n, 512, 512 * 512, [=](uint64_t pos) -> std::unique_ptr<LaneProgram> {
      ListProgram::Iteration head{0, {}}, tail{kAfterCompare, {}};
      OpList h(head.ops), t(tail.ops);
      h.compute(kBoundary);
      const uint32_t flag = start[pos];
      if (pos == 0) {
        t.store(kBoundary + 0x40, d_start, 1);
        return std::make_unique<ListProgram>(std::vector<ListProgram::Iteration>{std::move(head), std::move(tail)});
      }
      h.load(kBoundary + 0x10, 16, out_index + 16 * pos);
      h.load(kBoundary + 0x20, 16, out_index + 16 * (pos - 1));
      h.compute(kBoundary + 0x30);
      t.store(kBoundary + 0x40, d_start + 4 * pos, flag);
      const auto a = static_cast<int32_t>(pos), b = static_cast<int32_t>(pos - 1);
      return with_compare(ss, out_keys, &(*sorted)[pos].key, a, &(*sorted)[pos - 1].key, b, std::move(head),
                          std::move(tail));
    });
  }
  const std::vector<uint32_t> start_sum = mars_scan(space, g + "start.scan", kp + ".scan_starts", d_start, d_start_sum, start, launches);
  const uint64_t groups = uint64_t(start_sum.back()) + start.back();
  std::vector<uint32_t> first;
  for (uint64_t i = 0; i < n; ++i)
    if (start[i]) first.push_back(static_cast<uint32_t>(i));
  for (uint64_t gi = 0; gi < groups; ++gi)
    res->groups.emplace_back(first[gi], gi + 1 < groups ? first[gi + 1] : static_cast<uint32_t>(n));
  const uint64_t d_boundary = alloc("boundary", 4 * groups), d_range = alloc("key_list_range", 8 * groups);
  add_chunked(launches, kp + ".writeBoundary", n, 512, 512 * 512, [=](uint64_t pos) {
    return list1([&](OpList& o) {
      o.compute(kBoundary + 0x100);
      o.load(kBoundary + 0x110, 4, d_start + 4 * pos);
      o.load(kBoundary + 0x120, 4, d_start_sum + 4 * pos);
      o.compute(kBoundary + 0x130);
      if (start[pos]) o.store(kBoundary + 0x140, d_boundary + 4 * uint64_t(start_sum[pos]), static_cast<uint32_t>(pos));
    });
  });
  auto grp = std::make_shared<const std::vector<std::pair<uint32_t, uint32_t>>>(res->groups);
  add_chunked(launches, kp + ".setBoundaryInt2", groups, 512, 512 * 512, [=](uint64_t pos) {
    return list1([&](OpList& o) {
      o.compute(kBoundary + 0x200);
      o.load(kBoundary + 0x210, 4, d_boundary + 4 * pos);
      if (pos + 1 != groups) o.load(kBoundary + 0x220, 4, d_boundary + 4 * (pos + 1));
      else o.skip(1);
      o.compute(kBoundary + 0x230);
      o.store(kBoundary + 0x240, d_range + 8 * pos, (*grp)[pos].first);
      o.store(kBoundary + 0x250, d_range + 8 * pos + 4, (*grp)[pos].second);
    });
  });
  return res;
}

}  // namespace gpusc
