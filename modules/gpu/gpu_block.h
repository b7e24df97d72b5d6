// GpuBlock: a GPU, a GPU module (003's GPM) or a GPU of a multi-GPU system (004) as one unit
// (DESIGN §6): SM nodes (gpu/sm_node.h) and memory partitions on one node each, joined by the
// block's on-chip network, a request and a reply class:
//   network = "vnets"    : one network, virtual network 0 carries requests, 1 replies (paper 001)
//   network = "separate" : two physical networks with one virtual network each (paper 000, and
//                          the separate request / reply crossbars of paper 001 §4.2)
// Nodes: a mesh has k x m nodes; MCs sit where `placement` puts them (noc/mesh_placement.h);
// with `boundary`, `boundary_nodes` (B) of the remaining R nodes, spread over them in id order
// (the ones at positions ceil((b + 1) R / B) - 1, b < B: with B = 1 the highest-numbered), are
// boundary nodes; SMs take the rest in id order. A crossbar has one port per SM, then per MC,
// then the boundaries.
// What comes from outside (Context): the clock domains, the AddressMapper every L1 routes with
// and every partition indexes with, the platform's NodeNumbering (the block registers its nodes
// and partitions there, in construction order), the mapper group each SM reports first touch as,
// and the McStageRegistry that builds the partitions' stages. The CTA source is the platform's:
// it drives the SMs through sm(i).core() (gpu/platform.h).
// Boundary (only with `boundary`): a request for a partition of another block, or a reply for an
// SM of another block, leaves the block on out(kRequest) / out(kReply); what arrives on
// in(kRequest) / in(kReply) enters the block's network at a boundary node. MemExt ids are
// platform ids throughout (node_numbering.h): nothing is rewritten at the boundary, the block's
// network maps ids to its nodes (NodeMap, noc/network_interface.h). The ports speak gpusc's
// message convention (common/msg_port.h); each class has its own port, so requests never wait
// behind replies between blocks (a shared in-order channel could deadlock). With B > 1 boundary
// nodes, a message for memory partition p (its platform id) leaves by boundary node p mod B, one
// for any other id (an SM) by node r mod B, r = its position among the platform ids that are no
// partition, and a message arriving from outside enters at the node the same rule names for its
// destination; so requests and replies each spread evenly over the nodes. Per class a PortMerge (common/port_merge.h) and a
// PortSplit (common/port_split.h) join the B nodes' ports into the one out/in pair, without delay.
// One boundary node moves one flit per network cycle each way, for both classes together: B of
// them lift that limit, and spread the block's remote traffic over B places of its mesh.
// Deadlock freedom with B > 1 on a mesh: traffic entering the block gets virtual networks of its
// own (vnets: 2 requests, 3 replies; separate: vnet 1 of each network; same routing as its
// class), merged with the local ones at each SM and MC node (PortMerge). Without them a request
// leaving the block can hold the mesh channels a request entering it needs, while waiting for
// the link that the other block's requests hold in the same way: a cycle through two blocks and
// the fabric (seen: paper 003's 4 x 64-SM MCM-GPU, STREAM, 4 boundary nodes, deadlock at ~250K
// cycles). One boundary node needs none: with dimension-order routing every channel carries
// either traffic toward that node or traffic away from it, never both; a crossbar has no
// channels shared between them either. The inbound networks double the block's VC buffers.
// Measurement (paper 001 §2.1): a line request's L1 miss penalty splits into request latency
// (head flit injected at the SM until the MC takes it; MemoryPartition measures it), memory
// latency (MC takes it until its reply is handed to the MC's NI) and reply latency (until the L1
// takes the reply; includes the MC stall in the NI queue), from MemExt timestamps stamped by the
// NI and at MsgIn taps. When a stage merges requests into one reply (the PCU), a merged request's
// memory latency runs from the MC taking that request (MemExt::grouped) until the reply it shares
// is handed to the NI. A request served in another block is measured there (memory latency, MC
// side) and here (reply latency, AMAT); the link time between blocks falls in the reply latency.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "common/address_map.h"
#include "common/address_mapper.h"
#include "common/clock_domain.h"
#include "common/msg_port.h"
#include "common/params.h"
#include "common/port_merge.h"
#include "common/port_split.h"
#include "common/stats.h"
#include "gpu/node_numbering.h"
#include "gpu/sm_front_stage.h"
#include "gpu/sm_node.h"
#include "mem/cache.h"
#include "mem/mc_stage.h"
#include "mem/memory_partition.h"
#include "noc/network.h"
#include "sm/sm_core.h"

