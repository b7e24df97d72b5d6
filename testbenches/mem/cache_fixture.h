// Shared set-up for the cache testbenches.
//   MemModel    : the memory below a cache: replies after a fixed latency, logs every request.
//   Bench       : SM driver (ScriptedInitiator) -> Cache -> MemModel; replies land in a ScriptedTarget.
//   ManualBench : scripted drivers on all four cache ports, for protocol cases.
#pragma once
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "harness/scripted_initiator.h"
#include "harness/scripted_target.h"
#include "mem/cache.h"

namespace gpusc::tb {

using Payload = tlm::tlm_generic_payload;

constexpr unsigned kSmNode = 5;     // node id of the requester above the cache
constexpr unsigned kCacheNode = 9;  // node id the cache writes into its own payloads
constexpr unsigned kMcNode = 3;     // what the route hook writes into dst

// The memory below a cache under test. Replies to every Read and Atomic with the same payload
// (is_reply, dst = src) `latency` cycles after taking it, one per cycle; a Write gets a write
// ack when ack_writes, else it is released (a DRAM write gets no reply). Logs every request.
// b_transport answers at once (functional path).
class MemModel : public sc_core::sc_module, private Tickable {
 public:
  struct Req {
    uint64_t cycle;
    uint64_t addr;
    MemKind kind;
    unsigned length;
    MemExt ext;  // as taken, before it was turned into a reply
  };
  MsgIn in{"in"};
  MsgOut out{"out"};

  MemModel(sc_core::sc_module_name name, ClockDomain& clk, unsigned latency, bool ack_writes);
  const std::vector<Req>& log() const { return log_; }
  std::vector<Req> of_kind(MemKind k) const;

 private:
  bool tick(uint64_t cycle) override;
  ClockDomain& clk_;
  const unsigned latency_;
  const bool ack_writes_;
  std::deque<std::pair<uint64_t, Payload*>> q_;
  std::vector<Req> log_;
};

struct Bench : sc_core::sc_module {
  ClockDomain clk{"clk", 1000.0};
  PayloadPool pool{128};
  Cache cache;
  ScriptedInitiator sm{"sm", clk, pool};
  ScriptedTarget up;
  MemModel mem;

  // The cache's route hook writes kMcNode into dst.
  Bench(sc_core::sc_module_name name, const Cache::Params& p, unsigned mem_latency = 10, bool ack_writes = true,
        unsigned up_depth = 4);
  // A request from node kSmNode offered at `cycle`; tag goes into MemExt::pc (and warp % 48).
  // Reads are 128 B; writes carry 2 words (8 B); atomics 1 word.
  void req(uint64_t cycle, MemKind k, uint64_t addr, uint64_t tag, uint32_t sectors = 0);
  void read(uint64_t c, uint64_t a, uint64_t tag, uint32_t s = 0) { req(c, MemKind::Read, a, tag, s); }
  void write(uint64_t c, uint64_t a, uint64_t tag, uint32_t s = 0) { req(c, MemKind::Write, a, tag, s); }
  void run_to(uint64_t cycle) { sc_core::sc_start(clk.time_of(cycle) - sc_core::sc_time_stamp()); }
  const std::vector<ScriptedTarget::Arrival>& replies() const { return up.arrivals(); }
};

struct ManualBench : sc_core::sc_module {
  ClockDomain clk{"clk", 1000.0};
  PayloadPool pool{128};
  Cache cache;
  ScriptedInitiator sm{"sm", clk, pool}, below{"below", clk, pool};
  ScriptedTarget up{"up", clk}, down{"down", clk};

  explicit ManualBench(sc_core::sc_module_name name, const Cache::Params& p = {});
  void run_to(uint64_t cycle) { sc_core::sc_start(clk.time_of(cycle) - sc_core::sc_time_stamp()); }
};

// Counter `n` of cache c from the stats dump.
uint64_t stat(const Cache& c, const std::string& n);
// Failed stats invariants of the whole design.
std::vector<std::string> invariant_failures();
// 2 sets x 2 ways, sectored write-back: a small L2 slice.
Cache::Params l2_params();

}  // namespace gpusc::tb
