#include "platforms/run_options.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

#include "common/report.h"
#include "common/stats.h"

namespace po = boost::program_options;

namespace gpusc::cli {

namespace {

constexpr const char* kWho = "gpusc.config";

[[noreturn]] void usage_error(const Program& prog, const po::options_description& desc, const std::string& msg) {
  std::cerr << prog.name << ": " << msg << "\n\n" << prog.usage_head << desc << prog.usage_tail;
  std::exit(2);
}

// An unwritable output is found before the run, and an existing file is left as it is.
void check_writable(const Program& prog, const po::options_description& desc, const char* opt,
                    const std::string& path) {
  if (path.empty()) usage_error(prog, desc, std::string(opt) + " needs a file name, got an empty one");
  const std::string why = unwritable(path);
  if (!why.empty()) usage_error(prog, desc, std::string(opt) + " '" + path + "' cannot be written (" + why + ")");
}

// A null anywhere in a --config file would delete that part of the preset (JSON merge patch).
void refuse_nulls(const json& j, const std::string& where, const std::string& file) {
  if (j.is_null())
    error(kWho, "--config '", file, "': ", where.empty() ? "the file" : "'" + where + "'",
          " is null; give the values to change (null would drop the preset's section)");
  if (!j.is_object()) return;
  for (auto it = j.begin(); it != j.end(); ++it)
    refuse_nulls(it.value(), where.empty() ? it.key() : where + "." + it.key(), file);
}

}  // namespace

void validate(boost::any& out, const std::vector<std::string>& values, Count*, int) {
  po::validators::check_first_occurrence(out);
  const std::string& s = po::validators::get_single_string(values);
  uint64_t v = 0;
  bool ok = !s.empty();
  for (char c : s) {
    if (c < '0' || c > '9' || v > (UINT64_MAX - static_cast<uint64_t>(c - '0')) / 10) {
      ok = false;
      break;
    }
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  if (!ok) throw po::invalid_option_value(s);
  out = Count{v};
}

void validate(boost::any& out, const std::vector<std::string>& values, Fraction*, int) {
  po::validators::check_first_occurrence(out);
  const std::string& s = po::validators::get_single_string(values);
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || !end || *end || !std::isfinite(v) || v < 0 || v > 1) throw po::invalid_option_value(s);
  out = Fraction{v};
}

RunOptions parse_run_options(int argc, char** argv, const Program& prog, const po::options_description* extra,
                             po::variables_map* vm_out) {
  RunOptions o;
  o.preset = prog.default_preset;
  po::options_description desc("options");
  // clang-format off
  desc.add_options()
    ("help,h", "this text")
    ("list", "list presets, overlays, stages and workloads")
    ("preset", po::value<std::string>(&o.preset)->default_value(prog.default_preset),
     "base configuration and overlays, merged in order, e.g. ics8x8+pcu+xy-yx (--list shows them)")
    ("config", po::value<std::string>(&o.config),
     "JSON object merged over the preset: platform keys, and optionally \"workload\": "
     "{\"name\": ..., \"params\": {...}, \"seed\": N}")
    ("kernel", po::value<std::string>(&o.kernel), "workload to run (--list shows them)")
    ("trace-dir", po::value<std::string>(&o.trace_dir),
     "run an Accel-Sim trace folder (kernelslist.g + kernel-*.traceg[.xz]): the workload accel-sim with "
     "params.dir = this folder")
    ("set", po::value<std::vector<std::string>>(&o.sets)->composing(),
     "KEY=VALUE override after preset and config, e.g. --set l1.sets=64 --set workload.params.size=small "
     "(repeatable; workload.params.size=small runs the kernel's small input, docs/workloads.md)")
    ("seed", po::value<Count>(), "workload seed (1)")
    ("max-cycles", po::value<Count>(), "stop after this many core cycles even if the workload is not done (20000000)")
    ("stall-cycles", po::value<Count>(),
     "report a deadlock (exit 4) when no SM issues an instruction or receives a reply for this many core "
     "cycles while the workload is unfinished, e.g. flits stuck in a routing deadlock; 0 turns the watchdog "
     "off (1000000)")
    ("out", po::value<std::string>(&o.out), "write config, summary and all stats as JSON to this file")
    ("trace", po::value<std::string>(&o.trace), "write a Perfetto/Chrome transaction trace to this file")
    ("memory-plugin", po::value<std::string>(&o.memory_plugin),
     "shared library with a TLM-2.0 memory model (gpusc_memory_model, platforms/memory_plugin.h) bound behind "
     "every memory partition whose memory is \"external\" (--set mc.memory=external; docs/tlm.md)")
    ("memory-plugin-args", po::value<std::string>(&o.memory_plugin_args), "text handed to the memory plugin")
    ("quiet", po::bool_switch(&o.quiet), "no summary table and no progress line")
    ("progress", po::bool_switch(&o.progress),
     "show the progress line (cycles, cycles/s, CTAs done, time left) even when stderr is not a terminal; "
     "by default it shows on a terminal only");
  // clang-format on
  if (extra) desc.add(*extra);
  po::variables_map vm;
  try {
    const po::positional_options_description none;  // a stray word is an error, not dropped
    po::store(po::command_line_parser(argc, argv).options(desc).positional(none).run(), vm);
    if (vm.count("help")) {
      std::cout << prog.usage_head << desc << prog.usage_tail;
      std::exit(0);
    }
    if (vm.count("list")) {
      std::cout << prog.listing();
      std::exit(0);
    }
    po::notify(vm);
  } catch (const po::error& e) {
    usage_error(prog, desc, e.what());
  }
  if (vm.count("seed")) {
    o.seed = vm["seed"].as<Count>().v;
    o.seed_given = true;
  }
  if (vm.count("max-cycles")) o.max_cycles = vm["max-cycles"].as<Count>().v;
  if (o.max_cycles == 0) usage_error(prog, desc, "--max-cycles must be at least 1");
  if (vm.count("stall-cycles")) o.stall_cycles = vm["stall-cycles"].as<Count>().v;
  if (o.preset.empty()) usage_error(prog, desc, "--preset is empty; give a preset name (--list shows them)");
  if (o.preset.front() == '+' || o.preset.back() == '+' || o.preset.find("++") != std::string::npos)
    usage_error(prog, desc, "--preset '" + o.preset + "' has an empty part; write NAME[+OVERLAY...]");
  if (vm.count("trace-dir") && !o.kernel.empty() && o.kernel != "accel-sim")
    usage_error(prog, desc, "--trace-dir runs a trace; it cannot be combined with --kernel " + o.kernel);
  if (vm.count("trace-dir") && o.trace_dir.empty()) usage_error(prog, desc, "--trace-dir is empty; give the trace folder");
  if (vm.count("memory-plugin") && o.memory_plugin.empty())
    usage_error(prog, desc, "--memory-plugin needs a shared library, got an empty name");
  if (vm.count("memory-plugin-args") && !vm.count("memory-plugin"))
    usage_error(prog, desc, "--memory-plugin-args without --memory-plugin");
  if (vm.count("out")) check_writable(prog, desc, "--out", o.out);
  if (vm.count("trace")) check_writable(prog, desc, "--trace", o.trace);
  if (vm_out) *vm_out = std::move(vm);
  return o;
}

RunConfig assemble_config(const RunOptions& o, json cfg) {
  if (!o.config.empty()) {
    const json file = load_json_file(o.config);
    if (!file.is_object())
      error(kWho, "--config '", o.config, "' must hold a JSON object of platform keys, got ", file.type_name());
    refuse_nulls(file, "", o.config);
    cfg.merge_patch(file);
  }
  if (cfg.contains("workload") && !cfg["workload"].is_object())
    error(kWho, "\"workload\" must be an object {\"name\": ..., \"params\": {...}, \"seed\": N}, got ",
          json_text(cfg["workload"]));
  if (!o.kernel.empty()) cfg["workload"]["name"] = o.kernel;
  if (!o.trace_dir.empty()) {
    cfg["workload"]["name"] = "accel-sim";
    cfg["workload"]["params"]["dir"] = o.trace_dir;
  }
  if (o.seed_given) cfg["workload"]["seed"] = o.seed;
  for (const auto& s : o.sets) apply_override(cfg, s);

  RunConfig rc;
  json wl = cfg.contains("workload") ? cfg["workload"] : json::object();
  cfg.erase("workload");
  if (!wl.is_object()) error(kWho, "\"workload\" must be an object, got ", json_text(wl));
  for (auto it = wl.begin(); it != wl.end(); ++it)
    if (it.key() != "name" && it.key() != "params" && it.key() != "seed")
      error(kWho, "unknown workload key '", it.key(), "' (known: name, params, seed)");
  if (!wl.contains("name")) error(kWho, "no workload: give --kernel NAME (see --list)");
  if (!wl["name"].is_string()) error(kWho, "workload.name must be a string, got ", json_text(wl["name"]));
  rc.kernel = wl["name"].get<std::string>();
  if (wl.contains("params")) {
    if (!wl["params"].is_object()) error(kWho, "workload.params must be an object, got ", json_text(wl["params"]));
    rc.kernel_params = wl["params"];
  }
  if (wl.contains("seed")) {
    if (!wl["seed"].is_number_unsigned())
      error(kWho, "workload.seed must be a whole non-negative number, got ", json_text(wl["seed"]));
    rc.seed = wl["seed"].get<uint64_t>();
  }
  rc.platform = std::move(cfg);
  return rc;
}

void print_summary(const json& s, const json& mechanism) {
  auto num = [&](const char* k, const char* fmt) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, s.at(k).get<double>());
    return std::string(buf);
  };
  std::printf("%-34s %s\n", "workload", s.at("workload").get<std::string>().c_str());
  std::printf("%-34s %.1f\n", "workload footprint [MiB]", s.at("footprint_bytes").get<double>() / (1 << 20));
  std::printf("%-34s %s\n", "preset", s.at("preset").get<std::string>().c_str());
  std::printf("%-34s %llu\n", "cycles", static_cast<unsigned long long>(s.at("cycles").get<uint64_t>()));
  std::printf("%-34s %s\n", "IPC (thread instr / cycle)", num("ipc", "%.2f").c_str());
  std::printf("%-34s %s\n", "AMAT [cycles]", num("amat", "%.1f").c_str());
  std::printf("%-34s %s / %s / %s\n", "L1 miss: request/memory/reply", num("request_latency", "%.1f").c_str(),
              num("memory_latency", "%.1f").c_str(), num("reply_latency", "%.1f").c_str());
  std::printf("%-34s %s / %s\n", "L1 / L2 hit rate", num("l1_hit_rate", "%.3f").c_str(),
              num("l2_hit_rate", "%.3f").c_str());
  std::printf("%-34s %s\n", "MC stall ratio", num("mc_stall_ratio", "%.3f").c_str());
  std::printf("%-34s %s\n", "reply bytes / core / cycle", num("reply_bytes_per_core_cycle", "%.3f").c_str());
  std::printf("%-34s %llu / %llu\n", "injected packets request / reply",
              static_cast<unsigned long long>(s.at("request_packets").get<uint64_t>()),
              static_cast<unsigned long long>(s.at("reply_packets").get<uint64_t>()));
  std::printf("%-34s %s / %s\n", "link utilization max / mean", num("link_util_max", "%.3f").c_str(),
              num("link_util_mean", "%.3f").c_str());
  std::string loc;
  for (const auto& [w, r] : s.at("locality_ratio").items()) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%s%s:%.2f", loc.empty() ? "" : " ", w.c_str(), r.get<double>());
    loc += buf;
  }
  std::printf("%-34s %s\n", "inter-core locality (window:ratio)", loc.c_str());
  for (const auto& [k, v] : mechanism.items()) {
    if (!v.is_number()) {
      std::printf("%-34s %s\n", k.c_str(), json_text(v).c_str());
      continue;
    }
    const double x = v.get<double>();
    std::printf(x == static_cast<double>(static_cast<long long>(x)) ? "%-34s %.0f\n" : "%-34s %.3f\n", k.c_str(), x);
  }
  std::printf("%-34s %s\n", "wall seconds", num("wall_seconds", "%.1f").c_str());
}

