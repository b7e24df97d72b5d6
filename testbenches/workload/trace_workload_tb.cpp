// Accel-Sim trace reader (issue 22): the hand-made fixtures in traces/ (written for this test,
// one per layout the real trace of ../shared/data lacks), an .xz copy made here with liblzma,
// and malformed variants made here by editing the fixture. Expected values are worked out by
// hand from the fixture lines (comments give the arithmetic).
#include <catch2/catch.hpp>

#include <lzma.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "workload/trace_file.h"
#include "workload/trace_workload.h"
#include "workload/workload_factory.h"

using namespace gpusc;
namespace fs = std::filesystem;

namespace {

const std::string kFixtures = std::string(GPUSC_TRACE_FIXTURES);

std::vector<WarpInstr> drain(const Kernel& k, unsigned cta, unsigned warp) {
  std::vector<WarpInstr> v;
  auto s = k.warp(cta, warp);
  WarpInstr w;
  while (s->next(w)) v.push_back(w);
  return v;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

// A fresh folder under the temp dir with kernelslist.g and one kernel file of the given text.
struct TempTrace {
  fs::path dir;
  TempTrace(const std::string& tag, const std::string& kernel_text, const std::string& list = "kernel-1.traceg\n",
            const std::string& kernel_file = "kernel-1.traceg") {
    dir = fs::temp_directory_path() / ("gpusc-trace-tb-" + tag + "-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(dir / "kernelslist.g") << list;
    std::ofstream(dir / kernel_file, std::ios::binary) << kernel_text;
  }
  ~TempTrace() { fs::remove_all(dir); }
  std::string path() const { return dir.string(); }
};

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

std::string xz(const std::string& text) {
  std::string out(lzma_stream_buffer_bound(text.size()), '\0');
  size_t pos = 0;
  REQUIRE(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const uint8_t*>(text.data()),
                                  text.size(), reinterpret_cast<uint8_t*>(out.data()), &pos, out.size()) == LZMA_OK);
  out.resize(pos);
  return out;
}

TraceWorkload open(const std::string& dir) {
  TraceWorkload::Params p;
  p.dir = dir;
  return TraceWorkload(p);
}

}  // namespace

TEST_CASE("accel-sim trace: tracer-5 fixture, the three address modes, opcode classes and widths", "[trace]") {
  auto w = open(kFixtures + "/v5_modes");
  auto k = w.next_kernel();
  REQUIRE(k);
  CHECK(k->name() == "kernel-1");
  CHECK(k->num_ctas() == 2);
  CHECK(k->threads_per_cta() == 40);
  CHECK(k->warps_per_cta() == 2);
  CHECK(k->shared_bytes_per_cta() == 1024);

  const auto v = drain(*k, 0, 0);
  REQUIRE(v.size() == 8);
  // MOV: an ALU issue slot.
  CHECK(v[0].op == WarpInstr::Op::Compute);
  CHECK(v[0].compute_cycles == kAluCycles);
  // Mode 1, base 0x10000000 stride 4, all lanes: lane l at base + 4 l.
  CHECK(v[1].op == WarpInstr::Op::Load);
  CHECK(v[1].pc == 0x10);
  CHECK(v[1].access_bytes == 4);
  CHECK(v[1].active_mask == 0xffffffffu);
  CHECK(v[1].addr[0] == 0x10000000u);
  CHECK(v[1].addr[31] == 0x10000000u + 31 * 4);
  // Mode 0, lanes 0-3 listed; .64 = 8 bytes per lane.
  CHECK(v[2].op == WarpInstr::Op::Load);
  CHECK(v[2].access_bytes == 8);
  CHECK(v[2].active_mask == 0xfu);
  CHECK(v[2].addr[0] == 0x10001000u);
  CHECK(v[2].addr[1] == 0x10001100u);
  CHECK(v[2].addr[2] == 0x10001008u);
  CHECK(v[2].addr[3] == 0x10002000u);
  // Mode 2, mask 0xb (lanes 0, 1, 3): base, +1, then -2: 0x10003000, 0x10003001, 0x10002fff; .U8 = 1 byte.
  CHECK(v[3].op == WarpInstr::Op::Store);
  CHECK(v[3].access_bytes == 1);
  CHECK(v[3].active_mask == 0xbu);
  CHECK(v[3].addr[0] == 0x10003000u);
  CHECK(v[3].addr[1] == 0x10003001u);
  CHECK(v[3].addr[3] == 0x10002fffu);
  // MUFU: an SFU slot; LDS: shared memory, a long compute slot, no memory traffic.
  CHECK(v[4].op == WarpInstr::Op::Compute);
  CHECK(v[4].compute_cycles == kSfuCycles);
  CHECK(v[5].op == WarpInstr::Op::Compute);
  CHECK(v[5].compute_cycles == kSfuCycles);
  // Generic LD whose address lies in the shared window (shmem base 0x7f0000000000 + 0x100).
  CHECK(v[6].op == WarpInstr::Op::Compute);
  // ATOMG, mode 0: an atomic of 4 bytes on lanes 0 and 1.
  CHECK(v[7].op == WarpInstr::Op::Atomic);
  CHECK(v[7].access_bytes == 4);
  CHECK(v[7].addr[1] == 0x10004000u);

  // Warp 1 (8 threads): MOV, then an LDG with no active lane: an issue slot, no access.
  const auto w1 = drain(*k, 0, 1);
  REQUIRE(w1.size() == 2);
  CHECK(w1[1].op == WarpInstr::Op::Compute);
  CHECK(w1[1].active_mask == 0u);
  // CTA 1 lists only warp 1: warp 0 runs nothing; warp 1 reads 8 x 16 B.
  CHECK(drain(*k, 1, 0).empty());
  const auto c1 = drain(*k, 1, 1);
  REQUIRE(c1.size() == 1);
  CHECK(c1[0].access_bytes == 16);
  CHECK(c1[0].addr[7] == 0x10020000u + 7 * 16);
  CHECK_FALSE(w.next_kernel());
  CHECK_THROWS_WITH(k->warp(2, 0), Catch::Contains("no warp 0 of CTA 2"));

  // Streams are order-independent: warp (0,0) read again after others gives the same addresses.
  CHECK(drain(*k, 0, 0)[3].addr[3] == 0x10002fffu);
}

TEST_CASE("accel-sim trace: the address space is the MemcpyHtoD arrays and the touched 64 KiB chunks", "[trace]") {
  auto w = open(kFixtures + "/v5_modes");
  // Memcpy 0x10000000 + 4096 lies inside the chunk [0x10000000, 0x10010000) the loads touch; the
  // 16-byte loads of CTA 1 touch [0x10020000, 0x10030000). Shared accesses touch nothing.
  const auto& a = w.address_space().arrays();
  REQUIRE(a.size() == 2);
  CHECK(a[0].base == 0x10000000u);
  CHECK(a[0].bytes == 0x10000u);
  CHECK(a[1].base == 0x10020000u);
  CHECK(w.address_space().bytes() == 2 * 0x10000u);
  CHECK_FALSE(w.has_values());
}

TEST_CASE("accel-sim trace: old layout (tracer 2, tb and warp ids on every line) with line info", "[trace]") {
  auto w = open(kFixtures + "/v2_lineinfo");
  auto k = w.next_kernel();
  const auto v = drain(*k, 0, 0);
  REQUIRE(v.size() == 3);
  CHECK(v[0].op == WarpInstr::Op::Compute);
  CHECK(v[1].op == WarpInstr::Op::Load);
  CHECK(v[1].pc == 0x10);
  CHECK(v[1].active_mask == 0x5u);
  CHECK(v[1].addr[0] == 0x20000000u);
  CHECK(v[1].addr[2] == 0x20000200u);
  CHECK(v[2].pc == 0x20);
}

TEST_CASE("accel-sim trace: a .traceg.xz file reads exactly like the plain one", "[trace]") {
  const std::string text = slurp(kFixtures + "/v5_modes/kernel-1.traceg");
  TempTrace t("xz", xz(text), "kernel-1.traceg.xz\n", "kernel-1.traceg.xz");
  auto plain = open(kFixtures + "/v5_modes");
  auto packed = open(t.path());
  auto kp = plain.next_kernel(), kx = packed.next_kernel();
  CHECK(kx->name() == "kernel-1");
  for (unsigned c = 0; c < 2; ++c)
    for (unsigned wi = 0; wi < 2; ++wi) {
      const auto a = drain(*kp, c, wi), b = drain(*kx, c, wi);
      REQUIRE(a.size() == b.size());
      for (size_t i = 0; i < a.size(); ++i) {
        CHECK(a[i].op == b[i].op);
        CHECK(a[i].active_mask == b[i].active_mask);
        CHECK(a[i].addr == b[i].addr);
      }
    }
  TraceFile f((t.dir / "kernel-1.traceg.xz").string(), "tb");
  CHECK(f.size() == text.size());
}

TEST_CASE("accel-sim trace: malformed traces are errors naming the file and the line", "[trace][errors]") {
  const std::string good = slurp(kFixtures + "/v5_modes/kernel-1.traceg");
  struct Case {
    const char* tag;
    std::string text;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"truncated", good.substr(0, good.rfind("#END_TB")), "ends inside a thread block"},
      {"duplicate-tb", replace(good, "thread block = 1,0,0", "thread block = 0,0,0"), "appears twice"},
      {"short-warp", replace(good, "insts = 8", "insts = 9"), "fewer than its 'insts = 9'"},
      {"long-warp", replace(good, "insts = 2", "insts = 1"), "beyond the warp's 'insts = 1'"},
      {"bad-address", replace(good, "0x10001100", "0x1000zz00"), "kernel-1.traceg:25: an address is not hexadecimal"},
      {"few-deltas", replace(good, "0x10003000 1 -2 0", "0x10003000 1"), "kernel-1.traceg:26: fewer deltas"},
      {"bad-mode", replace(good, "4 1 0x10000000 4 0", "4 7 0x10000000 4 0"), ":24: address mode is not 0, 1 or 2"},
      {"extra", replace(good, "0000 ffffffff 1 R1 MOV 0 0 0", "0000 ffffffff 1 R1 MOV 0 0 0 5 6"), ":23: unexpected fields"},
      {"warp-range", replace(good, "warp = 1\ninsts = 1", "warp = 2\ninsts = 1"), "warp 2 but a CTA of 40 threads has 2 warps"},
      {"tb-range", replace(good, "thread block = 1,0,0", "thread block = 2,0,0"), "outside the grid"},
      {"no-grid", replace(good, "-grid dim = (2,1,1)\n", ""), "no '-grid dim = (x,y,z)' line"},
      {"bad-block", replace(good, "-block dim = (40,1,1)", "-block dim = (40,1)"), "kernel-1.traceg:4: malformed value of 'block dim'"},
      {"no-body", good.substr(0, good.find("#traces")), "no instruction section"},
      {"tb-missing", good.substr(0, good.find("#BEGIN_TB\n\nthread block = 1")), "has 1 of the grid's 2 thread blocks"},
  };
  for (const auto& c : cases) {
    INFO(c.tag);
    TempTrace t(c.tag, c.text);
    CHECK_THROWS_WITH(open(t.path()), Catch::Contains(c.message));
  }
}

