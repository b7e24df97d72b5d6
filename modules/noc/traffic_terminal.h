// TrafficTerminal: a synthetic-traffic endpoint for one network node (the standard NoC
// methodology of BookSim-style simulators): it creates packets with Bernoulli injection at a
// given rate into an unbounded source queue, offers them to its NI (latency counts from
// creation, so source queueing is included), and sinks the packets that arrive for it,
// recording latency for packets created inside the measurement window.
// Patterns: uniform (destination may be the source itself), transpose ((x,y) -> (y,x), square
// mesh), bitcomplement ((x,y) -> (k-1-x, m-1-y)), hotspot (fraction of packets to the hotspot
// nodes, the rest uniform), neighbor ((x+1 mod k, y)).
// Open choice: arrivals are drawn as geometric gaps (equivalent to a Bernoulli trial per
// cycle) so a terminal sleeps between packets and idle nodes cost nothing.
// Every packet carries a per-flow sequence number (MemExt::pc) so sinks can check for loss,
// duplication and reordering.
#pragma once
#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include <systemc>

#include "common/clock_domain.h"
#include "common/msg_port.h"
#include "common/params.h"
#include "common/payload_pool.h"
#include "common/stats.h"

namespace gpusc::noc {

class TrafficTerminal : public sc_core::sc_module, private Tickable {
 public:
  struct Params {
    std::string traffic = "uniform";
    double rate = 0.1;             // offered load [flits / node / cycle]
    unsigned packet_flits = 1;
    unsigned flit_bytes = 16;      // to size payloads so the NI makes packet_flits flits
    unsigned header_bytes = 0;
    uint64_t warmup = 1000;        // cycles before measurement
    uint64_t cycles = 10000;       // measurement window; generation stops after it
    std::vector<unsigned> hotspots = {0};
    double hotspot_fraction = 0.2;
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_C(traffic, "uniform|transpose|bitcomplement|hotspot|neighbor", "destination pattern");
      GPUSC_PARAM_R(rate, 0, 1, "offered load [flits / node / cycle]");
      GPUSC_PARAM_R(packet_flits, 1, 1024, "packet length [flits]");
      GPUSC_PARAM_R(flit_bytes, 1, 1024, "flit width used to size payloads [bytes]");
      GPUSC_PARAM_R(header_bytes, 0, 1024, "NI header bytes (must match the NI) [bytes]");
      GPUSC_PARAM_R(warmup, 0, 1e12, "warm-up before measurement [cycles]");
      GPUSC_PARAM_R(cycles, 1, 1e12, "measurement window [cycles]");
      GPUSC_PARAM(hotspots, "hotspot destination nodes");
      GPUSC_PARAM_R(hotspot_fraction, 0, 1, "fraction of packets sent to a hotspot node");
    }
  };

  MsgOut out{"out"};  // to the NI's in[vnet]
  MsgIn in{"in"};     // from the NI's out[vnet]

  // lane: the ClockDomain lane it ticks in, that of its node's NI (noc::Network::lane_of).
  TrafficTerminal(sc_core::sc_module_name name, const Params& p, unsigned node, unsigned k, unsigned m,
                  uint64_t seed, ClockDomain& clk, PayloadPool& pool, unsigned lane = 0);

  // Measured packets (created inside the window) and their latencies.
  uint64_t created() const { return created_; }            // all packets created
  uint64_t created_measured() const { return created_win_; }
  uint64_t received() const { return received_; }
  uint64_t received_measured() const { return lat_.samples(); }
  uint64_t flits_received_in_window() const { return flits_win_; }
  uint64_t backlog() const { return queue_.size(); }
  const Histogram& latency() const { return lat_; }
  const Average& network_latency() const { return net_lat_; }
  uint64_t out_of_order() const { return out_of_order_; }
  // Per source: packets received and sum of their sequence numbers (loss/duplicate check).
  uint64_t received_from(unsigned src) const { return from_count_[src]; }
  uint64_t seq_sum_from(unsigned src) const { return from_seq_sum_[src]; }
  uint64_t sent_to(unsigned dst) const { return seq_[dst]; }

 private:
  struct Pending {
    uint64_t created;
    unsigned dst;
  };
  bool tick(uint64_t cycle) override;
  bool receive(tlm::tlm_generic_payload& gp);
  unsigned pick_destination();
  uint64_t gap();
  bool measured(uint64_t created) const { return created >= p_.warmup && created < p_.warmup + p_.cycles; }

  enum class Pattern { Uniform, Transpose, BitComplement, Neighbor, Hotspot };
  static Pattern pattern_of(const std::string& traffic);

  const Params p_;
  const Pattern pattern_;  // p_.traffic, resolved once (not a string compare per packet)
  const unsigned node_, k_, m_, nodes_;
  ClockDomain& clk_;
  PayloadPool& pool_;
  std::mt19937_64 rng_;
  double p_packet_;
  uint64_t next_arrival_ = UINT64_MAX;
  std::deque<Pending> queue_;
  std::vector<uint64_t> seq_;            // next sequence number per destination
  std::vector<uint64_t> last_from_;      // last sequence number seen per source (+1)
  std::vector<uint64_t> from_count_, from_seq_sum_;
  uint64_t created_ = 0, created_win_ = 0, received_ = 0, flits_win_ = 0, out_of_order_ = 0;
  StatGroup stats_;
  Histogram& lat_;
  Average& net_lat_;
};

}  // namespace gpusc::noc
