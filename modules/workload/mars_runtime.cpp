#include "workload/mars_runtime.h"

#include <array>

#include "common/report.h"
#include "workload/mars_group.h"

namespace gpusc {

using namespace mars_pc;

uint32_t mars_word(const uint8_t* p, size_t n, size_t at) {
  uint32_t w = 0;
  for (unsigned b = 0; b < 4; ++b)
    if (at + b < n) w |= uint32_t(p[at + b]) << (8 * b);
  return w;
}

std::vector<uint8_t> mars_pad(std::vector<uint8_t> v) {
  while (v.size() % 4) v.push_back(0);
  return v;
}

int32_t mars_hash(const uint8_t* s, uint32_t len) {
  int32_t h = static_cast<int32_t>(len);
  for (uint32_t i = 0; i < len; ++i) {
    const uint32_t shl = static_cast<uint32_t>(h) << 4;
    h = static_cast<int32_t>(shl) ^ (h >> 28) ^ static_cast<int32_t>(static_cast<int8_t>(s[i]));
  }
  return h;
}

uint64_t mars_key_buf(const uint8_t* k) {
  return uint64_t(mars_word(k, 16, 0)) | (uint64_t(mars_word(k, 16, 4)) << 32);
}
uint32_t mars_key_offset(const uint8_t* k) { return mars_word(k, 16, 8); }

std::vector<uint8_t> mars_key(uint64_t buf, uint32_t offset, int32_t hash) {
  std::vector<uint8_t> k(16);
  for (unsigned b = 0; b < 8; ++b) k[b] = uint8_t(buf >> (8 * b));
  for (unsigned b = 0; b < 4; ++b) k[8 + b] = uint8_t(offset >> (8 * b)), k[12 + b] = uint8_t(uint32_t(hash) >> (8 * b));
  return k;
}

namespace {
// Index of the first character where the strings at a and b stop matching (or a NUL).
uint64_t string_steps(const std::vector<uint8_t>& t, uint64_t a, uint64_t b) {
  uint64_t i = 0;
  while (t.at(a + i) == t.at(b + i) && t[a + i] != 0) ++i;
  return i;
}
uint64_t text_index(const uint8_t* k, uint64_t text_base) { return mars_key_buf(k) + mars_key_offset(k) - text_base; }
}  // namespace

int mars_hashed_compare(const uint8_t* ka, const uint8_t* kb, const std::vector<uint8_t>& text, uint64_t text_base) {
  const auto ha = static_cast<int32_t>(mars_word(ka, 16, 12)), hb = static_cast<int32_t>(mars_word(kb, 16, 12));
  if (ha != hb) return ha > hb ? 1 : -1;
  const uint64_t a = text_index(ka, text_base), b = text_index(kb, text_base);
  const uint64_t i = string_steps(text, a, b);
  const auto ca = static_cast<int8_t>(text[a + i]), cb = static_cast<int8_t>(text[b + i]);
  return ca > cb ? 1 : (ca < cb ? -1 : 0);
}

std::unique_ptr<LaneProgram> mars_hashed_compare_program(uint64_t a, const uint8_t* ka, uint64_t b, const uint8_t* kb,
                                                         std::shared_ptr<const std::vector<uint8_t>> text,
                                                         uint64_t text_base, uint32_t first_loop) {
  using namespace mars_pc;
  const bool same = mars_word(ka, 16, 12) == mars_word(kb, 16, 12);
  const uint64_t sa = mars_key_buf(ka) + mars_key_offset(ka), sb = mars_key_buf(kb) + mars_key_offset(kb);
  const uint64_t steps = same ? string_steps(*text, sa - text_base, sb - text_base) + 1 : 0;
  return std::make_unique<StepProgram>([=](unsigned s, uint32_t& loop, OpList& o) {
    constexpr uint32_t pc = 0xa100;
    if (s == 0) {
      loop = first_loop;
      o.load(pc, 4, a + 12);
      o.load(pc + 0x10, 4, b + 12);
      o.compute(pc + 0x20);
      o.compute(pc + 0x30);
      return true;
    }
    if (!same) return false;
    if (s == 1) {
      loop = first_loop + 1;
      o.load(pc + 0x40, 8, a);
      o.load(pc + 0x50, 4, a + 8);
      o.load(pc + 0x60, 8, b);
      o.load(pc + 0x70, 4, b + 8);
      o.compute(pc + 0x80);
      o.compute(pc + 0x90);
      return true;
    }
    if (s < 2 + steps) {
      const uint64_t i = s - 2;
      loop = first_loop + 2;
      o.load(pc + 0xa0, 1, sa + i);
      o.load(pc + 0xb0, 1, sb + i);
      for (unsigned k = 0; k < 4; ++k) o.compute(pc + 0xc0 + 0x10 * k);
      return true;
    }
    if (s == 2 + steps) {
      loop = first_loop + 3;
      o.compute(pc + 0x100);
      o.compute(pc + 0x110);
      return true;
    }
    return false;
  });
}

void MarsInput::add(const std::vector<uint8_t>& key, const std::vector<uint8_t>& val) {
  index.push_back(MarsInt4{static_cast<int32_t>(keys.size()), static_cast<int32_t>(key.size()),
                           static_cast<int32_t>(vals.size()), static_cast<int32_t>(val.size())});
  keys.insert(keys.end(), key.begin(), key.end());
  vals.insert(vals.end(), val.begin(), val.end());
}

// ---- MarsApp defaults: an app without a group or reduce stage ----

int MarsApp::compare(const uint8_t*, const uint8_t*) const {
  error("gpusc.workload", "a Mars application without a compare function cannot group");
}
std::unique_ptr<LaneProgram> MarsApp::compare_program(uint64_t, const uint8_t*, uint64_t, const uint8_t*, uint32_t) const {
  error("gpusc.workload", "a Mars application without a compare function cannot group");
}
void MarsApp::reduce_emits(const std::vector<MarsPair>&, std::vector<MarsPair>&) const {
  error("gpusc.workload", "a Mars application without a reduce function cannot reduce");
}
std::unique_ptr<LaneProgram> MarsApp::reduce_program(MarsThread, bool) const {
  error("gpusc.workload", "a Mars application without a reduce function cannot reduce");
}

// ---- MarsThread ----

uint64_t MarsThread::key_addr() const {
  const MarsJob& j = *job_;
  if (!reduce_) return j.a_.in_keys + uint32_t(j.in_.index.at(tid_).x);
  return j.group_->keys + uint32_t(j.group_->index[j.group_->groups.at(tid_).first].x);
}

uint64_t MarsThread::val_addr() const {
  const MarsJob& j = *job_;
  if (!reduce_) return j.a_.in_vals + uint32_t(j.in_.index.at(tid_).z);
  return j.group_->vals + uint32_t(j.group_->index[j.group_->groups.at(tid_).first].z);
}

void MarsThread::emit_count(OpList& o) {
  const auto& s = job_->side(reduce_);
  const uint64_t first = s.ps_count.at(tid_);
  if (k_ >= s.count[tid_]) error("gpusc.workload", "Mars: thread ", tid_, " emits more pairs on the device than on the host");
  uint32_t ks = 0, vs = 0;
  for (unsigned i = 0; i <= k_; ++i) ks += (*s.pairs)[first + i].key.size(), vs += (*s.pairs)[first + i].val.size();
  const uint32_t start = o.order();
  const uint64_t t4 = 4 * tid_;
  o.load(kEmitCount, 4, s.a.key_size + t4);
  o.compute(kEmitCount + 0x10);
  o.store(kEmitCount + 0x20, s.a.key_size + t4, ks);
  o.load(kEmitCount + 0x30, 4, s.a.val_size + t4);
  o.compute(kEmitCount + 0x40);
  o.store(kEmitCount + 0x50, s.a.val_size + t4, vs);
  o.load(kEmitCount + 0x60, 4, s.a.count + t4);
  o.compute(kEmitCount + 0x70);
  o.store(kEmitCount + 0x80, s.a.count + t4, k_ + 1);
  o.set_order(start + kCountWindow);
  ++k_;
}

void MarsThread::emit(OpList& o, uint64_t key_src, bool key_shared, uint64_t val_src, bool val_shared) {
  const auto& s = job_->side(reduce_);
  if (k_ >= s.count[tid_]) error("gpusc.workload", "Mars: thread ", tid_, " emits more pairs on the device than on the host");
  const uint64_t at = uint64_t(s.ps_count[tid_]) + k_;
  const MarsPair& p = (*s.pairs)[at];
  const MarsInt4& e = (*s.index)[at];
  uint32_t ks = 0, vs = 0;
  for (unsigned i = 0; i <= k_; ++i)
    ks += (*s.pairs)[at - k_ + i].key.size(), vs += (*s.pairs)[at - k_ + i].val.size();
  const uint32_t start = o.order();
  const uint64_t t4 = 4 * tid_;
  o.compute(kEmit);  // __syncthreads
  o.load(kEmit + 0x10, 8, s.a.kv_offsets + 8 * tid_);
  o.load(kEmit + 0x20, 4, s.a.ps_key + t4);
  o.load(kEmit + 0x30, 4, s.a.ps_val + t4);
  o.compute(kEmit + 0x40);
  // Byte-by-byte copies of the key and the value (one word store per 4 bytes).
  auto copy = [&](const std::vector<uint8_t>& bytes, uint64_t src, bool shared, uint64_t dst, uint32_t first, uint32_t pc) {
    for (uint32_t i = 0; i < bytes.size(); ++i) {
      o.set_order(first + 3 * i);
      if (shared) o.compute(pc);
      else o.load(pc, 1, src + i);
      o.compute(pc + 0x10);
      if (i % 4 == 3) o.store(pc + 0x20, dst + i - 3, mars_word(bytes.data(), bytes.size(), i - 3));
    }
  };
  copy(p.key, key_src, key_shared, s.a.keys + uint32_t(e.x), start + 5, key_shared ? kEmit + 0x100 : kEmit + 0x140);
  copy(p.val, val_src, val_shared, s.a.vals + uint32_t(e.z), start + 5 + 3 * kMaxKey,
       val_shared ? kEmit + 0x200 : kEmit + 0x240);
  o.set_order(start + 5 + 3 * (kMaxKey + kMaxVal));
  o.compute(kEmit + 0x300);
  o.store(kEmit + 0x310, s.a.kv_offsets + 8 * tid_, ks);
  o.store(kEmit + 0x320, s.a.kv_offsets + 8 * tid_ + 4, vs);
  o.load(kEmit + 0x330, 4, s.a.cur_index + t4);
  o.load(kEmit + 0x340, 4, s.a.ps_count + t4);
  o.load(kEmit + 0x350, 16, s.a.index + 16 * at);
  if (at > 0) o.load(kEmit + 0x360, 16, s.a.index + 16 * (at - 1));
  else o.skip(1);
  o.compute(kEmit + 0x370);
  o.compute(kEmit + 0x380);
  for (unsigned f = 0; f < 4; ++f) o.store(kEmit + 0x390 + 0x10 * f, s.a.index + 16 * at + 4 * f, e.field(f));
  o.compute(kEmit + 0x3d0);
  o.store(kEmit + 0x3e0, s.a.cur_index + t4, k_ + 1);
  o.set_order(start + kEmitWindow);
  ++k_;
}

// ---- MarsJob ----

MarsJob::MarsJob(std::shared_ptr<const MarsApp> app, MarsInput in) : app_(std::move(app)), in_(std::move(in)) {}
MarsJob::~MarsJob() = default;

const std::vector<MarsPair>& MarsJob::sorted() const {
  if (!group_) error("gpusc.workload", "Mars: a map-only job has no group stage");
  return group_->sorted;
}

const std::vector<std::pair<uint32_t, uint32_t>>& MarsJob::groups() const {
  if (!group_) error("gpusc.workload", "Mars: a map-only job has no group stage");
  return group_->groups;
}

std::shared_ptr<MarsJob> MarsJob::make(AddressSpace& space, const std::string& prefix, const std::string& kp,
                                       std::shared_ptr<const MarsApp> app, MarsInput input, MarsWorkflow wf,
                                       std::vector<MarsLaunch>& launches) {
  std::shared_ptr<MarsJob> j(new MarsJob(std::move(app), std::move(input)));
  j->plan(space, prefix, kp, wf, launches);
  return j;
}

namespace {

uint64_t zeros(AddressSpace& space, const std::string& name, uint64_t bytes) {
  const uint64_t base = space.allocate(name, bytes);
  space.set_contents(name, AddressSpace::zeros());
  return base;
}

// One side's arrays (map or reduce) for t threads and the pairs they emit, allocated in the order of
// MarsJob::SideArrays under `names`.
MarsJob::SideArrays allocate_side(AddressSpace& space, const std::string& p, const std::array<const char*, 11>& names,
                                  uint64_t t, const std::vector<MarsPair>& pairs) {
  uint64_t kb = 0, vb = 0;
  for (const MarsPair& q : pairs) kb += q.key.size(), vb += q.val.size();
  MarsJob::SideArrays a;
  uint64_t* const field[] = {&a.key_size, &a.val_size, &a.count, &a.ps_key, &a.ps_val, &a.ps_count,
                             &a.keys,     &a.vals,     &a.index, &a.kv_offsets, &a.cur_index};
  const uint64_t bytes[] = {4 * t, 4 * t, 4 * t, 4 * t, 4 * t, 4 * t, kb, vb, 16 * pairs.size(), 8 * t, 4 * t};
  for (size_t i = 0; i < names.size(); ++i) *field[i] = zeros(space, p + names[i], bytes[i]);
  return a;
}

uint64_t byte_array(AddressSpace& space, const std::string& name, std::shared_ptr<const std::vector<uint8_t>> v) {
  const uint64_t base = space.allocate(name, v->size());
  space.set_contents(name, AddressSpace::bytes_of([v](uint64_t i) { return (*v)[i]; }));
  return base;
}

uint64_t index_array(AddressSpace& space, const std::string& name, std::shared_ptr<const std::vector<MarsInt4>> v) {
  const uint64_t base = space.allocate(name, 16 * v->size());
  space.set_contents(name, AddressSpace::words([v](uint64_t w) { return (*v)[w / 4].field(static_cast<unsigned>(w % 4)); }));
  return base;
}

// A thread's prologue (loop 0) followed by the app's program.
std::unique_ptr<LaneProgram> then(std::vector<LaneOp> prologue, std::unique_ptr<LaneProgram> body) {
  std::vector<std::unique_ptr<LaneProgram>> parts;
  parts.push_back(std::make_unique<ListProgram>(std::vector<ListProgram::Iteration>{{0, std::move(prologue)}}));
  parts.push_back(std::move(body));
  return std::make_unique<ChainProgram>(std::move(parts));
}

// Per-thread counts and pair layout of one emitting side (map or reduce).
void lay_out(const std::vector<std::vector<MarsPair>>& per_thread, uint64_t threads, std::vector<MarsPair>& pairs,
             std::vector<MarsInt4>& index, std::vector<uint32_t>& kc, std::vector<uint32_t>& vc,
             std::vector<uint32_t>& cc) {
  kc.assign(threads, 0);
  vc.assign(threads, 0);
  cc.assign(threads, 0);
  uint32_t ko = 0, vo = 0;
  for (uint64_t t = 0; t < per_thread.size(); ++t)
    for (const MarsPair& p : per_thread[t]) {
      if (p.key.size() % 4 || p.val.size() % 4 || p.key.empty() || p.val.empty())
        error("gpusc.workload", "Mars: an emitted key or value of ", p.key.size(), " / ", p.val.size(),
              " bytes (the model needs non-empty multiples of 4)");
      if (p.key.size() > MarsThread::kMaxKey || p.val.size() > MarsThread::kMaxVal)
        error("gpusc.workload", "Mars: an emitted key or value of ", p.key.size(), " / ", p.val.size(),
              " bytes exceeds ", MarsThread::kMaxKey, " / ", MarsThread::kMaxVal);
      kc[t] += p.key.size();
      vc[t] += p.val.size();
      ++cc[t];
      index.push_back(MarsInt4{int32_t(ko), int32_t(p.key.size()), int32_t(vo), int32_t(p.val.size())});
      ko += p.key.size();
      vo += p.val.size();
      pairs.push_back(p);
    }
}

}  // namespace

void MarsJob::plan(AddressSpace& space, const std::string& prefix, const std::string& kp, MarsWorkflow wf,
                   std::vector<MarsLaunch>& launches) {
  const std::string p = prefix + ".";
  const uint64_t r = in_.index.size();
  if (r == 0) error("gpusc.workload", kp, ": a Mars job without input records");
  a_.in_keys = byte_array(space, p + "input_keys", std::make_shared<const std::vector<uint8_t>>(in_.keys));
  a_.in_vals = byte_array(space, p + "input_vals", std::make_shared<const std::vector<uint8_t>>(in_.vals));
  a_.in_index = index_array(space, p + "input_index", std::make_shared<const std::vector<MarsInt4>>(in_.index));
  map_threads_ = uint64_t(ctas_for(r, 256)) * 256;
  const uint64_t t = map_threads_;

  // Host: the map's output.
  std::vector<std::vector<MarsPair>> per(r);
  for (uint32_t i = 0; i < r; ++i) app_->map_emits(*this, i, per[i]);
  Side& s = mside_;
  std::vector<uint32_t> key_sizes, val_sizes, counts;
  lay_out(per, t, inter_, inter_index_, key_sizes, val_sizes, counts);
  s.count = counts;
  if (inter_.empty()) error("gpusc.workload", kp, ": the map emitted nothing");
  a_.map = allocate_side(space, p, {"inter_keys_size_per_task", "inter_vals_size_per_task", "inter_count_per_task",
                                    "ps_key_sizes", "ps_val_sizes", "ps_counts", "inter_keys", "inter_vals", "inter_index",
                                    "key_val_offsets", "cur_index"}, t, inter_);
  s.a = a_.map;
  s.pairs = &inter_;
  s.index = &inter_index_;

  std::shared_ptr<const MarsJob> self = shared_from_this();
  const unsigned ctas = static_cast<unsigned>(t / 256);
  MarsLaunch mc;
  mc.name = kp + ".map_count";
  mc.ctas = ctas;
  mc.threads = 256;
  mc.program = [self](uint64_t tid) -> std::unique_ptr<LaneProgram> {
    std::vector<LaneOp> pro;
    OpList o(pro);
    o.compute(kMapPrologue);
    o.compute(kMapPrologue + 0x10);  // index * recordsPerTask >= recordNum
    if (tid >= self->records()) return std::make_unique<ListProgram>(std::vector<ListProgram::Iteration>{{0, pro}});
    o.load(kMapPrologue + 0x20, 16, self->a_.in_index + 16 * tid);
    return then(std::move(pro), self->app_->map_program(MarsThread(self, tid, false), true));
  };
  launches.push_back(std::move(mc));
  s.ps_key = mars_scan(space, p + "scan_keys", kp + ".scan_keys", a_.map.key_size, a_.map.ps_key, key_sizes, launches);
  s.ps_val = mars_scan(space, p + "scan_vals", kp + ".scan_vals", a_.map.val_size, a_.map.ps_val, val_sizes, launches);
  s.ps_count = mars_scan(space, p + "scan_counts", kp + ".scan_counts", a_.map.count, a_.map.ps_count, counts, launches);
  MarsLaunch mp;
  mp.name = kp + ".map";
  mp.ctas = ctas;
  mp.threads = 256;
  mp.program = [self](uint64_t tid) -> std::unique_ptr<LaneProgram> {
    const Side& ms = self->mside_;
    const Arrays& a = self->a_;
    std::vector<LaneOp> pro;
    OpList o(pro);
    o.compute(kMapPrologue + 0x100);
    o.compute(kMapPrologue + 0x110);
    if (tid >= self->records()) return std::make_unique<ListProgram>(std::vector<ListProgram::Iteration>{{0, pro}});
    if (ms.count[tid]) {  // the thread's first index entry gets its offsets
      const uint64_t e = a.map.index + 16 * uint64_t(ms.ps_count[tid]);
      o.load(kMapPrologue + 0x120, 4, a.map.ps_count + 4 * tid);
      o.load(kMapPrologue + 0x130, 16, e);
      o.load(kMapPrologue + 0x140, 4, a.map.ps_key + 4 * tid);
      o.load(kMapPrologue + 0x150, 4, a.map.ps_val + 4 * tid);
      o.store(kMapPrologue + 0x160, e, ms.ps_key[tid]);
      o.store(kMapPrologue + 0x170, e + 4, 0);
      o.store(kMapPrologue + 0x180, e + 8, ms.ps_val[tid]);
      o.store(kMapPrologue + 0x190, e + 12, 0);
    } else {
      o.skip(8);
    }
    o.load(kMapPrologue + 0x1a0, 16, a.in_index + 16 * tid);
    return then(std::move(pro), self->app_->map_program(MarsThread(self, tid, false), false));
  };
  launches.push_back(std::move(mp));

  if (wf == MarsWorkflow::MapOnly) return;
  group_ = mars_group(space, prefix, kp, app_, a_.map.keys, a_.map.vals, inter_, inter_index_, launches);
  if (wf == MarsWorkflow::MapReduce) plan_reduce(space, prefix, kp, launches);
}

void MarsJob::plan_reduce(AddressSpace& space, const std::string& prefix, const std::string& kp,
                          std::vector<MarsLaunch>& launches) {
  const std::string p = prefix + ".";
  const auto& groups = group_->groups;
  const uint64_t g = groups.size();
  const uint64_t t = uint64_t(ctas_for(g, 256)) * 256;
  {
    auto gr = std::make_shared<const std::vector<std::pair<uint32_t, uint32_t>>>(groups);
    a_.key_ranges = space.allocate(p + "key_list_range", 8 * g);
    space.set_contents(p + "key_list_range",
                       AddressSpace::words([gr](uint64_t w) { return w % 2 ? (*gr)[w / 2].second : (*gr)[w / 2].first; }));
  }
  std::vector<std::vector<MarsPair>> per(g);
  for (uint64_t i = 0; i < g; ++i) {
    const std::vector<MarsPair> grp(group_->sorted.begin() + groups[i].first, group_->sorted.begin() + groups[i].second);
    app_->reduce_emits(grp, per[i]);
  }
  Side& s = rside_;
  std::vector<uint32_t> key_sizes, val_sizes, counts;
  lay_out(per, t, out_, out_index_, key_sizes, val_sizes, counts);
  s.count = counts;
  if (out_.empty()) error("gpusc.workload", kp, ": the reduce emitted nothing");
  a_.reduce = allocate_side(space, p, {"output_keys_size_per_task", "output_vals_size_per_task", "output_count_per_task",
                                       "r_ps_key_sizes", "r_ps_val_sizes", "r_ps_counts", "output_keys", "output_vals",
                                       "output_index", "r_key_val_offsets", "r_cur_index"}, t, out_);
  s.a = a_.reduce;
  s.pairs = &out_;
  s.index = &out_index_;

  std::shared_ptr<const MarsJob> self = shared_from_this();
  auto group_loads = [self](OpList& o, uint64_t tid, uint32_t pc) {
    o.load(pc, 8, self->a_.key_ranges + 8 * tid);
    o.load(pc + 0x10, 16, self->group_->index_arr + 16 * uint64_t(self->group_->groups[tid].first));
  };
  const unsigned ctas = static_cast<unsigned>(t / 256);
  MarsLaunch rc;
  rc.name = kp + ".reduce_count";
  rc.ctas = ctas;
  rc.threads = 256;
  rc.program = [self, group_loads](uint64_t tid) -> std::unique_ptr<LaneProgram> {
    std::vector<LaneOp> pro;
    OpList o(pro);
    o.compute(kReducePrologue);
    o.compute(kReducePrologue + 0x10);
    if (tid >= self->group_->groups.size())
      return std::make_unique<ListProgram>(std::vector<ListProgram::Iteration>{{0, pro}});
    group_loads(o, tid, kReducePrologue + 0x20);
    return then(std::move(pro), self->app_->reduce_program(MarsThread(self, tid, true), true));
  };
  launches.push_back(std::move(rc));
  s.ps_key = mars_scan(space, p + "r_scan_keys", kp + ".reduce_scan_keys", a_.reduce.key_size, a_.reduce.ps_key, key_sizes, launches);
  s.ps_val = mars_scan(space, p + "r_scan_vals", kp + ".reduce_scan_vals", a_.reduce.val_size, a_.reduce.ps_val, val_sizes, launches);
  s.ps_count = mars_scan(space, p + "r_scan_counts", kp + ".reduce_scan_counts", a_.reduce.count, a_.reduce.ps_count, counts, launches);
  MarsLaunch rd;
  rd.name = kp + ".reduce";
  rd.ctas = ctas;
  rd.threads = 256;
  rd.program = [self, group_loads](uint64_t tid) -> std::unique_ptr<LaneProgram> {
    const Side& rs = self->rside_;
    const Arrays& a = self->a_;
    std::vector<LaneOp> pro;
    OpList o(pro);
    o.compute(kReducePrologue + 0x100);
    o.compute(kReducePrologue + 0x110);
    if (tid >= self->group_->groups.size())
      return std::make_unique<ListProgram>(std::vector<ListProgram::Iteration>{{0, pro}});
    if (rs.count[tid]) {
      const uint64_t e = a.reduce.index + 16 * uint64_t(rs.ps_count[tid]);
      o.load(kReducePrologue + 0x120, 4, a.reduce.ps_count + 4 * tid);
      o.load(kReducePrologue + 0x130, 4, a.reduce.ps_key + 4 * tid);
      o.load(kReducePrologue + 0x140, 4, a.reduce.ps_val + 4 * tid);
      o.store(kReducePrologue + 0x150, e, rs.ps_key[tid]);
      o.store(kReducePrologue + 0x160, e + 8, rs.ps_val[tid]);
    } else {
      o.skip(5);
    }
    group_loads(o, tid, kReducePrologue + 0x170);
    return then(std::move(pro), self->app_->reduce_program(MarsThread(self, tid, true), false));
  };
  launches.push_back(std::move(rd));
}

}  // namespace gpusc