TEST_CASE("accel-sim trace: bad folders, lists and compressed files are clear errors", "[trace][errors]") {
  CHECK_THROWS_WITH(open(""), Catch::Contains("no trace folder"));
  CHECK_THROWS_WITH(open("/nonexistent/gpusc"), Catch::Contains("kernelslist.g") && Catch::Contains("no such file"));
  const std::string good = slurp(kFixtures + "/v5_modes/kernel-1.traceg");
  {
    TempTrace t("unknown-cmd", good, "kernel-1.traceg\nLaunchSomething\n");
    CHECK_THROWS_WITH(open(t.path()), Catch::Contains("kernelslist.g:2: unknown command 'LaunchSomething'"));
  }
  {
    TempTrace t("bad-memcpy", good, "MemcpyHtoD,0xzz,12\nkernel-1.traceg\n");
    CHECK_THROWS_WITH(open(t.path()), Catch::Contains("kernelslist.g:1: malformed 'MemcpyHtoD,0xzz,12'"));
  }
  {
    TempTrace t("no-kernel", good, "MemcpyHtoD,0x1000,12\n");
    CHECK_THROWS_WITH(open(t.path()), Catch::Contains("no kernel launch"));
  }
  {
    TempTrace t("missing-file", good, "kernel-2.traceg\n");
    CHECK_THROWS_WITH(open(t.path()), Catch::Contains("kernel-2.traceg") && Catch::Contains("No such file"));
  }
  {
    std::string packed = xz(good);
    TempTrace t("cut-xz", packed.substr(0, packed.size() / 2), "kernel-1.traceg.xz\n", "kernel-1.traceg.xz");
    CHECK_THROWS_WITH(open(t.path()), Catch::Contains("cannot decompress") && Catch::Contains("kernel-1.traceg.xz"));
  }
  {
    TempTrace t("not-xz", good, "kernel-1.traceg.xz\n", "kernel-1.traceg.xz");
    CHECK_THROWS_WITH(open(t.path()), Catch::Contains("not in the xz format"));
  }
  {
    TempTrace t("empty", "", "kernel-1.traceg\n");
    CHECK_THROWS_WITH(open(t.path()), Catch::Contains("is empty"));
  }
}

