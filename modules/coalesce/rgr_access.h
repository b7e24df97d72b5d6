// RgrAccess: how a PacketCoalescingUnit reaches its request grouping registers, the swap point
// between the C++ model and the RTL (PacketCoalescingUnit::Params::rgr_model). The PCU hands each
// operation over in its tick and gets the answer through the callbacks it set:
//   ModelRgrAccess  the C++ model (coalesce/request_grouping_registers.h), answered at once,
//                   inside the call;
//   RtlGroupingRegisters (coalesce/rtl_grouping_registers.h)  rtl/pcu_rgr.v through pin
//                   adapters, answered in the same cycle, in the delta cycles after the RTL's
//                   edge (rtl/rtl_clock.h); then on_answered runs once.
// Both give the same answers in the same cycle, so the PCU's results do not depend on which it
// has (checked cycle for cycle by testbenches/rtl/rtl_platform_tb.cpp).
#pragma once
#include <cstdint>
#include <functional>
#include <utility>

#include <tlm>

#include "coalesce/request_grouping_registers.h"

namespace gpusc {

class RgrAccess {
 public:
  using RequestDone = std::function<void(tlm::tlm_generic_payload&, const RequestGroupingRegisters::RequestResult&)>;
  using ReleaseDone = std::function<void(tlm::tlm_generic_payload&, const RequestGroupingRegisters::ReleaseResult&)>;
  virtual ~RgrAccess() = default;
  // A read at stage 1 (`read` is its payload) / a read reply at the merge unit.
  virtual void request(tlm::tlm_generic_payload& read, uint64_t block, unsigned src) = 0;
  virtual void release(tlm::tlm_generic_payload& reply, uint64_t block) = 0;
  // Operations handed over and not answered yet.
  virtual unsigned in_flight() const = 0;
  void on_request_done(RequestDone f) { request_done_ = std::move(f); }
  void on_release_done(ReleaseDone f) { release_done_ = std::move(f); }
  // Called after answers that arrive outside the owner's tick (never by ModelRgrAccess).
  void on_answered(std::function<void()> f) { answered_ = std::move(f); }

 protected:
  RequestDone request_done_;
  ReleaseDone release_done_;
  std::function<void()> answered_;
};

class ModelRgrAccess : public RgrAccess {
 public:
  ModelRgrAccess(unsigned entries, unsigned max_nodes) : model_(entries, max_nodes) {}
  void request(tlm::tlm_generic_payload& read, uint64_t block, unsigned src) override {
    request_done_(read, model_.request(block, src));
  }
  void release(tlm::tlm_generic_payload& reply, uint64_t block) override { release_done_(reply, model_.release(block)); }
  unsigned in_flight() const override { return 0; }
  const RequestGroupingRegisters& model() const { return model_; }

 private:
  RequestGroupingRegisters model_;
};

}  // namespace gpusc
