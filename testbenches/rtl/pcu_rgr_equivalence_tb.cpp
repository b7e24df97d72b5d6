// rtl/pcu_rgr.v (verilated: N = 1024 RGRs, 41-bit blocks, 64 destination bits) against the C++
// model gpusc::RequestGroupingRegisters, at pin level, on 1e5 random operations: at every rising
// edge the four ready/valid outputs equal a model of the two registered response ports
// (command ready = response register empty or moving on; a response 1 cycle after its command),
// and every response (hit / dup / full / index, found / index / destination bits) equals the
// model's, with releases and requests on the same edge applied release first. Operations come
// from a small pool of blocks (hits, duplicates, a full register file with cfg_entries = 16) and
// some random 41-bit blocks; releases mostly of held blocks, some of blocks nobody holds;
// response readies low on a share of edges.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "Vpcu_rgr.h"
#include "coalesce/request_grouping_registers.h"

using namespace gpusc;

namespace {

constexpr unsigned kIdx = 10, kBlockBits = 41, kNodes = 64;
using ReqBits = sc_dt::sc_bv<6 + kBlockBits>;
using ReqrBits = sc_dt::sc_bv<kIdx + 3>;
using RelBits = sc_dt::sc_bv<kBlockBits>;
using RelrBits = sc_dt::sc_bv<kNodes + kIdx + 1>;

uint64_t bits_of(const sc_dt::sc_bv_base& b, unsigned lo, unsigned n) {
  uint64_t v = 0;
  for (unsigned i = 0; i < n; ++i) v |= uint64_t(b.get_bit(static_cast<int>(lo + i))) << i;
  return v;
}
void set_bits(sc_dt::sc_bv_base& b, unsigned lo, unsigned n, uint64_t v) {
  for (unsigned i = 0; i < n; ++i) b.set_bit(static_cast<int>(lo + i), ((v >> i) & 1) != 0);
}

class RgrBench : public sc_core::sc_module {
 public:
  struct Result {
    uint64_t ops = 0, edges = 0, mismatches = 0, hits = 0, dups = 0, fulls = 0, allocs = 0, found = 0, missing = 0,
             stalled = 0, same_edge = 0;
    std::string first;
  };
  sc_core::sc_clock clk{"clk", 2, sc_core::SC_NS};
  sc_core::sc_signal<bool> rst{"rst", true};
  sc_core::sc_signal<sc_dt::sc_bv<kIdx + 1>> cfg{"cfg"};
  sc_core::sc_signal<bool> req_valid{"req_valid"}, req_ready{"req_ready"}, reqr_valid{"reqr_valid"}, reqr_ready{"reqr_ready"};
  sc_core::sc_signal<bool> rel_valid{"rel_valid"}, rel_ready{"rel_ready"}, relr_valid{"relr_valid"}, relr_ready{"relr_ready"};
  sc_core::sc_signal<ReqBits> req_data{"req_data"};
  sc_core::sc_signal<ReqrBits> reqr_data{"reqr_data"};
  sc_core::sc_signal<RelBits> rel_data{"rel_data"};
  sc_core::sc_signal<RelrBits> relr_data{"relr_data"};
  Vpcu_rgr dut{"dut"};

  SC_HAS_PROCESS(RgrBench);
  RgrBench(sc_core::sc_module_name n, unsigned entries, uint64_t ops, uint64_t seed)
      : sc_core::sc_module(n), model_(entries, kNodes), total_(ops), rng_(seed) {
    cfg.write(sc_dt::sc_bv<kIdx + 1>(entries));
    dut.clk(clk), dut.rst(rst), dut.cfg_entries(cfg);
    dut.req_valid(req_valid), dut.req_ready(req_ready), dut.req_data(req_data);
    dut.reqr_valid(reqr_valid), dut.reqr_ready(reqr_ready), dut.reqr_data(reqr_data);
    dut.rel_valid(rel_valid), dut.rel_ready(rel_ready), dut.rel_data(rel_data);
    dut.relr_valid(relr_valid), dut.relr_ready(relr_ready), dut.relr_data(relr_data);
    for (unsigned i = 0; i < 48; ++i) pool_.push_back(0x1000 + 7 * i);
    SC_METHOD(edge);
    sensitive << clk.posedge_event();
    dont_initialize();
  }
  const Result& result() const { return r_; }

