// AddressMap: a copyable reference to an AddressMapper (address_mapper.h), for units that keep
// the map in lambdas (an L2 slice's set index, a DRAM channel's bank map). Every copy refers
// to the same mapper, so a first-touch mapper keeps one placement state however often it is
// copied. Built from (partitions, chunk) it owns a FineInterleaveMapper (paper 000 Table II:
// 256 B chunks), the baseline every unit testbench uses; built from a mapper it refers to that
// mapper, which must outlive every copy. Units that take an AddressMapper& directly need none.
#pragma once
#include <cstdint>
#include <memory>

#include "common/address_mapper.h"
#include "common/fine_interleave_mapper.h"

namespace gpusc {

class AddressMap {
 public:
  AddressMap(unsigned partitions, unsigned chunk_bytes = 256)
      : owned_(std::make_shared<FineInterleaveMapper>(partitions, chunk_bytes, "AddressMap")), m_(owned_.get()) {}
  explicit AddressMap(const AddressMapper& mapper) : m_(&mapper) {}

  unsigned partitions() const { return m_->partitions(); }
  unsigned partition(uint64_t addr) const { return m_->partition(addr); }
  // addr with the partition digit removed: dense within one partition.
  uint64_t local(uint64_t addr) const { return m_->local(addr); }
  // Inverse of local() for partition p.
  uint64_t global(unsigned p, uint64_t local_addr) const { return m_->global(p, local_addr); }
  const AddressMapper& mapper() const { return *m_; }

 private:
  std::shared_ptr<const AddressMapper> owned_;  // null when referring to a platform's mapper
  const AddressMapper* m_;
};

}  // namespace gpusc
