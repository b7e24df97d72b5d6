#include "probe/probe_injection_arbiter.h"

#include <string>

#include "common/report.h"
#include "common/stats.h"

namespace gpusc::probe {

const char* ProbeInjectionArbiter::name(Class c) {
  static const char* const names[kClasses] = {"non_shared", "selective_l2", "forwarded_probe", "processed_nack",
                                              "own_probe"};
  return c < kClasses ? names[c] : "?";
}

int ProbeInjectionArbiter::arbitrate(uint8_t ready) {
  if (ready >> kClasses)
    error("gpusc.probe.inject", "ready mask 0x", std::hex, unsigned(ready), " names a class >= ", std::dec, kClasses);
  if (!ready) return kNone;
  const unsigned win = static_cast<unsigned>(__builtin_ctz(ready));  // class 0 = highest priority
  ++grants_[win];
  for (unsigned c = win + 1; c < kClasses; ++c) waits_[c] += ready >> c & 1;
  return static_cast<int>(win);
}

void ProbeInjectionArbiter::add_stats(StatGroup& g) const {
  for (unsigned c = 0; c < kClasses; ++c) {
    const std::string n = std::string("inject_") + name(static_cast<Class>(c));
    g.derived(n + "_grants", Unit::Count, std::string("request-network injections of class ") + name(static_cast<Class>(c)),
              [this, c] { return double(grants_[c]); });
    g.derived(n + "_waits", Unit::Count, std::string("cycles class ") + name(static_cast<Class>(c)) + " was ready and lost",
              [this, c] { return double(waits_[c]); });
  }
}

}  // namespace gpusc::probe
