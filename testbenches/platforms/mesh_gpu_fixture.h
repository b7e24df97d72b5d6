// Shared fixture of the mesh-GPU platform tests: a small MeshGpu (4x4 mesh, 12 SMs + 4 MCs on
// the bottom row, every other parameter from the named preset), one workload, and a
// MessageLog that watches the platform's observers:
//   * every line request an SM hands to its L1 and every reply the L1 hands back, matched by
//     payload (the L1 answers an SM with the SM's own payload, docs/gpu-model.md), so a load
//     answered twice, never, or with another address shows up by name;
//   * every message a network interface takes into a network (node, kind, size, destinations),
//     from which the tests recompute flits and flit-hops with their own packetization and
//     dimension-order routing.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/dest_set.h"
#include "common/mem_ext.h"
#include "common/params.h"
#include "platforms/mesh_gpu/mesh_gpu.h"
#include "platforms/paper_stages.h"
#include "workload/kernel.h"

namespace gpusc::test {

constexpr unsigned kK = 4, kM = 4, kSms = 12, kMcs = 4;

// The preset (e.g. "ics8x8+pcu+xy-yx") shrunk to the 4x4 mesh, then `patch` merged over it.
// GPGPU-Sim's map (placement = gpgpusim, hpca6x6) has no 4x4 layout for 4 MCs: top-bottom there.
MeshGpu::Params small_params(const std::string& preset, const json& patch = json::object());

struct InjectedMsg {
  unsigned node;       // NI that took it
  MemKind kind;
  bool is_reply;
  unsigned data_bytes; // payload data_length
  DestSet dests;       // destinations the NI routes to (dests, or {dst} for unicast)
  sc_core::sc_time in_memory;  // replies: MC took the request (t_mem_accept) to this injection
  uint64_t address;            // payload address
  uint32_t sector_mask;        // MemExt::sector_mask (requests: the sectors asked; 0 = the whole line)
};

class MessageLog {
 public:
  explicit MessageLog(MeshGpu& gpu);

  // Per SM: requests issued, replies received.
  const std::vector<uint64_t>& requests() const { return requests_; }
  const std::vector<uint64_t>& replies() const { return replies_; }
  const std::vector<uint64_t>& reads() const { return reads_; }      // read line requests per SM
  const std::vector<uint64_t>& atomics() const { return atomics_; }  // atomic line requests per SM
  uint64_t outstanding() const;  // requests still waiting for their reply (all SMs)
  // Protocol breaches seen: a reply for no outstanding request, a reply whose address, kind or
  // destination differ from its request, a request payload issued while still outstanding.
  const std::vector<std::string>& errors() const { return errors_; }
  const std::vector<InjectedMsg>& injected() const { return injected_; }

 private:
  struct Req {
    uint64_t addr;
    MemKind kind;
  };
  MeshGpu& gpu_;
  std::vector<std::unordered_map<const tlm::tlm_generic_payload*, Req>> open_;
  std::vector<uint64_t> requests_, replies_, reads_, atomics_;
  std::vector<std::string> errors_;
  std::vector<InjectedMsg> injected_;
};

// One platform, one workload, one log: what every test case elaborates (once).
struct GpuBench {
  GpuBench(const MeshGpu::Params& p, const std::string& kernel, const json& kparams, uint64_t seed = 1,
           const McStageRegistry& stages = paper_mc_stages());
  // Runs to the end (or max_cycles) and collects the stats.
  bool run(uint64_t max_cycles = 1000000);
  // A statistic by full name (e.g. "gpu.sm_0.core.replies"); an unknown name fails the test.
  double stat(const std::string& key) const;
  double sum_over_sms(const std::string& suffix) const;  // "gpu.sm_i.core" + suffix, all i
  double sum_over_l1s(const std::string& suffix) const;  // "gpu.sm_i.l1" + suffix
  double sum_over_mcs(const std::string& suffix) const;  // "gpu.mc_i" + suffix

  std::unique_ptr<Workload> workload;
  MeshGpu gpu;
  MessageLog log;
  json stats;  // collect_stats() after run()
};

// Test 1 of issue 4 after a finished run: every line request of every SM got exactly one reply
// (log and SM stats agree), nothing is left in any SM, L1, partition, stage, router or NI, the
// SMs' payload pools and the networks' packet pools are back to zero in use, and the stats
// dump reports no failed invariant.
void require_drained_and_answered_once(GpuBench& b);

// Packetization (network_interface.h): ceil((header + data) / flit) flits, data = payload bytes
// for write/atomic requests and read replies, 0 otherwise; computed here independently.
unsigned flits_of(const InjectedMsg& m, unsigned flit_bytes, unsigned header_bytes);
// Routers a dimension-order packet from src crosses to reach every node of dests on a k-wide
// mesh (node = y * k + x), counting each (router, output port) once: a unicast path of h
// routers costs h, a tree of R routers reaching n destinations costs (R - 1) + n.
unsigned dor_switch_traversals(unsigned src, const DestSet& dests, bool yx, unsigned k);

}  // namespace gpusc::test
