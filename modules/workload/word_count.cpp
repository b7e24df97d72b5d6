#include "workload/word_count.h"

#include <cctype>

#include "common/report.h"
#include "workload/mars_group.h"
#include "workload/string_match.h"

namespace gpusc {

namespace {

enum Pc : uint32_t { kKey = 0x1000, kValOff = 0x1010, kValSize = 0x1020, kHead = 0x1030, kLd = 0x1100,
                     kTest = 0x1110, kInc = 0x1120, kNul = 0x1130, kWsize = 0x1140, kOval = 0x1150, kMin = 0x1160,
                     kSkipLd = 0x1200, kSkipTest = 0x1210, kCmpLd1 = 0x0, kCmpLd2 = 0x10, kCmpAlu = 0x20,
                     kCmpTail = 0x80 };

bool letter(uint8_t c) { return c >= 'A' && c <= 'Z'; }

// A NUL-terminated string compare, byte by byte (WordCount's compare.cu); also the loop length.
int str_compare(const uint8_t* a, const uint8_t* b, unsigned& steps) {
  unsigned i = 0;
  while (a[i] != 0 && b[i] != 0 && a[i] == b[i]) ++i;
  steps = i + 1;
  return int(int8_t(a[i])) - int(int8_t(b[i]));
}

}  // namespace

// Mars's WordCount as a MarsApp: the text before (text0) and after (text1) the map's NUL stores.
struct WordCountWorkload::App final : MarsApp {
  std::shared_ptr<const std::vector<uint8_t>> text0, text1;  // with 4 bytes of slack
  uint64_t base = 0;                                          // the text's device address
  unsigned min_length = 6;

  // Record r's bytes [first, end).
  static void bounds(const MarsJob& job, uint32_t r, uint32_t& first, uint32_t& end) {
    const MarsInt4& e = job.input().index[r];
    first = mars_word(job.input().vals.data(), job.input().vals.size(), uint32_t(e.z));
    end = first + mars_word(job.input().vals.data(), job.input().vals.size(), uint32_t(e.z) + 4);
  }
  bool word_end(uint32_t first, uint32_t p) const {
    return !letter((*text0)[p]) && (p == first || letter((*text0)[p - 1]));
  }
  uint32_t word_start(uint32_t first, uint32_t p) const {
    uint32_t s = p;
    while (s > first && letter((*text0)[s - 1])) --s;
    return s;
  }
  bool emits(uint32_t first, uint32_t p) const { return p - word_start(first, p) >= min_length; }

  void map_emits(const MarsJob& job, uint32_t r, std::vector<MarsPair>& out) const override {
    uint32_t first, end;
    bounds(job, r, first, end);
    for (uint32_t p = first; p < end; ++p) {
      if (!word_end(first, p) || !emits(first, p)) continue;
      const uint32_t s = word_start(first, p), wsize = p + 1 - s;
      MarsPair pr;
      pr.key.assign(text1->begin() + s, text1->begin() + s + (wsize + 3) / 4 * 4);
      pr.val = {uint8_t(wsize), uint8_t(wsize >> 8), uint8_t(wsize >> 16), uint8_t(wsize >> 24)};
      out.push_back(std::move(pr));
    }
  }

  std::unique_ptr<LaneProgram> map_program(MarsThread t, bool count) const override {
    uint32_t first, end;
    bounds(t.job(), t.record(), first, end);
    const App* self = this;
    auto th = std::make_shared<MarsThread>(t);
    return std::make_unique<StepProgram>([self, th, first, end, count](unsigned s, uint32_t& loop, OpList& o) {
      if (s == 0) {  // pKey->file, pVal->line_offset, pVal->line_size
        loop = 1;
        o.load(kKey, 8, th->key_addr());
        o.load(kValOff, 4, th->val_addr());
        o.load(kValSize, 4, th->val_addr() + 4);
        o.compute(kHead);
        o.compute(kHead + 0x10);
        return true;
      }
      const uint32_t p = first + s - 1;
      if (p >= end) return false;
      loop = 2;
      const uint64_t b = self->base;
      o.load(kLd, 1, b + p);
      o.compute(kTest);
      o.compute(kInc);
      if (!self->word_end(first, p)) return true;
      o.store(kNul, b + (p & ~3u), mars_word(self->text1->data(), self->text1->size(), p & ~3u));
      o.compute(kWsize);
      if (!count) o.compute(kOval);  // *o_val = wsize (shared memory)
      else o.skip(1);
      o.compute(kMin);
      if (self->emits(first, p)) {
        if (count) th->emit_count(o);
        else th->emit(o, b + self->word_start(first, p), false, 0, true);
      } else {
        o.skip(count ? MarsThread::kCountWindow : MarsThread::kEmitWindow);
      }
      if (p + 1 < end) {  // the skip loop reads the next byte
        o.load(kSkipLd, 1, b + p + 1);
        o.compute(kSkipTest);
      }
      return true;
    });
  }

