#include "platforms/platform_cli.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "common/report.h"

namespace gpusc::cli {

json merge_presets(const PresetTexts& texts, const std::string& name, const std::string& program) {
  json cfg = json::object();
  std::stringstream ss(name);
  for (std::string part; std::getline(ss, part, '+');) {
    const auto it = texts.find(part);
    if (it == texts.end()) {
      std::string known;
      for (const auto& [n, t] : texts) known += (known.empty() ? "" : ", ") + n;
      error(program, "unknown preset '", part, "' in '", name, "'; known presets and overlays: ", known);
    }
    json layer = parse_json(it->second, "preset " + part);
    layer.erase("description");
    cfg.merge_patch(layer);
  }
  return cfg;
}

std::string preset_description(const PresetTexts& texts, const std::string& name, const std::string& program) {
  const auto it = texts.find(name);
  if (it == texts.end()) error(program, "unknown preset '", name, "'");
  return parse_json(it->second, "preset " + name).value("description", std::string());
}

void catalog_row(std::ostringstream& os, const std::string& name, const std::string& text, size_t width) {
  const size_t indent = 14;
  std::string line = "  " + name;
  line.resize(std::max(line.size() + 1, indent), ' ');
  std::istringstream words(text.empty() ? "(no description)" : text);
  bool first = true;
  for (std::string w; words >> w; first = false) {
    if (!first && line.size() + 1 + w.size() > width) {
      os << line << "\n";
      line = std::string(indent, ' ');
      first = true;
    }
    line += (first ? "" : " ") + w;
  }
  os << line << "\n";
}

void usage_error(const std::string& program, const char* usage, const std::string& msg) {
  std::cerr << program << ": " << msg << "\n\n" << usage;
  std::exit(2);
}

namespace {
uint64_t parse_count(const std::string& program, const char* usage, const std::string& opt, const std::string& v) {
  char* end = nullptr;
  const unsigned long long x = std::strtoull(v.c_str(), &end, 10);
  if (v.empty() || !end || *end) usage_error(program, usage, opt + " needs a whole number, got '" + v + "'");
  return x;
}
}  // namespace

Options parse_options(int argc, char** argv, const std::string& program, const char* usage,
                      const std::string& default_preset, const std::function<std::string()>& listing) {
  Options o;
  o.preset = default_preset;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") { std::cout << usage; std::exit(0); }
    if (a == "--quiet") { o.quiet = true; continue; }
    if (a == "--list") { std::cout << listing(); std::exit(0); }
    if (i + 1 >= argc) usage_error(program, usage, "unknown option '" + a + "', or it needs a value");
    const std::string v = argv[++i];
    if (a == "--preset") o.preset = v;
    else if (a == "--config") o.config = v;
    else if (a == "--kernel") o.kernel = v;
    else if (a == "--set") o.sets.push_back(v);
    else if (a == "--seed") { o.seed = parse_count(program, usage, a, v); o.seed_given = true; }
    else if (a == "--max-cycles") o.max_cycles = parse_count(program, usage, a, v);
    else if (a == "--out") o.out = v;
    else if (a == "--trace") o.trace = v;
    else usage_error(program, usage, "unknown option '" + a + "'");
  }
  return o;
}

WorkloadChoice take_workload(json& cfg, const std::string& program, const char* usage) {
  json wl = cfg.contains("workload") ? cfg["workload"] : json::object();
  cfg.erase("workload");
  for (auto it = wl.begin(); it != wl.end(); ++it)
    if (it.key() != "name" && it.key() != "params" && it.key() != "seed")
      usage_error(program, usage, "unknown workload key '" + it.key() + "' (known: name, params, seed)");
  if (!wl.contains("name")) usage_error(program, usage, "no workload: give --kernel NAME (see --list)");
  return WorkloadChoice{wl["name"].get<std::string>(), wl.value("params", json::object()), wl.value("seed", uint64_t{1})};
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
      std::printf("%-34s %s\n", k.c_str(), v.dump().c_str());
      continue;
    }
    const double x = v.get<double>();
    std::printf(x == static_cast<double>(static_cast<long long>(x)) ? "%-34s %.0f\n" : "%-34s %.3f\n", k.c_str(), x);
  }
  std::printf("%-34s %s\n", "wall seconds", num("wall_seconds", "%.1f").c_str());
}

}  // namespace gpusc::cli
