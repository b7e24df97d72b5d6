// PageMigrationEngine: the page-migration baseline of paper 004 (§2.3, Fig. 1 red path; §6.1
// "Page Migration ... a unified memory based system that initially distribute pages via page
// migration"), modelled on what MGPUSim v2.0.1, the paper's simulator, does (mem/vm/mmu,
// driver/driver.go, timing/cp, pagemigrationcontroller; read at mgpusim 24a22053):
//   * a GPU's access to a page another GPU owns faults when the page is not pinned; the access
//     waits (so do all later accesses to that page, from any GPU);
//   * faults are served one at a time, first come first served (MGPUSim's MMU: one migration
//     in flight); per migration, in this order:
//       fault      `fault_cycles`: the translation request reaches the IOMMU, the page walk, the
//                  migration request to the driver, its drain commands to every GPU;
//       drain      every GPU stops sending remote requests (MGPUSim drains every GPU's RDMA
//                  engine) and the owner GPU stops sending any request (its CU pipelines are
//                  flushed); the engine waits until none of those is in flight;
//       shootdown  `shootdown_cycles`: the drain acknowledgements reach the driver and its
//                  shoot-down command reaches the owner; then the owner's caches are flushed
//                  (the platform's `flush` hook: MGPUSim invalidates all of the owner's L1s and
//                  flushes and invalidates its L2; `flush_scope` = page narrows it);
//       flush      the engine waits until the platform says the owner's flush is done;
//       transfer   `transfer_cycles`: the page moves (MGPUSim's page-migration controller pulls
//                  it in 64 B pieces over the fabric), the GPUs and RDMA engines restart and the
//                  translation returns; then the page is remapped to the faulting GPU and pinned
//                  (MGPUSim pins a migrated page: it never moves again) and everything waiting is
//                  released;
//   * a pinned page on another GPU is accessed remotely (direct cache access).
// Interface: the SM-side stages (page_fault_stage.h) ask check() for each request they are about
// to send, and report sent() / replied() so the engine knows what is in flight per GPU; they
// subscribe a wake-up for when held requests may go. The platform supplies Hooks: the owner of
// an address, the remap, the owner's cache flush and whether it is done.
// Choices MGPUSim does not settle for us: TLBs are not modelled (a fault is detected on an L1 miss
// that leaves the SM; an L1 cannot hold a line of a remote unpinned page, since every access to
// one faults first); the fixed latencies stand for MGPUSim's control messages over its PCIe tree
// (values in the preset's sources); the transfer does not occupy the links (during it every GPU's
// remote traffic is drained, as in MGPUSim, so the page has the fabric to itself).
// Stats: faults, migrations, cycles per phase (averages), busy cycles (a migration in progress).
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <systemc>

#include "common/clock_domain.h"
#include "common/params.h"
#include "common/stats.h"

namespace gpusc::multigpu {

class PageMigrationEngine : public sc_core::sc_module, private Tickable {
 public:
  struct Params {
    unsigned fault_cycles = 660;       // fault to the start of the drain [cycles]
    unsigned shootdown_cycles = 560;   // drain done to the owner's cache flush [cycles]
    unsigned transfer_cycles = 3260;   // flush done to the page usable at the requester [cycles]
    std::string flush_scope = "all";   // all (MGPUSim: every line of the owner's caches) | page
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(fault_cycles, 0, 1e9, "fault to the start of the drain: translation request to the IOMMU, page "
                                          "walk, drain commands [cycles]");
      GPUSC_PARAM_R(shootdown_cycles, 0, 1e9, "drain done to the owner's cache flush: drain acknowledgements and the "
                                              "shoot-down command [cycles]");
      GPUSC_PARAM_R(transfer_cycles, 0, 1e9, "owner's flush done to the page usable at the requester: the page "
                                             "transfer, the restarts, the translation reply [cycles]");
      GPUSC_PARAM_C(flush_scope, "all|page",
                    "what the shoot-down flushes in the owner's caches: all lines (MGPUSim) or the page's lines");
    }
  };
  // What the platform provides.
  struct Hooks {
    std::function<unsigned(uint64_t addr)> owner;               // GPU owning addr's page (placed)
    std::function<void(uint64_t page_addr, unsigned to)> move;  // remap the page to GPU `to`
    // Flush GPU `gpu`'s caches: every line, or (page_only) the lines of the page at page_addr.
    std::function<void(unsigned gpu, uint64_t page_addr, bool page_only)> flush;
    std::function<bool(unsigned gpu)> flushed;                  // the flush's write-backs are done
  };
  enum class Phase { Idle, Fault, Drain, Shootdown, Flush, Transfer };
  // Events for observers (tests, traces).
  struct Event {
    enum Kind { Fault, Start, Moved } kind;
    uint64_t page;      // page number
    unsigned from, to;  // owner before the move, faulting GPU
    uint64_t cycle;
  };