 private:
  void problem(const std::string& s) {
    ++r_.mismatches;
    if (r_.first.empty()) r_.first = s + " at edge " + std::to_string(r_.edges);
  }
  uint64_t pick_block() {
    return rng_() % 16 == 0 ? (rng_() & ((uint64_t(1) << kBlockBits) - 1)) : pool_[rng_() % pool_.size()];
  }
  void edge() {
    if (reset_ < 2) {
      if (++reset_ == 2) {
        rst.write(false);
        reqr_ready.write(true);
        relr_ready.write(true);
      }
      return;
    }
    ++r_.edges;
    // Handshake before this edge, against the model of the response registers.
    const bool qv = req_valid.read(), lv = rel_valid.read(), qrr = reqr_ready.read(), lrr = relr_ready.read();
    const bool m_req_ready = !m_reqr_valid_ || qrr, m_rel_ready = !m_relr_valid_ || lrr;
    if (req_ready.read() != m_req_ready || rel_ready.read() != m_rel_ready || reqr_valid.read() != m_reqr_valid_ ||
        relr_valid.read() != m_relr_valid_)
      problem("handshake differs from the model");
    if (m_reqr_valid_) {
      const ReqrBits b = reqr_data.read();
      RequestGroupingRegisters::RequestResult got;
      got.index = static_cast<unsigned>(bits_of(b, 0, kIdx));
      got.hit = b.get_bit(kIdx), got.dup = b.get_bit(kIdx + 1), got.full = b.get_bit(kIdx + 2);
      if (!(got == m_reqr_)) problem("request response differs (index " + std::to_string(got.index) + " vs " +
                                     std::to_string(m_reqr_.index) + ")");
      if (!qrr) ++r_.stalled;
    }
    if (m_relr_valid_) {
      const RelrBits b = relr_data.read();
      const bool found = b.get_bit(kIdx);
      const unsigned index = static_cast<unsigned>(bits_of(b, 0, kIdx));
      const uint64_t dests = bits_of(b, kIdx + 1, kNodes);
      uint64_t want = 0;
      for (unsigned n = 0; n < kNodes; ++n) want |= uint64_t(m_relr_.dests.contains(n)) << n;
      if (found != m_relr_.found || (found && (index != m_relr_.index || dests != want)))
        problem("release response differs");
      if (!lrr) ++r_.stalled;
    }
    // The edge: releases first, then requests.
    const bool lfire = lv && m_rel_ready, qfire = qv && m_req_ready;
    r_.same_edge += lfire && qfire;
    if (m_rel_ready) m_relr_valid_ = lv;
    if (lfire) {
      m_relr_ = model_.release(rel_block_);
      (m_relr_.found ? r_.found : r_.missing)++;
      ++r_.ops;
    }
    if (m_req_ready) m_reqr_valid_ = qv;
    if (qfire) {
      m_reqr_ = model_.request(req_block_, req_src_);
      if (m_reqr_.dup) ++r_.dups;
      else if (m_reqr_.hit) ++r_.hits;
      else if (m_reqr_.full) ++r_.fulls;
      else ++r_.allocs;
      ++r_.ops;
    }
    // Stimulus: new commands where the old ones moved (a raised valid stays).
    const bool more = r_.ops < total_;
    if (!qv || qfire) {
      const bool v = more && rng_() % 4 != 0;
      if (v) {
        req_block_ = pick_block();
        req_src_ = static_cast<unsigned>(rng_() % kNodes);
        ReqBits b;
        set_bits(b, 0, kBlockBits, req_block_);
        set_bits(b, kBlockBits, 6, req_src_);
        req_data.write(b);
      }
      req_valid.write(v);
    }
    if (!lv || lfire) {
      const bool v = more && rng_() % 3 == 0;
      if (v) {
        // Mostly a block some RGR holds, else any block.
        rel_block_ = pick_block();
        if (rng_() % 8 != 0 && model_.valid_count() > 0)
          for (unsigned tries = 0; tries < 64; ++tries) {
            const unsigned i = static_cast<unsigned>(rng_() % model_.entries());
            if (model_.valid(i)) {
              rel_block_ = model_.block(i);
              break;
            }
          }
        RelBits b;
        set_bits(b, 0, kBlockBits, rel_block_);
        rel_data.write(b);
      }
      rel_valid.write(v);
    }
    const bool bp = (r_.edges / 500) % 2 == 1;  // every other block of 500 edges: readies low 40%
    reqr_ready.write(!bp || rng_() % 5 >= 2);
    relr_ready.write(!bp || rng_() % 5 >= 2);
    if (!more && !qv && !lv && !m_reqr_valid_ && !m_relr_valid_) sc_core::sc_stop();
  }

  RequestGroupingRegisters model_;
  const uint64_t total_;
  std::mt19937_64 rng_;
  std::vector<uint64_t> pool_;
  unsigned reset_ = 0;
  uint64_t req_block_ = 0, rel_block_ = 0;
  unsigned req_src_ = 0;
  bool m_reqr_valid_ = false, m_relr_valid_ = false;
  RequestGroupingRegisters::RequestResult m_reqr_;
  RequestGroupingRegisters::ReleaseResult m_relr_;
  Result r_;
};

void run(unsigned entries, uint64_t ops, uint64_t seed) {
  RgrBench b("b", entries, ops, seed);
  sc_core::sc_start();
  const auto& r = b.result();
  INFO(r.first);
  INFO("hits " << r.hits << ", dups " << r.dups << ", full " << r.fulls << ", allocations " << r.allocs << ", found "
               << r.found << ", missing " << r.missing << ", stalled " << r.stalled << ", same edge " << r.same_edge);
  REQUIRE(r.ops >= ops);
  CHECK(r.mismatches == 0);
  // Every outcome happened, and so did back-pressure and a release with a request on one edge.
  CHECK(r.hits > ops / 20);
  CHECK(r.dups > 0);
  CHECK(r.allocs > ops / 20);
  CHECK(r.found > ops / 20);
  CHECK(r.missing > 0);
  CHECK(r.stalled > ops / 20);
  CHECK(r.same_edge > ops / 20);
  if (entries <= 48) CHECK(r.fulls > ops / 50);
}

}  // namespace

TEST_CASE("PCU RGR RTL: equals RequestGroupingRegisters on 1e5 operations, 16 RGRs in use (often full)", "[rtl][rgr]") {
  run(16, 100000, 7);
}

TEST_CASE("PCU RGR RTL: equals RequestGroupingRegisters on 1e5 operations, all 1024 RGRs in use", "[rtl][rgr]") {
  run(1024, 100000, 8);
}
