// noc_synth: synthetic-traffic runs on a gpusc NoC (mesh, ring or crossbar), the standard way to
// check a network's latency and throughput against other simulators. Prints a short table and
// writes the figures as JSON. Run with --help for the options.
#include <chrono>
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>

#include <systemc>

#include "common/clock_domain.h"
#include "common/command_line.h"
#include "common/payload_pool.h"
#include "common/stats.h"
#include "noc/network.h"
#include "noc/traffic_terminal.h"
#include "platforms/run_options.h"

namespace {

[[maybe_unused]] const bool kNoBanner = gpusc::cli::no_systemc_banner();  // before sc_main

const char* kUsageHead = "usage: noc_synth [options]\n";
const char* kUsageTail = R"(
Latency counts from packet creation (source queueing included) to tail ejection;
network latency from head injection. A 1-flit packet crossing H routers at zero load
takes (pipeline + 1) * H + 2 cycles. Exit status 4: the drain after the measurement window
left measured packets undelivered (the network is saturated; the JSON is still written).
)";

namespace po = boost::program_options;
using gpusc::cli::Count;
using gpusc::cli::Fraction;

struct Options {
  std::string topology = "mesh", routing, alloc = "islip", traffic = "uniform", json;
  uint64_t k = 8, m = 8, vcs = 4, buf = 8, pipeline = 3, flit_bytes = 16, packet_flits = 1, warmup = 1000,
           cycles = 10000, seed = 1, threads = 1;
  double rate = 0.1;
  bool quiet = false;
};

[[noreturn]] void usage_error(const po::options_description& d, const std::string& msg) {
  std::cerr << "noc_synth: " << msg << "\n\n" << kUsageHead << d << kUsageTail;
  std::exit(2);
}

// A flag's value against the range or choices of the parameter it sets (P's descriptor at
// `key`), so that the message names the flag rather than the parameter's key.
template <class P>
void check_flag(const po::options_description& d, const char* flag, double v, const char* key) {
  const auto fi = gpusc::field_info<P>(key);
  if (fi && fi->has_range && (v < fi->lo || v > fi->hi)) {
    std::ostringstream os;
    os << flag << " " << v << " is out of range [" << fi->lo << ", " << fi->hi << "]: " << fi->doc;
    usage_error(d, os.str());
  }
}
template <class P>
void check_flag(const po::options_description& d, const char* flag, const std::string& v, const char* key) {
  const auto fi = gpusc::field_info<P>(key);
  if (!fi || !fi->choices) return;
  const std::string choices = std::string("|") + fi->choices + "|";
  if (choices.find("|" + v + "|") == std::string::npos)
    usage_error(d, std::string(flag) + " '" + v + "' is not one of " + fi->choices);
}

