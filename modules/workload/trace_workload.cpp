#include "workload/trace_workload.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <set>

#include "common/report.h"
#include "workload/text_parse.h"

namespace gpusc {
namespace {

const char* kWho = "gpusc.workload.accel-sim";
constexpr uint64_t kChunk = uint64_t{1} << 16;  // address-space granularity of touched memory [bytes]

struct WarpSlice {
  uint64_t offset = 0;  // byte offset of the warp's first instruction line
  uint32_t count = 0;   // its instructions
};

unsigned warps_of(const TraceKernelHeader& h) { return static_cast<unsigned>((h.threads_per_cta() + kWarpSize - 1) / kWarpSize); }

// Walks the body of a kernel file, checking its structure. With `visit`, every instruction is
// parsed (a malformed line is an error naming file and line) and handed to it; with `index`,
// index[cta * warps + w] gets where warp w of CTA cta starts.
void scan(const TraceFile& f, const TraceKernelHeader& h, const std::function<void(const WarpInstr&)>* visit,
          std::vector<WarpSlice>* index) {
  const uint64_t ctas = h.ctas();
  const unsigned warps = warps_of(h);
  std::vector<bool> seen_cta(ctas, false);
  std::vector<bool> seen_warp;
  if (index) index->assign(ctas * warps, WarpSlice{});
  TraceFile::LineReader r(f, h.body_offset, h.body_line);
  std::string line;
  auto where = [&] { return f.path() + ":" + std::to_string(r.line_number()); };
  bool in_tb = false, have_tb = false, have_warp = false;
  uint64_t cta = 0, tbs = 0;
  unsigned warp = 0;
  uint32_t left = 0, total = 0;
  WarpInstr in;
  std::string why;
  auto close_warp = [&] {
    if (have_warp && left > 0)
      error(kWho, where(), ": warp ", warp, " of thread block ", cta, " has ", total - left, " instruction lines, fewer than its 'insts = ",
            total, "'");
  };
  while (r.next(line)) {
    if (line.empty()) continue;
    if (line.rfind("#BEGIN_TB", 0) == 0) {
      if (in_tb) error(kWho, where(), ": #BEGIN_TB before the previous thread block's #END_TB");
      in_tb = true;
      have_tb = have_warp = false;
      seen_warp.assign(warps, false);
    } else if (line.rfind("#END_TB", 0) == 0) {
      if (!in_tb || !have_tb) error(kWho, where(), ": #END_TB without a thread block");
      close_warp();
      in_tb = have_warp = false;
      ++tbs;
    } else if (line[0] == '#') {
      if (in_tb) error(kWho, where(), ": unexpected '", line, "' inside a thread block");
    } else if (!in_tb) {
      error(kWho, where(), ": '", line, "' outside #BEGIN_TB ... #END_TB");
    } else if (line.rfind("thread block = ", 0) == 0) {
      unsigned x = 0, y = 0, z = 0;
      std::vector<std::string_view> t;
      std::string coords = line.substr(15);
      std::replace(coords.begin(), coords.end(), ',', ' ');
      text::split(coords, t);
      uint64_t v[3];
      if (have_tb || t.size() != 3 || !text::to_u64(t[0], v[0]) || !text::to_u64(t[1], v[1]) || !text::to_u64(t[2], v[2]))
        error(kWho, where(), ": malformed '", line, "'");
      if (v[0] >= h.grid[0] || v[1] >= h.grid[1] || v[2] >= h.grid[2])
        error(kWho, where(), ": thread block (", v[0], ",", v[1], ",", v[2], ") is outside the grid (", h.grid[0], ",",
              h.grid[1], ",", h.grid[2], ")");
      x = static_cast<unsigned>(v[0]), y = static_cast<unsigned>(v[1]), z = static_cast<unsigned>(v[2]);
      cta = x + uint64_t{h.grid[0]} * (y + uint64_t{h.grid[1]} * z);
      if (seen_cta[cta]) error(kWho, where(), ": thread block (", x, ",", y, ",", z, ") appears twice");
      seen_cta[cta] = true;
      have_tb = true;
    } else if (line.rfind("warp = ", 0) == 0) {
      uint64_t w;
      if (!have_tb || !text::to_u64(std::string_view(line).substr(7), w))
        error(kWho, where(), ": malformed '", line, "' (or no 'thread block =' line before it)");
      close_warp();
      if (w >= warps) error(kWho, where(), ": warp ", w, " but a CTA of ", h.threads_per_cta(), " threads has ", warps, " warps");
      if (seen_warp[w]) error(kWho, where(), ": warp ", w, " appears twice in thread block ", cta);
      seen_warp[w] = true;
      warp = static_cast<unsigned>(w);
      have_warp = false;
    } else if (line.rfind("insts = ", 0) == 0) {
      uint64_t n;
      if (!text::to_u64(std::string_view(line).substr(8), n) || n > UINT32_MAX)
        error(kWho, where(), ": malformed '", line, "'");
      if (have_warp || !seen_warp[warp]) error(kWho, where(), ": 'insts =' without a 'warp =' line before it");
      have_warp = true;
      left = total = static_cast<uint32_t>(n);
      if (index) (*index)[cta * warps + warp] = WarpSlice{r.offset(), total};
    } else {
      if (!have_warp || left == 0)
        error(kWho, where(), ": instruction line beyond the warp's 'insts = ", total, "': '", line, "'");
      --left;
      if (visit) {
        if (!parse_trace_instruction(line, h, in, why)) error(kWho, where(), ": ", why, ": '", line, "'");
        (*visit)(in);
      }
    }
  }
  if (in_tb) error(kWho, f.path(), ": the file ends inside a thread block (no #END_TB): truncated?");
  if (tbs != ctas)
    error(kWho, f.path(), ": the trace has ", tbs, " of the grid's ", ctas, " thread blocks: truncated?");
}

class TraceWarpStream : public WarpStream {
 public:
  TraceWarpStream(std::shared_ptr<const TraceFile> f, std::shared_ptr<const TraceKernelHeader> h, WarpSlice s)
      : f_(std::move(f)), h_(std::move(h)), r_(*f_, s.offset), left_(s.count) {}

