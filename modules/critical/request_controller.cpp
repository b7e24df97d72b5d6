#include "critical/request_controller.h"

#include "common/report.h"

namespace gpusc {

namespace {
unsigned popcount(uint32_t v) { return static_cast<unsigned>(__builtin_popcount(v)); }

const RequestController::Params& checked(const RequestController::Params& p, unsigned sectors, const std::string& who) {
  validate(p, who);
  if (sectors < 2 || sectors > 32)
    error(who, "sectors per line = ", sectors, " must be 2..32 (lines of 64 B to 1 KB in 32 B sectors; 128 B lines: 4)");
  return p;
}
}  // namespace

RequestController::RequestController(sc_core::sc_module_name name, const Params& p, unsigned sectors)
    : sc_core::sc_module(name),
      p_(checked(p, sectors, this->name())),
      critical_maps_(p.window_maps == "critical"),
      first_window_(p.ica_window == "first-request"),
      consult_larger_(p.ica_consult == "larger"),
      sectors_(sectors),
      all_(sectors >= 32 ? ~0u : (1u << sectors) - 1),
      ica_(sectors - 1),
      full_fdr_(stats_.counter("full_fdr", Unit::Count, "misses fetching the whole line: FDR ratio over fdr_threshold")),
      full_sm_(stats_.counter("full_subsequent", Unit::Count,
                              "misses fetching the whole line: an MSHR hit whose earlier requests lacked the sectors")),
      full_ica_(stats_.counter("full_ica", Unit::Count, "misses fetching the whole line: ICA ratio over ica_threshold")),
      full_request_(stats_.counter("full_request", Unit::Count, "misses of requests that ask every sector")),
      partial_(stats_.counter("partial", Unit::Count, "misses fetching only their missing sectors")),
      replies_(stats_.counter("window_replies", Unit::Count, "read replies recorded (one per MSHR, at its last reply)")),
      evictions_(stats_.counter("window_evictions", Unit::Count, "L1 evictions recorded")) {}

void RequestController::attach(Cache& cache) {
  if (cache.all_sectors() != all_)
    error(name(), "attached to ", cache.name(), " whose lines have another number of sectors (map ", cache.all_sectors(),
          ", expected ", all_, "); construct the controller with the cache's line_bytes / 32");
  cache.set_fetch_map([this](const Cache::Payload& gp, Cache::MissClass c, uint32_t missing) {
    const uint32_t m = gp.get_extension<MemExt>()->sector_mask & all_;
    return fetch_map(m ? m : all_, missing, c);
  });
  cache.on_fill_complete([this](const Cache::SectorEvent& e) {
    ++replies_;
    on_reply(critical_maps_ ? e.critical : e.map, e.inconsistent, e.first);
  });
  cache.on_sector_evict([this](const Cache::SectorEvent& e) {
    ++evictions_;
    on_evict(critical_maps_ ? e.critical : e.map, e.inconsistent, e.first);
  });
}

void RequestController::record(uint32_t map, bool inconsistent, uint32_t first) {
  map &= all_;
  push(fdr_, map == all_);
  first &= all_;
  if (first_window_ && first) {  // the window decide() consulted for that first request
    push(ica_[window_of(popcount(first))], inconsistent);
    return;
  }
  const unsigned k = popcount(map);
  if (k >= 2) push(ica_[k - 2], inconsistent);
}

void RequestController::push(std::deque<bool>& w, bool bit) {
  w.push_back(bit);
  if (w.size() > p_.window_size) w.pop_front();
}

double RequestController::ratio(const std::deque<bool>& w) const {
  if (w.empty()) return 0.0;
  size_t ones = 0;
  for (bool b : w) ones += b;
  return double(ones) / double(w.size());
}

const std::deque<bool>& RequestController::ica_window(unsigned sectors) const {
  if (sectors < 2 || sectors > sectors_)
    error(name(), "no ICA window of ", sectors, " sectors (windows hold 2..", sectors_, " sectors)");
  return ica_[sectors - 2];
}

double RequestController::ica_ratio(unsigned sectors) const { return ratio(ica_window(sectors)); }
size_t RequestController::ica_events(unsigned sectors) const { return ica_window(sectors).size(); }

RequestController::Decision RequestController::decide(uint32_t request, Cache::MissClass c) const {
  if (ratio(fdr_) > p_.fdr_threshold) return Decision::FullFdr;
  if (c == Cache::MissClass::Subsequent) return Decision::FullSubsequent;
  const unsigned k = popcount(request & all_);
  if (k >= sectors_) return Decision::FullRequest;  // the request itself asks the whole line
  double r = 0.0;
  if (consult_larger_) {  // the windows of k + 1 .. N sectors, pooled
    size_t ones = 0, events = 0;
    for (unsigned s = k + 1; s <= sectors_; ++s)
      for (bool b : ica_[s - 2]) ones += b, ++events;
    r = events ? double(ones) / double(events) : 0.0;
  } else {
    r = ratio(ica_[window_of(k)]);
  }
  return r <= p_.ica_threshold ? Decision::Partial : Decision::FullIca;
}

uint32_t RequestController::fetch_map(uint32_t request, uint32_t missing, Cache::MissClass c) {
  switch (decide(request, c)) {
    case Decision::FullFdr: ++full_fdr_; return all_;
    case Decision::FullSubsequent: ++full_sm_; return all_;
    case Decision::FullIca: ++full_ica_; return all_;
    case Decision::FullRequest: ++full_request_; return all_;
    case Decision::Partial: ++partial_; return missing;
  }
  return all_;
}

}  // namespace gpusc
