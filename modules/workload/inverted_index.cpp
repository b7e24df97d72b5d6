#include "workload/inverted_index.h"

#include "common/report.h"
#include "workload/seeded_rng.h"
#include "workload/string_match.h"

namespace gpusc {

std::vector<std::string> generated_html(uint64_t bytes, unsigned urls, uint64_t seed) {
  SeededRng rng(seed * 0x9e3779b97f4a7c15ull + 0x1b873593);
  // The words: string-match's generated text (same vocabulary and skew), a little more than needed.
  const std::string text = generated_text(bytes / 2 + 4096, seed);
  size_t at = 0;
  auto next_line = [&]() {
    if (at >= text.size()) at = 0;
    const size_t e = text.find('\n', at);
    std::vector<std::string> words;
    size_t s = at;
    for (size_t i = at; i <= e; ++i)
      if (text[i] == ' ' || text[i] == '\n') words.push_back(text.substr(s, i - s)), s = i + 1;
    at = e + 1;
    return words;
  };
  std::vector<std::string> docs;
  uint64_t total = 0;
  while (total < bytes) {
    const uint64_t target = 2048 + rng.below(6 * 1024);
    const std::vector<std::string> title = next_line();
    std::string d = "<html>\n<head>\n<title>" + title[0] + " " + title[1] + "</title>\n</head>\n<body>\n";
    while (d.size() < target) {
      const std::vector<std::string> w = next_line();
      std::string line = "<p>";
      for (size_t i = 0; i < w.size(); ++i) {
        if (i) line += ' ';
        const double r = rng.uniform();
        if (r < 1.0 / 12 && i + 1 < w.size()) {
          const double u = rng.uniform();
          const uint64_t k = static_cast<uint64_t>(double(urls) * u * u);
          line += "<a href=\"http://www.site" + std::to_string(k % 97) + ".com/page" + std::to_string(k) + ".html\">" +
                  w[i] + " " + w[i + 1] + "</a>";
          ++i;
        } else if (r < 1.0 / 12 + 1.0 / 40) {
          line += "<img src=\"images/pic" + std::to_string(rng.below(100)) + ".gif\" alt=\"" + w[i] + "\">";
        } else if (r < 1.0 / 12 + 1.0 / 40 + 1.0 / 60) {
          line += "<a name=\"" + w[i] + "\">" + w[i] + "</a>";
        } else {
          line += w[i];
        }
      }
      d += line + "</p>\n";
    }
    d += "</body>\n</html>\n";
    total += d.size();
    docs.push_back(std::move(d));
  }
  return docs;
}

namespace {

enum Pc : uint32_t { kBuf = 0x1000, kOff = 0x1010, kSize = 0x1020, kHead = 0x1030, kLd = 0x1100, kSwitch = 0x1110,
                     kTest = 0x1120, kHref = 0x1200, kHrefAlu = 0x1210, kHrefEnd = 0x1220, kScan = 0x1300,
                     kScanAlu = 0x1310, kNul = 0x1400, kStOff = 0x1420, kHash = 0x1500, kHashAlu = 0x1510,
                     kStHash = 0x1600 };
constexpr unsigned kMaxUrl = 200;
// Instruction positions in one iteration of the state machine's loop.
constexpr uint32_t kOrdHref = 3, kOrdScan = 20, kOrdAfterScan = kOrdScan + 2 * (kMaxUrl + 1), kOrdHash = kOrdAfterScan + 8,
                   kOrdAfterHash = kOrdHash + 4 * kMaxUrl;

enum State { kStart, kInTag, kInATag, kFoundHref, kStartLink };

// One iteration of Mars II's map loop over buf[0, size): what it reads and whether it finds a link.
struct Step {
  uint32_t j = 0;
  bool plain = true;       // reads buf[j] in the switch
  unsigned href = 0;       // bytes the "href" test reads from buf[j]
  bool link = false;       // START_LINK: the URL at j, `len` bytes, then the closing quote
  uint32_t len = 0;
};

class Cursor {
 public:
  Cursor(const uint8_t* buf, uint32_t size) : buf_(buf), size_(size) {}
  bool next(Step& s) {
    if (j_ >= size_) return false;
    s = Step{};
    s.j = j_;
    const uint8_t c = buf_[j_];
    switch (st_) {
      case kStart:
        if (c == '<') st_ = kInTag;
        break;
      case kInTag:
        st_ = c == 'a' ? kInATag : (c == ' ' ? kInTag : kStart);
        break;
      case kInATag:
        if (c == 'h') {
          static const char kHrefStr[5] = {'h', 'r', 'e', 'f', '\0'};
          unsigned x = 0;
          for (; x < 5; ++x) {
            ++s.href;
            if (kHrefStr[x] != char(buf_[j_ + x])) break;
          }
          if (x < 5 && kHrefStr[x] == '\0') {
            st_ = kFoundHref;
            j_ += 3;
          } else {
            st_ = kStart;
          }
        } else {
          st_ = c == ' ' ? kInATag : kStart;
        }
        break;
      case kFoundHref:
        st_ = (c == ' ' || c == '=') ? kFoundHref : (c == '"' ? kStartLink : kStart);
        break;
      case kStartLink: {
        s.plain = false;
        s.link = true;
        uint32_t e = j_;
        while (e < size_ && buf_[e] != '"') ++e;
        if (e >= size_) error("gpusc.workload", "inverted-index: a link without its closing quote in its record");
        s.len = e - j_;
        if (s.len > kMaxUrl) error("gpusc.workload", "inverted-index: a link of ", s.len, " bytes (at most ", kMaxUrl, ")");
        j_ = e;
        st_ = kStart;
        break;
      }
    }
    ++j_;
    return true;
  }

