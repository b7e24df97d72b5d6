#include "workload_test_util.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace gpusc::test {

Stream drain(WarpStream& s) {
  Stream out;
  WarpInstr w;
  while (s.next(w)) out.push_back(w);
  return out;
}

std::vector<Stream> drain_kernel(const Kernel& k) {
  std::vector<Stream> out;
  for (unsigned c = 0; c < k.num_ctas(); ++c)
    for (unsigned w = 0; w < k.warps_per_cta(); ++w) out.push_back(drain(*k.warp(c, w)));
  return out;
}

std::vector<std::unique_ptr<Kernel>> all_kernels(Workload& w) {
  std::vector<std::unique_ptr<Kernel>> out;
  while (auto k = w.next_kernel()) {
    out.push_back(std::move(k));
    REQUIRE(out.size() < 100000);  // a runaway workload
  }
  return out;
}

bool same_instr(const WarpInstr& a, const WarpInstr& b) {
  if (a.op != b.op || a.pc != b.pc || a.access_bytes != b.access_bytes || a.active_mask != b.active_mask ||
      a.compute_cycles != b.compute_cycles)
    return false;
  for (unsigned l = 0; l < kWarpSize; ++l)
    if (a.lane_active(l) && a.is_memory() && a.addr[l] != b.addr[l]) return false;
  return true;
}

bool same_stream(const Stream& a, const Stream& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!same_instr(a[i], b[i])) return false;
  return true;
}

std::set<std::string> keys(const std::map<std::string, std::map<uint64_t, unsigned>>& m) {
  std::set<std::string> s;
  for (const auto& kv : m) s.insert(kv.first);
  return s;
}
std::set<std::string> AccessCount::loaded() const { return keys(loads); }
std::set<std::string> AccessCount::stored() const { return keys(stores); }
std::set<std::string> AccessCount::atomic() const { return keys(atomics); }

uint64_t AccessCount::total_loads(const std::string& a) const {
  uint64_t t = 0;
  auto it = loads.find(a);
  if (it != loads.end())
    for (const auto& kv : it->second) t += kv.second;
  return t;
}

unsigned AccessCount::get(const std::map<std::string, std::map<uint64_t, unsigned>>& m, const std::string& a,
                          uint64_t i) {
  auto it = m.find(a);
  if (it == m.end()) return 0;
  auto jt = it->second.find(i);
  return jt == it->second.end() ? 0 : jt->second;
}

AccessCount count_accesses(const AddressSpace& space, const std::vector<Stream>& warps) {
  AccessCount c;
  for (const auto& s : warps)
    for (const auto& w : s) {
      if (!w.is_memory()) continue;
      auto& m = w.op == WarpInstr::Op::Load ? c.loads : w.op == WarpInstr::Op::Store ? c.stores : c.atomics;
      for (unsigned l = 0; l < kWarpSize; ++l) {
        if (!w.lane_active(l)) continue;
        const ArrayRecord* a = space.find(w.addr[l]);
        INFO("pc 0x" << std::hex << w.pc << " lane " << std::dec << l << " address 0x" << std::hex << w.addr[l]);
        REQUIRE(a != nullptr);
        REQUIRE(a->contains(w.addr[l] + w.access_bytes - 1));
        REQUIRE((w.addr[l] - a->base) % w.access_bytes == 0);
        ++m[a->name][(w.addr[l] - a->base) / w.access_bytes];
      }
    }
  return c;
}

AccessCount count_accesses(const AddressSpace& space, const Kernel& k) {
  return count_accesses(space, drain_kernel(k));
}

void check_invariants(const AddressSpace& space, const Kernel& k, const std::vector<Stream>& warps) {
  REQUIRE(k.warps_per_cta() == (k.threads_per_cta() + 31) / 32);
  REQUIRE(warps.size() == size_t(k.num_ctas()) * k.warps_per_cta());
  const unsigned tail = k.threads_per_cta() % 32;
  const uint32_t last_mask = tail ? (1u << tail) - 1u : kAllLanes;
  std::map<uint32_t, std::pair<WarpInstr::Op, unsigned>> static_instr;  // pc -> (operation, access size)
  for (size_t i = 0; i < warps.size(); ++i) {
    const bool last_warp = i % k.warps_per_cta() == k.warps_per_cta() - 1;
    for (const auto& w : warps[i]) {
      INFO(k.name() << " warp " << i << " pc 0x" << std::hex << w.pc);
      REQUIRE(w.active_mask != 0);
      // One pc is one static instruction: the PC-indexed predictors (paper 000) rely on it.
      const auto [it, fresh] = static_instr.emplace(w.pc, std::make_pair(w.op, w.access_bytes));
      if (!fresh) REQUIRE((it->second.first == w.op && it->second.second == w.access_bytes));
      if (last_warp) REQUIRE((w.active_mask & ~last_mask) == 0);
      if (w.is_memory()) {
        REQUIRE(w.compute_cycles == 0);
        const unsigned b = w.access_bytes;
        REQUIRE((b == 1 || b == 2 || b == 4 || b == 8 || b == 16));
      } else {
        REQUIRE(w.compute_cycles > 0);
        REQUIRE(w.access_bytes == 0);
      }
    }
  }
  count_accesses(space, warps);  // addresses in arrays and aligned
}

std::string array_of(const AddressSpace& space, const WarpInstr& w) {
  if (!w.is_memory() || w.active_mask == 0) return "";
  const ArrayRecord* a = space.find(w.addr[static_cast<unsigned>(__builtin_ctz(w.active_mask))]);
  return a ? a->name : "?";
}

Stream on_array(const AddressSpace& space, const Stream& s, const std::string& name, WarpInstr::Op op) {
  Stream out;
  for (const auto& w : s)
    if (w.op == op && array_of(space, w) == name) out.push_back(w);
  return out;
}

uint64_t element(const AddressSpace& space, const std::string& array, const WarpInstr& w, unsigned lane) {
  const ArrayRecord& a = space.array(array);
  REQUIRE(a.contains(w.addr[lane]));
  return (w.addr[lane] - a.base) / w.access_bytes;
}

std::ostream& operator<<(std::ostream& os, const LaneAccess& a) {
  return os << to_string(a.op) << " " << a.array << "[" << a.element << "]";
}

std::vector<LaneAccess> lane_accesses(const AddressSpace& space, const Stream& s, unsigned lane) {
  std::vector<LaneAccess> out;
  for (const auto& in : s)
    if (in.is_memory() && in.lane_active(lane)) {
      const std::string a = array_of(space, in);
      out.push_back({in.op, a, element(space, a, in, lane)});
    }
  return out;
}

TempFile::TempFile(const std::string& name, const std::string& content) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("gpusc_workload_tb_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  path_ = (dir / name).string();
  std::ofstream out(path_, std::ios::binary);
  out << content;
  REQUIRE(out.good());
}

TempFile::~TempFile() {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::remove(path_, ec);
  fs::remove(fs::path(path_).parent_path(), ec);  // only succeeds once empty
}

}  // namespace gpusc::test
