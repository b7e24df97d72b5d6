// EquivalenceBench: drives a Verilated valid/ready pipeline (one beat in, one beat out, in order)
// at pin level with its own clock and checks it, at every rising edge, against
//   * a cycle-accurate model of the handshake of an L-stage pipeline (a stage loads when it is
//     empty or its beat moves on; in_ready = the first stage loads): in_ready and out_valid must
//     equal the model's on every edge, which checks the declared latency cycle by cycle, with and
//     without back-pressure;
//   * the expected output beat of each input (from the C++ reference), compared when it moves.
// The stimulus raises in_valid with probability p_valid on each free cycle (a raised valid stays
// until its beat moves) and out_ready with probability p_ready, both changed per block of beats
// by `phase`; the first beats run with both at 1 (full throughput: latency exactly L).
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <systemc>

namespace gpusc::test {

template <class Dut, unsigned IW, unsigned OW>
class EquivalenceBench : public sc_core::sc_module {
 public:
  using In = sc_dt::sc_bv<IW>;
  using Out = sc_dt::sc_bv<OW>;
  // Input i (false: no more inputs); its expected output is the caller's to keep.
  std::function<bool(uint64_t i, In& bits)> next_input;
  // Compare input i's output; return an empty string when it matches, else what differs.
  std::function<std::string(uint64_t i, const Out& bits)> check_output;
  // (p_valid, p_ready) for the block of inputs starting at input i.
  std::function<std::pair<double, double>(uint64_t i)> phase;
  // Called once when every input is out (default: sc_stop()).
  std::function<void()> finished = [] { sc_core::sc_stop(); };

  struct Result {
    uint64_t inputs = 0, outputs = 0, edges = 0;
    uint64_t handshake_mismatches = 0, data_mismatches = 0;
    uint64_t stalled_edges = 0;         // edges with out_valid high and out_ready low
    uint64_t full_speed_beats = 0;      // beats that moved exactly L edges after they were taken
    std::vector<uint64_t> latency;      // edges from taken to moved, per input
    std::string first_problem;
  };

  sc_core::sc_clock clk{"clk", 2, sc_core::SC_NS};
  sc_core::sc_signal<bool> rst{"rst", true}, in_valid{"in_valid"}, in_ready{"in_ready"}, out_valid{"out_valid"},
      out_ready{"out_ready"};
  sc_core::sc_signal<In> in_data{"in_data"};
  sc_core::sc_signal<Out> out_data{"out_data"};
  Dut dut;

  SC_HAS_PROCESS(EquivalenceBench);
  EquivalenceBench(sc_core::sc_module_name name, unsigned latency, uint64_t seed)
      : sc_core::sc_module(name), dut("dut"), stages_(latency, false), ids_(latency, 0), rng_(seed) {
    dut.clk(clk), dut.rst(rst);
    dut.in_valid(in_valid), dut.in_ready(in_ready), dut.in_data(in_data);
    dut.out_valid(out_valid), dut.out_ready(out_ready), dut.out_data(out_data);
    SC_METHOD(edge);
    sensitive << clk.posedge_event();
    dont_initialize();
  }
  const Result& result() const { return r_; }

 private:
  void problem(const std::string& s) {
    if (r_.first_problem.empty())
      r_.first_problem = s + " (edge " + std::to_string(r_.edges) + ", " + sc_core::sc_time_stamp().to_string() + ")";
  }
  void edge() {
    if (reset_edges_ < 2) {  // two edges in reset, then inputs
      if (++reset_edges_ == 2) {
        rst.write(false);
        out_ready.write(true);
        present();
      }
      return;
    }
    ++r_.edges;
    const bool iv = in_valid.read(), orr = out_ready.read();
    // The model's handshake before this edge.
    const size_t n = stages_.size();
    std::vector<bool> moves(n);
    bool next = !stages_[n - 1] || orr;
    moves[n - 1] = next;
    for (size_t k = n - 1; k-- > 0;) moves[k] = next = !stages_[k] || next;
    if (in_ready.read() != moves[0] || out_valid.read() != stages_[n - 1]) {
      ++r_.handshake_mismatches;
      problem(std::string("handshake: in_ready ") + (in_ready.read() ? "1" : "0") + " (model " + (moves[0] ? "1" : "0") +
              "), out_valid " + (out_valid.read() ? "1" : "0") + " (model " + (stages_[n - 1] ? "1" : "0") + ")");
    }
    if (stages_[n - 1] && !orr) ++r_.stalled_edges;
    if (stages_[n - 1] && orr) {  // a beat moves out
      const uint64_t id = ids_[n - 1];
      const std::string d = check_output(id, out_data.read());
      if (!d.empty()) {
        ++r_.data_mismatches;
        problem("output of input " + std::to_string(id) + ": " + d);
      }
      r_.latency[id] = r_.edges - taken_at_[id % taken_at_.size()];
      if (r_.latency[id] == n) ++r_.full_speed_beats;
      ++r_.outputs;
    }
    const bool take = iv && moves[0];
    for (size_t k = n; k-- > 1;)
      if (moves[k]) stages_[k] = stages_[k - 1], ids_[k] = ids_[k - 1];
    if (moves[0]) {
      stages_[0] = take;
      ids_[0] = presented_;
    }
    if (take) {
      taken_at_[presented_ % taken_at_.size()] = r_.edges;
      ++presented_;
      has_next_ = false;
    }
    // Stimulus for the next edge.
    const auto [pv, pr] = phase(presented_);
    out_ready.write(uni_(rng_) < pr);
    if (!iv || take) {
      if (!has_next_ && !done_inputs_ && uni_(rng_) < pv) present();
      else if (!has_next_) in_valid.write(false);
    }
    bool busy = has_next_;
    for (bool s : stages_) busy = busy || s;
    if (done_inputs_ && !busy && !finished_) {
      finished_ = true;
      finished();
    }
  }
  void present() {
    In bits;
    if (!next_input(presented_, bits)) {
      done_inputs_ = true;
      in_valid.write(false);
      return;
    }
    r_.inputs = presented_ + 1;
    r_.latency.resize(presented_ + 1, 0);
    in_data.write(bits);
    in_valid.write(true);
    has_next_ = true;
  }

  std::vector<bool> stages_;
  std::vector<uint64_t> ids_;
  std::vector<uint64_t> taken_at_ = std::vector<uint64_t>(64, 0);
  uint64_t presented_ = 0;  // index of the input on the pins (or the next one)
  bool has_next_ = false, done_inputs_ = false, finished_ = false;
  unsigned reset_edges_ = 0;
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> uni_{0.0, 1.0};
  Result r_;
};

}  // namespace gpusc::test