 private:
  const uint8_t* buf_;
  uint32_t size_, j_ = 0;
  State st_ = kStart;
};

}  // namespace

struct InvertedIndexWorkload::App final : MarsApp {
  std::shared_ptr<const std::vector<uint8_t>> html0, html1;  // before / after the map's NULs
  uint64_t base = 0;                                          // the corpus's device address
  std::vector<uint64_t> doc_offset;                           // each document's offset in html

  struct Rec {
    uint64_t doc = 0;  // the document's offset in html
    uint32_t block_offset = 0, size = 0, file_id = 0;
  };
  static Rec rec(const MarsJob& job, uint32_t r, uint64_t base) {
    const MarsInt4& e = job.input().index[r];
    const std::vector<uint8_t>& k = job.input().keys;
    const std::vector<uint8_t>& v = job.input().vals;
    return Rec{mars_key_buf(k.data() + e.x) - base, mars_word(v.data(), v.size(), uint32_t(e.z)),
               mars_word(v.data(), v.size(), uint32_t(e.z) + 4), mars_word(v.data(), v.size(), uint32_t(e.z) + 8)};
  }

  void map_emits(const MarsJob& job, uint32_t r, std::vector<MarsPair>& out) const override {
    const Rec rc = rec(job, r, base);
    const uint8_t* buf = html0->data() + rc.doc + rc.block_offset;
    Cursor c(buf, rc.size);
    for (Step s; c.next(s);)
      if (s.link) {
        MarsPair p;
        p.key = mars_key(base + rc.doc, s.j + rc.block_offset, mars_hash(buf + s.j, s.len));
        p.val = {uint8_t(rc.file_id), uint8_t(rc.file_id >> 8), uint8_t(rc.file_id >> 16), uint8_t(rc.file_id >> 24)};
        out.push_back(std::move(p));
      }
  }

  std::unique_ptr<LaneProgram> map_program(MarsThread t, bool count) const override {
    const Rec rc = rec(t.job(), t.record(), base);
    const uint64_t b = base + rc.doc + rc.block_offset;
    auto th = std::make_shared<MarsThread>(t);
    auto cur = std::make_shared<Cursor>(html0->data() + rc.doc + rc.block_offset, rc.size);
    auto h1 = html1;
    const uint64_t hb = base;
    return std::make_unique<StepProgram>([=](unsigned s, uint32_t& loop, OpList& o) {
      if (s == 0) {  // pKey->file_buf, pVal->block_offset, pVal->block_size
        loop = 1;
        o.load(kBuf, 8, th->key_addr());
        o.load(kOff, 4, th->val_addr());
        o.load(kSize, 4, th->val_addr() + 4);
        o.compute(kHead);
        return true;
      }
      Step st;
      if (!cur->next(st)) return false;
      loop = 2;
      if (st.plain) {
        o.load(kLd, 1, b + st.j);
        o.compute(kSwitch);
        o.compute(kTest);
      }
      for (unsigned x = 0; x < st.href; ++x) {
        o.set_order(kOrdHref + 2 * x);
        o.load(kHref, 1, b + st.j + x);
        o.compute(kHrefAlu);
      }
      if (st.href) {
        o.set_order(kOrdHref + 10);
        o.compute(kHrefEnd);
      }
      if (!st.link) return true;
      for (uint32_t x = 0; x <= st.len; ++x) {  // for (; *link_end != '"'; link_end++)
        o.set_order(kOrdScan + 2 * x);
        o.load(kScan, 1, b + st.j + x);
        o.compute(kScanAlu);
      }
      o.set_order(kOrdAfterScan);
      if (count) {
        th->emit_count(o);
        return true;
      }
      const uint64_t q = b + st.j + st.len - hb;  // the closing quote, in html
      o.store(kNul, hb + (q & ~uint64_t(3)), mars_word(h1->data(), h1->size(), q & ~uint64_t(3)));
      o.compute(kNul + 0x10);
      o.store(kStOff, th->key_addr() + 8, st.j + rc.block_offset);  // pKey->url_offset
      for (uint32_t x = 0; x < st.len; ++x) {  // hash_func(buf + j, len)
        o.set_order(kOrdHash + 4 * x);
        o.load(kHash, 1, b + st.j + x);
        for (unsigned k = 1; k <= 3; ++k) o.compute(kHashAlu + 0x10 * k);
      }
      o.set_order(kOrdAfterHash);
      o.store(kStHash, th->key_addr() + 12, uint32_t(mars_hash(h1->data() + (b - hb) + st.j, st.len)));
      th->emit(o, th->key_addr(), false, th->val_addr() + 8, false);  // key, &pVal->file_id
      return true;
    });
  }

