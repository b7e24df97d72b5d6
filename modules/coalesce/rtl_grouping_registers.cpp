#include "coalesce/rtl_grouping_registers.h"

#include "common/report.h"

#if GPUSC_HAVE_RTL
#include <cstdio>
#include <deque>
#include <string>

#include "Vpcu_rgr.h"
#include "common/msg_port.h"
#include "rtl/msg_to_valid_ready.h"
#include "rtl/rtl_clock.h"
#include "rtl/valid_ready_to_msg.h"

namespace gpusc {

namespace {

using Limits = RtlGroupingRegistersLimits;
constexpr unsigned kIdx = 10;                         // index bits of the N = 1024 netlist
constexpr unsigned kReqW = 6 + Limits::kBlockBits;    // {src, block}
constexpr unsigned kReqrW = kIdx + 3;                 // {full, dup, hit, index}
constexpr unsigned kRelW = Limits::kBlockBits;        // block
constexpr unsigned kRelrW = Limits::kNodes + kIdx + 1;  // {dests, found, index}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

uint64_t field(const sc_dt::sc_bv_base& b, unsigned lo, unsigned width) {
  uint64_t v = 0;
  for (unsigned i = 0; i < width; ++i) v |= uint64_t(b.get_bit(static_cast<int>(lo + i))) << i;
  return v;
}

class RtlGroupingRegisters : public sc_core::sc_module, public RgrAccess {
 public:
  RtlGroupingRegisters(sc_core::sc_module_name name, ClockDomain& clk, unsigned entries)
      : sc_core::sc_module(name),
        clock_("clock", clk),
        req_("req"), reqr_("reqr"), rel_("rel"), relr_("relr"),
        cfg_("cfg_entries", sc_dt::sc_bv<kIdx + 1>(entries)),
        req_in_("req_in", clock_, [this](const tlm::tlm_generic_payload& gp, sc_dt::sc_bv<kReqW>& b) { pack_req(gp, b); }),
        rel_in_("rel_in", clock_, [this](const tlm::tlm_generic_payload& gp, sc_dt::sc_bv<kRelW>& b) { pack_rel(gp, b); }),
        relr_out_("relr_out", clock_, [this](const sc_dt::sc_bv<kRelrW>& b) -> tlm::tlm_generic_payload& { return unpack_relr(b); }),
        reqr_out_("reqr_out", clock_, [this](const sc_dt::sc_bv<kReqrW>& b) -> tlm::tlm_generic_payload& { return unpack_reqr(b); }),
        rgr_("pcu_rgr") {
    rgr_.clk(clock_.clk);
    rgr_.rst(clock_.rst);
    rgr_.cfg_entries(cfg_);
    rgr_.req_valid(req_.valid), rgr_.req_ready(req_.ready), rgr_.req_data(req_.data);
    rgr_.reqr_valid(reqr_.valid), rgr_.reqr_ready(reqr_.ready), rgr_.reqr_data(reqr_.data);
    rgr_.rel_valid(rel_.valid), rgr_.rel_ready(rel_.ready), rgr_.rel_data(rel_.data);
    rgr_.relr_valid(relr_.valid), rgr_.relr_ready(relr_.ready), rgr_.relr_data(relr_.data);
    req_in_.bind(req_);
    rel_in_.bind(rel_);
    reqr_out_.bind(reqr_);
    relr_out_.bind(relr_);
    to_req_.bind(req_in_.in);
    to_rel_.bind(rel_in_.in);
    reqr_out_.out.bind(from_reqr_);
    relr_out_.out.bind(from_relr_);
    req_in_.on_taken([this](tlm::tlm_generic_payload&) { req_wait_.push_back(req_q_.front()), req_q_.pop_front(); });
    rel_in_.on_taken([this](tlm::tlm_generic_payload&) { rel_wait_.push_back(rel_q_.front()), rel_q_.pop_front(); });
    from_reqr_.set_accept([this](tlm::tlm_generic_payload& gp) { return answer_request(gp); });
    from_relr_.set_accept([this](tlm::tlm_generic_payload& gp) { return answer_release(gp); });
    clock_.add_activity([this] { return in_flight() > 0; });
  }

  void request(tlm::tlm_generic_payload& read, uint64_t block, unsigned src) override {
    check_block(block, read);
    req_q_.push_back({&read, block, src, {}, {}});
    if (!to_req_.send(read))
      error(name(), "the RTL's request port was not ready for the read of address ", hex(read.get_address()),
            ": the PCU hands over one read per cycle and pcu_rgr takes one per cycle");
  }
  void release(tlm::tlm_generic_payload& reply, uint64_t block) override {
    check_block(block, reply);
    rel_q_.push_back({&reply, block, 0, {}, {}});
    if (!to_rel_.send(reply))
      error(name(), "the RTL's release port was not ready for the reply of address ", hex(reply.get_address()),
            ": the PCU merges one reply per cycle and pcu_rgr takes one per cycle");
  }
  unsigned in_flight() const override {
    return static_cast<unsigned>(req_q_.size() + req_wait_.size() + rel_q_.size() + rel_wait_.size());
  }

 private:
  struct Op {
    tlm::tlm_generic_payload* gp;
    uint64_t block;
    unsigned src;
    RequestGroupingRegisters::RequestResult req;
    RequestGroupingRegisters::ReleaseResult rel;
  };

