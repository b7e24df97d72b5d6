#include "critical/packet_data_filter.h"

#include <array>
#include <cstdio>
#include <cstring>

#include "common/report.h"
#include "mem/backing_store.h"

namespace gpusc {

namespace {
std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

DpcCodec::Mode mode_of(const std::string& m) {
  if (m == "dpc") return DpcCodec::Mode::Dpc;
  if (m == "dftruc") return DpcCodec::Mode::Truc;
  return DpcCodec::Mode::Man;
}

const PacketDataFilter::Params& checked(const PacketDataFilter::Params& p, const std::string& where) {
  validate(p, where);
  if (p.codec.model == "rtl") {
    if (p.codec.compress_latency != RtlDpcCodec::kCompressLatency)
      error(where, "codec.model = rtl: the RTL compressor's latency is ", RtlDpcCodec::kCompressLatency,
            " cycles (rtl/dpc_compressor.v), but codec.compress_latency = ", p.codec.compress_latency,
            "; that latency describes the C++ model: set it to ", RtlDpcCodec::kCompressLatency, " or use codec.model = cpp");
    if (p.charge_decompress && p.codec.decompress_latency != RtlDpcCodec::kDecompressLatency)
      error(where, "codec.model = rtl: the RTL decompressor's latency is ", RtlDpcCodec::kDecompressLatency,
            " cycle (rtl/dpc_decompressor.v), but codec.decompress_latency = ", p.codec.decompress_latency,
            "; that latency describes the C++ model: set it to ", RtlDpcCodec::kDecompressLatency,
            " or use codec.model = cpp");
  }
  return p;
}
}  // namespace

PacketDataFilter::PacketDataFilter(sc_core::sc_module_name name, const Params& p, ClockDomain& clk)
    : sc_core::sc_module(name),
      p_(checked(p, this->name())),
      mode_(mode_of(p.mode)),
      table_on_(p.mode != "dpc"),
      clk_(clk),
      codec_(p.codec, mode_),
      reads_(stats_.counter("reads", Unit::Count, "read requests classified")),
      pdrs_(stats_.counter("partial_requests", Unit::Count, "reads whose sector map is not 1111 (PDR, 002 §3.4)")),
      fdrs_(stats_.counter("full_requests", Unit::Count, "reads whose sector map is 1111 or 0 (FDR)")),
      allocs_(stats_.counter("table_allocations", Unit::Count, "PDRs that took a data-filtering table entry")),
      merged_(stats_.counter("merged_requests", Unit::Count, "PDRs OR-ed into a waiting entry and not sent to the L2")),
      bypassed_(stats_.counter("bypassed_requests", Unit::Count, "PDRs sent unfiltered because the table was full")),
      others_(stats_.counter("other_requests", Unit::Count, "writes and atomics passed to the L2")),
      replies_sent_(stats_.counter("replies", Unit::Packets, "replies sent on reply_out")),
      read_replies_(stats_.counter("read_replies", Unit::Packets, "read replies DPC-encoded")),
      compressed_(stats_.counter("compressed_replies", Unit::Packets, "read replies sent compressed (flag C = 1)")),
      manipulated_(stats_.counter("manipulated_replies", Unit::Packets, "DF-MAN replies that sent the zero-filled line")),
      raw_bytes_(stats_.counter("raw_bytes", Unit::Bytes, "read reply data before filtering and DPC (line_bytes each)")),
      wire_bytes_(stats_.counter("wire_bytes", Unit::Bytes, "read reply data on the wire (encoded size, whole bytes)")),
      table_full_cycles_(stats_.counter("table_full_cycles", Unit::Cycles,
                                        "cycles a PDR waited for a table entry (table_full = stall)")),
      mc_stall_cycles_(stats_.counter("mc_stall_cycles", Unit::Cycles, "cycles replies waited for the NI to take them")) {
  if (p_.codec.model == "rtl") {
    rtl_ = make_rtl_dpc_codec("codec_rtl", clk_, p_.charge_decompress);
    rtl_->on_done([this](DpcJob& j) { rtl_done(j); });
    rtl_->on_space([this] { clk_.wake_after_now(*this); });
    jobs_.reserve(p_.reply_queue);
    for (unsigned i = 0; i < p_.reply_queue; ++i) {
      jobs_.push_back(std::make_unique<DpcJob>());
      free_jobs_.push_back(jobs_.back().get());
    }
  }
  table_.resize(p_.table_entries);
  free_.reserve(p_.table_entries);
  for (unsigned i = p_.table_entries; i-- > 0;) free_.push_back(i);
  req_in.set_accept([this](tlm::tlm_generic_payload& gp) { return accept_request(gp); });
  from_mem.set_accept([this](tlm::tlm_generic_payload& gp) { return accept_reply(gp); });
  req_in.set_b_transport([this](tlm::tlm_generic_payload& gp, sc_core::sc_time& t) { to_mem->b_transport(gp, t); });
  to_mem.on_accept([this] { clk_.wake_after_now(*this); });
  reply_out.on_accept([this] {
    mc_stall_cycles_ += clk_.now() - reply_offered_;
    clk_.wake_after_now(*this);
  });
  stats_.derived("space_savings", Unit::Ratio, "1 - wire_bytes / raw_bytes (002 §5.3.2)", [this] {
    return raw_bytes_.value() ? 1.0 - double(wire_bytes_.value()) / double(raw_bytes_.value()) : 0.0;
  });
  stats_.derived("compression_ratio", Unit::Ratio, "raw_bytes / wire_bytes", [this] {
    return wire_bytes_.value() ? double(raw_bytes_.value()) / double(wire_bytes_.value()) : 0.0;
  });
  stats_.invariant("reads == partial_requests + full_requests",
                   [this] { return reads_.value() == pdrs_.value() + fdrs_.value(); });
  stats_.invariant("in a filtering mode, partial_requests == table_allocations + merged_requests + bypassed_requests "
                   "(+ 1 while one waits for an entry)",
                   [this] {
                     const uint64_t waiting = full_wait_ ? 1 : 0;
                     return !table_on_ || pdrs_.value() == allocs_.value() + merged_.value() + bypassed_.value() + waiting;
                   });
  stats_.invariant("once drained, replies == reads - merged_requests + other_requests", [this] {
    return !drained() || replies_sent_.value() == reads_.value() - merged_.value() + others_.value();
  });
}

int PacketDataFilter::entry_map(uint32_t src, uint64_t address) const {
  const int i = find_waiting(src, address / p_.line_bytes);
  return i < 0 ? -1 : table_[static_cast<unsigned>(i)].map;
}

bool PacketDataFilter::drained() const {
  return !req_latch_.gp && !rep_latch_.gp && replies_.empty() && at_l2_ == 0 && !reply_out.busy() && !to_mem.busy();
}

bool PacketDataFilter::accept_request(tlm::tlm_generic_payload& gp) {
  const MemExt& e = mem_ext(gp, name());
  if (e.is_reply || (e.kind != MemKind::Read && e.kind != MemKind::Write && e.kind != MemKind::Atomic))
    error(name(), "req_in takes read, write and atomic requests; got a ", e.is_reply ? "reply" : "request", " of kind ",
          to_string(e.kind), " for address ", hex(gp.get_address()));
  if (req_latch_.gp) return false;
  req_latch_ = {&gp, clk_.cycle_after(sc_core::sc_time_stamp())};
  clk_.wake_after_now(*this);
  return true;
}

bool PacketDataFilter::accept_reply(tlm::tlm_generic_payload& gp) {
  const MemExt& e = mem_ext(gp, name());
  if (!e.is_reply || (e.kind != MemKind::Read && e.kind != MemKind::Write && e.kind != MemKind::Atomic))
    error(name(), "from_mem takes replies to reads, writes and atomics; got a ", e.is_reply ? "reply" : "request",
          " of kind ", to_string(e.kind), " for address ", hex(gp.get_address()));
  if (rep_latch_.gp || replies_.size() >= p_.reply_queue) return false;
  rep_latch_ = {&gp, clk_.cycle_after(sc_core::sc_time_stamp())};
  clk_.wake_after_now(*this);
  return true;
}

bool PacketDataFilter::tick(uint64_t cycle) {
  intake(cycle);
  send_reply(cycle);
  request(cycle);
  req_in.retry();
  from_mem.retry();
  if (!replies_.empty() && !reply_out.busy() && replies_.front().due > cycle + 1)
    clk_.wake(*this, replies_.front().due);  // a compressing head: sleep until it is ready
  const bool reply_next = !replies_.empty() && !reply_out.busy() && replies_.front().due <= cycle + 1;
  // A latched request that could not move waits for to_mem's on_accept or a freed entry (both wake us).
  const bool req_next = req_latch_.gp && req_latch_.due > cycle;
  return rep_latch_.gp || reply_next || req_next;
}

void PacketDataFilter::intake(uint64_t cycle) {
  if (!rep_latch_.gp || rep_latch_.due > cycle || replies_.size() >= p_.reply_queue) return;
  if (rtl_ && !rtl_->can_take()) return;  // the RTL compressor's input is full: on_space wakes us
  tlm::tlm_generic_payload& gp = *rep_latch_.gp;
  rep_latch_.gp = nullptr;
  MemExt& e = *gp.get_extension<MemExt>();
  if (!e.dests.empty())
    error(name(), "a multicast reply for address ", hex(gp.get_address()),
          " reached the data filter: it filters per (SM, line), so a packet coalescing unit (paper 001) cannot sit "
          "between it and the L2; remove one of the two from mc.stages");
  if (at_l2_ == 0)
    error(name(), to_string(e.kind), " reply for address ", hex(gp.get_address()),
          " but no request is outstanding at the L2; the L2 answered a request this filter did not send, or answered twice");
  --at_l2_;
  unsigned latency = 0;
  const unsigned codec_latency = codec_.compress_latency() + (p_.charge_decompress ? codec_.decompress_latency() : 0);
  if (e.kind == MemKind::Read) {
    unsigned map = DpcCodec::kFullMap;
    const int i = find_request(&gp);
    if (i >= 0) {
      Entry& en = table_[static_cast<unsigned>(i)];
      if (en.line != gp.get_address() / p_.line_bytes || en.src != e.src)
        error(name(), "read reply for address ", hex(gp.get_address()), " from node ", e.src,
              " came back in the payload of table entry ", i, " (node ", en.src, ", line ", hex(en.line * p_.line_bytes),
              "); a unit below changed the payload's address or source");
      map = en.map;
      for (RequestStamps& s : en.merged) e.grouped.push_back(s);
      en.merged.clear();
      en.valid = false;
      en.req = nullptr;
      free_.push_back(static_cast<unsigned>(i));
      --valid_;
      clk_.wake_after_now(*this);  // a request may be waiting for the entry
    }
    if (rtl_) {
      DpcJob& j = *free_jobs_.back();
      free_jobs_.pop_back();
      const uint8_t* line = line_of(gp, j.line);
      if (line != j.line.data()) std::memcpy(j.line.data(), line, DpcCodec::kLineBytes);
      j.map = map;
      j.mode = map == DpcCodec::kFullMap ? DpcCodec::Mode::Dpc : mode_;
      j.tag = &gp;
      replies_.push_back({&gp, cycle + codec_latency, true});
      rtl_->take(j);
      return;
    }
    compress(gp, e, map);
    latency = codec_latency;
  }
  replies_.push_back({&gp, cycle + latency});
}

void PacketDataFilter::rtl_done(DpcJob& j) {
  auto& gp = *static_cast<tlm::tlm_generic_payload*>(j.tag);
  auto it = replies_.begin();
  while (it != replies_.end() && !it->encoding) ++it;
  if (it == replies_.end() || it->gp != &gp)
    error(name(), "the RTL codec finished the line of address ", hex(gp.get_address()),
          " out of order (it is not the oldest reply being encoded)");
  if (j.bad_input)
    error(name(), "the RTL compressor refused map ", j.map, " in mode ", DpcCodec::to_string(j.mode),
          " for address ", hex(gp.get_address()), ": this filter never sends such a line");
  if (!p_.charge_decompress)
    j.dec = DpcCodec::decode(j.enc);  // the SM-side decoding, not charged here
  else if (j.malformed)
    error(name(), "the RTL decompressor refused the RTL compressor's encoding of address ", hex(gp.get_address()),
          " (", j.enc.size_bits, " bits): the two RTL units disagree");
  finish(gp, *gp.get_extension<MemExt>(), j.map, j.line.data(), j.enc, j.dec);
  const uint64_t ready = clk_.cycle_after(sc_core::sc_time_stamp());
  if (ready != it->due)
    error(name(), "the RTL codec's result for address ", hex(gp.get_address()), " is latched in cycle ", ready,
          ", but its declared latency says cycle ", it->due, ": the RTL and RtlDpcCodec's latencies disagree");
  it->encoding = false;
  free_jobs_.push_back(&j);
}

void PacketDataFilter::compress(tlm::tlm_generic_payload& gp, MemExt& e, unsigned map) {
  std::array<uint8_t, DpcCodec::kLineBytes> buf{};
  const uint8_t* line = line_of(gp, buf);
  const DpcCodec::Encoded enc = map == DpcCodec::kFullMap ? codec_.compress_full(line) : codec_.compress(line, map);
  finish(gp, e, map, line, enc, codec_.decompress(enc));
}

const uint8_t* PacketDataFilter::line_of(const tlm::tlm_generic_payload& gp,
                                         std::array<uint8_t, DpcCodec::kLineBytes>& buf) const {
  const unsigned char* data = gp.get_data_ptr();
  const bool own = data && gp.get_data_length() == p_.line_bytes;  // the reply carries its line
  if (own) return data;
  if (store_ && !data) {  // the L1's fetches carry no buffer: the line is read from memory
    store_->read(gp.get_address() / p_.line_bytes * p_.line_bytes, p_.line_bytes, buf.data());
    return buf.data();
  }
  error(name(), "read reply for address ", hex(gp.get_address()), " carries ",
        data ? std::to_string(gp.get_data_length()) + " bytes" : std::string("no data buffer"), ", not its ",
        p_.line_bytes, " B line: DPC compresses the bytes really in memory, so attach a BackingStore to the stage "
        "(MemoryPartition::attach_values, from a workload with values) or to the L2 with line-sized read buffers "
        "(a DPC run on made-up zeros would be meaningless)");
}

void PacketDataFilter::finish(tlm::tlm_generic_payload& gp, MemExt& e, unsigned map, const uint8_t* data,
                              const DpcCodec::Encoded& enc, const DpcCodec::Decoded& dec) {
  for (unsigned s = 0; s < DpcCodec::kSectors; ++s) {
    const unsigned off = s * (DpcCodec::kLineBytes / DpcCodec::kSectors);
    if ((map & (1u << s)) && std::memcmp(dec.line.data() + off, data + off, DpcCodec::kLineBytes / DpcCodec::kSectors))
      error(name(), "DPC round trip lost critical sector ", s, " of the line at ", hex(gp.get_address()),
            " (mode ", p_.mode, "): a codec bug");
  }
  if (observer_) observer_(gp, enc, dec);
  unsigned char* buffer = gp.get_data_ptr();
  if (buffer && gp.get_data_length() == p_.line_bytes)  // the reply carries its line: what the SM restores
    std::memcpy(buffer, dec.line.data(), DpcCodec::kLineBytes);
  e.sector_mask = map;
  e.wire_bytes = enc.wire_bytes();
  ++read_replies_;
  if (enc.compressed) ++compressed_;
  if (enc.manipulated) ++manipulated_;
  raw_bytes_ += p_.line_bytes;
  wire_bytes_ += enc.wire_bytes();
}

void PacketDataFilter::send_reply(uint64_t cycle) {
  if (replies_.empty() || reply_out.busy() || replies_.front().due > cycle) return;
  if (replies_.front().encoding)
    error(name(), "the RTL codec has not finished the line of address ", hex(replies_.front().gp->get_address()),
          " by cycle ", cycle, ", its declared latency");
  tlm::tlm_generic_payload* gp = replies_.front().gp;
  replies_.pop_front();
  ++replies_sent_;
  if (!reply_out.send(*gp)) reply_offered_ = cycle;  // the NI withholds END_REQ: MC stall
}

void PacketDataFilter::request(uint64_t cycle) {
  if (!req_latch_.gp || req_latch_.due > cycle) return;
  tlm::tlm_generic_payload& gp = *req_latch_.gp;
  MemExt& e = *gp.get_extension<MemExt>();
  if (e.kind != MemKind::Read) {
    if (to_mem.busy()) return;
    req_latch_.gp = nullptr;
    ++others_;
    ++at_l2_;
    to_mem.send(gp);
    return;
  }
  const unsigned map = e.sector_mask & DpcCodec::kFullMap;
  const bool partial = map != 0 && map != DpcCodec::kFullMap;
  const uint64_t line = gp.get_address() / p_.line_bytes;
  int slot = -1;
  if (partial && table_on_ && !full_wait_) {  // classified once, when it first reaches the detector
    const int w = find_waiting(e.src, line);
    if (w >= 0) {
      Entry& en = table_[static_cast<unsigned>(w)];
      en.map = static_cast<uint8_t>(en.map | map);
      en.merged.push_back({e.src, e.t_issue, e.t_req_inject, e.t_mem_accept});
      ++reads_;
      ++pdrs_;
      ++merged_;
      req_latch_.gp = nullptr;
      gp.release();
      return;
    }
  }
  if (to_mem.busy()) return;
  if (partial && table_on_) {
    if (free_.empty() && p_.table_full == "stall") {
      if (!full_wait_) {
        full_wait_ = true;
        full_wait_from_ = cycle;
        ++reads_;
        ++pdrs_;
      }
      return;  // an entry freed by intake() wakes us
    }
    if (!full_wait_) {
      ++reads_;
      ++pdrs_;
    }
    if (full_wait_) {
      table_full_cycles_ += cycle - full_wait_from_;
      full_wait_ = false;
    }
    if (!free_.empty()) {
      slot = static_cast<int>(free_.back());
      free_.pop_back();
      table_[static_cast<unsigned>(slot)] = Entry{true, e.src, line, static_cast<uint8_t>(map), &gp, {}};
      ++valid_;
      ++allocs_;
    } else {
      ++bypassed_;
    }
  } else {
    ++reads_;
    ++(partial ? pdrs_ : fdrs_);
  }
  req_latch_.gp = nullptr;
  ++at_l2_;
  to_mem.send(gp);
}

int PacketDataFilter::find_waiting(uint32_t src, uint64_t line) const {
  for (unsigned i = 0; i < table_.size(); ++i)
    if (table_[i].valid && table_[i].src == src && table_[i].line == line) return static_cast<int>(i);
  return -1;
}

int PacketDataFilter::find_request(const tlm::tlm_generic_payload* gp) const {
  for (unsigned i = 0; i < table_.size(); ++i)
    if (table_[i].valid && table_[i].req == gp) return static_cast<int>(i);
  return -1;
}

void PacketDataFilter::summarize(json& summary, const std::vector<const McStage*>& all) const {
  double raw = 0, wire = 0, reads = 0, pdrs = 0, merged = 0;
  for (const McStage* st : all) {
    const auto* f = dynamic_cast<const PacketDataFilter*>(st);
    if (!f) error(name(), "summarize: a stage of another type is listed with the data filters");
    raw += double(f->raw_bytes_.value());
    wire += double(f->wire_bytes_.value());
    reads += double(f->reads_.value());
    pdrs += double(f->pdrs_.value());
    merged += double(f->merged_.value());
  }
  summary["dpc_space_savings"] = raw > 0 ? 1.0 - wire / raw : 0.0;
  summary["dpc_compression_ratio"] = wire > 0 ? raw / wire : 0.0;
  summary["partial_request_share"] = reads > 0 ? pdrs / reads : 0.0;
  summary["filter_merged_requests"] = merged;
}

}  // namespace gpusc