namespace gpusc {

class GpuBlock : public sc_core::sc_module {
 public:
  struct Params {
    unsigned sms = 56;                  // SM nodes
    unsigned mcs = 8;                   // memory-partition nodes
    std::string network = "vnets";     // vnets | separate
    std::string placement = "bottom";  // MC placement on a mesh
    bool boundary = false;              // nodes and in/out ports for traffic to other blocks
    unsigned boundary_nodes = 1;        // how many nodes (with boundary)
    noc::Network::Params noc = noc_defaults();
    SmCore::Params sm;
    Cache::Params l1 = l1_defaults();
    MemoryPartition::Params mc;
    SmFrontParams sm_front;             // SM-side stages between each L1 and the NIs (none)
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(sms, 1, 1 << 16, "streaming multiprocessors [count] (the network limits the node count)");
      GPUSC_PARAM_R(mcs, 1, 64, "memory partitions (L2 slice + DRAM channel) [count]");
      GPUSC_PARAM_C(network, "vnets|separate", "request/reply as virtual networks of one NoC, or two physical NoCs");
      GPUSC_PARAM_C(placement, "bottom|top-bottom|edge|diamond|interleaved|gpgpusim", "MC placement on a mesh (001 §5.4)");
      GPUSC_PARAM(boundary, "boundary nodes, and in/out ports, for traffic to and from other blocks");
      GPUSC_PARAM_R(boundary_nodes, 1, 64, "network nodes at the boundary (with boundary) [count]; a message "
                    "leaves or enters by node (its destination's partition index, or rank for an SM, mod this)");
      GPUSC_PARAM(noc, "network(s); with network=separate both use these parameters");
      GPUSC_PARAM(sm, "SM core");
      GPUSC_PARAM(l1, "L1 data cache (write-through, no write-allocate)");
      GPUSC_PARAM(mc, "memory partition");
      GPUSC_PARAM(sm_front, "SM-side stages of every SM node (gpu/sm_front_stage.h)");
    }
    static noc::Network::Params noc_defaults();  // paper 001 Table 1's 8x8 mesh
    static Cache::Params l1_defaults();          // 16 KB, 4-way, 128 B lines, write-through
    unsigned nodes() const { return sms + mcs + (boundary ? boundary_nodes : 0); }
  };
  struct Clocks {
    ClockDomain& core;  // SMs, L1s, L2s
    ClockDomain& noc;   // the block's network(s)
    ClockDomain& dram;  // DRAM command clock
  };
  struct Context {
    Context(Clocks c, AddressMapper& m, NodeNumbering& i, const McStageRegistry& s, unsigned g = 0,
            std::vector<unsigned> per_sm = {})
        : clocks(c), mapper(m), ids(i), stages(s), group(g), sm_groups(std::move(per_sm)) {}
    Clocks clocks;
    AddressMapper& mapper;  // must outlive the block (map() places first-touch pages)
    NodeNumbering& ids;           // must outlive the block
    const McStageRegistry& stages;
    unsigned group = 0;               // mapper group (first touch) of every SM, unless...
    std::vector<unsigned> sm_groups;  // ... given per SM here
    // Builds the SM-side stages Params::sm_front names; nullptr: an empty registry (a chain
    // naming a stage is then an error).
    const SmFrontRegistry* front = nullptr;
  };
  enum Class : unsigned { kRequest = 0, kReply = 1 };

  GpuBlock(sc_core::sc_module_name name, const Params& p, Context ctx);
  GpuBlock(const GpuBlock&) = delete;
  GpuBlock& operator=(const GpuBlock&) = delete;

  // p with every memory-partition stage's parameters filled in.
  const Params& params() const { return p_; }
  unsigned sm_count() const { return p_.sms; }
  unsigned mc_count() const { return p_.mcs; }
  SmNode& sm(unsigned i) { return sms_[i]; }
  const SmNode& sm(unsigned i) const { return sms_[i]; }
  MemoryPartition& mc(unsigned i) { return mcs_[i]; }
  const MemoryPartition& mc(unsigned i) const { return mcs_[i]; }
  noc::Network& request_net() { return *req_net_; }
  noc::Network& reply_net() { return rep_net_ ? *rep_net_ : *req_net_; }
  const noc::Network& request_net() const { return *req_net_; }
  const noc::Network* separate_reply_net() const { return rep_net_.get(); }  // null with vnets
  unsigned base() const { return base_; }  // platform id of node 0
  unsigned sm_node(unsigned i) const { return base_ + sm_nodes_[i]; }  // platform ids
  unsigned mc_node(unsigned i) const { return base_ + mc_nodes_[i]; }
  unsigned boundary_node(unsigned b = 0) const;                         // network node (local)
  unsigned boundary_count() const { return p_.boundary ? p_.boundary_nodes : 0; }
  // The platform ids of the boundary nodes, in node order: a cache at the boundary that makes its
  // own requests (an L1.5, an RDMA cache) spreads them over these as sources, so that the replies
  // come back through every boundary node of the sender (see Boundary).
  std::vector<unsigned> boundary_ids() const;
  unsigned first_partition() const { return first_partition_; }        // index of mc(0)
  ClockDomain& core_clock() { return clocks_.core; }
  ClockDomain& noc_clock() { return clocks_.noc; }

