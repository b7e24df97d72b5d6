#include "common/payload_pool.h"

#include "common/clock_domain.h"

namespace gpusc {

// A pooled payload is a Slot, so free() can downcast the payload it is handed.
struct PayloadPool::Slot : tlm::tlm_generic_payload {
  MemExt ext;
  std::vector<unsigned char> data;
  Slot(tlm::tlm_mm_interface* mm, unsigned bytes) : tlm::tlm_generic_payload(mm), data(bytes) {
    set_extension(&ext);
  }
  ~Slot() override { clear_extension(&ext); }  // ext is a member, not heap-owned
};

PayloadPool::PayloadPool(unsigned data_bytes) : data_bytes_(data_bytes) {}
PayloadPool::~PayloadPool() = default;

std::size_t PayloadPool::allocated() const {
  std::size_t n = 0;
  for (const Lane& l : lanes_) n += l.all.size();
  return n;
}

std::size_t PayloadPool::in_use() const {
  std::size_t free = 0;
  for (const Lane& l : lanes_) free += l.free.size();
  return allocated() - free;
}

tlm::tlm_generic_payload& PayloadPool::acquire() {
  Lane& l = lanes_[ClockDomain::current_lane()];
  Slot* s;
  if (l.free.empty()) {
    l.all.push_back(std::make_unique<Slot>(this, data_bytes_));
    s = l.all.back().get();
  } else {
    s = l.free.back();
    l.free.pop_back();
  }
  s->ext.clear();
  s->set_command(tlm::TLM_READ_COMMAND);
  s->set_address(0);
  s->set_data_ptr(s->data.data());
  s->set_data_length(data_bytes_);
  s->set_streaming_width(data_bytes_);
  s->set_byte_enable_ptr(nullptr);
  s->set_byte_enable_length(0);
  s->set_dmi_allowed(false);
  s->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  s->acquire();
  return *s;
}

void PayloadPool::free(tlm::tlm_generic_payload* gp) {
  gp->reset();  // drops auto-extensions only; the slot's MemExt stays attached
  lanes_[ClockDomain::current_lane()].free.push_back(static_cast<Slot*>(gp));
}

}  // namespace gpusc
