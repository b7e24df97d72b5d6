// PacketDataFilter: the packet data filter of paper 002 §3.4 (Figures 3.5, 3.8-3.10) with its
// data reduction (§3.4.1): between the MC's NI and its L2, it keeps a data-filtering table of
// partial read requests and sends each read reply compressed by DPC, carrying only the critical
// sectors (DF-TRUC) or the better of the line and the line with non-critical sectors zeroed
// (DF-MAN). A memory-partition stage (mem/mc_stage.h) on both paths, registered as
// "data_filter" by critical_stages.h: in() = req_in, to_l2() = to_mem, from_l2() = from_mem,
// out() = reply_out.
//
//   req_in --> PDR detector --> data-filtering table (PDRs) ------------------------> to_mem
//   reply_out <-- reply queue <-- DpcCoDec (map from the table entry) <-------------- from_mem
//
// Requests. A read whose sector map (MemExt::sector_mask bits 0..3; 0 = the whole line, as in
// mem/cache.h) is 1111 is a full-data request (FDR), anything else a partial one (PDR). A PDR
// looks up the table by (MemExt::src, line): an entry of that key that is waiting for its reply
// takes the request by OR-ing its map into the entry ("1000" + "0100" -> "1100"); the request
// is answered by that entry's reply (its stamps go to the reply's MemExt::grouped) and is
// released here. Otherwise the PDR allocates an entry and goes to the L2. FDRs, writes and
// atomics go to the L2 untouched. In mode "dpc" there is no table (plain DPC of every reply).
// Table full (a PDR that neither merges nor finds a free entry), by `table_full`:
//   bypass: the PDR goes to the L2 outside the table and is answered with the full line (FDR);
//   stall:  it waits at the head of the request path (END_REQ withheld behind it) until a
//           reply frees an entry.
// Replies. A read reply is matched to its entry by payload identity (the L2 answers a request
// with its own payload, docs/gpu-model.md); the entry's map is read and the entry freed as the
// reply enters the compressor, which closes the merge window. The reply's line (its data
// buffer, filled by the L2 from a BackingStore; without a buffer, as the L1's own fetches have,
// the line read from the BackingStore the platform attached: attach_values) is encoded: PDR -> DpcCodec mode dftruc or
// dfman with the entry's map, FDR or bypassed -> plain DPC of the line. On the reply:
//   MemExt::sector_mask = the sectors it delivers (the entry's map, or 1111);
//   MemExt::wire_bytes  = the encoding's size in bytes (ceil(bits / 8)): the NI packetizes that,
//                         so the reply takes fewer flits (noc/network_interface.h);
//   data buffer         = the line as the SM's decompressor restores it (DpcCodec::decode of
//                         the bits sent: zero outside the map for DF-TRUC, zero-filled if
//                         DF-MAN sent the manipulated line); data_length stays 128.
// Write acks and atomic replies pass unchanged (not compressed).
//
// Timing (cycles of clk). A message handed over in cycle c is latched at c + 1. Per cycle, in
// order: (1) the latched L2 reply enters the compressor (map read, entry freed); (2) the reply
// queue's head leaves on reply_out once ready; (3) the latched request is classified, merged
// or sent to to_mem. A read reply is ready compress_latency (+ decompress_latency with
// charge_decompress) cycles after (1); other replies at once; replies leave in order. So a
// request merges iff it was handed over before its entry's reply was handed over by the L2
// (same cycle: too late), and an L2 reply handed over in r leaves in r + 1 + latency.
// Choices the thesis leaves open (stated here, parameters where it matters):
//   * the merge window closes when the reply enters the compressor, not when it leaves for the
//     interconnect: the compressed bits depend on the map ("the data filtering mechanism takes
//     the 4-bitmap from the table entry" when the reply comes from the L2);
//   * table_full (bypass by default: no head-of-line blocking, and a full line is always right);
//   * only read replies are compressed (the thesis compresses reply data);
//   * DPC latency (DpcCoDec); the SM's decompression latency is charged here while the SM has
//     no decompressor of its own (charge_decompress);
//   * a read reply must carry its line (data pointer, 128 B) or the stage must have a store to
//     read it from (needs_values(): the platform attaches the workload's memory image, and a
//     workload without values is an error there): DPC of zeros would be a made-up result, so a
//     reply with neither is an error naming what to attach. The line is read from the store when
//     the reply enters the compressor (the L2 has applied every write it took before);
//   * b_transport (loosely-timed) passes through to to_mem without filtering.
// Codec (codec.model): cpp runs DpcCoDec (the encoding is made as the reply enters and the reply
// waits the latency); rtl hands the line to RtlDpcCodec (critical/rtl_dpc_codec.h: rtl/dpc_*.v
// verilated behind pin adapters) as it enters, and the reply is ready in the cycle the RTL's
// result is latched, which must be the cycle its declared latency gives (checked: an error
// otherwise), so the filter keeps the C++ model's schedule exactly. The RTL's latencies are its pipeline's (2, and 1 for the decompressor when
// charge_decompress; without it the SM-side decoding stays DpcCodec::decode of the RTL's
// encoding), equal to the C++ defaults, so both give the same results cycle for cycle; codec
// latencies other than the RTL's are refused with model = rtl.
// Combinations: the table is per (SM, line); a multicast reply (a PCU nearer the L2, paper 001)
// is refused with an error, and a PCU nearer the NI would give one SM's map to several SMs, so
// "pcu" and "data_filter" do not share a chain (the platform's overlays refuse it).
// Protocol errors: a request that is a reply or not a read/write/atomic, a reply that is a
// request, a reply with nothing outstanding, a read reply without its line, a multicast reply.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "common/clock_domain.h"
#include "common/mem_ext.h"
#include "common/msg_port.h"
#include "common/params.h"
#include "common/stats.h"
#include "critical/dpc_co_dec.h"
#include "critical/rtl_dpc_codec.h"
#include "mem/mc_stage.h"