  int compare(const uint8_t* a, const uint8_t* b) const override { return mars_hashed_compare(a, b, *html1, base); }
  std::unique_ptr<LaneProgram> compare_program(uint64_t a, const uint8_t* ka, uint64_t b, const uint8_t* kb,
                                               uint32_t first_loop) const override {
    return mars_hashed_compare_program(a, ka, b, kb, html1, base, first_loop);
  }
};

InvertedIndexWorkload::InvertedIndexWorkload(const Params& p, uint64_t seed)
    : InvertedIndexWorkload(p, generated_html((validate(p, "inverted-index"), p.bytes), p.urls, seed)) {}

InvertedIndexWorkload::InvertedIndexWorkload(const Params& p, const std::vector<std::string>& docs)
    : MarsWorkload("inverted-index") {
  validate(p, "inverted-index");
  if (docs.empty()) error("gpusc.workload", "inverted-index: no documents");
  auto app = std::make_shared<App>();
  // Every document in its own 256-byte aligned buffer (Mars cudaMallocs each file), NUL-ended.
  std::vector<uint8_t> html;
  for (const std::string& d : docs) {
    if (d.empty() || d.back() != '\n')
      error("gpusc.workload", "inverted-index: document ", app->doc_offset.size(), " must be non-empty and end with a newline");
    html.resize((html.size() + 255) / 256 * 256, 0);
    app->doc_offset.push_back(html.size());
    html.insert(html.end(), d.begin(), d.end());
    html.push_back(0);
  }
  html.resize(html.size() + 4, 0);
  if (html.size() >= (1ull << 31)) error("gpusc.workload", "inverted-index: the corpus exceeds 2 GiB");
  // Records (Mars's main.cu: blocks of record_bytes cut at a line end, whose newline becomes NUL;
  // or one line each).
  struct R {
    uint32_t doc, off, size;
  };
  std::vector<R> recs;
  for (uint32_t d = 0; d < docs.size(); ++d) {
    const uint64_t o = app->doc_offset[d];
    const uint32_t n = static_cast<uint32_t>(docs[d].size());
    for (uint32_t s = 0; s < n;) {
      uint32_t q = p.record_bytes ? s + p.record_bytes : s;
      if (q >= n) {
        recs.push_back({d, s, n - s});
        break;
      }
      while (q < n && html[o + q] != '\n') ++q;
      if (p.record_bytes && q < n) html[o + q] = 0;
      recs.push_back({d, s, q + 1 - s});
      s = q + 1;
    }
  }
  app->html0 = std::make_shared<const std::vector<uint8_t>>(html);
  app->base = space_.allocate("html", html.size());
  {
    auto h = app->html0;
    space_.set_contents("html", AddressSpace::bytes_of([h](uint64_t i) { return (*h)[i]; }));
  }
  // The map's NULs over the closing quotes, on the host.
  std::vector<uint8_t> h1 = html;
  for (const R& r : recs) {
    Cursor c(html.data() + app->doc_offset[r.doc] + r.off, r.size);
    for (Step s; c.next(s);)
      if (s.link) h1[app->doc_offset[r.doc] + r.off + s.j + s.len] = 0;
  }
  app->html1 = std::make_shared<const std::vector<uint8_t>>(std::move(h1));
  MarsInput in;
  for (const R& r : recs) {
    std::vector<uint8_t> val(12);
    for (unsigned b = 0; b < 4; ++b)
      val[b] = uint8_t(r.off >> (8 * b)), val[4 + b] = uint8_t(r.size >> (8 * b)), val[8 + b] = uint8_t(r.doc >> (8 * b));
    in.add(mars_key(app->base + app->doc_offset[r.doc], 0, 0), val);
  }
  job_ = MarsJob::make(space_, "ii", "inverted-index", app, std::move(in), MarsWorkflow::MapGroup, launches_);
  for (const MarsPair& pr : job_->intermediate()) {
    const uint64_t at = mars_key_buf(pr.key.data()) + mars_key_offset(pr.key.data()) - app->base;
    index_[std::string(reinterpret_cast<const char*>(app->html1->data() + at))].insert(mars_word(pr.val.data(), 4, 0));
  }
}

}  // namespace gpusc