Options parse(int argc, char** argv) {
  Options o;
  po::options_description d("options");
  auto count = [](uint64_t& dst) { return po::value<Count>()->notifier([&dst](const Count& c) { dst = c.v; }); };
  // clang-format off
  d.add_options()
    ("help,h", "this text")
    ("topology", po::value(&o.topology)->default_value(o.topology), "mesh|ring|crossbar")
    ("k", count(o.k), "mesh columns; ring / crossbar nodes (8)")
    ("m", count(o.m), "mesh rows (8); mesh only")
    ("vcs", count(o.vcs), "virtual channels per port (4)")
    ("buf", count(o.buf), "flits per virtual channel (8)")
    ("routing", po::value(&o.routing), "mesh dimension-order routing: xy|yx (xy); mesh only: a ring routes by the "
     "shortest direction with dateline VCs, a crossbar by destination")
    ("pipeline", count(o.pipeline), "router pipeline stages: 2|3|4 (3)")
    ("alloc", po::value(&o.alloc)->default_value(o.alloc), "switch allocator: islip|separable")
    ("flit-bytes", count(o.flit_bytes), "flit width in bytes (16)")
    ("traffic", po::value(&o.traffic)->default_value(o.traffic), "uniform|transpose|bitcomplement|hotspot|neighbor")
    ("rate", po::value<Fraction>()->notifier([&o](const Fraction& f) { o.rate = f.v; }),
     "offered load, flits per node per cycle, in [0, 1] (0.1)")
    ("packet-flits", count(o.packet_flits), "packet length in flits (1)")
    ("warmup", count(o.warmup), "cycles before measuring (1000)")
    ("cycles", count(o.cycles), "measurement window (10000)")
    ("seed", count(o.seed), "random seed (1)")
    ("threads", count(o.threads),
     "threads (1): mesh rows / ring nodes split into N lanes ticked at once, each thread pinned to a CPU when "
     "there are N or more; same results, except unit_ticks (a router sleeps until a flit from another lane can "
     "be used)")
    ("json", po::value(&o.json), "write the results as JSON to this file")
    ("quiet", po::bool_switch(&o.quiet), "no table");
  // clang-format on
  try {
    po::variables_map vm;
    const po::positional_options_description none;  // a stray word is an error, not dropped
    po::store(po::command_line_parser(argc, argv).options(d).positional(none).run(), vm);
    if (vm.count("help")) {
      std::cout << kUsageHead << d << kUsageTail;
      std::exit(0);
    }
    po::notify(vm);
    const bool mesh = o.topology == "mesh";
    if (!mesh && vm.count("routing"))
      usage_error(d, "--routing applies to a mesh only; a " + o.topology + " has its own routing (" +
                         (o.topology == "ring" ? "shortest direction, dateline VCs" : "destination tag") + ")");
    if (!mesh && vm.count("m")) usage_error(d, "--m (mesh rows) applies to a mesh only; a " + o.topology +
                                                   " has --k nodes");
    if (mesh && o.routing.empty()) o.routing = "xy";
    if (vm.count("json")) {  // checked now, an existing file kept as it is: found before the run
      if (o.json.empty()) usage_error(d, "--json needs a file name, got an empty one");
      const std::string why = gpusc::cli::unwritable(o.json);
      if (!why.empty()) usage_error(d, "--json '" + o.json + "' cannot be written (" + why + ")");
    }
  } catch (const po::error& e) {
    usage_error(d, e.what());
  }
  using NP = gpusc::noc::Network::Params;
  using TP = gpusc::noc::TrafficTerminal::Params;
  check_flag<NP>(d, "--topology", o.topology, "topology");
  check_flag<NP>(d, "--alloc", o.alloc, "router.allocator");
  check_flag<TP>(d, "--traffic", o.traffic, "traffic");
  if (o.topology == "mesh" && o.routing != "xy" && o.routing != "yx")
    usage_error(d, "--routing '" + o.routing + "' is not one of xy|yx");
  const std::pair<const char*, std::pair<uint64_t, const char*>> flags[] = {
      {"--k", {o.k, "k"}}, {"--m", {o.m, "m"}}, {"--vcs", {o.vcs, "router.vcs_per_vnet"}},
      {"--buf", {o.buf, "router.vc_depth"}}, {"--pipeline", {o.pipeline, "router.pipeline"}},
      {"--flit-bytes", {o.flit_bytes, "ni.flit_bytes"}}};
  for (const auto& [flag, f] : flags) check_flag<NP>(d, flag, static_cast<double>(f.first), f.second);
  check_flag<TP>(d, "--packet-flits", static_cast<double>(o.packet_flits), "packet_flits");
  check_flag<TP>(d, "--warmup", static_cast<double>(o.warmup), "warmup");
  check_flag<TP>(d, "--cycles", static_cast<double>(o.cycles), "cycles");
  if (o.topology == "ring" && o.k < 2)
    usage_error(d, "--k must be at least 2 on a ring, got " + std::to_string(o.k));
  if (o.topology == "mesh" && o.traffic == "transpose" && o.k != o.m)
    usage_error(d, "--traffic transpose needs a square mesh: --k " + std::to_string(o.k) + " and --m " +
                       std::to_string(o.m) + " differ");
  if (o.topology == "ring" && o.vcs < 2)
    usage_error(d, "--vcs must be at least 2 on a ring (two dateline classes keep it deadlock-free)");
  // Lanes split mesh rows or ring nodes; a crossbar stays in lane 0 whatever the count.
  const uint64_t most = o.topology == "mesh" ? o.m : o.topology == "ring" ? o.k : 65536;
  if (o.threads == 0 || o.threads > most)
    usage_error(d, "--threads " + std::to_string(o.threads) + ": give 1 to " + std::to_string(most) +
                       (o.topology == "mesh" ? " (the mesh rows, --m)" : o.topology == "ring" ? " (the ring nodes, --k)" : ""));
  return o;
}

}  // namespace

