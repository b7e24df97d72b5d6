// A whole platform with the TLM (C++) units and with the RTL units swapped in (issue 23 item 6):
// the mesh GPU of the platform tests (4x4 mesh, 12 SMs + 4 MCs, mesh_gpu_fixture.h) runs spmv
// (a uniform 1024-row matrix) twice, in two processes (SystemC elaborates once per process): with the C++ model
// and with codec.model = rtl (paper 002's DPC, dpc8x8+dpc and +dfman) or rgr_model = rtl (paper
// 001's PCU, ics8x8+pcu). Compared reply by reply: every message any network interface injects
// (cycle, node, kind, address, destinations, sector map, bytes on the wire; those of one cycle in
// any order, since units of one edge do not depend on their tick order) and, for DPC, every
// encoding each filter makes, in order (address, map, size, flags, a hash of the line the SM
// restores); and
// every statistic of the run but the RTL clocks' own. The RTL latencies equal the C++ defaults,
// so the timing difference they imply is none: the runs must be identical cycle for cycle. The
// C++ model with another compress_latency changes the cycles, which shows the comparison sees
// timing. GPUSC_RTL_PLATFORM_LOGS=<prefix> keeps both logs (<prefix>.cpp, <prefix>.rtl) for a diff.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "critical/packet_data_filter.h"
#include "platforms/mesh_gpu_fixture.h"
#include "workload/workload_factory.h"

using namespace gpusc;
using namespace gpusc::test;

namespace {

// A uniform sparse matrix of 1024 rows x 8 nonzeros: a few thousand line reads, seconds per run.
const json kSpmv = {{"generator", "uniform"}, {"rows", 1024}, {"nnz_per_row", 8}};

uint64_t fnv(const uint8_t* p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

// Runs the platform and returns its log: one line per injected message and per DPC encoding,
// then every statistic except the RTL clocks' and wall time.
std::string run_platform(const std::string& preset, const json& patch) {
  const MeshGpu::Params p = small_params(preset, patch);
  auto workload = make_workload("spmv", kSpmv, 1);
  MeshGpu gpu("gpu", p, *workload);
  std::ostringstream log;
  MeshGpu::Observers o;
  o.injected = [&log, &gpu](unsigned node, const tlm::tlm_generic_payload& gp) {
    const MemExt& e = *gp.get_extension<MemExt>();
    log << "inject " << gpu.core_clock().now() << " node " << node << " kind " << int(e.kind) << " reply " << e.is_reply
        << " addr " << gp.get_address() << " dst " << e.dst << " dests " << e.dests.count() << "/" << e.dests.first()
        << " map " << e.sector_mask << " wire " << e.wire_bytes << " len " << gp.get_data_length() << "\n";
  };
  gpu.set_observers(std::move(o));
  // Encodings per MC in order (the C++ codec makes one as the reply enters, the RTL as its result
  // comes back: the reply's cycles are in the inject lines).
  std::vector<std::ostringstream> enc(gpu.mc_count());
  for (unsigned i = 0; i < gpu.mc_count(); ++i)
    if (auto* f = dynamic_cast<PacketDataFilter*>(gpu.mc(i).stage("data_filter")))
      f->on_encoded([&enc, i](const tlm::tlm_generic_payload& gp, const DpcCodec::Encoded& e, const DpcCodec::Decoded& d) {
        enc[i] << "encode mc " << i << " addr " << gp.get_address() << " map " << unsigned(d.map) << " bits "
               << e.size_bits << " C " << e.compressed << " M " << e.manipulated << " line "
               << fnv(d.line.data(), d.line.size()) << "\n";
      });
  REQUIRE(gpu.run(2000000));
  // Messages injected in one cycle in any order (units of one edge do not depend on their order).
  std::istringstream in(log.str());
  std::vector<std::pair<uint64_t, std::string>> lines;
  for (std::string l; std::getline(in, l);) lines.emplace_back(std::stoull(l.substr(7, l.find(' ', 7) - 7)), l);
  std::sort(lines.begin(), lines.end());
  log.str("");
  for (const auto& [cycle, l] : lines) log << l << "\n";
  for (const auto& e : enc) log << e.str();
  log << "cycles " << gpu.cycles() << "\n";
  const json stats = collect_stats()["stats"];
  for (auto it = stats.begin(); it != stats.end(); ++it)
    if (it.key().find("_rtl.") == std::string::npos) log << it.key() << " " << it.value().dump() << "\n";
  return log.str();
}

// The C++ run in a child process (its log in a file), the RTL run here; both logs returned.
std::pair<std::string, std::string> both(const std::string& preset, const json& cpp, const json& rtl) {
  char path[] = "/tmp/gpusc_rtl_platform_XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  close(fd);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    int rc = 1;
    try {
      std::ofstream(path) << run_platform(preset, cpp);
      rc = 0;
    } catch (...) {
    }
    std::fflush(nullptr);
    _exit(rc);
  }
  const std::string r = run_platform(preset, rtl);
  if (const char* keep = std::getenv("GPUSC_RTL_PLATFORM_LOGS")) {  // for a failing case: both logs
    std::ofstream(std::string(keep) + ".rtl") << r;
    std::ifstream(path).close();
  }
  int status = 0;
  waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  std::ifstream in(path);
  std::stringstream c;
  c << in.rdbuf();
  if (const char* keep = std::getenv("GPUSC_RTL_PLATFORM_LOGS")) std::ofstream(std::string(keep) + ".cpp") << c.str();
  std::remove(path);
  return {c.str(), r};
}

// The first line where the logs differ (empty if none), and how many lines of `kind` each has.
std::string first_difference(const std::string& a, const std::string& b) {
  std::istringstream x(a), y(b);
  std::string l, m;
  for (unsigned n = 1;; ++n) {
    const bool ga = bool(std::getline(x, l)), gb = bool(std::getline(y, m));
    if (!ga && !gb) return "";
    if (ga != gb || l != m) return "line " + std::to_string(n) + ":\n  C++: " + (ga ? l : "(end)") + "\n  RTL: " + (gb ? m : "(end)");
  }
}
unsigned count(const std::string& log, const std::string& kind) {
  unsigned n = 0;
  for (size_t p = log.find(kind); p != std::string::npos; p = log.find(kind, p + 1)) n += p == 0 || log[p - 1] == '\n';
  return n;
}

void identical(const std::string& preset, const json& cpp, const json& rtl, unsigned min_encodings) {
  const auto [c, r] = both(preset, cpp, rtl);
  INFO(first_difference(c, r));
  CHECK(count(c, "encode ") >= min_encodings);
  CHECK(count(c, "inject ") > 1000);
  const bool same = c == r;
  CHECK(same);
}

const json kDpcRtl = {{"mc", {{"stage_params", {{"data_filter", {{"codec", {{"model", "rtl"}}}}}}}}}};

}  // namespace

