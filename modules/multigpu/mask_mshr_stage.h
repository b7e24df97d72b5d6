// MaskMshrStage: the requesting side of DUALOPT's coalescing mode at one CU (paper 004 §4.1.2,
// Fig. 7(c), Fig. 8) as an SM-side stage (gpu/sm_front_stage.h) between the L1 and the network:
//   * SCBU: it puts the selective-cache-bypass decision on its L1 (Cache::set_bypass): a read
//     the `bypass` predicate names (the platform's SCBU: coalescing mode on and the address
//     outside the local GPU's range) skips the L1's tags and MSHRs and comes here with the word
//     mask the SM's coalescer ORed over its lanes (the BGU's mask, MemExt::word_mask);
//   * mask-aware MSHR (multigpu/mask_aware_mshr.h): each bypassed read is looked up by (line,
//     mask): case A merges it into an in-flight entry whose mask contains it (nothing is sent);
//     cases B and C allocate an entry and send the read down with the entry as its response ID
//     (RdmaIdExt, multigpu/rdma_packet.h); no free entry (or merge slot) refuses it, and the L1
//     retries (END_REQ withheld) until a response frees one;
//   * the fine-grained response (the read's own payload, data = its mask's words packed, as the
//     serving GPU's RdmaWordSelector and the de-coalescer leave it) fills its entry: it goes up
//     first, then every merged read in arrival order, each as its own reply (is_reply, dst = src)
//     whose data are its own mask's words taken from the response; the ID is cleared.
// Everything else (L1 misses, write-throughs, atomics, their replies) passes through unchanged.
// Timing (core clock): a message taken in cycle c may leave in c + 1; one request toward the
// network and one reply toward the L1 per cycle, in arrival order (merged replies one per cycle).
// Choices the paper leaves open:
//   * the table is separate from the L1's own MSHRs (the paper extends the L1's 32 entries with a
//     mask; here the L1 keeps its 32 for lines and the stage has `mshr.entries` for fine-grained
//     reads), so a fine-grained read never takes an entry a line fill needs;
//   * which reads were bypassed is the SCBU's per-request decision travelling with the request
//     (the stage remembers the payloads its policy bypassed), not re-evaluated here, so a mode
//     change while a line fetch is in flight cannot turn that fetch fine-grained;
//   * a merged read's reply takes the response's memory and reply-injection stamps (MemExt), so
//     the platform's latency split counts it as sharing the response's trip;
//   * a read whose word mask is 0 (a payload without the BGU's mask) asks for the whole line;
//   * transfer_bytes > word_bytes (004 §6.2's 8 and 16 B granularity): the mask the MSHR holds
//     and the read carries below is widened to whole aligned units (a unit's bits all set when
//     any is), so merging compares unit masks as hardware with a coarser mask would; each reply
//     up holds only its own read's words, as with 4 B units.
// Stats: bypassed, allocations (cases B + C), case_b, merges (case A), refused, responses,
// merged_replies.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include <systemc>

#include "common/clock_domain.h"
#include "common/msg_port.h"
#include "common/params.h"
#include "common/stats.h"
#include "gpu/sm_front_stage.h"
#include "multigpu/mask_aware_mshr.h"

namespace gpusc {
class Cache;
}

namespace gpusc::multigpu {

class MaskMshrStage : public sc_core::sc_module, public SmFrontStage, private Tickable {
 public:
  struct Params {
    MaskAwareMshr::Params mshr;  // the fine-grained MSHR table (004 Table 1: 32 entries, 16-bit masks)
    unsigned word_bytes = 4;     // bytes per mask bit (MemExt::word_mask is 4 B words)
    unsigned transfer_bytes = 4; // fine-grained transfer unit [bytes] (004: 4; §6.2: 8, 16)
    unsigned queue = 8;          // requests waiting for the network [messages] (not in the paper)
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM(mshr, "mask-aware MSHR of the fine-grained remote reads (004 §4.1.2)");
      GPUSC_PARAM_R(word_bytes, 4, 4, "bytes per word-mask bit (MemExt::word_mask counts 4 B words)");
      GPUSC_PARAM_R(transfer_bytes, 4, 4096,
                    "fine-grained transfer unit [bytes], a power of two from word_bytes to the line: a read asks for "
                    "the whole aligned units its words touch (004: 4; §6.2: 8, 16; the line size = line transfers "
                    "around the L1, Fig. 16's bypass step)");
      GPUSC_PARAM_R(queue, 1, 65536, "requests waiting for the network [messages]");
    }
  };
  // The SCBU's decision for a request reaching the L1 (read only by the L1's bypass hook).
  using Bypass = std::function<bool(const tlm::tlm_generic_payload&)>;

  MaskMshrStage(sc_core::sc_module_name name, const Params& p, ClockDomain& clk, Cache& l1, Bypass bypass);
  MaskMshrStage(const MaskMshrStage&) = delete;
  MaskMshrStage& operator=(const MaskMshrStage&) = delete;

  MsgIn& from_l1() override { return from_l1_; }
  MsgOut& to_net() override { return to_net_; }
  MsgIn& from_net() override { return from_net_; }
  MsgOut& to_l1() override { return to_l1_; }
  bool idle() const override;
  void summarize(json& summary, const std::vector<const SmFrontStage*>& all) const override;

  const MaskAwareMshr& table() const { return mshr_; }
  uint64_t merges() const { return merges_.value(); }
  uint64_t allocations() const { return allocations_.value(); }

 private:
  struct Timed {
    uint64_t at;
    tlm::tlm_generic_payload* gp;
  };
  bool accept_request(tlm::tlm_generic_payload& gp);
  bool accept_reply(tlm::tlm_generic_payload& gp);
  bool tick(uint64_t cycle) override;
  uint64_t full_mask() const { return p_.mshr.mask_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << p_.mshr.mask_bits) - 1; }
  uint64_t widen(uint64_t mask) const;  // every transfer unit with a word in `mask`, whole
  // The words of `want` (a subset of `have`) out of `src`, which holds have's words packed, into
  // `dst`, packed; returns the words copied. dst may be src (the copy moves words down only).
  unsigned pick_words(uint64_t have, uint64_t want, const unsigned char* src, unsigned char* dst) const;

  const Params p_;
  ClockDomain& clk_;
  Bypass bypass_;
  MaskAwareMshr mshr_;
  MsgIn from_l1_{"from_l1"};
  MsgOut to_net_{"to_net"};
  MsgIn from_net_{"from_net"};
  MsgOut to_l1_{"to_l1"};
  std::unordered_set<const tlm::tlm_generic_payload*> bypassed_;  // the SCBU said bypass, not yet here
  std::unordered_map<const tlm::tlm_generic_payload*, uint32_t> asked_;  // sent widened: its own word mask
  std::deque<Timed> down_, up_;

  StatGroup stats_;
  Counter &bypassed_n_, &allocations_, &case_b_, &merges_, &refused_, &responses_, &merged_replies_;
};

// Adds the stage as "mask_mshr" to `registry` (parameters: sm_front.stage_params.mask_mshr);
// bypass_for(node) gives the SCBU decision of the SM at platform id `node` (the platform owns
// the SCBUs: their range registers and mode register are per GPU).
void register_mask_mshr_stage(SmFrontRegistry& registry, std::function<MaskMshrStage::Bypass(unsigned node)> bypass_for);

}  // namespace gpusc::multigpu