namespace gpusc {

class PacketDataFilter : public sc_core::sc_module, public McStage, private Tickable {
 public:
  struct Params {
    std::string mode = "dfman";          // dpc | dftruc | dfman (002 §3.4.1.3)
    unsigned table_entries = 256;        // data-filtering table [entries] (002 Table 5.1: 32 / 256 / 1024)
    std::string table_full = "bypass";   // bypass | stall (not in 002)
    unsigned reply_queue = 8;            // replies in the compressor or waiting for the NI [replies]
    unsigned line_bytes = 128;           // line size [bytes]; DPC works on 128 B lines
    bool charge_decompress = true;       // add the SM's decompression latency here
    DpcCoDec::Params codec;              // compress / decompress latencies
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_C(mode, "dpc|dftruc|dfman",
                    "dpc: plain DPC of every read reply, no table; dftruc: only the critical sectors; "
                    "dfman: the smaller of the line and the line with non-critical sectors zeroed (002 §3.4.1.3)");
      GPUSC_PARAM_R(table_entries, 1, 65536, "data-filtering table entries [count] (002 Table 5.1: 256; 32/1024 swept)");
      GPUSC_PARAM_C(table_full, "bypass|stall",
                    "a PDR finding the table full: bypass = sent unfiltered, answered with the full line; "
                    "stall = waits for a free entry, blocking the request path");
      GPUSC_PARAM_R(reply_queue, 1, 4096, "replies in the compressor or waiting for the NI [replies]");
      GPUSC_PARAM_R(line_bytes, 128, 128, "line size [bytes]; DPC (002 §3.4.1.2) compresses 128 B lines");
      GPUSC_PARAM(charge_decompress, "add the SM's DPC decompression latency at the MC (the SM has no decompressor model yet)");
      GPUSC_PARAM(codec, "DPC compressor/decompressor latencies");
    }
  };

  MsgIn req_in{"req_in"};         // requests from the NI
  MsgOut to_mem{"to_mem"};        // requests to the L2
  MsgIn from_mem{"from_mem"};     // replies from the L2
  MsgOut reply_out{"reply_out"};  // replies to the NI

  PacketDataFilter(sc_core::sc_module_name name, const Params& p, ClockDomain& clk);
  PacketDataFilter(const PacketDataFilter&) = delete;
  PacketDataFilter& operator=(const PacketDataFilter&) = delete;

