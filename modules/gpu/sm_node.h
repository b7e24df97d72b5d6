// SmNode: one SM as a network node (DESIGN §6): an SmCore, its L1 data cache, and an optional
// chain of SM-side front stages (gpu/sm_front_stage.h) between the L1's memory side and the
// node's boundary: req_out() sends line requests (and write-throughs) toward the request network,
// rep_in() takes their replies; with stages, peer_in() / peer_out() carry the node's peer traffic
// (requests arriving at this node, replies it sends: paper 000's probes), else they are nullptr.
// Policies on the L1 itself attach through the L1's hook points (mem/cache.h), reached with l1();
// the node names no mechanism.
// `node` is the platform id requests carry as MemExt::src (gpu/node_numbering.h).
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "common/clock_domain.h"
#include "common/msg_port.h"
#include "gpu/sm_front_stage.h"
#include "mem/cache.h"
#include "sm/sm_core.h"

namespace gpusc {

// The front chain of an SmNode: `params` (effective, SmFrontParams::with_defaults) built by
// `registry`; `shared` holds the block's shared object of each stage name that has one.
struct SmNodeFront {
  const SmFrontParams* params = nullptr;  // nullptr or no stage: none
  const SmFrontRegistry* registry = nullptr;
  unsigned index = 0, sms = 1;            // SM index in the block, SMs in the block
  std::map<std::string, SmFrontShared*> shared;
};

class SmNode : public sc_core::sc_module {
 public:
  using Front = SmNodeFront;

  SmNode(sc_core::sc_module_name name, const SmCore::Params& sm, const Cache::Params& l1, ClockDomain& clk,
         unsigned node, const Front& front = Front{});
  SmNode(const SmNode&) = delete;
  SmNode& operator=(const SmNode&) = delete;

  SmCore& core() { return core_; }
  const SmCore& core() const { return core_; }
  Cache& l1() { return l1_; }
  const Cache& l1() const { return l1_; }
  MsgOut& req_out() { return *req_out_; }
  MsgIn& rep_in() { return *rep_in_; }
  MsgIn* peer_in() { return peer_in_; }
  MsgOut* peer_out() { return peer_out_; }
  unsigned node() const { return node_; }

  // The front stages, L1 side first.
  size_t front_count() const { return front_.size(); }
  SmFrontStage& front(size_t i) { return *front_.at(i); }
  const SmFrontStage& front(size_t i) const { return *front_.at(i); }
  const std::vector<std::string>& front_names() const { return front_names_; }
  bool front_idle() const;  // every front stage idle (true without stages)

 private:
  void build_front(const Front& f, ClockDomain& clk);

  const unsigned node_;
  SmCore core_;
  Cache l1_;
  std::vector<std::unique_ptr<SmFrontStage>> front_;
  std::vector<std::string> front_names_;
  MsgOut* req_out_ = &l1_.down_out;
  MsgIn* rep_in_ = &l1_.down_in;
  MsgIn* peer_in_ = nullptr;
  MsgOut* peer_out_ = nullptr;
};

}  // namespace gpusc