namespace {
bool shows_progress(const RunOptions& o) { return !o.quiet && (o.progress || ::isatty(STDERR_FILENO)); }
}  // namespace

Platform::ProgressFn progress_line(const RunOptions& o) {
  if (!shows_progress(o)) return {};
  using Clock = std::chrono::steady_clock;
  struct State {
    Clock::time_point start = Clock::now(), kernel_start = start;
    unsigned kernel = 0;
  };
  auto s = std::make_shared<State>();
  return [s](const Platform::Progress& p) {
    const auto now = Clock::now();
    if (p.kernel != s->kernel) s->kernel = p.kernel, s->kernel_start = now;
    const double wall = std::chrono::duration<double>(now - s->start).count();
    const double in_kernel = std::chrono::duration<double>(now - s->kernel_start).count();
    char eta[32] = "?";
    if (p.ctas_done > 0 && p.ctas_total >= p.ctas_done)
      std::snprintf(eta, sizeof eta, "%.0f s", in_kernel * (p.ctas_total - p.ctas_done) / p.ctas_done);
    std::fprintf(stderr, "\r%llu cycles  %.0f cycles/s  kernel %u: %u/%u CTAs  kernel done in %s   ",
                 static_cast<unsigned long long>(p.cycle), wall > 0 ? static_cast<double>(p.cycle) / wall : 0.0, p.kernel,
                 p.ctas_done, p.ctas_total, eta);
    std::fflush(stderr);
  };
}

