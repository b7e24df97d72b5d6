// ProbeFabric: what the probe handlers of one GPU block share (paper 000 §III-F), built once per
// block by the "probe" SM-side stage entry (probe_stages.h) before the handlers:
//   * the core numbering: core i is the block's SM i (core ids in probe headers, 5 bits for 28
//     cores), mapped to platform ids (MemExt::dst) and to the request network's nodes;
//   * the sharing ORACLE (an evaluation device, not hardware: "is the line in some other L1 at
//     miss time", read from the L1s' tag arrays with Cache::present()), used for IP/n-IP's
//     perfect sharing predictor and for the precision/recall of the real predictor;
//   * probe deflection (§III-F): a noc::HeadHook installed on the block's request network. For a
//     probe about to be ejected at a core whose NI says it refuses the request class (its
//     incoming probe queue is full, NetworkInterface::set_refusing), the router sends it on to the
//     probe's next target after that core, or back to its requester when none is left; the
//     busy core is skipped (the receiving handler pops the skipped targets). Returning probes,
//     data and memory requests are never deflected, nor a probe at its own requester.
//     Deadlock freedom: a redirect starts a new XY route where the probe is, possibly a Y-then-X
//     turn, which on hpca6x6's single VC deadlocked the request network; so router deflection
//     needs escape VCs on the request network (noc.escape_vcs = E, noc/route_func.h
//     MeshEscapeRoute): a probe deflected d times travels on the d-th, XY from the router that
//     deflected it last. The paper deflects until the targets run out; here a probe is deflected
//     at most E times, and at a refusing core after that it is taken (incoming_overflow). Those
//     VCs are hardware the paper does not list (its Table II: 1 VC per port); every other packet
//     keeps the one VC.
// Choices the paper left open: the hook does not rewrite the probe header (a HeadHook may change
// only the destination): the core that finally takes a deflected probe drops every target listed
// before itself; deflections are counted per router (lanes tick routers on several threads).
#pragma once
#include <cstdint>
#include <vector>

#include "gpu/sm_front_stage.h"
#include "noc/router.h"

namespace gpusc {
class Cache;
namespace noc {
class Network;
}

namespace probe {

class ProbeHandler;

class ProbeFabric : public SmFrontShared, public noc::HeadHook {
 public:
  // deflection: install the head hook (false: probes to a full core wait in its NI).
  ProbeFabric(const SmFrontBlockContext& ctx, bool deflection);
  ProbeFabric(const ProbeFabric&) = delete;
  ProbeFabric& operator=(const ProbeFabric&) = delete;
  ~ProbeFabric() override;

  unsigned cores() const { return static_cast<unsigned>(node_of_core_.size()); }
  unsigned node_of(unsigned core) const { return node_of_core_.at(core); }  // platform id
  // Core `core`'s handler and L1 join the fabric (from the handler's constructor).
  void attach(unsigned core, ProbeHandler& h, const Cache& l1);
  // ORACLE: is `addr`'s line in the L1 of some core other than `core` right now?
  bool shared_elsewhere(unsigned core, uint64_t addr) const;
  // ORACLE location (DP, an evaluation device): of the other cores whose L1 holds `addr`'s line
  // now, the one fewest request-network hops from `core` (ties: lowest core index); kNone if none.
  unsigned nearest_sharer(unsigned core, uint64_t addr) const;
  // Request-network hops from core a's node to core b's.
  unsigned hops(unsigned a, unsigned b) const;
  static constexpr unsigned kNone = ~0u;
  // Core `core` refuses (true) or takes again (false) probes: its request-network NI's flag.
  void set_refusing(unsigned core, bool refuse);
  uint64_t deflections() const;

  // noc::HeadHook
  unsigned redirect(unsigned router, const noc::Flit& head) override;

 private:
  noc::Network& req_net_;
  const unsigned vnet_, base_;
  const bool deflection_;
  const unsigned levels_;  // the request network's escape VCs: deflections one probe may take
  std::vector<unsigned> node_of_core_;   // platform ids
  std::vector<unsigned> core_of_local_;  // [request-network node] core, or kNone
  std::vector<const Cache*> l1s_;
  std::vector<ProbeHandler*> handlers_;
  std::vector<uint64_t> deflections_;    // [router]
};

}  // namespace probe
}  // namespace gpusc
