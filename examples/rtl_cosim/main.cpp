// rtl_cosim: RTL co-simulation in a page (docs/rtl-cosim.md). A small mesh GPU (4x4 mesh, 12 SMs,
// 4 memory partitions, paper 002's DF-MAN filter with DPC at each partition) runs spmv twice:
// with the C++ DPC codec and with the RTL one swapped in (rtl/dpc_compressor.v and
// rtl/dpc_decompressor.v verilated, behind pin adapters), chosen by one parameter:
// mc.stage_params.data_filter.codec.model. SystemC elaborates one design per process, so the C++
// run happens in a child process. Prints both runs' key figures side by side.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "common/command_line.h"
#include "platforms/mesh_gpu/mesh_gpu.h"
#include "platforms/mesh_gpu/presets.h"
#include "workload/workload_factory.h"

[[maybe_unused]] static const bool no_banner = gpusc::cli::no_systemc_banner();

static gpusc::json run(const std::string& codec) {  // one platform, one run: its summary
  using namespace gpusc;
  json cfg = mesh_gpu::preset("dpc8x8+dfman");
  cfg.merge_patch({{"sms", 12}, {"mcs", 4}, {"noc", {{"k", 4}, {"m", 4}}},
                   {"mc", {{"stage_params", {{"data_filter", {{"codec", {{"model", codec}}}}}}}}}});
  auto workload = make_workload("spmv", {{"generator", "uniform"}, {"rows", 2048}, {"nnz_per_row", 8}}, 1);
  MeshGpu gpu("gpu", params_from_json<MeshGpu::Params>(cfg, ""), *workload);
  const auto t0 = std::chrono::steady_clock::now();
  const bool finished = gpu.run(10000000);
  json s = gpu.summary();
  s["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  s["finished"] = finished;
  uint64_t edges = 0;  // cycles the RTL codecs were clocked
  const json stats = collect_stats()["stats"];
  for (const auto& [key, v] : stats.items())
    if (key.find("codec_rtl.clock.rising_edges") != std::string::npos) edges += v.get<uint64_t>();
  s["rtl_edges"] = edges;
  return s;
}

int sc_main(int, char*[]) {
  gpusc::cli::plain_reports("rtl_cosim");
  int fd[2];
  if (pipe(fd) != 0) return 1;
  const pid_t child = fork();
  if (child == 0) {  // the C++ codec
    const std::string s = run("cpp").dump();
    if (write(fd[1], s.data(), s.size()) != static_cast<ssize_t>(s.size())) _exit(1);
    _exit(0);
  }
  close(fd[1]);
  const gpusc::json rtl = run("rtl");
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = read(fd[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(n));
  int status = 0;
  waitpid(child, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || text.empty()) return 2;
  const gpusc::json cpp = gpusc::json::parse(text);
  std::printf("%-26s %14s %14s\n", "spmv on 4x4 dpc8x8+dfman", "C++ codec", "RTL codec");
  for (const char* k : {"cycles", "ipc", "amat", "flit_hops", "reply_packets", "dpc_compression_ratio", "rtl_edges"})
    std::printf("%-26s %14.6g %14.6g\n", k, cpp.at(k).get<double>(), rtl.at(k).get<double>());
  std::printf("%-26s %14.0f %14.0f\n", "simulated cycles / s", cpp.at("cycles").get<double>() / cpp.at("seconds").get<double>(),
              rtl.at("cycles").get<double>() / rtl.at("seconds").get<double>());
  gpusc::json a = cpp, b = rtl;  // every summary figure but wall time and the RTL's own clock
  for (auto* s : {&a, &b}) s->erase("seconds"), s->erase("wall_seconds"), s->erase("rtl_edges");
  const bool same = a == b && cpp.at("finished").get<bool>();
  std::printf("%s\n", same ? "identical results" : "results differ");
  return same ? 0 : 3;
}
