// PacketPool: recycles noc::Packet records so steady-state traffic allocates nothing. A network
// has one pool per ClockDomain lane: a packet is taken from its source NI's pool and returned to
// the pool of the destination NI that ejects its tail, so records move between lanes but each
// pool is only touched by its lane's thread.
#pragma once
#include <deque>
#include <vector>

#include "noc/flit.h"

namespace gpusc::noc {

class alignas(64) PacketPool {  // (lanes' pools sit side by side: no shared line)
 public:
  // Ids first_id, first_id + id_step, ...: pools of different lanes hand out distinct ids.
  explicit PacketPool(uint64_t first_id = 1, uint64_t id_step = 1) : next_id_(first_id), id_step_(id_step) {}
  PacketPool(const PacketPool&) = delete;
  PacketPool& operator=(const PacketPool&) = delete;
  Packet* take() {
    Packet* p;
    if (free_.empty()) {
      p = &store_.emplace_back();
    } else {
      p = free_.back();
      free_.pop_back();
      *p = Packet{};
    }
    p->id = next_id_;
    next_id_ += id_step_;
    return p;
  }
  void give_back(Packet* p) { free_.push_back(p); }
  size_t allocated() const { return store_.size(); }
  size_t in_flight() const { return store_.size() - free_.size(); }

 private:
  std::deque<Packet> store_;
  std::vector<Packet*> free_;
  uint64_t next_id_, id_step_;
};

}  // namespace gpusc::noc
