// PacketPool: recycles noc::Packet records so steady-state traffic allocates nothing. One
// pool serves a whole network: a packet is taken at the source NI and returned by the last
// destination NI that ejects its tail.
#pragma once
#include <deque>
#include <vector>

#include "noc/flit.h"

namespace gpusc::noc {

class PacketPool {
 public:
  Packet* take() {
    Packet* p;
    if (free_.empty()) {
      p = &store_.emplace_back();
    } else {
      p = free_.back();
      free_.pop_back();
      *p = Packet{};
    }
    p->id = next_id_++;
    return p;
  }
  void give_back(Packet* p) { free_.push_back(p); }
  size_t allocated() const { return store_.size(); }
  size_t in_flight() const { return store_.size() - free_.size(); }

 private:
  std::deque<Packet> store_;
  std::vector<Packet*> free_;
  uint64_t next_id_ = 1;
};

}  // namespace gpusc::noc
