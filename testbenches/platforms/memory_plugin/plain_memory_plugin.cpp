// A memory plugin for the command-line platforms (platforms/memory_plugin.h), as a third party
// would write one: testbenches/harness's PlainMemory (a byte-array AT base-protocol target
// written against the standard only) behind every external partition. args: "STYLE LATENCY_NS"
// (STYLE four-phase | updated-end-req | early-completion; default "four-phase 100"). At the end
// of the run each model prints its reads and writes on stdout, so a test can see it was used.
#include <cstdio>
#include <sstream>
#include <string>

#include <systemc>
#include <tlm>

#include "harness/third_party_tlm.h"

namespace {

using gpusc::tb::PlainMemory;

class CountingMemory : public PlainMemory {
 public:
  using PlainMemory::PlainMemory;
  ~CountingMemory() override {
    std::printf("plain_memory %s: %llu reads, %llu writes\n", name(), static_cast<unsigned long long>(reads()),
                static_cast<unsigned long long>(writes()));
  }
};

}  // namespace

extern "C" sc_core::sc_module* gpusc_memory_model(const char* name, unsigned, const char* args,
                                                  tlm::tlm_initiator_socket<32>& socket) {
  std::istringstream in(args && *args ? args : "four-phase 100");
  std::string style;
  double ns = 0;
  in >> style >> ns;
  const PlainMemory::Style s = style == "updated-end-req"    ? PlainMemory::Style::UpdatedEndReq
                               : style == "early-completion" ? PlainMemory::Style::EarlyCompletion
                                                             : PlainMemory::Style::FourPhase;
  auto* m = new CountingMemory(name, s, uint64_t{1} << 36, sc_core::sc_time(ns, sc_core::SC_NS));
  socket.bind(m->socket);
  return m;
}
