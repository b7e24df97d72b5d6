// Packet and Flit: what moves inside the NoC (DESIGN §3: flits, not generic payloads, on the
// hot path). A Packet is created by the source network interface and shared by all its flits
// and all multicast replicas; a Flit is a small value (32 bytes) copied router to router.
// Destinations: a head flit names its branch's destinations either as one node (`dest`, the
// unicast case and any multicast branch down to one node) or, when there are several, through
// `dests`, which points at the sender's copy of the set and is valid only during the hand-over
// (FlitLink::send); a receiver that routes the flit later keeps its own copy.
#pragma once
#include <cstdint>

#include <tlm>

#include "common/dest_set.h"

namespace gpusc {
struct MemExt;
}

namespace gpusc::noc {

constexpr uint16_t kMultiDest = 0xffff;  // Flit::dest / Packet::dest: more than one destination

struct Packet {
  uint64_t id = 0;
  uint32_t src = 0;                          // source node
  DestSet dests;                             // all destinations (one bit for unicast)
  uint16_t dest = kMultiDest;                // the only destination, or kMultiDest
  uint16_t flits = 1;                        // length in flits (header included)
  uint8_t vnet = 0;                          // virtual network (request / reply class)
  uint8_t redirects = 0;                     // times a HeadHook redirected it (escape VC level, MeshEscapeRoute)
  uint64_t created = 0;                      // cycle the packet entered the source queue
  uint64_t injected = 0;                     // cycle its head flit entered the network
  tlm::tlm_generic_payload* payload = nullptr;  // message carried (nullptr for raw traffic)
  MemExt* ext = nullptr;                     // the payload's MemExt
  uint32_t pending_dests = 0;                // destinations that still have to eject the tail
};

struct Flit {
  Packet* pkt = nullptr;
  const DestSet* dests = nullptr;  // head flit with dest == kMultiDest: this branch's destinations
  uint64_t ready = 0;              // first cycle the flit may be processed where it now sits
  uint16_t seq = 0;                // index within the packet (0 = head)
  uint16_t dest = kMultiDest;      // head flit: the branch's only destination, or kMultiDest
  uint16_t flits = 1;              // packet length (copy of pkt->flits: no pointer chase per hop)
  uint8_t vc = 0;                  // virtual channel it occupies at the receiving input port
  uint8_t vnet = 0;                // copy of pkt->vnet
  bool head() const { return seq == 0; }
  bool tail() const { return seq + 1u == flits; }
  // The head's destinations as a set (for routing functions and messages).
  DestSet dest_set() const { return dest != kMultiDest ? DestSet::single(dest) : *dests; }
};

}  // namespace gpusc::noc
