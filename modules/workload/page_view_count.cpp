#include "workload/page_view_count.h"

#include <algorithm>

#include "common/report.h"
#include "workload/seeded_rng.h"

namespace gpusc {

std::string generated_web_log(uint64_t bytes, unsigned pages, unsigned clients, double repeat, uint64_t seed) {
  SeededRng rng(seed * 0x9e3779b97f4a7c15ull + 0x5bd1e995);
  std::vector<std::string> ips(clients);
  for (auto& ip : ips) {
    const uint64_t r = rng.next();
    ip = std::to_string(r & 0xff) + "." + std::to_string((r >> 8) & 0xff) + "." + std::to_string((r >> 16) & 0xff) + "." +
         std::to_string((r >> 24) & 0xff);
  }
  std::string log;
  std::vector<std::string> recent;  // the last 16 entries
  for (uint64_t n = 0; log.size() < bytes; ++n) {
    std::string e;
    if (!recent.empty() && rng.uniform() < repeat) {
      e = recent[rng.below(recent.size())];
    } else {
      e = "http://www.abcdefg.com/" + std::to_string(rng.below(pages)) + ".html\t" + ips[rng.below(clients)] + "\t" +
          std::to_string(1199145600 + n / 8) + "\n";
    }
    log += e;
    recent.push_back(e);
    if (recent.size() > 16) recent.erase(recent.begin());
  }
  return log;
}

namespace {

enum Pc : uint32_t { kPhase = 0x1000, kBuf = 0x1010, kOff = 0x1020, kSize = 0x1030, kHead = 0x1040,
                     kHashLd = 0x1100, kHashAlu = 0x1110, kStHash = 0x1140, kUrlLd = 0x1200, kUrlAlu = 0x1210,
                     kNul1 = 0x1240, kIpOff = 0x1250, kIpLd = 0x1300, kIpAlu = 0x1310, kNul2 = 0x1330, kOipoff = 0x1340,
                     kRedPhase = 0x1400 };

uint32_t field(const std::vector<uint8_t>& v, uint32_t at) { return mars_word(v.data(), v.size(), at); }

}  // namespace

// The PageViewCount map (phase 0: dedup; phase 1: count), compare and (phase 0) reduce.
struct PageViewCountWorkload::App final : MarsApp {
  int phase = 0;
  std::shared_ptr<const std::vector<uint8_t>> log;  // as the job's map and compare see it (4 bytes of slack)
  std::shared_ptr<const std::vector<uint8_t>> tokenized;  // after the count job's NUL stores
  uint64_t base = 0;

  static std::vector<uint8_t> key_of(const MarsJob& job, uint32_t r) {
    const MarsInt4& e = job.input().index[r];
    return std::vector<uint8_t>(job.input().keys.begin() + e.x, job.input().keys.begin() + e.x + e.y);
  }
  static std::vector<uint8_t> val_of(const MarsJob& job, uint32_t r) {
    const MarsInt4& e = job.input().index[r];
    return std::vector<uint8_t>(job.input().vals.begin() + e.z, job.input().vals.begin() + e.z + e.w);
  }
  uint32_t tab(uint32_t from) const {  // the first tab at or after `from`
    while ((*log).at(from) != '\t') ++from;
    return from;
  }

  void map_emits(const MarsJob& job, uint32_t r, std::vector<MarsPair>& out) const override {
    const std::vector<uint8_t> key = key_of(job, r), val = val_of(job, r);
    const uint32_t off = mars_key_offset(key.data());
    MarsPair p;
    if (phase == 0) {
      p.key = mars_key(base, off, mars_hash(log->data() + off, field(val, 0)));
      p.val = val;
    } else {
      const uint32_t url_size = tab(off) - off + 1;
      p.key = mars_key(base, off, mars_hash(tokenized->data() + off, url_size));
      const uint32_t ip = off + url_size;
      p.val = {uint8_t(ip), uint8_t(ip >> 8), uint8_t(ip >> 16), uint8_t(ip >> 24)};
    }
    out.push_back(std::move(p));
  }