void end_progress_line(const RunOptions& o) {
  if (shows_progress(o)) std::fprintf(stderr, "\r%80s\r", "");
}

void report_run(const RunOptions& o, const Program& prog, const RunConfig& rc, const Workload& workload,
                Platform::Stop stop, double wall_seconds, json summary, const json& mechanism, const json& config) {
  const bool finished = stop == Platform::Stop::finished;
  summary["workload"] = workload.name();
  summary["footprint_bytes"] = workload.address_space().bytes();
  summary["preset"] = o.preset;
  summary["finished"] = finished;
  summary["stop"] = finished ? "finished" : stop == Platform::Stop::deadlock ? "deadlock" : "max_cycles";
  summary["wall_seconds"] = wall_seconds;
  if (!o.quiet) print_summary(summary, mechanism);
  if (stop == Platform::Stop::deadlock) {
    // Either nothing is left to simulate (event-driven ticking sleeps until a message arrives, so
    // every unit waits for another or a message was lost), or units still tick but no SM made
    // progress for --stall-cycles (e.g. packets stuck in a routing deadlock).
    std::cerr << prog.name << ": deadlock at cycle " << static_cast<uint64_t>(summary.value("cycles", 0.0))
              << ": the workload has not finished and ";
    if (sc_core::sc_pending_activity())
      std::cerr << "no SM issued an instruction or received a reply for --stall-cycles " << o.stall_cycles
                << " cycles while events were still pending (packets stuck in a network, a unit waiting forever, or a "
                   "latency longer than the limit)\n";
    else
      std::cerr << "nothing is left to simulate (units wait for each other or a message was lost)\n";
  } else if (!finished) {
    std::cerr << prog.name << ": stopped at --max-cycles " << o.max_cycles << " before the workload finished\n";
  }
  if (o.out.empty()) return;
  json out = collect_stats();
  out["config"] = config;  // with the stages' effective parameters
  out["workload"] = {
      {"name", rc.kernel}, {"params", workload_effective_params(rc.kernel, rc.kernel_params)}, {"seed", rc.seed}};
  out["summary"] = summary;
  write_json_file(o.out, out);
}

std::string unwritable(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return "it is a folder";
    return access(path.c_str(), W_OK) == 0 ? "" : "no permission";
  }
  if (!std::ofstream(path)) return "missing folder or no permission";
  std::remove(path.c_str());
  return "";
}

}  // namespace gpusc::cli