TEST_CASE("accel-sim trace: max_kernels and the factory name", "[trace]") {
  const std::string good = slurp(kFixtures + "/v5_modes/kernel-1.traceg");
  TempTrace t("two", good, "kernel-1.traceg\nkernel-1.traceg\n");
  auto all = open(t.path());
  CHECK(all.kernel_files().size() == 2);
  auto one = make_workload("accel-sim", json{{"dir", t.path()}, {"max_kernels", 1}}, 1);
  REQUIRE(one->next_kernel());
  CHECK_FALSE(one->next_kernel());
}

TEST_CASE("trace file: lines longer than the read buffer and a last line without newline", "[trace]") {
  std::string text = std::string(10000, 'a') + "\n\nshort\r\nlast";
  TempTrace t("lines", text, "", "f.txt");
  TraceFile f((t.dir / "f.txt").string(), "tb");
  TraceFile::LineReader r(f);
  std::string line;
  REQUIRE(r.next(line));
  CHECK(line.size() == 10000);
  REQUIRE(r.next(line));
  CHECK(line.empty());
  REQUIRE(r.next(line));
  CHECK(line == "short");  // CR removed
  CHECK(r.line_number() == 3);
  CHECK(r.line_offset() == 10002);
  REQUIRE(r.next(line));
  CHECK(line == "last");
  CHECK_FALSE(r.next(line));
}