  // Boundary ports (only with params().boundary; otherwise an error): the boundary node's
  // network-interface ports of that class, or with several boundary nodes the PortMerge's
  // output and the PortSplit's input. Unbound ports are an elaboration error.
  MsgOut& out(Class c);
  MsgIn& in(Class c);

  void flush_l1s();  // invalidates every L1 (a kernel boundary)

  // Memory contents (issue 19): needs_values() is true when a partition's stage reads line
  // contents (McStage::needs_values). attach_values() makes `store` (the workload's memory image,
  // owned by the platform, outliving the block) the memory of every partition (its L2 writes it,
  // its stages read it) and makes every SM's stores carry their words (SmCore::set_store_data).
  // Without it nothing carries data, and timing is the same either way.
  bool needs_values() const;
  void attach_values(BackingStore& store);

  const Average& amat() const { return amat_; }
  const Average& memory_latency() const { return mem_lat_; }
  const Average& reply_latency() const { return rep_lat_; }
  uint64_t reply_data_bytes() const { return reply_bytes_.value(); }
  uint64_t replies_injected() const { return reply_packets_in_.value(); }
  uint64_t requests_injected() const { return request_packets_in_.value(); }

  // Observers for tests and tracing, off by default: each line request SM i hands to its L1,
  // each reply its L1 hands back to it, and each message a network interface takes into a
  // network at platform id `node` (requests at SM nodes, replies at MC nodes; MemExt final).
  struct Observers {
    std::function<void(unsigned sm, const tlm::tlm_generic_payload&)> sm_request, sm_reply;
    std::function<void(unsigned node, const tlm::tlm_generic_payload&)> injected;
  };
  void set_observers(Observers o) { obs_ = std::move(o); }

 private:
  static Params checked(const Params& p, const McStageRegistry& stages, const SmFrontRegistry* front,
                        const std::string& where);
  void build_front_shared(const SmFrontRegistry& front);
  void place_nodes();
  void build_networks();
  void join_boundaries();
  void wire_sm(unsigned i);
  void wire_mc(unsigned i);
  void close_out(MsgOut& never_sends);
  void close_in(MsgIn& never_receives);
  void merge_into(MsgOut& a, MsgOut& b, MsgIn& unit);  // two NI outputs into one unit's input
  void end_of_elaboration() override;
  unsigned req_vnet() const { return 0; }
  unsigned rep_vnet() const { return p_.network == "vnets" ? 1 : 0; }
  // The virtual network of each class's traffic entering the block (see Boundary above).
  unsigned req_in_vnet() const { return inbound_vnets_ ? (p_.network == "vnets" ? 2 : 1) : req_vnet(); }
  unsigned rep_in_vnet() const { return inbound_vnets_ ? (p_.network == "vnets" ? 3 : 1) : rep_vnet(); }
  noc::NetworkInterface& req_ni(unsigned node) { return req_net_->ni(node); }
  noc::NetworkInterface& rep_ni(unsigned node) { return reply_net().ni(node); }

  const Params p_;
  Clocks clocks_;
  AddressMapper& mapper_;
  NodeNumbering& ids_;
  AddressMap map_;  // a reference to mapper_ for the partitions
  unsigned base_ = 0, first_partition_ = 0;
  std::vector<unsigned> sm_nodes_, mc_nodes_, mc_of_node_, sm_groups_;  // network nodes (local)
  std::vector<unsigned> boundary_nodes_;                                // network nodes (local)
  std::vector<unsigned> boundary_of_id_;  // [platform id] which boundary node (with boundary)
  std::unique_ptr<noc::Network> req_net_, rep_net_;
  bool inbound_vnets_ = false;           // traffic entering the block has virtual networks of its own
  std::unique_ptr<PortMerge> merge_[2];  // [Class] boundary nodes -> out(c), with several
  std::unique_ptr<PortSplit> split_[2];  // [Class] in(c) -> boundary nodes, with several
  std::vector<std::unique_ptr<PortMerge>> node_merges_;  // with inbound_vnets_: per SM and MC node
  sc_core::sc_vector<SmNode> sms_;
  sc_core::sc_vector<MemoryPartition> mcs_;
  std::vector<std::unique_ptr<sc_core::sc_module>> unused_;
  std::map<std::string, std::unique_ptr<SmFrontShared>> front_shared_;  // per SM-side stage name
  Observers obs_;

  StatGroup stats_;
  Average& amat_;
  Average& mem_lat_;
  Average& rep_lat_;
  Counter& reply_bytes_;
  Counter& reply_packets_in_;
  Counter& request_packets_in_;
};

}  // namespace gpusc