  std::unique_ptr<LaneProgram> map_program(MarsThread t, bool count) const override {
    const App* self = this;
    auto th = std::make_shared<MarsThread>(t);
    const std::vector<uint8_t> key = key_of(t.job(), t.record()), val = val_of(t.job(), t.record());
    const uint32_t off = mars_key_offset(key.data()), size = field(val, 0);
    const uint32_t tab1 = phase ? tab(off) : 0, tab2 = phase ? tab(tab1 + 1) : 0;
    const int32_t hash = phase ? mars_hash(tokenized->data() + off, tab1 - off + 1) : mars_hash(log->data() + off, size);
    const uint64_t b = base;
    const int ph = phase;
    return std::make_unique<StepProgram>([=](unsigned s, uint32_t& loop, OpList& o) {
      if (count) {  // EMIT_INTER_COUNT_FUNC after the phase test
        if (s > 0) return false;
        loop = 1;
        o.load(kPhase, 4, th->val_addr() + 4);
        o.compute(kHead);
        th->emit_count(o);
        return true;
      }
      if (s == 0) {
        loop = 1;
        o.load(kBuf, 8, th->key_addr());
        o.load(kOff, 4, th->key_addr() + 8);
        o.load(kPhase, 4, th->val_addr() + 4);
        if (ph == 0) o.load(kSize, 4, th->val_addr());
        o.compute(kHead);
        o.compute(kHead + 0x10);
        return true;
      }
      // The byte loops, one per stage; a stage is a range of bytes with its ALU count.
      struct Stage {
        uint32_t from, to, pc, alu;
      };
      Stage st[3];
      unsigned n = 0;
      if (ph == 0) {
        st[n++] = {off, off + size, kHashLd, 3};  // hash_func(entry, entry_size)
      } else {
        st[n++] = {off, tab1 + 1, kUrlLd, 3};     // for (; *p != '\t'; p++, url_size++)
        st[n++] = {tab1, tab2 + 1, kIpLd, 2};     // for (; *p != '\t'; p++): from the new NUL
        st[n++] = {off, tab1 + 1, kHashLd, 3};    // hash_func(entry, url_size)
      }
      unsigned step = s - 1;
      for (unsigned i = 0; i < n; ++i) {
        const uint32_t len = st[i].to - st[i].from;
        if (step < len) {
          loop = 2 + 2 * i;
          o.load(st[i].pc, 1, b + st[i].from + step);
          for (unsigned k = 0; k < st[i].alu; ++k) o.compute(st[i].pc + 0x10 * (k + 1));
          return true;
        }
        step -= len;
        if (step == 0) {  // the code after loop i
          loop = 3 + 2 * i;
          const std::vector<uint8_t>& tk = *self->tokenized;
          if (ph == 1 && i == 0) {
            o.store(kNul1, b + (tab1 & ~3u), field(tk, tab1 & ~3u));
            o.compute(kIpOff);
          } else if (ph == 1 && i == 1) {
            o.store(kNul2, b + (tab2 & ~3u), field(tk, tab2 & ~3u));
            o.compute(kOipoff);  // *o_ipoffset = ip_offset (shared memory)
          } else {  // pKey->entry_hash = hash; EMIT_INTERMEDIATE_FUNC
            o.store(kStHash, th->key_addr() + 12, uint32_t(hash));
            if (ph == 0) th->emit(o, th->key_addr(), false, th->val_addr(), false);
            else th->emit(o, th->key_addr(), false, 0, true);
          }
          return true;
        }
        --step;
      }
      return false;
    });
  }

  int compare(const uint8_t* a, const uint8_t* b) const override {
    return mars_hashed_compare(a, b, phase ? *tokenized : *log, base);
  }
  std::unique_ptr<LaneProgram> compare_program(uint64_t a, const uint8_t* ka, uint64_t b, const uint8_t* kb,
                                               uint32_t first_loop) const override {
    return mars_hashed_compare_program(a, ka, b, kb, phase ? tokenized : log, base, first_loop);
  }

