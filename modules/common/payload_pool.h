// PayloadPool: recycles tlm_generic_payload objects with a MemExt and a data buffer already
// attached, so steady-state simulation allocates nothing per transaction (DESIGN §3).
// acquire() hands out a payload with reference count 1; the last release() returns it here
// through tlm_mm_interface::free(). The pool grows only when every payload is in flight.
// Lanes: each ClockDomain lane (ClockDomain::current_lane(), the calling thread's) takes from and
// returns to its own free list, so lanes ticking at once never share one; a payload released in
// another lane than the one that took it simply moves there.
#pragma once
#include <array>
#include <cstddef>
#include <memory>
#include <vector>

#include <tlm>

#include "common/mem_ext.h"

namespace gpusc {

class PayloadPool : public tlm::tlm_mm_interface {
 public:
  explicit PayloadPool(unsigned data_bytes = 128);
  PayloadPool(const PayloadPool&) = delete;
  PayloadPool& operator=(const PayloadPool&) = delete;
  ~PayloadPool() override;

  // A cleared payload (command read, address 0, length data_bytes, MemExt reset), refcount 1.
  tlm::tlm_generic_payload& acquire();
  void free(tlm::tlm_generic_payload* gp) override;

  std::size_t allocated() const;  // payloads ever created
  std::size_t in_use() const;
  unsigned data_bytes() const { return data_bytes_; }

 private:
  struct Slot;
  struct alignas(64) Lane {
    std::vector<std::unique_ptr<Slot>> all;  // created by this lane
    std::vector<Slot*> free;
  };
  static constexpr unsigned kLanes = 64;  // ClockDomain's limit
  unsigned data_bytes_;
  std::array<Lane, kLanes> lanes_;
};

}  // namespace gpusc
