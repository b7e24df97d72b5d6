// noc_synth: synthetic-traffic runs on a gpusc NoC (mesh, ring or crossbar), the standard way to
// check a network's latency and throughput against other simulators. Prints a short table and
// writes the figures as JSON. Run with --help for the options.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>

#include <systemc>

#include "common/clock_domain.h"
#include "common/command_line.h"
#include "common/payload_pool.h"
#include "common/stats.h"
#include "noc/network.h"
#include "noc/traffic_terminal.h"

namespace {

[[maybe_unused]] const bool kNoBanner = gpusc::cli::no_systemc_banner();  // before sc_main

const char* kUsage = R"(usage: noc_synth [options]
  --topology mesh|ring|crossbar   network topology (mesh)
  --k N --m N                     mesh columns and rows; ring/crossbar nodes = k (8, 8)
  --vcs N                         virtual channels per port (4)
  --buf N                         flits per virtual channel (8)
  --routing xy|yx                 mesh dimension-order routing (xy)
  --pipeline 2|3|4                router pipeline stages (3)
  --alloc islip|separable         switch allocator (islip)
  --flit-bytes N                  flit width in bytes (16)
  --traffic uniform|transpose|bitcomplement|hotspot|neighbor   (uniform)
  --rate R                        offered load, flits per node per cycle (0.1)
  --packet-flits P                packet length in flits (1)
  --warmup CYCLES                 cycles before measuring (1000)
  --cycles CYCLES                 measurement window (10000)
  --seed S                        random seed (1)
  --threads N                     threads (1): mesh rows / ring nodes split into N lanes
                                  ticked at once, each thread pinned to a CPU when there are
                                  N or more; same results, except unit_ticks (a router sleeps
                                  until a flit from another lane can be used)
  --json FILE                     write the results as JSON
  --quiet                         no table
Latency counts from packet creation (source queueing included) to tail ejection;
network latency from head injection. A 1-flit packet crossing H routers at zero load
takes (pipeline + 1) * H + 2 cycles.
)";

[[noreturn]] void usage_error(const std::string& msg) {
  std::cerr << "noc_synth: " << msg << "\n\n" << kUsage;
  std::exit(2);
}

struct Options {
  std::map<std::string, std::string> v = {
      {"topology", "mesh"}, {"k", "8"}, {"m", "8"}, {"vcs", "4"}, {"buf", "8"}, {"routing", "xy"},
      {"pipeline", "3"}, {"alloc", "islip"}, {"flit-bytes", "16"}, {"traffic", "uniform"}, {"rate", "0.1"},
      {"packet-flits", "1"}, {"warmup", "1000"}, {"cycles", "10000"}, {"seed", "1"}, {"threads", "1"},
      {"json", ""}};
  bool quiet = false;
  unsigned long num(const std::string& k) const {
    char* end = nullptr;
    const unsigned long x = std::strtoul(v.at(k).c_str(), &end, 10);
    if (!end || *end || v.at(k).empty()) usage_error("--" + k + " needs a whole number, got '" + v.at(k) + "'");
    return x;
  }
  double real(const std::string& k) const {
    char* end = nullptr;
    const double x = std::strtod(v.at(k).c_str(), &end);
    if (!end || *end || v.at(k).empty()) usage_error("--" + k + " needs a number, got '" + v.at(k) + "'");
    return x;
  }
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") { std::cout << kUsage; std::exit(0); }
    if (a == "--quiet") { o.quiet = true; continue; }
    if (a.rfind("--", 0) != 0 || !o.v.count(a.substr(2))) usage_error("unknown option '" + a + "'");
    if (i + 1 >= argc) usage_error("option '" + a + "' needs a value");
    o.v[a.substr(2)] = argv[++i];
  }
  return o;
}

}  // namespace