  int compare(const uint8_t* a, const uint8_t* b) const override {
    unsigned n;
    return str_compare(a, b, n);
  }

  std::unique_ptr<LaneProgram> compare_program(uint64_t a, const uint8_t* ka, uint64_t b, const uint8_t* kb,
                                               uint32_t first_loop) const override {
    unsigned steps;
    str_compare(ka, kb, steps);
    return std::make_unique<StepProgram>([=](unsigned s, uint32_t& loop, OpList& o) {
      using namespace mars_pc;
      if (s < steps) {
        loop = first_loop;
        o.load(kCompare + kCmpLd1, 1, a + s);
        o.load(kCompare + kCmpLd2, 1, b + s);
        for (unsigned k = 0; k < 3; ++k) o.compute(kCompare + kCmpAlu + 0x10 * k);
        return true;
      }
      if (s == steps) {
        loop = first_loop + 1;
        o.compute(kCompare + kCmpTail);
        o.compute(kCompare + kCmpTail + 0x10);
        return true;
      }
      return false;
    });
  }
};

WordCountWorkload::WordCountWorkload(const Params& p, uint64_t seed)
    : WordCountWorkload(p, generated_text((validate(p, "word-count"), p.bytes), seed)) {}

WordCountWorkload::WordCountWorkload(const Params& p, const std::string& text) : MarsWorkload("word-count") {
  validate(p, "word-count");
  if (text.empty() || text.back() != '\n')
    error("gpusc.workload", "word-count: the text must be non-empty and end with a newline");
  if (text.size() >= (1u << 31)) error("gpusc.workload", "word-count: the text exceeds 2 GiB");
  auto app = std::make_shared<App>();
  app->min_length = p.min_length;
  // Host preprocessing (Mars's main.cu): upper case, then the records.
  std::vector<uint8_t> t0(text.size() + 4, 0);
  for (size_t i = 0; i < text.size(); ++i) t0[i] = static_cast<uint8_t>(std::toupper(static_cast<unsigned char>(text[i])));
  std::vector<std::pair<uint32_t, uint32_t>> recs;  // [first, end)
  const uint32_t n = static_cast<uint32_t>(text.size());
  if (p.record_bytes == 0) {
    for (uint32_t s = 0, i = 0; i < n; ++i)
      if (t0[i] == '\n') recs.emplace_back(s, i + 1), s = i + 1;
  } else {
    for (uint32_t s = 0; s < n;) {
      uint32_t q = s + p.record_bytes;
      if (q >= n) {
        recs.emplace_back(s, n);
        break;
      }
      while (q < n && letter(t0[q])) ++q;
      if (q >= n) {
        recs.emplace_back(s, n);
        break;
      }
      t0[q] = 0;
      recs.emplace_back(s, q + 1);
      s = q + 1;
    }
  }
  // The map's NUL stores, on the host.
  app->text0 = std::make_shared<const std::vector<uint8_t>>(t0);
  std::vector<uint8_t> t1 = t0;
  for (const auto& [f, e] : recs)
    for (uint32_t q = f; q < e; ++q)
      if (app->word_end(f, q)) t1[q] = 0;
  app->text1 = std::make_shared<const std::vector<uint8_t>>(std::move(t1));
  app->base = space_.allocate("text", t0.size());
  {
    auto t = app->text0;
    space_.set_contents("text", AddressSpace::bytes_of([t](uint64_t i) { return (*t)[i]; }));
  }
  MarsInput in;
  for (const auto& [f, e] : recs) {
    std::vector<uint8_t> key(8), val(16, 0);
    for (unsigned b = 0; b < 8; ++b) key[b] = uint8_t(app->base >> (8 * b));
    for (unsigned b = 0; b < 4; ++b) val[b] = uint8_t(f >> (8 * b)), val[4 + b] = uint8_t((e - f) >> (8 * b));
    in.add(key, val);
  }
  job_ = MarsJob::make(space_, "wc", "word-count", app, std::move(in),
                       p.group ? MarsWorkflow::MapGroup : MarsWorkflow::MapOnly, launches_);
  for (const MarsPair& pr : job_->intermediate())
    ++counts_[std::string(reinterpret_cast<const char*>(pr.key.data()))];
}

}  // namespace gpusc