  bool next(WarpInstr& out) override {
    if (left_ == 0) return false;
    do {
      if (!r_.next(line_)) error(kWho, f_->path(), " changed since it was checked (it ends early)");
    } while (line_.empty());
    if (!parse_trace_instruction(line_, *h_, out, why_))
      error(kWho, f_->path(), " changed since it was checked: ", why_, ": '", line_, "'");
    --left_;
    return true;
  }

 private:
  std::shared_ptr<const TraceFile> f_;
  std::shared_ptr<const TraceKernelHeader> h_;
  TraceFile::LineReader r_;
  uint32_t left_;
  std::string line_, why_;
};

class TraceKernel : public Kernel {
 public:
  TraceKernel(std::string name, std::shared_ptr<const TraceFile> f, std::shared_ptr<const TraceKernelHeader> h,
              std::vector<WarpSlice> index)
      : name_(std::move(name)), f_(std::move(f)), h_(std::move(h)), index_(std::move(index)) {}
  std::string name() const override { return name_; }
  unsigned num_ctas() const override { return static_cast<unsigned>(h_->ctas()); }
  unsigned threads_per_cta() const override { return static_cast<unsigned>(h_->threads_per_cta()); }
  unsigned warps_per_cta() const override { return warps_of(*h_); }
  uint64_t shared_bytes_per_cta() const override { return h_->shmem; }
  std::unique_ptr<WarpStream> warp(unsigned cta, unsigned w) const override {
    if (cta >= num_ctas() || w >= warps_per_cta())
      error(kWho, name_, ": no warp ", w, " of CTA ", cta, " (", num_ctas(), " CTAs of ", warps_per_cta(), " warps)");
    return std::make_unique<TraceWarpStream>(f_, h_, index_[uint64_t{cta} * warps_per_cta() + w]);
  }