  void check_block(uint64_t block, const tlm::tlm_generic_payload& gp) const {
    if (block >> Limits::kBlockBits)
      error(name(), "block ", hex(block), " (address ", hex(gp.get_address()), ") does not fit the RGR's ", Limits::kBlockBits, "-bit block field (paper 001 §3.2); use rgr_model = cpp");
  }
  void pack_req(const tlm::tlm_generic_payload& gp, sc_dt::sc_bv<kReqW>& b) {
    const Op& op = req_q_.front();
    if (op.gp != &gp) error(name(), "request port: the payload on the pins is not the oldest request");
    for (unsigned i = 0; i < Limits::kBlockBits; ++i) b.set_bit(static_cast<int>(i), ((op.block >> i) & 1) != 0);
    for (unsigned i = 0; i < 6; ++i) b.set_bit(static_cast<int>(Limits::kBlockBits + i), ((op.src >> i) & 1) != 0);
  }
  void pack_rel(const tlm::tlm_generic_payload& gp, sc_dt::sc_bv<kRelW>& b) {
    const Op& op = rel_q_.front();
    if (op.gp != &gp) error(name(), "release port: the payload on the pins is not the oldest release");
    for (unsigned i = 0; i < Limits::kBlockBits; ++i) b.set_bit(static_cast<int>(i), ((op.block >> i) & 1) != 0);
  }
  tlm::tlm_generic_payload& unpack_reqr(const sc_dt::sc_bv<kReqrW>& b) {
    if (req_wait_.empty()) error(name(), "pcu_rgr answered a request it was not given");
    Op& op = req_wait_.front();
    op.req.index = static_cast<unsigned>(field(b, 0, kIdx));
    op.req.hit = b.get_bit(kIdx);
    op.req.dup = b.get_bit(kIdx + 1);
    op.req.full = b.get_bit(kIdx + 2);
    return *op.gp;
  }
  tlm::tlm_generic_payload& unpack_relr(const sc_dt::sc_bv<kRelrW>& b) {
    if (rel_wait_.empty()) error(name(), "pcu_rgr answered a release it was not given");
    Op& op = rel_wait_.front();
    op.rel.index = static_cast<unsigned>(field(b, 0, kIdx));
    op.rel.found = b.get_bit(kIdx);
    op.rel.dests.clear();
    const uint64_t d = field(b, kIdx + 1, Limits::kNodes);
    for (unsigned n = 0; n < Limits::kNodes; ++n)
      if ((d >> n) & 1) op.rel.dests.add(n);
    return *op.gp;
  }
  bool answer_request(tlm::tlm_generic_payload& gp) {
    const Op op = req_wait_.front();
    req_wait_.pop_front();
    if (op.gp != &gp) error(name(), "request answers out of order");
    request_done_(gp, op.req);
    if (answered_) answered_();
    return true;
  }
  bool answer_release(tlm::tlm_generic_payload& gp) {
    const Op op = rel_wait_.front();
    rel_wait_.pop_front();
    if (op.gp != &gp) error(name(), "release answers out of order");
    release_done_(gp, op.rel);
    if (answered_) answered_();
    return true;
  }

  RtlClock clock_;
  ValidReadyBundle<kReqW> req_;
  ValidReadyBundle<kReqrW> reqr_;
  ValidReadyBundle<kRelW> rel_;
  ValidReadyBundle<kRelrW> relr_;
  sc_core::sc_signal<sc_dt::sc_bv<kIdx + 1>> cfg_;
  MsgToValidReady<kReqW> req_in_;
  MsgToValidReady<kRelW> rel_in_;
  // Release answers first: the clock settles its adapters in the order they were made, and the
  // PCU's merge unit (a release) works before its stage 1 (a request) in a cycle.
  ValidReadyToMsg<kRelrW> relr_out_;
  ValidReadyToMsg<kReqrW> reqr_out_;
  Vpcu_rgr rgr_;
  MsgOut to_req_{"to_req"}, to_rel_{"to_rel"};
  MsgIn from_reqr_{"from_reqr"}, from_relr_{"from_relr"};
  std::deque<Op> req_q_, req_wait_, rel_q_, rel_wait_;  // handed over / taken by the RTL
};

}  // namespace

std::unique_ptr<RgrAccess> make_rtl_grouping_registers(const char* name, ClockDomain& clk, unsigned entries,
                                                       unsigned max_nodes) {
  if (entries == 0 || entries > RtlGroupingRegistersLimits::kMaxEntries)
    error(name, "rgr_model = rtl: ", entries, " RGRs, but rtl/pcu_rgr.v is built with ",
          RtlGroupingRegistersLimits::kMaxEntries, "; use 1..", RtlGroupingRegistersLimits::kMaxEntries);
  if (max_nodes > RtlGroupingRegistersLimits::kNodes)
    error(name, "rgr_model = rtl: max_nodes = ", max_nodes, ", but rtl/pcu_rgr.v has ", RtlGroupingRegistersLimits::kNodes,
          " destination bits (paper 001 §3.2); use max_nodes <= ", RtlGroupingRegistersLimits::kNodes, " or rgr_model = cpp");
  return std::make_unique<RtlGroupingRegisters>(name, clk, entries);
}

}  // namespace gpusc

#else  // a build without Verilator

namespace gpusc {

std::unique_ptr<RgrAccess> make_rtl_grouping_registers(const char* name, ClockDomain&, unsigned, unsigned) {
  error(name, "rgr_model = rtl, but this gpusc was built without Verilator, so it has no RTL units; install "
              "verilator (scripts/setup) and reconfigure, or use rgr_model = cpp");
}

}  // namespace gpusc

#endif
