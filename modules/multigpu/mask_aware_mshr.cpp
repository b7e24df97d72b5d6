#include "multigpu/mask_aware_mshr.h"

#include "common/report.h"

namespace gpusc::multigpu {

const char* to_string(MaskAwareMshr::Case c) {
  switch (c) {
    case MaskAwareMshr::Case::A_Merge: return "A (merge)";
    case MaskAwareMshr::Case::B_NewEntrySameLine: return "B (same line, new entry)";
    case MaskAwareMshr::Case::C_Miss: return "C (miss)";
    case MaskAwareMshr::Case::Full: return "full";
  }
  return "?";
}

MaskAwareMshr::MaskAwareMshr(const Params& p, std::string who) : p_(p), who_(std::move(who)), e_(p.entries) {
  validate(p_, who_);
  for (Entry& e : e_) e.reqs.reserve(p_.merge);
}

void MaskAwareMshr::check_mask(uint64_t mask) const {
  if (mask == 0) error(who_, "a request with an empty word mask; it must name at least one word");
  if (p_.mask_bits < 64 && (mask >> p_.mask_bits) != 0)
    error(who_, "word mask 0x", std::hex, mask, std::dec, " has bits past the line's ", p_.mask_bits, " words");
}

MaskAwareMshr::Result MaskAwareMshr::classify(uint64_t line, uint64_t mask) const {
  check_mask(mask);
  bool same_line = false, covered = false;
  int best = -1;
  for (unsigned i = 0; i < e_.size(); ++i) {
    const Entry& e = e_[i];
    if (!e.valid || e.line != line) continue;
    same_line = true;
    if ((e.mask & mask) != mask) continue;
    covered = true;
    if (e.reqs.size() < p_.merge && (best < 0 || e.age < e_[best].age)) best = static_cast<int>(i);
  }
  if (best >= 0) return {Case::A_Merge, static_cast<unsigned>(best)};
  if (covered) return {Case::Full, 0};  // the containing entries' merge lists are full
  if (in_use_ == e_.size()) return {Case::Full, 0};
  unsigned free = 0;
  while (e_[free].valid) ++free;
  return {same_line ? Case::B_NewEntrySameLine : Case::C_Miss, free};
}

MaskAwareMshr::Result MaskAwareMshr::access(uint64_t line, uint64_t mask, uint64_t tag) {
  const Result r = classify(line, mask);
  if (r.what == Case::Full) return r;
  Entry& e = e_[r.entry];
  if (r.what != Case::A_Merge) {
    e.valid = true;
    e.line = line;
    e.mask = mask;
    e.age = next_age_++;
    e.reqs.clear();
    ++in_use_;
  }
  e.reqs.push_back(tag);
  return r;
}

std::vector<uint64_t> MaskAwareMshr::fill(unsigned entry) {
  if (entry >= e_.size() || !e_[entry].valid)
    error(who_, "a response for MSHR entry ", entry, ", which is not waiting for one (protocol error)");
  Entry& e = e_[entry];
  std::vector<uint64_t> reqs = e.reqs;
  e.valid = false;
  e.reqs.clear();
  --in_use_;
  return reqs;
}

unsigned MaskAwareMshr::entries_for(uint64_t line) const {
  unsigned n = 0;
  for (const Entry& e : e_) n += e.valid && e.line == line;
  return n;
}

}  // namespace gpusc::multigpu
