#include "coalesce/packet_coalescing_unit.h"

#include <cstdio>
#include <string>
#include <utility>

#include "coalesce/rtl_grouping_registers.h"
#include "common/mem_ext.h"
#include "common/report.h"

namespace gpusc {

namespace {
std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

const PacketCoalescingUnit::Params& checked(const PacketCoalescingUnit::Params& p, const std::string& where) {
  validate(p, where);
  return p;
}
}  // namespace

PacketCoalescingUnit::PacketCoalescingUnit(sc_core::sc_module_name name, const Params& p, ClockDomain& clk)
    : sc_core::sc_module(name),
      p_(checked(p, this->name())),
      clk_(clk),
      free_rgrs_(p.rgrs),
      reads_(stats_.counter("reads", Unit::Count, "read requests through stage 1")),
      writes_(stats_.counter("writes", Unit::Count, "write and atomic requests through stage 1 (never grouped)")),
      allocs_(stats_.counter("rgr_allocations", Unit::Count, "reads that allocated an RGR and went to the L2")),
      grouped_(stats_.counter("grouped_requests", Unit::Count, "reads that joined a valid RGR and were dropped")),
      replies_sent_(stats_.counter("replies", Unit::Packets, "replies sent on reply_out (a multicast counts once)")),
      multicast_(stats_.counter("multicast_replies", Unit::Packets, "replies sent to more than one node")),
      rgr_full_cycles_(stats_.counter("rgr_full_cycles", Unit::Cycles, "cycles a read waited at req_in because no RGR was free")),
      mc_stall_cycles_(stats_.counter("mc_stall_cycles", Unit::Cycles,
                                      "cycles replies waited for the NI to take them (MC stall time, 001 §2.1)")) {
  if (p_.rgr_model == "rtl") rgr_ = make_rtl_grouping_registers("rgr_rtl", clk_, p_.rgrs, p_.max_nodes);
  else rgr_ = std::make_unique<ModelRgrAccess>(p_.rgrs, p_.max_nodes);
  rgr_->on_request_done([this](tlm::tlm_generic_payload& gp, const RequestGroupingRegisters::RequestResult& r) {
    requested(gp, r);
  });
  rgr_->on_release_done([this](tlm::tlm_generic_payload& gp, const RequestGroupingRegisters::ReleaseResult& r) {
    released(gp, r);
  });
  // Answers after the tick (the RTL's), in the same cycle: a read refused while its RGR count was
  // reserved is retried now, as the C++ model's tick-end retry would have taken it; and when the
  // last answer is in, the tick's hold on the next cycle is resolved as the C++ tick's return
  // value would have been: work latched, or stage 2 ready as the tick left it.
  rgr_->on_answered([this] {
    req_in.retry();
    if (!held_ || rgr_->in_flight()) return;
    held_ = false;
    tick_again_ = tick_again_ || in_latch_.gp || (!to_mem_busy_at_tick_ && stage2_has_work());
    clk_.resolve(*this, tick_again_);
  });
  data_.resize(p_.rgrs);
  ring_.resize(p_.rgrs + 1);
  req_in.set_accept([this](tlm::tlm_generic_payload& gp) { return accept_request(gp); });
  from_mem.set_accept([this](tlm::tlm_generic_payload& gp) { return accept_reply(gp); });
  req_in.set_b_transport([this](tlm::tlm_generic_payload& gp, sc_core::sc_time& t) { to_mem->b_transport(gp, t); });
  to_mem.on_accept([this] { clk_.wake_after_now(*this); });
  reply_out.on_accept([this] {
    mc_stall_cycles_ += clk_.now() - reply_offered_;
    clk_.wake_after_now(*this);
  });
  stats_.derived("coalescing_ratio", Unit::Ratio, "grouped_requests / reads: reply packets saved per read", [this] {
    return reads_.value() ? double(grouped_.value()) / double(reads_.value()) : 0.0;
  });
  stats_.derived("inter_core_locality_ratio", Unit::Ratio,
                 "reads served by a multicast reply / reads (001 §5.3 actual inter-core locality ratio)", [this] {
                   return reads_.value() ? double(grouped_.value() + multicast_.value()) / double(reads_.value()) : 0.0;
                 });
  stats_.derived("rgr_occupancy", Unit::Count, "valid RGRs, time average since cycle 0", [this] {
    const uint64_t now = clk_.now();
    return now ? (occ_area_ + double(valid_) * double(now - occ_since_)) / double(now) : 0.0;
  });
  stats_.invariant("reads == rgr_allocations + grouped_requests",
                   [this] { return reads_.value() == allocs_.value() + grouped_.value(); });
  stats_.invariant("once drained, replies == rgr_allocations + writes",
                   [this] { return !drained() || replies_sent_.value() == allocs_.value() + writes_.value(); });
}

unsigned PacketCoalescingUnit::reads_waiting() const {
  return (head_ + static_cast<unsigned>(ring_.size()) - tail_) % static_cast<unsigned>(ring_.size());
}

bool PacketCoalescingUnit::drained() const {
  return valid_ == 0 && wbuf_.empty() && replies_.empty() && !in_latch_.gp && !mem_latch_.gp && writes_at_mem_ == 0 &&
         rgr_->in_flight() == 0;
}

bool PacketCoalescingUnit::accept_request(tlm::tlm_generic_payload& gp) {
  const MemExt& e = mem_ext(gp, name());
  if (e.is_reply || (e.kind != MemKind::Read && e.kind != MemKind::Write && e.kind != MemKind::Atomic))
    error(name(), "req_in takes read, write and atomic requests; got a ", e.is_reply ? "reply" : "request", " of kind ",
          to_string(e.kind), " for address ", hex(gp.get_address()));
  if (in_latch_.gp) return false;
  if (e.kind == MemKind::Read ? free_rgrs_ == 0 : wbuf_.size() >= p_.write_buffer) {
    if (e.kind == MemKind::Read && !rgr_wait_) {
      rgr_wait_ = true;
      rgr_wait_from_ = clk_.now();
    }
    return false;
  }
  if (rgr_wait_) {
    rgr_full_cycles_ += clk_.now() - rgr_wait_from_;
    rgr_wait_ = false;
  }
  in_latch_ = {&gp, clk_.cycle_after(sc_core::sc_time_stamp())};
  clk_.wake_after_now(*this);
  return true;
}

bool PacketCoalescingUnit::accept_reply(tlm::tlm_generic_payload& gp) {
  const MemExt& e = mem_ext(gp, name());
  if (!e.is_reply || (e.kind != MemKind::Read && e.kind != MemKind::Write && e.kind != MemKind::Atomic))
    error(name(), "from_mem takes replies to reads, writes and atomics; got a ", e.is_reply ? "reply" : "request",
          " of kind ", to_string(e.kind), " for address ", hex(gp.get_address()));
  if (mem_latch_.gp || replies_.size() >= p_.reply_queue) return false;
  mem_latch_ = {&gp, clk_.cycle_after(sc_core::sc_time_stamp())};
  clk_.wake_after_now(*this);
  return true;
}

bool PacketCoalescingUnit::tick(uint64_t cycle) {
  send_reply(cycle);
  merge(cycle);
  stage2();
  stage1(cycle);
  req_in.retry();    // a freed RGR / write-buffer slot / latch may take a withheld request
  from_mem.retry();  // likewise a freed reply-queue slot
  tick_again_ = in_latch_.gp || mem_latch_.gp || (!replies_.empty() && !reply_out.busy()) || stage2_ready();
  if (rgr_->in_flight()) {  // the RTL answers after this tick: the edge, and its place, wait
    held_ = true;
    to_mem_busy_at_tick_ = to_mem.busy();
    clk_.hold(*this);
  }
  return tick_again_;
}

void PacketCoalescingUnit::send_reply(uint64_t cycle) {
  if (replies_.empty() || reply_out.busy()) return;
  tlm::tlm_generic_payload* gp = replies_.front();
  replies_.pop_front();
  ++replies_sent_;
  if (!gp->get_extension<MemExt>()->dests.empty()) ++multicast_;
  if (!reply_out.send(*gp)) reply_offered_ = cycle;  // the NI withholds END_REQ: MC stall
}

void PacketCoalescingUnit::merge(uint64_t cycle) {
  if (!mem_latch_.gp || mem_latch_.due > cycle) return;
  tlm::tlm_generic_payload& gp = *mem_latch_.gp;
  mem_latch_.gp = nullptr;
  MemExt& e = *gp.get_extension<MemExt>();
  replies_.push_back(&gp);  // its place in the reply queue; a read reply's destinations follow
  if (e.kind == MemKind::Read) {
    rgr_->release(gp, gp.get_address() / p_.line_bytes);
  } else {
    if (writes_at_mem_ == 0)
      error(name(), to_string(e.kind), " reply for address ", hex(gp.get_address()),
            " but no write or atomic is outstanding at the L2");
    --writes_at_mem_;
  }
}

void PacketCoalescingUnit::released(tlm::tlm_generic_payload& gp, const RequestGroupingRegisters::ReleaseResult& r) {
  if (!r.found)
    error(name(), "read reply for address ", hex(gp.get_address()), " matches no valid RGR; the L2 answered a read ",
          "this PCU did not send, or answered one twice");
  RgrData& d = data_[r.index];
  if (d.req)
    error(name(), "read reply for address ", hex(gp.get_address()), " arrived before RGR ", r.index,
          " sent its request to the L2");
  MemExt& e = *gp.get_extension<MemExt>();
  if (r.dests.single_member()) {
    e.dst = r.dests.first();
    e.dests.clear();
  } else {
    e.dests = r.dests;
  }
  e.grouped = std::move(d.grouped);  // each grouped requester's own timestamps
  d.grouped.clear();
  ++free_rgrs_;
  occupancy_changed(-1);
}

bool PacketCoalescingUnit::stage2_has_work() const {
  return replies_.size() < p_.reply_queue && (head_ != tail_ || !wbuf_.empty());
}

bool PacketCoalescingUnit::stage2_ready() const { return !to_mem.busy() && stage2_has_work(); }

void PacketCoalescingUnit::stage2() {
  if (!stage2_ready()) return;
  const bool take_write = !wbuf_.empty() && (head_ == tail_ || prefer_write_);
  tlm::tlm_generic_payload* gp;
  if (take_write) {
    gp = wbuf_.front();
    wbuf_.pop_front();
    ++writes_at_mem_;
  } else {
    RgrData& d = data_[ring_[tail_]];
    tail_ = (tail_ + 1) % static_cast<unsigned>(ring_.size());
    gp = d.req;
    d.req = nullptr;  // the RGR stays valid until its block returns
  }
  prefer_write_ = !take_write;
  to_mem.send(*gp);  // handed over even if the L2 withholds END_REQ
}

void PacketCoalescingUnit::stage1(uint64_t cycle) {
  if (!in_latch_.gp || in_latch_.due > cycle) return;
  tlm::tlm_generic_payload& gp = *in_latch_.gp;
  in_latch_.gp = nullptr;
  const MemExt& e = *gp.get_extension<MemExt>();
  if (e.kind != MemKind::Read) {
    ++writes_;
    wbuf_.push_back(&gp);
    return;
  }
  ++reads_;
  if (e.src >= p_.max_nodes)
    error(name(), "read from node ", e.src, " but the destination bits cover nodes 0..", p_.max_nodes - 1,
          "; raise max_nodes");
  --free_rgrs_;  // reserved while the RGRs look the block up (a hit gives it back)
  rgr_->request(gp, gp.get_address() / p_.line_bytes, e.src);
}

void PacketCoalescingUnit::requested(tlm::tlm_generic_payload& gp, const RequestGroupingRegisters::RequestResult& r) {
  const MemExt& e = *gp.get_extension<MemExt>();
  if (r.dup)
    error(name(), "SM node ", e.src, " sent a second read for address ", hex(gp.get_address()),
          " while its first is still grouped in RGR ", r.index, "; the L1's MSHRs should have merged it");
  if (r.hit) {
    data_[r.index].grouped.push_back({e.src, e.t_issue, e.t_req_inject, e.t_mem_accept});
    ++grouped_;
    ++free_rgrs_;
    gp.release();
    return;
  }
  if (r.full)
    error(name(), "no free RGR for the read of address ", hex(gp.get_address()),
          " although req_in took it only with one free: the RGRs and the PCU disagree on the free count");
  data_[r.index] = RgrData{&gp, {}};
  ring_[head_] = r.index;
  head_ = (head_ + 1) % static_cast<unsigned>(ring_.size());
  ++allocs_;
  occupancy_changed(+1);
}

void PacketCoalescingUnit::summarize(json& summary, const std::vector<const McStage*>& all) const {
  double grouped = 0, reads = 0, multicast = 0;
  for (const McStage* st : all) {
    const auto* pcu = dynamic_cast<const PacketCoalescingUnit*>(st);
    if (!pcu) error(name(), "summarize: a stage of another type is listed with the PCUs");
    grouped += static_cast<double>(pcu->grouped_.value());
    reads += static_cast<double>(pcu->reads_.value());
    multicast += static_cast<double>(pcu->multicast_.value());
  }
  summary["coalescing_ratio"] = reads > 0 ? grouped / reads : 0.0;
  summary["multicast_replies"] = multicast;
}

void PacketCoalescingUnit::occupancy_changed(int delta) {
  const uint64_t now = clk_.now();
  occ_area_ += double(valid_) * double(now - occ_since_);
  occ_since_ = now;
  valid_ = static_cast<unsigned>(static_cast<int>(valid_) + delta);
}

}  // namespace gpusc