 private:
  std::string name_;
  std::shared_ptr<const TraceFile> f_;
  std::shared_ptr<const TraceKernelHeader> h_;
  std::vector<WarpSlice> index_;
};

// Bounds checked before anything is allocated: CUDA's 1024 threads per block, and no more
// thread blocks than the file's bytes could hold (each takes at least kMinBlockBytes of text).
constexpr uint64_t kMaxThreadsPerCta = 1024;
constexpr uint64_t kMinBlockBytes = 32;  // "#BEGIN_TB\nthread block = 0,0,0\n#END_TB\n" is 39

TraceKernelHeader checked_header(const TraceFile& f) {
  TraceKernelHeader h = read_trace_header(f, kWho);
  if (h.threads_per_cta() > kMaxThreadsPerCta)
    error(kWho, f.path(), ": blocks of ", h.threads_per_cta(), " threads; CUDA allows at most ", kMaxThreadsPerCta);
  if (h.ctas() > f.size() / kMinBlockBytes)
    error(kWho, f.path(), ": the grid has ", h.ctas(), " thread blocks, more than the file's ", f.size(),
          " bytes can hold: truncated?");
  return h;
}

std::string stem(const std::string& path) {
  std::string s = std::filesystem::path(path).filename().string();
  for (const char* ext : {".xz", ".traceg"})
    if (s.size() > std::strlen(ext) && s.compare(s.size() - std::strlen(ext), std::string::npos, ext) == 0)
      s.resize(s.size() - std::strlen(ext));
  return s;
}

}  // namespace

TraceWorkload::TraceWorkload(const Params& p) : space_(0) {
  if (p.dir.empty())
    error(kWho, "no trace folder: give --trace-dir DIR (or workload.params.dir) with an Accel-Sim kernelslist.g");
  const std::string list = (std::filesystem::path(p.dir) / "kernelslist.g").string();
  std::ifstream in;
  text::open_input(in, list, kWho, "Accel-Sim kernel list");
  std::map<uint64_t, uint64_t> regions;  // base -> end, 256-byte aligned
  auto add_region = [&](uint64_t a, uint64_t b) {
    a = a / AddressSpace::kAlign * AddressSpace::kAlign;
    b = (b + AddressSpace::kAlign - 1) / AddressSpace::kAlign * AddressSpace::kAlign;
    uint64_t& e = regions[a];
    e = std::max(e, b);
  };
  std::string line;
  uint64_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (line.rfind("MemcpyHtoD,", 0) == 0) {
      std::vector<std::string_view> t;
      std::string rest = line.substr(11);
      std::replace(rest.begin(), rest.end(), ',', ' ');
      text::split(rest, t);
      uint64_t addr = 0, bytes = 0;
      std::string_view a = t.size() == 2 ? t[0] : std::string_view{};
      if (a.size() > 2 && a[0] == '0' && (a[1] == 'x' || a[1] == 'X')) a.remove_prefix(2);
      auto r = std::from_chars(a.data(), a.data() + a.size(), addr, 16);
      if (t.size() != 2 || a.empty() || r.ec != std::errc() || r.ptr != a.data() + a.size() || !text::to_u64(t[1], bytes))
        error(kWho, list, ":", n, ": malformed '", line, "' (expected MemcpyHtoD,0xADDRESS,BYTES)");
      if (bytes > 0) add_region(addr, addr + bytes);
    } else if (line.rfind("MemcpyDtoH", 0) == 0) {
      continue;
    } else if (line.rfind("kernel", 0) == 0) {
      if (p.max_kernels == 0 || files_.size() < p.max_kernels)
        files_.push_back((std::filesystem::path(p.dir) / line).string());
    } else {
      error(kWho, list, ":", n, ": unknown command '", line, "' (expected kernel-*.traceg, MemcpyHtoD or MemcpyDtoH)");
    }
  }
  if (files_.empty()) error(kWho, list, ": no kernel launch (kernel-*.traceg lines)");
  std::set<uint64_t> chunks;
  const std::function<void(const WarpInstr&)> touch = [&](const WarpInstr& w) {
    if (!w.is_memory()) return;
    for (unsigned l = 0; l < kWarpSize; ++l)
      if (w.lane_active(l)) chunks.insert(w.addr[l] / kChunk), chunks.insert((w.addr[l] + w.access_bytes - 1) / kChunk);
  };
  for (const std::string& file : files_) {
    TraceFile f(file, kWho);
    scan(f, checked_header(f), &touch, nullptr);
  }
  for (auto it = chunks.begin(); it != chunks.end();) {
    const uint64_t first = *it;
    uint64_t last = first;
    while (++it != chunks.end() && *it == last + 1) last = *it;
    add_region(first * kChunk, (last + 1) * kChunk);
  }
  uint64_t k = 0, base = 0, end = 0;  // merge overlapping regions
  bool open = false;
  for (auto [a, b] : regions) {
    if (open && a <= end) {
      end = std::max(end, b);
      continue;
    }
    if (open) space_.allocate_at("trace.region" + std::to_string(k++), base, end - base);
    base = a, end = b, open = true;
  }
  if (open) space_.allocate_at("trace.region" + std::to_string(k), base, end - base);
}

std::unique_ptr<Kernel> TraceWorkload::next_kernel() {
  if (next_ >= files_.size()) return nullptr;
  const std::string& file = files_[next_++];
  auto f = std::make_shared<const TraceFile>(file, kWho);
  auto h = std::make_shared<const TraceKernelHeader>(checked_header(*f));
  std::vector<WarpSlice> index;
  scan(*f, *h, nullptr, &index);
  return std::make_unique<TraceKernel>(stem(file), std::move(f), std::move(h), std::move(index));
}

}  // namespace gpusc
