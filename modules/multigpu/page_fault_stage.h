// PageFaultStage: the requesting side of the page-migration baseline (paper 004 §2.3) at one CU,
// as an SM-side stage (gpu/sm_front_stage.h) between the L1 and the network. Every request the L1
// sends (line reads, write-throughs, atomics) asks the GPU's PageMigrationEngine
// (page_migration_engine.h) whether it may leave: a request to a remote page that is not pinned
// faults there, a request to a page being migrated waits for it, and while a migration drains
// the GPUs no remote request leaves (and none of the page owner's). A held request blocks the
// ones behind it (requests leave in order, as from MGPUSim's in-order address translation),
// while L1 hits go on. When a request leaves it is routed again (the `route` hook: its page may
// have moved while it waited) and counted in flight at the engine (remote or not) until its
// reply passes back here.
// Timing (core clock): a message taken in cycle c may leave in c + 1; one request toward the
// network and one reply toward the L1 per cycle.
// Stats: held (requests that waited at least once), hold_cycles (their cycles waiting), remote
// (requests sent to another GPU).
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <unordered_map>

#include <systemc>

#include "common/clock_domain.h"
#include "common/mem_ext.h"
#include "common/msg_port.h"
#include "common/params.h"
#include "common/stats.h"
#include "gpu/sm_front_stage.h"
#include "multigpu/page_migration_engine.h"

namespace gpusc::multigpu {

class PageFaultStage : public sc_core::sc_module, public SmFrontStage, private Tickable {
 public:
  struct Params {
    unsigned queue = 8;  // requests waiting to leave [messages] (not in the paper)
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(queue, 1, 65536, "requests waiting to leave (held or not) [messages]");
    }
  };
  // What the platform gives each stage: its GPU, the GPU owning an address, and the route of a
  // request (MemExt::dst for its address now).
  struct Context {
    PageMigrationEngine* engine;
    unsigned gpu;
    std::function<unsigned(uint64_t addr)> owner;
    std::function<void(tlm::tlm_generic_payload&, MemExt&)> route;
  };

  PageFaultStage(sc_core::sc_module_name name, const Params& p, ClockDomain& clk, Context c);
  PageFaultStage(const PageFaultStage&) = delete;
  PageFaultStage& operator=(const PageFaultStage&) = delete;

  MsgIn& from_l1() override { return from_l1_; }
  MsgOut& to_net() override { return to_net_; }
  MsgIn& from_net() override { return from_net_; }
  MsgOut& to_l1() override { return to_l1_; }
  bool idle() const override;
  void summarize(json& summary, const std::vector<const SmFrontStage*>& all) const override;

  uint64_t held() const { return held_.value(); }
  uint64_t hold_cycles() const { return hold_cycles_.value(); }

 private:
  struct Timed {
    uint64_t at;
    tlm::tlm_generic_payload* gp;
  };
  bool tick(uint64_t cycle) override;

  const Params p_;
  ClockDomain& clk_;
  const Context c_;
  MsgIn from_l1_{"from_l1"};
  MsgOut to_net_{"to_net"};
  MsgIn from_net_{"from_net"};
  MsgOut to_l1_{"to_l1"};
  std::deque<Timed> down_, up_;
  std::unordered_map<const tlm::tlm_generic_payload*, bool> in_flight_;  // request -> remote
  uint64_t held_since_ = UINT64_MAX;  // cycle the head was first held (UINT64_MAX: not held)

  StatGroup stats_;
  Counter &held_, &hold_cycles_, &remote_;
};

// Adds the stage as "page_fault" to `registry` (parameters: sm_front.stage_params.page_fault);
// context_for(node) gives the stage of the SM at platform id `node` its context.
void register_page_fault_stage(SmFrontRegistry& registry, std::function<PageFaultStage::Context(unsigned node)> context_for);

}  // namespace gpusc::multigpu
