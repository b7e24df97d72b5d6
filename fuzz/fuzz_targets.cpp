#include "fuzz_targets.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <systemc>

#include "common/params.h"
#include "critical/dpc_codec.h"
#include "platforms/mesh_gpu/mesh_gpu.h"
#include "platforms/mesh_gpu/presets.h"
#include "workload/edge_list_reader.h"
#include "workload/matrix_market_reader.h"
#include "workload/trace_workload.h"

namespace gpusc::fuzz {
namespace {

std::string text(const uint8_t* d, size_t n) { return std::string(reinterpret_cast<const char*>(d), n); }

// Runs f; the input's own clear errors (sc_report) are fine, anything else propagates.
template <class F> int expect_clear_errors(F&& f) {
  try {
    f();
  } catch (const sc_core::sc_report&) {
  }
  return 0;
}

// A private folder for file inputs, removed at exit.
const std::filesystem::path& scratch() {
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("gpusc-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    std::atexit([] { std::filesystem::remove_all(scratch()); });
    return d;
  }();
  return dir;
}

}  // namespace

int config(const uint8_t* data, size_t size) {
  const std::string in = text(data, size);
  return expect_clear_errors([&] {
    json cfg = mesh_gpu::preset("ics8x8");
    std::istringstream lines(in);
    std::string line, body;
    while (std::getline(lines, line)) {
      if (line.rfind("--set ", 0) == 0) apply_override(cfg, line.substr(6));
      else body += line + "\n";
    }
    if (body.find_first_not_of(" \t\r\n") != std::string::npos) {
      const json file = parse_json(body, "fuzz config");
      if (!file.is_object()) return;  // run_options refuses a non-object before merging
      cfg.merge_patch(file);
    }
    cfg.erase("workload");
    (void)params_from_json<MeshGpu::Params>(cfg, "");
  });
}

int matrix_market(const uint8_t* data, size_t size) {
  std::istringstream in(text(data, size));
  return expect_clear_errors([&] { (void)read_matrix_market(in, "fuzz.mtx", nullptr, size); });
}

int edge_list(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  EdgeListOptions opt;
  opt.symmetrize = data[0] & 1;
  opt.keep_self_loops = data[0] & 2;
  std::istringstream in(text(data + 1, size - 1));
  return expect_clear_errors([&] { (void)read_edge_list(in, "fuzz.txt", opt); });
}

int accel_sim_trace(const uint8_t* data, size_t size) {
  const auto dir = scratch() / "trace";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "kernelslist.g") << "kernel-1.traceg\n";
  std::ofstream(dir / "kernel-1.traceg", std::ios::binary).write(reinterpret_cast<const char*>(data), size);
  return expect_clear_errors([&] {
    TraceWorkload::Params p;
    p.dir = dir.string();
    TraceWorkload w(p);
    while (auto k = w.next_kernel()) {
      unsigned streams = 0;
      for (unsigned c = 0; c < k->num_ctas() && streams < 256; ++c)
        for (unsigned wi = 0; wi < k->warps_per_cta() && streams < 256; ++wi, ++streams) {
          auto s = k->warp(c, wi);
          WarpInstr in;
          while (s->next(in)) {
          }
        }
    }
  });
}

int dpc(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const auto format = data[0] & 1 ? DpcCodec::Format::Truncated : DpcCodec::Format::Line;
  const uint32_t bits = static_cast<uint32_t>((size - 1) * 8) - ((data[0] >> 1) & 7) % (size > 1 ? 8 : 1);
  try {
    (void)DpcCodec::decode(data + 1, bits, format);
  } catch (const DpcFormatError&) {
  }
  if (size >= 1 + DpcCodec::kLineBytes) {
    const uint8_t* line = data + 1;
    const unsigned map = 1 + data[0] % 15;
    for (auto mode : {DpcCodec::Mode::Dpc, DpcCodec::Mode::Truc, DpcCodec::Mode::Man}) {
      const auto e = DpcCodec::encode(line, map, mode);
      const auto d = DpcCodec::decode(e);
      for (unsigned i = 0; i < DpcCodec::kLineBytes; ++i) {
        const bool kept = mode == DpcCodec::Mode::Dpc || ((d.map >> (i / 32)) & 1u);
        const uint8_t want = mode == DpcCodec::Mode::Man && !((map >> (i / 32)) & 1u) && e.manipulated ? 0 : line[i];
        if (kept && d.line[i] != want) std::abort();  // the round trip lost a critical byte
      }
    }
  }
  return 0;
}

const std::vector<Target>& targets() {
  static const std::vector<Target> t = {{"config", config},
                                        {"matrix_market", matrix_market},
                                        {"edge_list", edge_list},
                                        {"accel_sim_trace", accel_sim_trace},
                                        {"dpc", dpc}};
  return t;
}

}  // namespace gpusc::fuzz
