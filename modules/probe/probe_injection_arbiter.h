// ProbeInjectionArbiter: the Injection Arbitration of paper 000 §III-F: one message per cycle
// enters the request network from a core, chosen by strict priority among five classes
// (highest first): non-shared requests (L1 misses predicted non-shared, writes, atomics), selective
// L2 requests (timeout_handler.h), forwarded probes (the probe handler's Forwarded Incoming
// Probes: a probe going on to its next target or back to its requester as NACK / candidate
// list), processed NACKs, and the core's own outgoing probes.
// Choices the paper left open:
//   * "processed NACKs" is read as the probes a requester injects after processing a returning
//     NACK: the second-level probe over the scouts' candidates (two_level_probing.h);
//   * strict priority without aging: a lower class waits as long as a higher one is ready
//     (starvation is visible in waits(), cycles a ready class lost);
//   * writes and atomics share the non-shared class (they take the normal path, §II footnote 1).
// A plain class: the owner calls arbitrate() once per cycle in which the network interface can
// take a message, with the classes whose queue heads are ready.
#pragma once
#include <array>
#include <cstdint>

namespace gpusc {
class StatGroup;

namespace probe {

class ProbeInjectionArbiter {
 public:
  enum Class : unsigned { NonShared = 0, SelectiveL2 = 1, ForwardedProbe = 2, ProcessedNack = 3, OwnProbe = 4 };
  static constexpr unsigned kClasses = 5;
  static constexpr int kNone = -1;
  static constexpr uint8_t bit(Class c) { return static_cast<uint8_t>(1u << c); }
  static const char* name(Class c);

  // `ready`: bit c set when class c has a message ready. Returns the class granted, or kNone.
  int arbitrate(uint8_t ready);

  uint64_t grants(Class c) const { return grants_[c]; }
  uint64_t waits(Class c) const { return waits_[c]; }  // cycles class c was ready and lost
  // Registers grants and waits per class as derived stats of `g` ("inject_<class>_grants"/"_waits").
  void add_stats(StatGroup& g) const;

 private:
  std::array<uint64_t, kClasses> grants_{}, waits_{};
};

}  // namespace probe
}  // namespace gpusc
