// SmFrontStage: the hook point of an SM node (DESIGN §6: "an SmNode (core + L1 + optional front
// units)", STYLE P16). A front stage is a unit between the node's L1 and the block's network
// interfaces. An SmNode holds an ordered chain of them named by its configuration
// (SmFrontParams::stages, `sm_front.stages` in GpuBlock / MeshGpu), each built by name through an
// SmFrontRegistry that the paper folders register into (probe: "probe", paper 000's probe
// handler). The generic library knows a mechanism only through this interface; it never includes
// a paper folder. With no stage (the default) the L1's memory side is the node's boundary, as
// before: the platform is bit-identical.
//
//   L1.down_out --> from_l1() [stage 0] to_net() --> from_l1() [stage 1] to_net() --> request NI
//   L1.down_in  <-- to_l1()   [stage 0] from_net() <-- to_l1() [stage 1] from_net() <-- reply NI
//
// Stage 0 is the one nearest the L1: requests cross the chain in list order, replies in the
// reverse order. Ports are MsgIn/MsgOut (common/msg_port.h) with their back-pressure:
//   from_l1()   requests leaving the L1 (line reads, write-throughs, atomics), or the previous
//               stage's to_net();
//   to_net()    requests toward the request network: the next stage's from_l1(), or the NI;
//   from_net()  replies from the reply network: the NI, or the next stage's to_l1();
//   to_l1()     replies toward the L1: the previous stage's from_net(), or the L1's down_in.
// A stage may hold, reorder, answer or drop-and-replace messages, as long as every request the
// L1 sends gets exactly one reply into the L1 (the L1 matches a read fill by line address; a
// reply is the request's own payload with MemExt::is_reply set, docs/gpu-model.md).
// Peer traffic (paper 000: probes between cores): peer_in() takes the messages that arrive at
// this node on the REQUEST network (an SM node takes no memory requests, so without a stage the
// block closes that port), peer_out() sends this node's messages onto the REPLY network. At most
// one stage of a chain may offer them, and a stage offers both or neither (else an error).
// Context: a stage is built with its L1 (for peer lookups and observers), its clock (the core
// clock), its node id, its SM index in the block and the block's platform ids of every SM, and an
// optional object shared by all the stages of that name in the block (SmFrontShared, built once
// per block by the registry entry's `shared` function before the stages: the place for what is
// per block, e.g. a router HeadHook on the block's request network).
//   idle()        nothing queued, held, or waited for (a stage whose messages are still in the
//                 networks is not idle). The platform waits for every front stage to be idle at
//                 a kernel boundary before it flushes the L1s (gpu/platform.h).
//   summarize()   the lines the mechanism adds to the platform summary, called once per stage
//                 name on the platform's first SM's instance with every SM's instance in `all`.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/clock_domain.h"
#include "common/msg_port.h"
#include "common/params.h"

namespace gpusc {

class Cache;
class NodeNumbering;
namespace noc {
class Network;
}

class SmFrontStage {
 public:
  virtual ~SmFrontStage() = default;
  virtual MsgIn& from_l1() = 0;
  virtual MsgOut& to_net() = 0;
  virtual MsgIn& from_net() = 0;
  virtual MsgOut& to_l1() = 0;
  virtual MsgIn* peer_in() { return nullptr; }    // request-network messages for this node
  virtual MsgOut* peer_out() { return nullptr; }  // this node's reply-network messages
  virtual bool idle() const = 0;
  virtual void summarize(json& summary, const std::vector<const SmFrontStage*>& all) const;
};

// What the stages of one name share in a block (owned by the block).
class SmFrontShared {
 public:
  virtual ~SmFrontShared() = default;
};

// Built once per block and stage name, before the block's SM nodes.
struct SmFrontBlockContext {
  ClockDomain& clk;                      // the SMs' core clock
  const std::vector<unsigned>& sm_nodes; // platform id of each SM of the block, by SM index (valid during the call)
  unsigned base;                         // platform id of the block's network node 0
  noc::Network& request_net;
  noc::Network& reply_net;
  unsigned request_vnet, reply_vnet;     // the classes' virtual networks in those networks
  const NodeNumbering& ids;
};

struct SmFrontContext {
  ClockDomain& clk;        // the SM's core clock (its L1's)
  Cache& l1;               // the node's L1
  unsigned node;           // the node's platform id
  unsigned index;          // SM index in the block
  unsigned sms;            // SMs in the block
  SmFrontShared* shared;   // the block's shared object of this stage name (nullptr: none)
};

class SmFrontRegistry {
 public:
  using ParamsFn = std::function<json(const json& given, const std::string& where)>;
  using SharedFn = std::function<std::unique_ptr<SmFrontShared>(const json& params, const SmFrontBlockContext&)>;
  using MakeFn = std::function<std::unique_ptr<SmFrontStage>(const char* name, const json& params, const SmFrontContext&)>;
  struct Entry {
    std::string description;  // one line, for listings
    ParamsFn params;          // effective parameters (defaults filled in; errors name where.key)
    MakeFn make;              // builds the stage as an sc_module named `name` (child of the node)
    SharedFn shared;          // optional: the per-block shared object
  };
  void add(const std::string& name, Entry e);
  bool contains(const std::string& name) const { return entries_.count(name) != 0; }
  std::vector<std::string> names() const;  // sorted
  const Entry& at(const std::string& name, const std::string& where) const;

 private:
  std::map<std::string, Entry> entries_;
};

// The chain of an SM node: `sm_front` in GpuBlock::Params and MeshGpu::Params.
struct SmFrontParams {
  std::vector<std::string> stages;      // SM-side stages between the L1 and the NIs, L1 side first
  json stage_params = json::object();   // stage name -> that stage's parameters
  template <class F> static void describe(F&& f) {
    using S = SmFrontParams;
    GPUSC_PARAM(stages, "SM-side stages between the L1 and the network interfaces, L1 side first, by registered "
                        "name (gpu/sm_front_stage.h); empty: none");
    GPUSC_PARAM(stage_params, "parameters of the SM-side stages, keyed by stage name; a stage not named takes its defaults");
  }
  // `p` with stage_params holding every listed stage's effective parameters and nothing else.
  // Unknown stage, a stage listed twice, stage_params of a stage not listed: errors naming `where`.
  static SmFrontParams with_defaults(const SmFrontParams& p, const SmFrontRegistry& registry, const std::string& where);
};

}  // namespace gpusc
