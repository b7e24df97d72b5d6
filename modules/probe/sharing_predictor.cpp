#include "probe/sharing_predictor.h"

#include "common/report.h"
#include "common/stats.h"

namespace gpusc::probe {

SharingPredictor::SharingPredictor(const Params& p) : p_(p) {
  validate(p_, "predictor");
  if (p_.window_base % 8 != 0)
    error("gpusc.probe.predictor", "parameter 'predictor.window_base' = ", p_.window_base,
          " must be a multiple of 8 so that S_i = W_i / 4^i is a whole number for i = 0..3");
  for (unsigned i = 0; i < 4; ++i) {
    const unsigned w = p_.window_base << i;
    const unsigned s = w >> (2 * i);
    windows_[i] = {w, s, (s + p_.threshold_div - 1) / p_.threshold_div};
  }
  table_.resize(p_.entries);
}

SharingPredictor::Window SharingPredictor::window(unsigned state) const {
  if (state > 3) error("gpusc.probe.predictor", "state ", state, " out of range: the predictor has states 0..3");
  return windows_[state];
}

int SharingPredictor::find(uint64_t pc) const {
  for (size_t i = 0; i < table_.size(); ++i)
    if (table_[i].valid && table_[i].pc == pc) return static_cast<int>(i);
  return -1;
}

SharingPredictor::Entry& SharingPredictor::lookup(uint64_t pc) {
  const int i = find(pc);
  if (i >= 0) return table_[static_cast<size_t>(i)];
  Entry* victim = &table_[0];
  for (auto& e : table_) {
    if (!e.valid) { victim = &e; break; }
    if (e.lru < victim->lru) victim = &e;
  }
  if (victim->valid) ++evictions_;
  *victim = Entry{};
  victim->valid = true;
  victim->pc = pc;
  return *victim;
}

bool SharingPredictor::decide(uint64_t pc) {
  Entry& e = lookup(pc);
  e.lru = ++stamp_;
  const Window& w = windows_[e.state];
  const bool probe = e.misses < w.s;
  ++decisions_;
  if (probe) ++probed_;
  if (++e.misses == w.w) {  // window end: compare R with T
    const uint8_t next = e.replies >= w.t ? (e.state == 0 ? 0 : e.state - 1) : (e.state == 3 ? 3 : e.state + 1);
    if (next != e.state) ++transitions_;
    e.state = next;
    e.misses = 0;
    e.replies = 0;
  }
  return probe;
}

bool SharingPredictor::decide(uint64_t pc, bool oracle_shared) {
  const bool probe = decide(pc);
  if (probe) ++(oracle_shared ? tp_ : fp_);
  else ++(oracle_shared ? fn_ : tn_);
  return probe;
}

void SharingPredictor::report(uint64_t pc, bool remote_data) {
  const int i = find(pc);
  if (i < 0) {
    ++stale_;
    return;
  }
  Entry& e = table_[static_cast<size_t>(i)];
  if (remote_data && e.replies < windows_[e.state].w) ++e.replies;
}

SharingPredictor::State SharingPredictor::state(uint64_t pc) const {
  const int i = find(pc);
  return i < 0 ? StrongShared : static_cast<State>(table_[static_cast<size_t>(i)].state);
}

unsigned SharingPredictor::misses_in_window(uint64_t pc) const {
  const int i = find(pc);
  return i < 0 ? 0 : table_[static_cast<size_t>(i)].misses;
}

unsigned SharingPredictor::replies_in_window(uint64_t pc) const {
  const int i = find(pc);
  return i < 0 ? 0 : table_[static_cast<size_t>(i)].replies;
}

double SharingPredictor::precision() const {
  return tp_ + fp_ ? static_cast<double>(tp_) / static_cast<double>(tp_ + fp_) : 0.0;
}

double SharingPredictor::recall() const {
  return tp_ + fn_ ? static_cast<double>(tp_) / static_cast<double>(tp_ + fn_) : 0.0;
}

void SharingPredictor::add_stats(StatGroup& g) const {
  g.derived("predictor_decisions", Unit::Count, "L1 read misses the sharing predictor decided",
            [this] { return double(decisions_); });
  g.derived("predictor_probed", Unit::Count, "misses predicted shared (probed)", [this] { return double(probed_); });
  g.derived("predictor_precision", Unit::Ratio, "true shared predictions / shared predictions (oracle-checked)",
            [this] { return precision(); });
  g.derived("predictor_recall", Unit::Ratio, "true shared predictions / truly shared misses (oracle-checked)",
            [this] { return recall(); });
  g.derived("predictor_transitions", Unit::Count, "state changes at window ends", [this] { return double(transitions_); });
  g.derived("predictor_evictions", Unit::Count, "PC entries replaced (LRU)", [this] { return double(evictions_); });
  g.derived("predictor_stale_reports", Unit::Count, "probe reports for a PC no longer in the table",
            [this] { return double(stale_); });
}

}  // namespace gpusc::probe