  const Params& params() const { return p_; }
  unsigned table_occupancy() const { return valid_; }
  // Map of the waiting table entry of (src, line address), or -1 when there is none.
  int entry_map(uint32_t src, uint64_t address) const;
  size_t reply_queue_size() const { return replies_.size(); }
  // Nothing held: no latched message, no reply queued, nothing outstanding at the L2.
  bool drained() const;

  // McStage (mem/mc_stage.h).
  MsgIn* in() override { return &req_in; }
  MsgOut* to_l2() override { return &to_mem; }
  MsgIn* from_l2() override { return &from_mem; }
  MsgOut* out() override { return &reply_out; }
  bool idle() const override { return drained(); }
  uint64_t stall_cycles() const override { return mc_stall_cycles_.value(); }
  // dpc_space_savings, dpc_compression_ratio, partial_requests, filter_merged over `all`.
  void summarize(json& summary, const std::vector<const McStage*>& all) const override;
  bool needs_values() const override { return true; }
  void attach_values(const BackingStore& store) override { store_ = &store; }
  // Called for every read reply as it is encoded, with the line the SM's decompressor restores
  // (tests and co-simulation checks compare these across codec models).
  using EncodedObserver =
      std::function<void(const tlm::tlm_generic_payload&, const DpcCodec::Encoded&, const DpcCodec::Decoded&)>;
  void on_encoded(EncodedObserver f) { observer_ = std::move(f); }

 private:
  struct Entry {
    bool valid = false;
    uint32_t src = 0;
    uint64_t line = 0;
    uint8_t map = 0;
    const tlm::tlm_generic_payload* req = nullptr;  // the request sent to the L2
    std::vector<RequestStamps> merged;              // requests merged into it
  };
  struct Timed {
    tlm::tlm_generic_payload* gp = nullptr;
    uint64_t due = 0;       // cycle it may be processed / leave
    bool encoding = false;  // its line is in the RTL codec (which must be done by `due`)
  };

  bool accept_request(tlm::tlm_generic_payload& gp);
  bool accept_reply(tlm::tlm_generic_payload& gp);
  bool tick(uint64_t cycle) override;
  void intake(uint64_t cycle);
  void send_reply(uint64_t cycle);
  void request(uint64_t cycle);
  void compress(tlm::tlm_generic_payload& gp, MemExt& e, unsigned map);
  const uint8_t* line_of(const tlm::tlm_generic_payload& gp, std::array<uint8_t, DpcCodec::kLineBytes>& buf) const;
  void finish(tlm::tlm_generic_payload& gp, MemExt& e, unsigned map, const uint8_t* line, const DpcCodec::Encoded& enc,
              const DpcCodec::Decoded& dec);
  void rtl_done(DpcJob& job);
  int find_waiting(uint32_t src, uint64_t line) const;
  int find_request(const tlm::tlm_generic_payload* gp) const;

  const Params p_;
  const DpcCodec::Mode mode_;
  const bool table_on_;
  ClockDomain& clk_;
  DpcCoDec codec_;
  std::unique_ptr<RtlDpcCodec> rtl_;     // codec.model = rtl
  std::vector<std::unique_ptr<DpcJob>> jobs_;
  std::vector<DpcJob*> free_jobs_;
  EncodedObserver observer_;
  const BackingStore* store_ = nullptr;  // memory contents (attach_values)
  std::vector<Entry> table_;
  std::vector<unsigned> free_;
  unsigned valid_ = 0;
  Timed req_latch_, rep_latch_;
  std::deque<Timed> replies_;  // due = cycle the reply is ready to leave
  uint64_t at_l2_ = 0;         // requests sent to the L2 and not answered yet
  bool full_wait_ = false;
  uint64_t full_wait_from_ = 0, reply_offered_ = 0;

  StatGroup stats_;
  Counter& reads_;
  Counter& pdrs_;
  Counter& fdrs_;
  Counter& allocs_;
  Counter& merged_;
  Counter& bypassed_;
  Counter& others_;
  Counter& replies_sent_;
  Counter& read_replies_;
  Counter& compressed_;
  Counter& manipulated_;
  Counter& raw_bytes_;
  Counter& wire_bytes_;
  Counter& table_full_cycles_;
  Counter& mc_stall_cycles_;
};

}  // namespace gpusc
