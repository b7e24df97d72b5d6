// MaskAwareMshr: the MSHR table extended with a word mask per entry, for fine-grained remote
// reads (paper 004 §4.1.2, Fig. 8; Table 1: "2-byte bit-mask per entry, bit-mask comp.", 32
// MSHR entries). The rule, as the text and its footnote state it, for a request (line, mask):
//   A  an entry for the same line whose mask CONTAINS the request's (every bit set in the
//      request is set in the entry) -> MSHR hit: the request is merged into that entry and is
//      answered by its response;
//   B  entries for the same line exist but none contains the mask -> MSHR miss: a new entry with
//      the request's mask is allocated and a new request is sent below;
//   C  no entry for the line -> MSHR miss: a new entry, a new request.
// The paper's Fig. 8(a) calls an incoming 0b01000000 "the subset" of an entry's 0b10000000 and
// shows a hit; under the stated rule (footnote 1) those masks are disjoint and the request is
// case B. This unit follows the stated rule.
//
// Choices the paper leaves open:
//   * containment is checked entry by entry, not against the union of the line's entries: a
//     request whose words are spread over two in-flight entries is case B (one response must
//     serve it); case A picks the oldest containing entry with a free merge slot;
//   * the new entry of case B asks for the request's whole mask, not only the words the other
//     entries miss (its response alone must answer every request merged into it);
//   * reservation fail (Full, nothing changes, the caller retries): no free entry for B or C, or
//     every containing entry's merge list is full (merge requests per entry, the allocating one
//     included);
//   * a full-line request carries the full mask, so it merges only into a full-line entry and
//     covers any later fine-grained one; a zero mask or bits past the line are an error;
//   * the entry index is what the request carries below as its 2-byte response ID (§4.1.3), so a
//     response names the entry it fills: fill(entry) frees it and returns its requests in arrival
//     order.
// Pure C++, not an sc_module: the table an L1 (or the RDMA engine of the requesting GPU)
// consults in its lookup stage; requests are the caller's opaque 64-bit tags.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/params.h"

namespace gpusc::multigpu {

class MaskAwareMshr {
 public:
  struct Params {
    unsigned entries = 32;     // MSHR entries [count] (004 Table 1: 32)
    unsigned merge = 8;        // requests per entry, the allocating one included [count] (not in the paper)
    unsigned mask_bits = 16;   // words per line = mask width [bits] (004: 64 B / 4 B = 16)
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_R(entries, 1, 65536, "MSHR entries [count] (004 Table 1: 32); the entry index is the 2-byte response ID");
      GPUSC_PARAM_R(merge, 1, 65536, "requests per entry, the allocating one included [count]");
      GPUSC_PARAM_R(mask_bits, 1, 64, "words per line = bits of the mask [bits] (004: 16)");
    }
  };
  enum class Case { A_Merge, B_NewEntrySameLine, C_Miss, Full };
  struct Result {
    Case what;
    unsigned entry;  // the entry merged into (A) or allocated (B, C); unused for Full
  };
  struct Entry {
    bool valid = false;
    uint64_t line = 0;
    uint64_t mask = 0;
    uint64_t age = 0;             // allocation order
    std::vector<uint64_t> reqs;   // tags of the requests it answers, in arrival order
  };

  explicit MaskAwareMshr(const Params& p, std::string who = "gpusc.mshr");

  // What access() would do, without changing anything.
  Result classify(uint64_t line, uint64_t mask) const;
  // Applies the rule: merges (A), allocates (B, C; the caller sends a request below carrying
  // the returned entry as its ID and `mask`) or changes nothing (Full).
  Result access(uint64_t line, uint64_t mask, uint64_t tag);
  // The response for `entry` arrived: frees it and returns its request tags in arrival order.
  std::vector<uint64_t> fill(unsigned entry);

  const Entry& entry(unsigned i) const { return e_.at(i); }
  unsigned in_use() const { return in_use_; }
  unsigned entries_for(uint64_t line) const;
  const Params& params() const { return p_; }

 private:
  void check_mask(uint64_t mask) const;

  const Params p_;
  const std::string who_;
  std::vector<Entry> e_;
  unsigned in_use_ = 0;
  uint64_t next_age_ = 0;
};

const char* to_string(MaskAwareMshr::Case c);

}  // namespace gpusc::multigpu
