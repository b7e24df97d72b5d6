#include "workload/string_match.h"

#include <string_view>

#include "common/report.h"

namespace gpusc {

namespace {
// 64 words, the commonest first (generated_text draws the low indices most often).
const char* const kVocabulary[64] = {
    "the", "of", "and", "to", "a", "in", "is", "that", "for", "it", "as", "with", "on", "by", "this", "be",
    "are", "from", "at", "or", "an", "which", "data", "memory", "cache", "line", "warp", "thread", "network",
    "packet", "reply", "request", "sector", "block", "filter", "compress", "pattern", "value", "word", "map",
    "reduce", "key", "record", "text", "string", "search", "match", "count", "index", "page", "view", "graph",
    "vertex", "edge", "matrix", "vector", "kernel", "launch", "core", "router", "buffer", "queue", "table", "entry"};

uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
}  // namespace

std::string generated_text(uint64_t bytes, uint64_t seed) {
  std::string t;
  t.reserve(bytes + 128);
  for (uint64_t line = 0; t.size() < bytes; ++line) {
    const uint64_t h = mix(seed * 0x9e3779b97f4a7c15ull + line);
    const unsigned words = 6 + static_cast<unsigned>(h % 9);
    for (unsigned k = 0; k < words; ++k) {
      const double u = double(mix(h + 0x632be59bd9b4e019ull * (k + 1)) >> 11) / double(1ull << 53);
      if (k) t += ' ';
      t += kVocabulary[static_cast<unsigned>(64.0 * u * u)];
    }
    t += '\n';
  }
  return t;
}

struct StringMatchWorkload::Data {
  std::string text;
  std::vector<uint32_t> offsets;  // lines + 1
  std::vector<uint32_t> result;   // first match per line
  unsigned threads_per_cta = 256;
  uint64_t text_base = 0, offsets_base = 0, result_base = 0;
  bool values = false;
};

namespace {

enum Pc : uint32_t { kTid = 0x00, kBound = 0x10, kLdBegin = 0x20, kLdEnd = 0x30, kSetup = 0x40, kLdWord = 0x50,
                     kShift = 0x60, kCompare = 0x70, kFlag = 0x80, kLoop = 0x90, kStResult = 0xa0 };

class StringMatchWarp final : public BufferedWarpStream {
 public:
  using Data = StringMatchWorkload::Data;
  StringMatchWarp(std::shared_ptr<const Data> d, unsigned cta, unsigned warp)
      : d_(std::move(d)),
        exist_(cta_lane_mask(d_->threads_per_cta, warp)),
        first_(uint64_t(cta) * d_->threads_per_cta + uint64_t(warp) * kWarpSize),
        valid_(lanes_below(exist_, first_, d_->offsets.size() - 1)) {}

 private:
  // Aligned word k of lane l's line, or past its end.
  uint64_t word_of(unsigned l, unsigned k) const { return (d_->offsets[first_ + l] & ~3u) + 4ull * k; }
  bool in_line(unsigned l, unsigned k) const { return word_of(l, k) < d_->offsets[first_ + l + 1]; }

  bool refill() override {
    if (!started_) {
      started_ = true;
      compute(kTid, exist_);
      compute(kBound, exist_);
      if (!valid_) return false;
      load(kLdBegin, 4, valid_, [&](unsigned l) { return d_->offsets_base + 4 * (first_ + l); });
      load(kLdEnd, 4, valid_, [&](unsigned l) { return d_->offsets_base + 4 * (first_ + l + 1); });
      compute(kSetup, valid_);
      return true;
    }
    uint32_t active = 0;
    for (unsigned l = 0; l < kWarpSize; ++l)
      if (((valid_ >> l) & 1u) && in_line(l, k_)) active |= 1u << l;
    if (active) {
      load(kLdWord, 4, active, [&](unsigned l) { return d_->text_base + word_of(l, k_); });
      compute(kShift, active);
      compute(kCompare, active);
      compute(kFlag, active);
      compute(kLoop, active);
      ++k_;
      return true;
    }
    store(kStResult, 4, valid_, [&](unsigned l) { return d_->result_base + 4 * (first_ + l); }, d_->values,
          [&](unsigned l) { return d_->result[first_ + l]; });
    return false;
  }

  std::shared_ptr<const Data> d_;
  uint32_t exist_;
  uint64_t first_;  // line of lane 0
  uint32_t valid_;
  bool started_ = false;
  unsigned k_ = 0;  // next word of the line
};

std::shared_ptr<StringMatchWorkload::Data> build(const StringMatchWorkload::Params& p, std::string text) {
  validate(p, "string-match");
  if (p.keyword.empty() || p.keyword.size() > 64 || p.keyword.find('\n') != std::string::npos)
    error("gpusc.params", "parameter 'string-match.keyword' = \"", p.keyword,
          "\" must be 1 to 64 bytes without a newline");
  if (text.empty() || text.back() != '\n')
    error("gpusc.workload", "string-match: the text must be non-empty and end with a newline");
  if (text.size() >= (1ull << 32)) error("gpusc.workload", "string-match: the text exceeds 4 GiB");
  auto d = std::make_shared<StringMatchWorkload::Data>();
  d->text = std::move(text);
  d->threads_per_cta = p.threads_per_cta;
  d->offsets.push_back(0);
  for (uint32_t i = 0; i < d->text.size(); ++i)
    if (d->text[i] == '\n') d->offsets.push_back(i + 1);
  const size_t lines = d->offsets.size() - 1;
  d->result.resize(lines);
  for (size_t i = 0; i < lines; ++i) {
    const std::string_view line(d->text.data() + d->offsets[i], d->offsets[i + 1] - d->offsets[i]);
    const size_t at = line.find(p.keyword);
    d->result[i] = at == std::string_view::npos ? StringMatchWorkload::kNoMatch : static_cast<uint32_t>(at);
  }
  return d;
}

}  // namespace

StringMatchWorkload::StringMatchWorkload(const Params& p, uint64_t seed)
    : StringMatchWorkload(p, generated_text((validate(p, "string-match"), p.bytes), seed)) {}

StringMatchWorkload::StringMatchWorkload(const Params& p, const std::string& text)
    : SequenceWorkload("string-match", 1), d_(build(p, text)) {
  const uint64_t lines = d_->offsets.size() - 1;
  d_->text_base = space_.allocate("text", d_->text.size());
  d_->offsets_base = space_.allocate("line_offsets", 4 * (lines + 1));
  d_->result_base = space_.allocate("result", 4 * lines);
  const std::shared_ptr<const Data> c = d_;
  space_.set_contents("text", AddressSpace::bytes_of([c](uint64_t i) { return static_cast<uint8_t>(c->text[i]); }));
  space_.set_contents("line_offsets", AddressSpace::words([c](uint64_t i) { return c->offsets[i]; }));
  space_.set_contents("result", AddressSpace::zeros());
}

uint32_t StringMatchWorkload::lines() const { return static_cast<uint32_t>(d_->offsets.size() - 1); }
uint32_t StringMatchWorkload::first_match(uint32_t line) const { return d_->result.at(line); }

std::unique_ptr<Kernel> StringMatchWorkload::launch(unsigned) {
  d_->values = values_;
  return std::make_unique<KernelOf<StringMatchWarp, Data>>("string-match.map", ctas_for(lines(), d_->threads_per_cta),
                                                           d_->threads_per_cta, d_);
}

}  // namespace gpusc
