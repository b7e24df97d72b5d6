#include "probe/probe_header.h"

#include "common/report.h"

namespace gpusc::probe {

namespace {
constexpr const char* kWho = "gpusc.probe.header";

class BitWriter {
 public:
  explicit BitWriter(std::vector<uint8_t>& out) : out_(out) {}
  void put(uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; ++i, ++pos_)
      if (v >> i & 1) out_[pos_ / 8] = static_cast<uint8_t>(out_[pos_ / 8] | 1u << (pos_ % 8));
  }
 private:
  std::vector<uint8_t>& out_;
  unsigned pos_ = 0;
};

class BitReader {
 public:
  explicit BitReader(const std::vector<uint8_t>& in) : in_(in) {}
  uint64_t get(unsigned n) {
    if (pos_ + n > 8 * in_.size())
      error(kWho, "probe header truncated: needs more than ", in_.size(), " bytes");
    uint64_t v = 0;
    for (unsigned i = 0; i < n; ++i, ++pos_) v |= uint64_t{in_[pos_ / 8] >> (pos_ % 8) & 1u} << i;
    return v;
  }
 private:
  const std::vector<uint8_t>& in_;
  unsigned pos_ = 0;
};
}  // namespace

void ProbeHeader::add_target(unsigned core) {
  if (n_targets + n_candidates >= kMaxSlots)
    error(kWho, "a probe header holds at most ", kMaxSlots, " target and candidate ids");
  targets[n_targets++] = static_cast<uint8_t>(core);
}

unsigned ProbeHeader::next_target() const {
  if (!n_targets) error(kWho, "probe of group ", group, " has no target left");
  return targets[0];
}

bool ProbeHeader::operator==(const ProbeHeader& o) const {
  if (leader != o.leader || returning != o.returning || group != o.group || requester != o.requester ||
      address != o.address || n_targets != o.n_targets || n_candidates != o.n_candidates)
    return false;
  for (unsigned i = 0; i < n_targets; ++i)
    if (targets[i] != o.targets[i]) return false;
  for (unsigned i = 0; i < n_candidates; ++i)
    if (candidates[i] != o.candidates[i]) return false;
  return true;
}

unsigned core_bits_for(unsigned cores) {
  unsigned b = 1;
  while ((1u << b) < cores) ++b;
  return b;
}

std::vector<uint8_t> pack(const ProbeHeader& h, unsigned core_bits) {
  if (core_bits < 1 || core_bits > 8) error(kWho, "core_bits = ", core_bits, " must be in [1, 8]");
  if (h.n_targets + h.n_candidates > ProbeHeader::kMaxSlots)
    error(kWho, "probe header with ", unsigned(h.n_targets), " targets and ", unsigned(h.n_candidates),
          " candidates: at most ", ProbeHeader::kMaxSlots, " ids fit");
  auto check_id = [&](unsigned id, const char* what) {
    if (id >> core_bits) error(kWho, what, " ", id, " does not fit in ", core_bits, " bits");
  };
  check_id(h.requester, "requester");
  std::vector<uint8_t> out((h.bits(core_bits) + 7) / 8, 0);
  BitWriter w(out);
  w.put(1, 1);
  w.put(h.leader, 1);
  w.put(h.returning, 1);
  w.put(h.group, 32);
  w.put(h.requester, core_bits);
  w.put(h.n_targets, 5);
  w.put(h.n_candidates, 5);
  w.put(h.address, 64);
  for (unsigned i = 0; i < h.n_targets; ++i) check_id(h.targets[i], "target"), w.put(h.targets[i], core_bits);
  for (unsigned i = 0; i < h.n_candidates; ++i) check_id(h.candidates[i], "candidate"), w.put(h.candidates[i], core_bits);
  return out;
}

ProbeHeader unpack(const std::vector<uint8_t>& bytes, unsigned core_bits) {
  if (core_bits < 1 || core_bits > 8) error(kWho, "core_bits = ", core_bits, " must be in [1, 8]");
  BitReader r(bytes);
  if (!r.get(1)) error(kWho, "not a probe: the probe bit is clear");
  ProbeHeader h;
  h.leader = r.get(1);
  h.returning = r.get(1);
  h.group = static_cast<uint32_t>(r.get(32));
  h.requester = static_cast<uint8_t>(r.get(core_bits));
  h.n_targets = static_cast<uint8_t>(r.get(5));
  h.n_candidates = static_cast<uint8_t>(r.get(5));
  if (h.n_targets + h.n_candidates > ProbeHeader::kMaxSlots)
    error(kWho, "probe header with ", unsigned(h.n_targets), " targets and ", unsigned(h.n_candidates),
          " candidates: at most ", ProbeHeader::kMaxSlots, " ids fit");
  h.address = r.get(64);
  for (unsigned i = 0; i < h.n_targets; ++i) h.targets[i] = static_cast<uint8_t>(r.get(core_bits));
  for (unsigned i = 0; i < h.n_candidates; ++i) h.candidates[i] = static_cast<uint8_t>(r.get(core_bits));
  return h;
}

ProbeStep visit(ProbeHeader& h, bool hit) {
  if (h.returning) error(kWho, "probe of group ", h.group, " is returning to its requester: it has no target to visit");
  const unsigned here = h.next_target();
  for (unsigned i = 1; i < h.n_targets; ++i) h.targets[i - 1] = h.targets[i];
  --h.n_targets;
  if (hit && h.leader) return {ProbeStep::ReplyData, h.requester};
  if (hit) h.candidates[h.n_candidates++] = static_cast<uint8_t>(here);
  if (h.n_targets) return {ProbeStep::Forward, h.targets[0]};
  h.returning = true;
  return {ProbeStep::Return, h.requester};
}

}  // namespace gpusc::probe