int sc_main(int argc, char** argv) {
  using namespace gpusc;
  cli::plain_reports("noc_synth");
  const Options o = parse(argc, argv);
  try {
    noc::Network::Params np;
    np.topology = o.topology;
    np.k = static_cast<unsigned>(o.k);
    np.m = np.topology == "mesh" ? static_cast<unsigned>(o.m) : 1;
    np.routing = o.routing;
    np.router.vnets = 1;
    np.router.vcs_per_vnet = static_cast<unsigned>(o.vcs);
    np.router.vc_depth = static_cast<unsigned>(o.buf);
    np.router.pipeline = static_cast<unsigned>(o.pipeline);
    np.router.allocator = o.alloc;
    np.ni.flit_bytes = static_cast<unsigned>(o.flit_bytes);
    np.ni.header_bytes = 0;
    noc::TrafficTerminal::Params tp;
    tp.traffic = o.traffic;
    tp.rate = o.rate;
    tp.packet_flits = static_cast<unsigned>(o.packet_flits);
    tp.flit_bytes = np.ni.flit_bytes;
    tp.warmup = o.warmup;
    tp.cycles = o.cycles;
    const uint64_t seed = o.seed;
    tp.hotspots = {(np.m / 2) * np.k + np.k / 2};

    ClockDomain clk("noc_clk", 1000.0);
    clk.set_lanes(static_cast<unsigned>(o.threads));
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
    // Conservation: every packet created is delivered once or still in the network / a source queue.
    uint64_t created = 0, delivered = 0, out_of_order = 0;
    for (auto& t : terms) {
      created += t.created();
      delivered += t.received();
      out_of_order += t.out_of_order();
    }
    json failures = json::array();
    if (delivered > created) failures.push_back("more packets delivered than created");
    if (received() > created_win) failures.push_back("more measured packets delivered than created");
    if (net.packets_in_flight() > created - std::min(created, delivered))
      failures.push_back("more packets in the network than created and not delivered");

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
        {"saturated", saturated}, {"unit_ticks", clk.dispatched_ticks()}, {"active_edges", clk.active_edges()},
        {"created", created}, {"delivered", delivered}, {"in_flight", created - delivered},
        {"measured_undelivered", created_win - received()}, {"invariant_failures", failures},
        {"reordered_packets", out_of_order}};  // a later packet of a pair overtook an earlier one (VCs may)
    if (!o.quiet) {
      std::printf("%-32s %s %ux%u, %u VCs x %u flits, %s, pipeline %u, %s\n", "network", np.topology.c_str(), np.k,
                  np.m, np.router.vcs_per_vnet, np.router.vc_depth,
                  np.topology == "mesh" ? np.routing.c_str() : np.topology == "ring" ? "dateline" : "destination tag",
                  np.router.pipeline,
                  np.router.allocator.c_str());
      std::printf("%-32s %s, %u-flit packets\n", "traffic", tp.traffic.c_str(), tp.packet_flits);
      for (const char* key : {"offered_flits_per_node_cycle", "accepted_flits_per_node_cycle", "avg_packet_latency",
                              "avg_network_latency", "p99_packet_latency", "packets", "flit_hops", "sim_cycles",
                              "wall_seconds", "flit_hops_per_second", "saturated", "unit_ticks", "created",
                              "delivered", "in_flight"})
        std::printf("%-32s %s\n", key, r[key].dump().c_str());
    }
    if (!o.json.empty()) write_json_file(o.json, r);
    if (!failures.empty()) {
      std::cerr << "noc_synth: error: invariants failed: " << failures.dump() << "\n";
      return 1;
    }
    if (created_win > received()) {
      std::cerr << "noc_synth: " << created_win - received() << " of " << created_win
                << " measured packets were still undelivered when the drain stopped at cycle " << sim_cycles
                << ": the network is saturated at this load\n";
      return 4;
    }
  } catch (const sc_core::sc_report& e) {
    std::cerr << "noc_synth: error: " << cli::sentence(e) << "\n";
    return 1;
  }
  return 0;
}
