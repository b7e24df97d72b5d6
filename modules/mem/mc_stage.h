// McStage: the hook point of a memory partition (DESIGN §6, STYLE P16). A stage is a unit that
// sits between the partition's network-interface side and its L2 slice, on the request path,
// the reply path or both. A MemoryPartition holds an ordered chain of stages named by its
// configuration (MemoryPartition::Params::stages) and builds each one through a McStageRegistry
// that the paper folders register into (coalesce: "pcu", the packet coalescing unit of paper
// 001). The generic library knows a mechanism only through this interface; it never includes a
// paper folder.
//
//   NI --> in()  [stage 0]  to_l2() --> in()  [stage 1]  to_l2() --> ... --> L2.up_in
//   NI <-- out() [stage 0] from_l2() <-- out() [stage 1] from_l2() <-- ... <-- L2.up_out
//
// Stage 0 is the one nearest the NI: requests cross the chain in list order, replies in the
// reverse order. The ports are MsgIn/MsgOut (common/msg_port.h) with their back-pressure:
//   in()       requests from the NI side: the NI, or the previous stage's to_l2(). The first
//              request stage's in() is the partition's in(); the partition sets its tap (the MC
//              accept timestamp and the locality monitor), so a stage must not set a tap there.
//   to_l2()    requests toward the L2: the next stage's in(), or the L2's up_in.
//   from_l2()  replies from the L2 side: the next stage's out(), or the L2's up_out.
//   out()      replies toward the NI: the previous stage's from_l2(), or the NI (the first reply
//              stage's out() is the partition's out()).
// A stage on one path only returns nullptr for both ports of the other path (in() and to_l2()
// are the request path, from_l2() and out() the reply path); the chain on that path skips it.
// Such a stage has no sockets of its own for that path, or binds them itself (SystemC rejects
// an unbound socket at elaboration). A stage on neither path (all four nullptr) works through
// the L2's hook points alone (McStageContext::l2, e.g. a read policy: paper 000's la_llc), so it
// adds no queue or latch to the partition.
// A stage may hold, reorder, drop (release), merge or redirect messages, as long as every request
// it lets through toward the L2 has its reply come back through it, and every request it takes
// gets its reply (or its share of a multicast reply) out of it.
//   idle()          holds no message and waits for none: nothing queued or latched, and no
//                   request it sent toward the L2 still waiting for its reply. The partition is
//                   idle when its L2, its DRAM channel and every stage are.
//   stall_cycles()  cycles replies waited at out() because the receiver withheld END_REQ. For
//                   the reply stage nearest the NI that is the MC stall time of paper 001 §2.1
//                   (the NI injection queue is full), which the partition reports as
//                   mc_stall_cycles(); a stage not on the reply path returns 0.
//   summarize()     the lines the mechanism adds to a platform's summary: the platform asks
//                   every stage and never names one (MemoryPartition::summarize_stages).
//   needs_values()  the stage reads line contents (DPC): the platform must attach a BackingStore
//                   holding the workload's real memory contents (issue 19), and a workload that
//                   has none is an error before the run. attach_values() hands the stage that
//                   store (the same one the partition's L2 keeps up to date with the writes it
//                   takes); the stage reads it, never writes it.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/address_map.h"
#include "common/clock_domain.h"
#include "common/msg_port.h"
#include "common/params.h"

namespace gpusc {
class Cache;

class BackingStore;

class McStage {
 public:
  virtual ~McStage() = default;

  virtual MsgIn* in() = 0;        // requests from the NI side; nullptr: not on the request path
  virtual MsgOut* to_l2() = 0;    // requests toward the L2;    nullptr: not on the request path
  virtual MsgIn* from_l2() = 0;   // replies from the L2 side;  nullptr: not on the reply path
  virtual MsgOut* out() = 0;      // replies toward the NI;     nullptr: not on the reply path

  virtual bool idle() const = 0;
  virtual uint64_t stall_cycles() const = 0;

  // Adds this mechanism's lines to `summary` (a platform's summary object: key -> value). Called
  // once per stage name of the chain, on the first partition's instance, with `all` = the stage
  // of that name in every partition of the platform (this one included, all of this stage's
  // type), so figures are merged over the partitions. Default: no lines.
  virtual void summarize(json& summary, const std::vector<const McStage*>& all) const;

  virtual bool needs_values() const { return false; }
  virtual void attach_values(const BackingStore& /*store*/) {}
};

// What a stage is built with besides its own parameters: the partition it sits in.
struct McStageContext {
  ClockDomain& clk;        // the partition's core clock (its L2's)
  unsigned node;           // the partition's network node
  const AddressMap& map;   // global -> partition-local addresses
  Cache* l2 = nullptr;     // the partition's L2: tag look-ups (Cache::present) and its policy hook points; may be null
};

// Name -> how to build a stage. A value, not a process-wide table: whoever builds partitions
// (a platform, a testbench) fills one and hands it to the MemoryPartition constructor. Each
// paper folder offers a function that adds its stages (coalesce/coalesce_stages.h), and
// platforms call those explicitly (platforms/paper_stages.h): static self-registration objects
// in a static library are dropped by the linker unless something references their object file,
// which would make a stage silently unknown in one binary and present in another.
class McStageRegistry {
 public:
  // The effective parameters of a stage: `given` (a JSON object, possibly empty) with every
  // default filled in. An unknown key, a wrong type or a value out of range is an error naming
  // `where`.key (and the known keys).
  using ParamsFn = std::function<json(const json& given, const std::string& where)>;
  // Builds the stage as an sc_module named `name`, from its effective parameters. Called while
  // the partition is being constructed, so the stage is the partition's child (<partition>.<name>).
  using MakeFn = std::function<std::unique_ptr<McStage>(const char* name, const json& params, const McStageContext&)>;
  struct Entry {
    std::string description;  // one line, for listings
    ParamsFn params;
    MakeFn make;
  };

  // Adds stage type `name`; a name added twice or an entry without params/make is an error.
  void add(const std::string& name, Entry e);
  bool contains(const std::string& name) const { return entries_.count(name) != 0; }
  std::vector<std::string> names() const;  // sorted
  // The entry of `name`; an unknown name is an error naming `where` (the configuration key that
  // lists it, e.g. mc.stages) and the known stages.
  const Entry& at(const std::string& name, const std::string& where) const;

 private:
  std::map<std::string, Entry> entries_;
};

// McStageRegistry::ParamsFn of a stage whose parameters are a Params struct (common/params.h).
template <class P> McStageRegistry::ParamsFn stage_params_of() {
  return [](const json& given, const std::string& where) { return params_to_json(params_from_json<P>(given, where)); };
}

}  // namespace gpusc
