#include "multigpu/decision_engine.h"

#include <cmath>

#include "common/report.h"

namespace gpusc::multigpu {

const char* to_string(DecisionEngine::Mode m) {
  switch (m) {
    case DecisionEngine::Mode::Undecided: return "undecided";
    case DecisionEngine::Mode::LocalDominated: return "local-dominated";
    case DecisionEngine::Mode::Coalescing: return "coalescing";
    case DecisionEngine::Mode::Caching: return "caching";
  }
  return "?";
}

namespace {
// window_remote / remote_thresh rounded up; a quotient within 1e-9 of an integer is that integer
// (20000 / 0.02 is 1e6, whatever the binary rounding of 0.02).
uint64_t access_bound(const DecisionEngine::Params& p) {
  const double x = static_cast<double>(p.window_remote) / p.remote_thresh;
  const double r = std::round(x);
  return static_cast<uint64_t>(std::abs(x - r) <= 1e-9 * x ? r : std::ceil(x));
}
}  // namespace

DecisionEngine::DecisionEngine(sc_core::sc_module_name name, const Params& p)
    : sc_core::sc_module(name),
      p_(p),
      window_accesses_(access_bound(p)) {
  validate(p_, this->name());
  stats_.derived("mode", Unit::None, "0 undecided, 1 local-dominated, 2 coalescing, 3 caching",
                 [this] { return static_cast<double>(mode_); });
  stats_.derived("remote_ratio", Unit::Ratio, "remote / all L1 accesses in the window", [this] { return w_.remote_ratio(); });
  stats_.derived("remote_hit_rate", Unit::Ratio, "remote read hits / remote reads in the window",
                 [this] { return w_.hit_rate(); });
  stats_.derived("block_use", Unit::Ratio, "words read per remote line residency / words per line",
                 [this] { return w_.block_use(p_.words_per_line); });
  stats_.derived("window_accesses", Unit::Count, "L1 accesses in the window", [this] { return double(w_.accesses); });
}

DecisionEngine::Mode DecisionEngine::classify(double remote_ratio, double block_use, double hit_rate, const Params& p) {
  if (remote_ratio < p.remote_thresh) return Mode::LocalDominated;
  if (block_use < p.block_thresh && hit_rate < p.hit_thresh) return Mode::Coalescing;
  return Mode::Caching;
}

void DecisionEngine::observe(const Access& a) {
  if (mode_ != Mode::Undecided) return;
  if (seen_++ < p_.warmup_accesses) return;
  if (p_.words_per_line < 64 && (a.word_mask >> p_.words_per_line) != 0)
    error(name(), "word mask 0x", std::hex, a.word_mask, std::dec, " has bits past words_per_line = ", p_.words_per_line);
  ++w_.accesses;
  if (a.remote) {
    ++w_.remote;
    if (a.read) {
      ++w_.remote_reads;
      w_.remote_read_hits += a.hit;
      open_[Key{a.cache, a.line}] |= a.word_mask;
    }
  }
  if (w_.remote >= p_.window_remote || w_.accesses >= window_accesses_) decide();
}

void DecisionEngine::close_residency(uint64_t mask) {
  ++w_.residencies;
  w_.words_used += static_cast<uint64_t>(__builtin_popcountll(mask));
}

void DecisionEngine::observe_eviction(unsigned cache, uint64_t line) {
  if (mode_ != Mode::Undecided) return;
  const auto it = open_.find(Key{cache, line});
  if (it == open_.end()) return;
  close_residency(it->second);
  open_.erase(it);
}

void DecisionEngine::decide() {
  for (const auto& [k, mask] : open_) close_residency(mask);
  open_.clear();
  // Without remote reads block use and hit rate are 0 / 0: neither mode would act (remote writes
  // and atomics stay conventional), so the run is left as it is.
  mode_ = w_.remote_reads == 0 ? Mode::LocalDominated
                               : classify(w_.remote_ratio(), w_.block_use(p_.words_per_line), w_.hit_rate(), p_);
  for (auto& f : listeners_) f(mode_);
}

}  // namespace gpusc::multigpu
