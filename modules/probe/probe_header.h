// ProbeHeader: the request-network header of a probe (paper 000 §III-F, "communication
// overhead"), its bit-exact pack/unpack, and the step a core takes with a probe it received
// (§III-D two-level probing, §III-F probe handler and deflection).
//
// Fields: probe bit (set in every probe), leader/scout bit, 32-bit group id (unique per request
// of a requester), the requester, the remaining targets in search order, and the scout's
// candidate-supplier list. The paper budgets "up to fifteen target cores x ceil(log2 27) = 5
// bits = 75 bits" and says everything fits in the baseline 32 B flit.
// Packed layout, LSB first within a little-endian byte stream, k = core_bits:
//   bit 0 probe=1 | 1 leader | 2 returning | 3..34 group | requester (k) | n_targets (5) |
//   n_candidates (5) | address (64) | targets (n_targets x k) | candidates (n_candidates x k)
// = 114 + k * (n_targets + n_candidates) bits, 114 + 5*15 = 189 bits <= 256 for the paper's
// case, 114 + 5*27 = 249 bits for IP(27,1,1), so one 32 B flit either way.
// Choices the paper left open:
//   * the header also carries the line address (64 bits; a plain request carries it too), the
//     requester (k bits) and a `returning` bit (on its way back: a leader's NACK or a scout's
//     candidate list), so that one flit is the whole probe;
//   * a visited target is popped from the list and a scout's hit is appended to the candidate
//     list, so targets + candidates never exceed the C the probe started with: the list holds at
//     most kMaxSlots = 31 ids (5-bit counts);
//   * core_bits = ceil(log2(cores)), at least 1 (the paper: ceil(log2 27) = 5 for 28 cores).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

namespace gpusc::probe {

struct ProbeHeader {
  static constexpr unsigned kMaxSlots = 31;  // targets + candidates (5-bit counts)
  static constexpr unsigned kFixedBits = 3 + 32 + 5 + 5 + 64;  // + core_bits * (1 + slots)

  bool leader = true;      // leader (or second-level leader-like probe) vs scout
  bool returning = false;  // travelling back to the requester: leader NACK / scout candidates
  uint32_t group = 0;      // request id at the requester
  uint8_t requester = 0;
  uint64_t address = 0;
  uint8_t n_targets = 0, n_candidates = 0;
  std::array<uint8_t, kMaxSlots> targets{};     // remaining targets, next first
  std::array<uint8_t, kMaxSlots> candidates{};  // scout hits, in visit order

  void add_target(unsigned core);
  unsigned next_target() const;  // targets[0]; error when none left
  // Packed size in bits for cores numbered with `core_bits` bits.
  unsigned bits(unsigned core_bits) const { return kFixedBits + core_bits * (1 + n_targets + n_candidates); }
  unsigned flits(unsigned core_bits, unsigned flit_bytes) const {
    return (bits(core_bits) + 8 * flit_bytes - 1) / (8 * flit_bytes);
  }
  bool operator==(const ProbeHeader& o) const;
};

// ceil(log2(cores)), at least 1.
unsigned core_bits_for(unsigned cores);
// The header packed into ceil(bits / 8) bytes; an id that does not fit core_bits is an error.
std::vector<uint8_t> pack(const ProbeHeader& h, unsigned core_bits);
// The inverse; a buffer too short, a clear probe bit or counts over kMaxSlots are errors.
ProbeHeader unpack(const std::vector<uint8_t>& bytes, unsigned core_bits);

// What the core that holds a probe does next (the probe handler's decision; DESIGN issue 18 §6).
struct ProbeStep {
  enum Kind {
    ReplyData,  // leader hit: send the line to the requester on the reply network; probe done
    Forward,    // send the probe on to `dest` = its next target
    Return      // list exhausted: back to `dest` = requester (leader: NACK; scout: candidates)
  } kind;
  unsigned dest;
};
// At the probe's current target (targets[0], popped here), whose L1 lookup gave `hit`. A scout
// hit appends the target to the candidates and the scout goes on. Deflection (§III-F: the
// target's incoming probe queue is full, its router passes the probe on) is visit(h, false):
// the busy core is skipped, never added as a candidate.
ProbeStep visit(ProbeHeader& h, bool hit);

}  // namespace gpusc::probe
