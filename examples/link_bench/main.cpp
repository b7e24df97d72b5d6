// link_bench: what speaking the TLM-2.0 base protocol costs on a gpusc link (issue 17,
// docs/tlm.md "The internal convention"). A source keeps --window 64 B reads open toward an echo
// unit that answers each at once with the same payload; the link between them is either
//   internal       : MsgOut -> MsgIn both ways (gpusc's one-way messages, the payload handed over)
//   base-protocol  : MsgOut -> AtInitiatorBridge =AT socket=> AtTargetBridge -> MsgIn, and back:
//                    what every internal link would be if gpusc units spoke the base protocol to
//                    each other (one four-phase transaction per request-reply pair, the
//                    target side copying into a payload of its own, as docs/tlm.md says it must)
// and the program prints the round trips per CPU second. No time passes (every hop is a delta
// cycle), so the figure is the per-message cost of the link alone. scripts/bench tlm runs both.
#include <boost/program_options.hpp>
#include <chrono>
#include <ctime>
#include <deque>
#include <iostream>
#include <memory>
#include <string>

#include <systemc>

#include "common/at_initiator_bridge.h"
#include "common/at_target_bridge.h"
#include "common/command_line.h"
#include "common/mem_ext.h"
#include "common/msg_port.h"
#include "common/payload_pool.h"
#include "platforms/run_options.h"

namespace {

[[maybe_unused]] const bool kNoBanner = gpusc::cli::no_systemc_banner();  // before sc_main

using namespace gpusc;
namespace po = boost::program_options;

// Keeps `window` reads open until `total` have come back.
struct Source : sc_core::sc_module {
  MsgOut out{"out"};
  MsgIn in{"in", [this](tlm::tlm_generic_payload& gp) {
             gp.release();
             ++done;
             --open;
             kick.notify(sc_core::SC_ZERO_TIME);
             return true;
           }};
  PayloadPool pool{64};
  sc_core::sc_event kick;
  uint64_t total, sent = 0, done = 0;
  unsigned window, open = 0;
  Source(sc_core::sc_module_name n, uint64_t total_, unsigned window_)
      : sc_core::sc_module(n), total(total_), window(window_) {
    SC_HAS_PROCESS(Source);
    out.on_accept([this] { kick.notify(sc_core::SC_ZERO_TIME); });
    SC_METHOD(pump);
    sensitive << kick;
  }
  void pump() {
    while (sent < total && open < window && !out.busy()) {
      tlm::tlm_generic_payload& gp = pool.acquire();
      gp.set_command(tlm::TLM_READ_COMMAND);
      gp.set_address(128 * (sent % 4096));
      gp.set_data_length(64);
      gp.set_streaming_width(64);
      MemExt& e = *gp.get_extension<MemExt>();
      e.kind = MemKind::Read;
      e.src = 0, e.dst = 1;
      ++sent, ++open;
      out.send(gp);
    }
  }
};

// Answers every request at once with its own payload (what an L2 hit does, without the latency).
struct Echo : sc_core::sc_module {
  MsgIn in{"in", [this](tlm::tlm_generic_payload& gp) {
             q.push_back(&gp);
             kick.notify(sc_core::SC_ZERO_TIME);
             return true;
           }};
  MsgOut out{"out"};
  std::deque<tlm::tlm_generic_payload*> q;
  sc_core::sc_event kick;
  explicit Echo(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    SC_HAS_PROCESS(Echo);
    out.on_accept([this] { kick.notify(sc_core::SC_ZERO_TIME); });
    SC_METHOD(pump);
    sensitive << kick;
    dont_initialize();
  }
  void pump() {
    while (!q.empty() && !out.busy()) {
      tlm::tlm_generic_payload& gp = *q.front();
      q.pop_front();
      MemExt& e = *gp.get_extension<MemExt>();
      e.is_reply = true;
      e.dst = e.src;
      out.send(gp);
    }
  }
};

}  // namespace

int sc_main(int argc, char** argv) {
  std::string link = "internal";
  uint64_t messages = 1000000, window = 16;
  po::options_description d("options");
  auto count = [](uint64_t& dst) {
    return po::value<cli::Count>()->notifier([&dst](const cli::Count& c) { dst = c.v; });
  };
  d.add_options()("help,h", "this text")(
      "link", po::value(&link)->default_value(link),
      "internal (MsgOut -> MsgIn) | base-protocol (through AtInitiatorBridge and AtTargetBridge)")(
      "messages", count(messages), "round trips (1000000)")("window", count(window), "reads open at once (16)");
  try {
    po::variables_map vm;
    const po::positional_options_description none;
    po::store(po::command_line_parser(argc, argv).options(d).positional(none).run(), vm);
    if (vm.count("help")) {
      std::cout << "usage: link_bench [options]\n" << d;
      return 0;
    }
    po::notify(vm);
    if (link != "internal" && link != "base-protocol") throw po::error("--link '" + link + "' is not internal|base-protocol");
    if (messages == 0 || window == 0 || window > 16) throw po::error("--messages must be >= 1 and --window in 1..16");
  } catch (const po::error& e) {
    std::cerr << "link_bench: " << e.what() << "\n\nusage: link_bench [options]\n" << d;
    return 2;
  }
  cli::plain_reports("link_bench");
  Source src("src", messages, static_cast<unsigned>(window));
  Echo echo("echo");
  std::unique_ptr<AtInitiatorBridge> ib;
  std::unique_ptr<AtTargetBridge> tb;
  if (link == "internal") {
    src.out.bind(echo.in);
    echo.out.bind(src.in);
  } else {
    ib = std::make_unique<AtInitiatorBridge>("ib", AtInitiatorBridge::Params{}, &AtInitiatorBridge::all_reply);
    tb = std::make_unique<AtTargetBridge>("tb", AtTargetBridge::Params{},
                                          [](const tlm::tlm_generic_payload&, MemExt&) {});
    src.out.bind(ib->in);
    ib->out.bind(src.in);
    ib->socket.bind(tb->socket);
    tb->out.bind(echo.in);
    echo.out.bind(tb->in);
  }
  const std::clock_t c0 = std::clock();
  const auto w0 = std::chrono::steady_clock::now();
  sc_core::sc_start();
  const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  if (src.done != messages) {
    std::cerr << "link_bench: " << src.done << " of " << messages << " round trips came back\n";
    return 1;
  }
  std::cout << "link " << link << ": " << messages << " round trips, window " << window << ", " << cpu
            << " CPU s, " << wall << " wall s, " << static_cast<uint64_t>(messages / cpu) << " round trips per CPU s\n";
  return 0;
}