  void reduce_emits(const std::vector<MarsPair>& group, std::vector<MarsPair>& out) const override {
    MarsPair p = group.front();
    p.val[4] = 1;  // pVal->phase = 1
    out.push_back(std::move(p));
  }
  std::unique_ptr<LaneProgram> reduce_program(MarsThread t, bool count) const override {
    auto th = std::make_shared<MarsThread>(t);
    return std::make_unique<StepProgram>([th, count](unsigned s, uint32_t& loop, OpList& o) {
      if (s > 0) return false;
      loop = 1;
      if (count) {
        th->emit_count(o);
      } else {
        o.store(kRedPhase, th->val_addr() + 4, 1);
        th->emit(o, th->key_addr(), false, th->val_addr(), false);
      }
      return true;
    });
  }
};

PageViewCountWorkload::PageViewCountWorkload(const Params& p, uint64_t seed)
    : PageViewCountWorkload(p, generated_web_log((validate(p, "page-view-count"), p.bytes), p.pages, p.clients,
                                                 p.repeat, seed)) {}

PageViewCountWorkload::PageViewCountWorkload(const Params& p, const std::string& text) : MarsWorkload("page-view-count") {
  validate(p, "page-view-count");
  if (text.empty() || text.back() != '\n')
    error("gpusc.workload", "page-view-count: the log must be non-empty and end with a newline");
  if (text.size() >= (1u << 31)) error("gpusc.workload", "page-view-count: the log exceeds 2 GiB");
  // Host preprocessing (Mars's main.cu): every '\n' becomes NUL; an entry counts its NUL.
  std::vector<uint8_t> log0(text.begin(), text.end());
  log0.resize(text.size() + 4, 0);
  std::vector<std::pair<uint32_t, uint32_t>> entries;
  for (uint32_t s = 0, i = 0; i < text.size(); ++i)
    if (log0[i] == '\n') {
      log0[i] = 0;
      const uint32_t t1 = static_cast<uint32_t>(std::find(log0.begin() + s, log0.begin() + i, '\t') - log0.begin());
      if (t1 >= i || std::find(log0.begin() + t1 + 1, log0.begin() + i, '\t') == log0.begin() + i)
        error("gpusc.workload", "page-view-count: log entry at byte ", s, " does not have the form URL<tab>IP<tab>...");
      entries.emplace_back(s, i + 1);
      s = i + 1;
    }
  const uint64_t base = space_.allocate("log", log0.size());
  auto l0 = std::make_shared<const std::vector<uint8_t>>(log0);
  space_.set_contents("log", AddressSpace::bytes_of([l0](uint64_t i) { return (*l0)[i]; }));

  auto dedup = std::make_shared<App>();
  dedup->phase = 0;
  dedup->log = dedup->tokenized = l0;
  dedup->base = base;
  MarsInput in;
  for (const auto& [s, e] : entries) {
    const uint32_t size = e - s;
    in.add(mars_key(base, s, 0), {uint8_t(size), uint8_t(size >> 8), uint8_t(size >> 16), uint8_t(size >> 24), 0, 0, 0, 0});
  }
  dedup_ = MarsJob::make(space_, "pvc1", "page-view-count.dedup", dedup, std::move(in), MarsWorkflow::MapReduce, launches_);

  // The second job's input: the first one's output, copied back through the host.
  auto count = std::make_shared<App>();
  count->phase = 1;
  count->log = l0;
  count->base = base;
  std::vector<uint8_t> log2 = log0;
  MarsInput in2;
  for (const MarsPair& pr : dedup_->output()) {
    in2.add(pr.key, pr.val);
    const uint32_t off = mars_key_offset(pr.key.data());
    const uint32_t t1 = count->tab(off), t2 = count->tab(t1 + 1);
    log2[t1] = log2[t2] = 0;
  }
  count->tokenized = std::make_shared<const std::vector<uint8_t>>(std::move(log2));
  count_ = MarsJob::make(space_, "pvc2", "page-view-count.count", count, std::move(in2), MarsWorkflow::MapGroup, launches_);
  for (const auto& [f, e] : count_->groups()) {
    const MarsPair& pr = count_->sorted()[f];
    views_[std::string(reinterpret_cast<const char*>(count->tokenized->data() + mars_key_offset(pr.key.data())))] = e - f;
  }
}

}  // namespace gpusc