int sc_main(int argc, char** argv) {
  using namespace gpusc;
  cli::plain_reports("noc_synth");
  const Options o = parse(argc, argv);
  try {
    noc::Network::Params np;
    np.topology = o.v.at("topology");
    np.k = static_cast<unsigned>(o.num("k"));
    np.m = np.topology == "mesh" ? static_cast<unsigned>(o.num("m")) : 1;
    np.routing = o.v.at("routing");
    np.router.vnets = 1;
    np.router.vcs_per_vnet = static_cast<unsigned>(o.num("vcs"));
    np.router.vc_depth = static_cast<unsigned>(o.num("buf"));
    np.router.pipeline = static_cast<unsigned>(o.num("pipeline"));
    np.router.allocator = o.v.at("alloc");
    np.ni.flit_bytes = static_cast<unsigned>(o.num("flit-bytes"));
    np.ni.header_bytes = 0;
    noc::TrafficTerminal::Params tp;
    tp.traffic = o.v.at("traffic");
    tp.rate = o.real("rate");
    tp.packet_flits = static_cast<unsigned>(o.num("packet-flits"));
    tp.flit_bytes = np.ni.flit_bytes;
    tp.warmup = o.num("warmup");
    tp.cycles = o.num("cycles");
    const uint64_t seed = o.num("seed");
    tp.hotspots = {(np.m / 2) * np.k + np.k / 2};

    ClockDomain clk("noc_clk", 1000.0);
    clk.set_lanes(static_cast<unsigned>(o.num("threads")));
    noc::Network net("noc", np, clk);
    PayloadPool pool(tp.packet_flits * np.ni.flit_bytes);
    sc_core::sc_vector<noc::TrafficTerminal> terms("term");
    terms.init(net.nodes(), [&](const char* nm, size_t i) {
      return new noc::TrafficTerminal(nm, tp, static_cast<unsigned>(i), np.k, np.m, seed, clk, pool,
                                      net.lane_of(static_cast<unsigned>(i)));
    });
    for (unsigned i = 0; i < net.nodes(); ++i) {
      terms[i].out.bind(net.ni(i).in[0]);
      net.ni(i).out[0].bind(terms[i].in);
    }

    const auto t0 = std::chrono::steady_clock::now();
    const uint64_t stop = tp.warmup + tp.cycles;
    sc_core::sc_start(clk.time_of(tp.warmup));
    uint64_t backlog_start = 0;
    for (auto& t : terms) backlog_start += t.backlog();
    sc_core::sc_start(clk.time_of(stop) - sc_core::sc_time_stamp());
    uint64_t backlog_end = 0, created_win = 0;
    for (auto& t : terms) { backlog_end += t.backlog(); created_win += t.created_measured(); }
    // Drain: wait for the measured packets, but give up on a saturated network.
    const uint64_t drain_cap = stop + 4 * tp.cycles + 20000;
    auto received = [&] { uint64_t r = 0; for (auto& t : terms) r += t.received_measured(); return r; };
    while (received() < created_win && clk.now() < drain_cap)
      sc_core::sc_start(clk.time_of(1000));
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    Histogram lat(1, 8192);
    double net_sum = 0;
    uint64_t net_n = 0, flits_win = 0, packets = 0;
    for (auto& t : terms) {
      const Histogram& h = t.latency();
      for (size_t b = 0; b < h.counts().size(); ++b)
        for (uint64_t c = 0; c < h.counts()[b]; ++c) lat.add(static_cast<double>(b));
      for (uint64_t c = 0; c < h.overflow(); ++c) lat.add(h.max());
      net_sum += t.network_latency().sum();
      net_n += t.network_latency().samples();
      flits_win += t.flits_received_in_window();
      packets += t.received();
    }
    const double node_cycles = static_cast<double>(net.nodes()) * static_cast<double>(tp.cycles);
    const bool drained = received() >= created_win;
    const bool saturated = !drained || backlog_end > backlog_start + net.nodes();
    const uint64_t sim_cycles = clk.now();
    const uint64_t hops = net.flit_hops();
    json r = {
        {"topology", np.topology}, {"k", np.k}, {"m", np.m}, {"vcs", np.router.vcs_per_vnet},
        {"buf", np.router.vc_depth}, {"routing", np.routing}, {"pipeline", np.router.pipeline},
        {"alloc", np.router.allocator}, {"flit_bytes", np.ni.flit_bytes}, {"traffic", tp.traffic},
        {"rate", tp.rate}, {"packet_flits", tp.packet_flits}, {"warmup", tp.warmup}, {"cycles", tp.cycles},
        {"seed", seed}, {"threads", clk.lanes()},
        {"offered_flits_per_node_cycle", static_cast<double>(created_win) * tp.packet_flits / node_cycles},
        {"accepted_flits_per_node_cycle", static_cast<double>(flits_win) / node_cycles},
        {"avg_packet_latency", lat.mean()},
        {"avg_network_latency", net_n ? net_sum / static_cast<double>(net_n) : 0.0},
        {"p99_packet_latency", lat.percentile(0.99) - 1},
        {"packets", packets}, {"measured_packets", lat.samples()}, {"flits", packets * tp.packet_flits},
        {"flit_hops", hops}, {"sim_cycles", sim_cycles}, {"wall_seconds", wall},
        {"cycles_per_second", static_cast<double>(sim_cycles) / wall},
        {"flit_hops_per_second", static_cast<double>(hops) / wall},
        {"saturated", saturated}, {"unit_ticks", clk.dispatched_ticks()}, {"active_edges", clk.active_edges()}};
    if (!o.quiet) {
      std::printf("%-32s %s %ux%u, %u VCs x %u flits, %s, pipeline %u, %s\n", "network", np.topology.c_str(), np.k,
                  np.m, np.router.vcs_per_vnet, np.router.vc_depth, np.routing.c_str(), np.router.pipeline,
                  np.router.allocator.c_str());
      std::printf("%-32s %s, %u-flit packets\n", "traffic", tp.traffic.c_str(), tp.packet_flits);
      for (const char* key : {"offered_flits_per_node_cycle", "accepted_flits_per_node_cycle", "avg_packet_latency",
                              "avg_network_latency", "p99_packet_latency", "packets", "flit_hops", "sim_cycles",
                              "wall_seconds", "flit_hops_per_second", "saturated", "unit_ticks"})
        std::printf("%-32s %s\n", key, r[key].dump().c_str());
    }
    if (!o.v.at("json").empty()) write_json_file(o.v.at("json"), r);
  } catch (const sc_core::sc_report& e) {
    std::cerr << "noc_synth: error: " << cli::sentence(e) << "\n";
    return 1;
  }
  return 0;
}
