// AddressMapper: which memory partition owns a global physical address, and the
// partition-local address its L2 slice and DRAM channel index with (DESIGN §6). An interface
// chosen by config; implementations:
//   FineInterleaveMapper  fixed chunks dealt round-robin over all partitions (paper 000
//                         Table II: 256 B), the requester does not matter;
//   FirstTouchPageMapper  page granular: the first access to a page decides the block that
//                         owns it (paper 003 §5.3), the page then stays there.
// Both deal consecutive chunks over partitions the same way (ChunkInterleave): round-robin, or
// with `hash = xor` round-robin permuted per row of chunks, so that power-of-two strides do not
// camp on one partition.
// How first touch is reported: the requester's side calls map(addr, requester_block) for every
// request it sends to memory (a platform does it in the L1's route hook, with the block of the
// SM behind that L1); the first such call for a page places it. Everything else, the memory
// side in particular, asks the const lookups local() / partition(), which never place: an
// address that no map() has placed yet is an error there (memory cannot be reached before a
// request was routed to it).
// A platform owns one mapper and shares it by reference (AddressMap is a copyable reference),
// so there is one first-touch state. Not thread-safe: call it from core-domain units only.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/params.h"

namespace gpusc {

// How consecutive chunks of an address space are dealt over k partitions. Chunk c lies in row
// c / k (its partition-local chunk number) at index c mod k; with xor (k a power of two) at
// index (c mod k) XOR fold(c / k), where fold XORs together the row's successive log2(k)-bit
// fields. Within a row the indices stay a permutation of 0 .. k-1, so every partition holds one
// chunk per row and its local addresses stay dense; but chunks k, 2k, 4k, ... apart (the
// strides of power-of-two arrays) land on different partitions instead of one.
class ChunkInterleave {
 public:
  // k >= 1; xor needs k a power of two. `who` names the owner in errors.
  ChunkInterleave(unsigned k, bool xor_hash, const std::string& who);
  unsigned k() const { return k_; }
  unsigned index(uint64_t chunk) const { return static_cast<unsigned>(chunk % k_) ^ fold(chunk / k_); }
  uint64_t row(uint64_t chunk) const { return chunk / k_; }
  uint64_t chunk(uint64_t row, unsigned index) const { return row * k_ + (index ^ fold(row)); }

 private:
  unsigned fold(uint64_t row) const {
    unsigned f = 0;
    for (; row && bits_; row >>= bits_) f ^= static_cast<unsigned>(row) & (k_ - 1);
    return f;
  }
  unsigned k_;
  unsigned bits_ = 0;  // log2(k) with xor, else 0 (no folding)
};

class AddressMapper {
 public:
  // A platform's `address_map` section (the interleave chunk stays the platform's own key).
  struct Params {
    std::string kind = "fine-interleave";  // fine-interleave | first-touch
    uint64_t page_bytes = 4096;            // first-touch page [bytes] (003 gives no size: a 4 KB OS page)
    std::string hash = "none";             // none | xor (ChunkInterleave)
    template <class F> static void describe(F&& f) {
      using S = Params;
      GPUSC_PARAM_C(kind, "fine-interleave|first-touch",
                    "fine-interleave: chunks round-robin over all partitions; first-touch: a page lives in the "
                    "block of the SM that touched it first, interleaved over that block's partitions (003 §5.3)");
      GPUSC_PARAM_R(page_bytes, 1, uint64_t{1} << 40, "first-touch page size [bytes], a power of two >= the chunk");
      GPUSC_PARAM_C(hash, "none|xor",
                    "partition of a chunk: none = chunk index mod partitions (a stride of partitions x chunk bytes "
                    "stays on one partition, as in GPGPU-Sim's plain mapping); xor = that index XORed with the "
                    "higher chunk-index bits folded (as hardware hashes; a power-of-two partition count)");
    }
  };
  struct Target {
    unsigned partition;  // owning partition, 0 .. partitions() - 1
    uint64_t local;      // partition-local address (dense within the partition)
  };

  AddressMapper() = default;
  AddressMapper(const AddressMapper&) = delete;
  AddressMapper& operator=(const AddressMapper&) = delete;
  virtual ~AddressMapper() = default;

  virtual unsigned partitions() const = 0;
  // Where addr lives, for a request from an SM of block `requester_block`; places addr's page if
  // it is not placed yet. Later calls, from any block, return the same.
  virtual Target map(uint64_t addr, unsigned requester_block) = 0;
  // Lookups that never place; an address not placed yet is an error.
  virtual unsigned partition(uint64_t addr) const = 0;
  virtual uint64_t local(uint64_t addr) const = 0;
  // Inverse of local() for partition p; a local address no placed page covers is an error.
  virtual uint64_t global(unsigned p, uint64_t local_addr) const = 0;
  virtual bool placed(uint64_t addr) const = 0;
};

// The mapper `p` names. `partitions_of_block[b]` lists the partitions of block b; together the
// lists hold 0 .. P-1 once each. fine-interleave uses only P (and `chunk_bytes`); first-touch
// interleaves a block's pages over its own partitions in `chunk_bytes` chunks. `where` names the
// config section in errors.
std::unique_ptr<AddressMapper> make_address_mapper(const AddressMapper::Params& p, unsigned chunk_bytes,
                                                   const std::vector<std::vector<unsigned>>& partitions_of_block,
                                                   const std::string& where = "address_map");

}  // namespace gpusc
