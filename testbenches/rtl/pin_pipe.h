// PinPipe<W>: a pin-level model written in SystemC, the stand-in for a Verilated module in the
// adapter tests (no Verilator needed): an L-stage pipeline of W-bit beats with valid/ready on
// both sides, as rtl/dpc_compressor.v is built. A stage loads when it is empty or its beat moves
// on; the last stage is the output register (out_valid, out_data are registers); in_ready is
// combinational (the first stage is empty or moves), and when `gate` is set it is also low on
// every cycle whose gate bit is 0 (back-pressure from inside the "RTL"). The data is transformed
// (the low 32 bits + 1), so a test sees the beat went through.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include <systemc>

namespace gpusc::test {

template <unsigned W>
class PinPipe : public sc_core::sc_module {
 public:
  using Bits = sc_dt::sc_bv<W>;
  sc_core::sc_in<bool> clk{"clk"}, rst{"rst"};
  sc_core::sc_in<bool> in_valid{"in_valid"};
  sc_core::sc_out<bool> in_ready{"in_ready"};
  sc_core::sc_in<Bits> in_data{"in_data"};
  sc_core::sc_out<bool> out_valid{"out_valid"};
  sc_core::sc_in<bool> out_ready{"out_ready"};
  sc_core::sc_out<Bits> out_data{"out_data"};

  SC_HAS_PROCESS(PinPipe);
  PinPipe(sc_core::sc_module_name name, unsigned stages, std::function<bool(uint64_t edge)> gate = {})
      : sc_core::sc_module(name), valid_(stages, false), data_(stages), gate_(std::move(gate)) {
    SC_METHOD(on_edge);
    sensitive << clk.pos();
    dont_initialize();
    SC_METHOD(comb);
    sensitive << out_ready << changed_;
  }
  uint64_t edges() const { return edges_; }

 private:
  // Stage k moves on (loads from k - 1) this edge.
  std::vector<bool> moves() const {
    const size_t n = valid_.size();
    std::vector<bool> m(n);
    bool next_moves = !valid_[n - 1] || out_ready.read();
    m[n - 1] = next_moves;
    for (size_t k = n - 1; k-- > 0;) {
      next_moves = !valid_[k] || next_moves;
      m[k] = next_moves;
    }
    return m;
  }
  bool open() const { return !gate_ || gate_(edges_); }
  void comb() { in_ready.write(moves()[0] && open()); }
  void on_edge() {
    if (rst.read()) {
      std::fill(valid_.begin(), valid_.end(), false);
    } else {
      const std::vector<bool> m = moves();
      const bool take = in_valid.read() && m[0] && open();
      for (size_t k = valid_.size(); k-- > 1;)
        if (m[k]) valid_[k] = valid_[k - 1], data_[k] = data_[k - 1];
      if (m[0]) {
        valid_[0] = take;
        if (take) {
          Bits d = in_data.read();
          uint32_t low = d.get_word(0) + 1;
          if (W < 32) low &= (1u << (W % 32)) - 1;
          d.set_word(0, low);
          data_[0] = d;
        }
      }
    }
    ++edges_;
    out_valid.write(valid_.back());
    out_data.write(data_.back());
    changed_.notify(sc_core::SC_ZERO_TIME);
  }

  std::vector<bool> valid_;
  std::vector<Bits> data_;
  std::function<bool(uint64_t)> gate_;
  sc_core::sc_event changed_;
  uint64_t edges_ = 0;
};

}  // namespace gpusc::test