TEST_CASE("RTL platform: dpc8x8+dpc on spmv, the RTL DPC codec gives every reply and statistic of the C++ one",
          "[rtl][platform]") {
  identical("dpc8x8+dpc", json::object(), kDpcRtl, 1000);
}

TEST_CASE("RTL platform: dpc8x8+dfman on spmv (partial lines, DF-MAN), RTL codec identical to C++", "[rtl][platform]") {
  identical("dpc8x8+dfman", json::object(), kDpcRtl, 1000);
}

TEST_CASE("RTL platform: ics8x8+pcu on spmv, the RTL grouping registers give every reply and statistic of the C++ ones",
          "[rtl][platform]") {
  // The RTL answers after the PCU's tick; the tick holds its place in the next cycle until then
  // (ClockDomain::hold), so the PCU ticks in the same order among the units as with the C++
  // model, and even the counters of refused hand-overs (the PCU's mc_stall_cycles, the NIs'
  // inject_full), which depend on that order, are the same.
  identical("ics8x8+pcu", json::object(), {{"mc", {{"stage_params", {{"pcu", {{"rgr_model", "rtl"}}}}}}}}, 0);
}

TEST_CASE("RTL platform: a C++ codec 1 cycle slower than the RTL is seen (the comparison sees timing)", "[rtl][platform]") {
  const json slow = {{"mc", {{"stage_params", {{"data_filter", {{"codec", {{"compress_latency", 3}}}}}}}}}};
  const auto [c, r] = both("dpc8x8+dpc", slow, kDpcRtl);
  auto cycles = [](const std::string& log) { return log.substr(log.find("\ncycles ") + 1, log.find('\n', log.find("\ncycles ") + 1) - log.find("\ncycles ") - 1); };
  INFO("C++ (compress_latency 3): " << cycles(c) << ", RTL (2): " << cycles(r));
  CHECK(cycles(c) != cycles(r));
  const bool differ = c != r;
  CHECK(differ);
}
