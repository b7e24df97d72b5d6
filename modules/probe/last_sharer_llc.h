// LastSharerLlc: the locality-aware last-level cache (LA-LLC) comparison point of paper 000 §IV-B
// (its ref. [44]), a memory-partition stage (mem/mc_stage.h, registered as "la_llc" by
// probe_stages.h) that sits on neither message path: it is the read policy of the partition's L2
// (Cache::set_read_policy). The L2 keeps the last sharer of each line; a read that hits in the L2
// and whose line has a recorded last sharer other than the requester is not served: after the
// L2's hit latency a forward leaves in place of the data, to that core, whose probe handler
// (probe_handler.h) looks the line up in its L1 through the peer-lookup port. Hit: the sharer
// sends the line to the requester (reply network). Miss (the sharer evicted it meanwhile): the
// sharer sends the read back to this partition, which serves it from the L2 without forwarding it
// again. Every read is answered exactly once, by the sharer or by the L2; the requester's own
// fetch payload travels the whole way.
// Paper 000 gives only the idea (the L2 "records the last sharer core" and forwards "in case of a
// hit"); our choices:
//   * the last sharer is recorded per line at every read the L2 takes (hit, merge or miss;
//     forwarded or served): the requester will hold the line either way; writes leave it (L1s are
//     write-through and not coherent within a kernel); the record is the L2 tag's field, kept here
//     in a map and used only when the read hits;
//   * the forward is decided in the L2's own lookup and leaves through the L2's reply queue after
//     its hit latency (the tag is read, the data array is not), so LA-LLC adds no queue or latch
//     to the partition: an earlier model put it in a stage in front of the L2 with queues of its
//     own, which alone made histogram 7.6% faster with nothing forwarded (probe.md);
//   * the forward is a one-flit control message on the reply network (MemKind::Probe, header only),
//     the miss return a normal read on the request network;
//   * the forwarded read's L1 lookup at the sharer waits for a free L1 port like a probe;
//   * L1 flushes at kernel boundaries are not seen: a sharer recorded in an earlier kernel is a
//     miss (part of LA-LLC's imprecision; the paper reports precision 60%, 40% on 3MM / GEMM).
// Precision = forwarded reads the sharer answered / forwarded reads.
#pragma once
#include <cstdint>
#include <unordered_map>

#include <systemc>

#include "common/mem_ext.h"
#include "common/params.h"
#include "common/stats.h"
#include "mem/mc_stage.h"

namespace gpusc {
class Cache;

namespace probe {

class LastSharerLlc : public sc_core::sc_module, public McStage {
 public:
  struct Params {
    template <class F> static void describe(F&&) {}  // none: the L2's own parameters set its timing
  };

  LastSharerLlc(sc_core::sc_module_name name, const Params& p, const McStageContext& ctx);

  // On neither message path (the L2's read policy).
  MsgIn* in() override { return nullptr; }
  MsgOut* to_l2() override { return nullptr; }
  MsgIn* from_l2() override { return nullptr; }
  MsgOut* out() override { return nullptr; }
  bool idle() const override { return true; }  // holds no message: the L2 does
  uint64_t stall_cycles() const override { return 0; }
  void summarize(json& summary, const std::vector<const McStage*>& all) const override;

  uint64_t forwards() const { return forwards_.value(); }
  uint64_t returned() const { return returned_.value(); }

 private:
  using Payload = tlm::tlm_generic_payload;
  // The L2's read policy: records the requester, and forwards a hit to another last sharer.
  bool on_read(Payload& gp, MemExt& e, bool hit);

  const unsigned line_bytes_;
  std::unordered_map<uint64_t, unsigned> last_;  // line -> platform id of its last reader
  StatGroup stats_;
  Counter &reads_, &forwards_, &returned_, &self_;
};

}  // namespace probe
}  // namespace gpusc