  PageMigrationEngine(sc_core::sc_module_name name, const Params& p, unsigned gpus, uint64_t page_bytes,
                      ClockDomain& clk, Hooks hooks);

  // May a request of GPU `gpu` for `addr` leave now? false: hold it (a fault is raised when its
  // page is remote and not pinned); the stage is woken (subscribe) when holds may be released.
  bool check(unsigned gpu, uint64_t addr);
  // A request of `gpu` left (remote: for another GPU's page) / its reply came back.
  void sent(unsigned gpu, bool remote);
  void replied(unsigned gpu, bool remote);
  // Called (from the engine's tick) whenever held requests may go.
  void subscribe(std::function<void()> wake) { wake_.push_back(std::move(wake)); }
  void observe(std::function<void(const Event&)> f) { obs_.push_back(std::move(f)); }

  const Params& params() const { return p_; }
  Phase phase() const { return phase_; }
  bool pinned(uint64_t addr) const { return pinned_.count(addr / page_bytes_) != 0; }
  bool pending(uint64_t addr) const { return pending_.count(addr / page_bytes_) != 0; }
  uint64_t migrations() const { return migrations_.value(); }
  uint64_t faults() const { return faults_.value(); }
  uint64_t busy_cycles() const { return busy_cycles_.value(); }
  uint64_t in_flight(unsigned gpu) const { return all_.at(gpu); }
  uint64_t remote_in_flight(unsigned gpu) const { return remote_.at(gpu); }
  bool idle() const { return phase_ == Phase::Idle && queue_.empty(); }

 private:
  struct Fault {
    uint64_t page;
    unsigned gpu;
  };
  bool tick(uint64_t cycle) override;
  void enter(Phase ph, uint64_t cycle);
  void finish(uint64_t cycle);
  void emit(Event::Kind k, uint64_t page, unsigned from, unsigned to);
  void wake_stages();
  bool drained() const;

  const Params p_;
  const unsigned gpus_;
  const uint64_t page_bytes_;
  ClockDomain& clk_;
  const Hooks hooks_;
  StatGroup stats_;
  Counter &faults_, &migrations_, &busy_cycles_;
  Average &fault_phase_, &drain_phase_, &shootdown_phase_, &flush_phase_, &transfer_phase_;

  std::deque<Fault> queue_;                  // faults waiting for their turn (head: the current one)
  std::unordered_set<uint64_t> pending_;     // pages queued or migrating
  std::unordered_set<uint64_t> pinned_;      // pages that migrated
  std::vector<uint64_t> all_, remote_;       // [gpu] requests in flight / those to other GPUs
  Phase phase_ = Phase::Idle;
  uint64_t phase_start_ = 0, until_ = 0;
  unsigned owner_ = 0;                       // owner of the current page when its migration started
  std::vector<std::function<void()>> wake_;
  std::vector<std::function<void(const Event&)>> obs_;
};

}  // namespace gpusc::multigpu
