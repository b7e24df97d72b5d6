// ValidReadyToMsg<W>: a valid/ready stream of W-bit beats in (rtl/valid_ready_bundle.h), a gpusc
// message stream (MsgOut, common/msg_port.h) out: the sink side of an RTL model's output port.
// DESIGN §3 "Pin level", docs/rtl-cosim.md. Generic over W and over what a message carries:
// `unpack` turns a beat into the payload to send (a payload the owner keeps in flight, one from a
// pool, ...), filling whatever fields the beat carries.
//
// Timing (rtl/rtl_clock.h): a beat that a rising edge loads into the RTL's output register is
// sent at once (the settle step of that edge), so the receiver latches it at the next cycle, as
// if a gpusc unit had sent it in that cycle's tick; the RTL's out_valid and out_data must come
// from registers. ready is high while the adapter can send: a beat whose message was taken moves
// at the next edge. Back-pressure: a receiver that refuses the message (withholds END_REQ) gets
// ready low at once (so for the next edge), the RTL keeps its beat, and ready rises when the
// receiver takes it (in its tick of cycle c: cycle c's edge moves the beat). Each beat is sent
// exactly once.
#pragma once
#include <cstdint>
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
class ValidReadyToMsg : public sc_core::sc_module, private RtlClock::Endpoint {
 public:
  using Bits = sc_dt::sc_bv<W>;
  using Unpack = std::function<tlm::tlm_generic_payload&(const Bits&)>;

  MsgOut out{"out"};
  sc_core::sc_in<bool> valid{"valid"};
  sc_core::sc_in<Bits> data{"data"};
  sc_core::sc_out<bool> ready{"ready"};

  ValidReadyToMsg(sc_core::sc_module_name name, RtlClock& clk, Unpack unpack)
      : sc_core::sc_module(name), clk_(clk), unpack_(std::move(unpack)) {
    if (!unpack_) error(this->name(), "no unpack function: the adapter cannot turn a beat into a message");
    out.on_accept([this] {
      ready.write(true);
      clk_.kick();
    });
    clk_.attach(*this);
  }
  ValidReadyToMsg(const ValidReadyToMsg&) = delete;
  ValidReadyToMsg& operator=(const ValidReadyToMsg&) = delete;

  void bind(ValidReadyBundle<W>& b) {
    valid(b.valid);
    data(b.data);
    ready(b.ready);
  }
  uint64_t beats() const { return beats_; }      // beats moved so far
  uint64_t refused() const { return refused_; }  // messages the receiver did not take at once

 private:
  void init() override { ready.write(true); }
  void sample() override {
    if (valid.read() && ready.read()) {  // the edge moved the beat whose message was sent
      if (!sent_) error(name(), "a beat moved before it was sent (the RTL's output valid is not registered)");
      sent_ = false;
      ++beats_;
    }
  }
  void settle() override {
    if (!valid.read() || sent_) return;
    tlm::tlm_generic_payload& gp = unpack_(data.read());
    sent_ = true;
    if (!out.send(gp)) {
      ++refused_;
      ready.write(false);
    }
  }
  bool busy() const override { return valid.read() || out.busy(); }

  RtlClock& clk_;
  Unpack unpack_;
  bool sent_ = false;  // the beat on the pins was sent as a message
  uint64_t beats_ = 0, refused_ = 0;
};

}  // namespace gpusc
