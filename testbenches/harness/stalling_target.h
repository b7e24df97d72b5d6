// StallingTarget: a testbench sink behind a MsgIn that randomly refuses messages (withholds
// END_REQ) for a random number of cycles, then takes the held one (MsgIn::retry). It keeps no
// queue: a message is taken or held, so every refusal is back-pressure on the unit under test.
// Records each message taken (cycle, MemExt copy, length) and releases the payload at the next edge.
// Deterministic for a given seed. Header-only: it needs nothing but common/.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "common/clock_domain.h"
#include "common/mem_ext.h"
#include "common/msg_port.h"

namespace gpusc::tb {

class StallingTarget : public sc_core::sc_module, private Tickable {
 public:
  struct Taken {
    uint64_t cycle;
    unsigned length;
    MemExt ext;
  };
  MsgIn in{"in"};

  // refuse_percent: chance that a message finds the target stalled; stalls last 1..max_stall cycles.
  StallingTarget(sc_core::sc_module_name name, ClockDomain& clk, unsigned refuse_percent, unsigned max_stall,
                 uint64_t seed)
      : sc_core::sc_module(name), clk_(clk), refuse_(refuse_percent), max_stall_(max_stall), rng_(seed) {
    in.set_accept([this](tlm::tlm_generic_payload& gp) {
      const uint64_t now = clk_.now();
      if (now < stalled_until_) {
        clk_.wake(*this, stalled_until_);
        return false;
      }
      if (!retrying_ && rng_() % 100 < refuse_) {
        stalled_until_ = now + 1 + rng_() % max_stall_;
        ++refusals_;
        clk_.wake(*this, stalled_until_);
        return false;
      }
      taken_.push_back({now, gp.get_data_length(), *gp.get_extension<MemExt>()});
      release_.push_back(&gp);  // released at the next edge: MsgIn still touches it after accept
      clk_.wake_after_now(*this);
      return true;
    });
  }
  const std::vector<Taken>& taken() const { return taken_; }
  uint64_t refusals() const { return refusals_; }

 private:
  bool tick(uint64_t cycle) override {
    for (auto* gp : release_) gp->release();
    release_.clear();
    if (!in.has_pending()) return false;
    if (cycle < stalled_until_) {  // woken early (to release): sleep again until the stall ends
      clk_.wake(*this, stalled_until_);
      return false;
    }
    retrying_ = true;
    in.retry();
    retrying_ = false;
    return false;
  }
  ClockDomain& clk_;
  const unsigned refuse_, max_stall_;
  std::mt19937_64 rng_;
  uint64_t stalled_until_ = 0, refusals_ = 0;
  bool retrying_ = false;
  std::vector<Taken> taken_;
  std::vector<tlm::tlm_generic_payload*> release_;
};

}  // namespace gpusc::tb
