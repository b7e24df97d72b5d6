// MsgToValidReady<W>: a gpusc message stream (MsgIn, common/msg_port.h) in, a valid/ready stream
// of W-bit beats out (rtl/valid_ready_bundle.h): the source side of an RTL model's input port.
// DESIGN §3 "Pin level", docs/rtl-cosim.md. Generic over W and over what a message carries:
// `pack` writes a message's beat (any field of the payload, its data or an extension).
//
// Timing (rtl/rtl_clock.h): the adapter holds up to `depth` messages; the head's beat is on the
// pins from the moment it was handed over (in the domain's tick of cycle c: cycle c's edge sees
// it) and stays there, valid high, until an edge sees ready high: then the beat has moved,
// on_taken(payload) runs (the owner decides what becomes of the payload; the adapter does not
// release it), and the next message's beat is on the pins for the next edge, so one beat per
// cycle moves while ready stays high. Back-pressure: with `depth` messages held,
// in refuses (withholds END_REQ) and takes the refused message when a beat has moved.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <utility>

#include <systemc>
#include <tlm>

#include "common/msg_port.h"
#include "common/report.h"
#include "rtl/rtl_clock.h"
#include "rtl/valid_ready_bundle.h"

namespace gpusc {

template <unsigned W>
class MsgToValidReady : public sc_core::sc_module, private RtlClock::Endpoint {
 public:
  using Bits = sc_dt::sc_bv<W>;
  using Pack = std::function<void(const tlm::tlm_generic_payload&, Bits&)>;
  using Taken = std::function<void(tlm::tlm_generic_payload&)>;

  MsgIn in{"in"};
  sc_core::sc_out<bool> valid{"valid"};
  sc_core::sc_out<Bits> data{"data"};
  sc_core::sc_in<bool> ready{"ready"};

  MsgToValidReady(sc_core::sc_module_name name, RtlClock& clk, Pack pack, unsigned depth = 1)
      : sc_core::sc_module(name), clk_(clk), pack_(std::move(pack)), depth_(depth) {
    if (depth_ == 0) error(this->name(), "depth must be at least 1 message");
    if (!pack_) error(this->name(), "no pack function: the adapter cannot turn a message into a beat");
    in.set_accept([this](tlm::tlm_generic_payload& gp) { return accept(gp); });
    clk_.attach(*this);
  }
  MsgToValidReady(const MsgToValidReady&) = delete;
  MsgToValidReady& operator=(const MsgToValidReady&) = delete;

  void bind(ValidReadyBundle<W>& b) {
    valid(b.valid);
    data(b.data);
    ready(b.ready);
  }
  void on_taken(Taken f) { taken_ = std::move(f); }
  size_t held() const { return held_.size(); }
  uint64_t beats() const { return beats_; }  // beats moved so far

 private:
  bool accept(tlm::tlm_generic_payload& gp) {
    if (held_.size() >= depth_) return false;
    held_.push_back(&gp);
    clk_.kick();
    present();
    return true;
  }
  // The head's beat on the pins (valid low when there is none).
  void present() {
    if (held_.empty()) {
      valid.write(false);
      return;
    }
    if (on_pins_) return;
    pack_(*held_.front(), bits_);
    data.write(bits_);
    valid.write(true);
    on_pins_ = true;
  }
  void init() override { present(); }
  void sample() override {
    if (!on_pins_ || !valid.read() || !ready.read()) return;
    tlm::tlm_generic_payload* gp = held_.front();
    held_.pop_front();
    on_pins_ = false;
    ++beats_;
    if (taken_) taken_(*gp);
    present();
    in.retry();
  }
  void settle() override {}
  bool busy() const override { return !held_.empty(); }

  RtlClock& clk_;
  Pack pack_;
  Taken taken_;
  const unsigned depth_;
  std::deque<tlm::tlm_generic_payload*> held_;
  bool on_pins_ = false;  // the head's beat is on the pins (valid high)
  Bits bits_;
  uint64_t beats_ = 0;
};

}  // namespace gpusc
