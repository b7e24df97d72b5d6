// The message types of the RDMA CoDec (paper 004 §4.1.3, Fig. 9). Not a unit: the extensions a
// fine-grained remote read and a coalesced response packet carry, with their helpers.
//
// RdmaIdExt: the 2-byte response ID of a fine-grained remote read. The requesting GPU gives its
// request an ID (the entry of its mask-aware MSHR, multigpu/mask_aware_mshr.h) and the response,
// which is the same payload (docs/gpu-model.md), carries it back. A read reply with a valid
// RdmaIdExt is a fine-grained response: its data buffer holds the words of MemExt::word_mask
// packed in mask order (data_bytes per set bit). The extension is attached once and stays with a
// pooled payload (no allocation per transaction); `valid` says whether it applies to the current
// transaction, so whoever maps the response back (the requester's RDMA engine) clears it.
//
// A coalesced packet (RdmaCoalescer -> fabric -> RdmaDecoalescer) is a generic payload of the
// coalescer's own pool with
//   * a MemExt like a read reply (kind Read, is_reply, src = serving GPU, dst = destination GPU),
//     so the fabric (BandwidthLink, Bridge, NI) sizes and routes it as any reply: its data length
//     is the packed transactions, transactions x (id_bytes + data_bytes); the link adds its header;
//   * its data buffer = the wire image: per transaction, the response ID (id_bytes, little
//     endian) then one data word (data_bytes); a response of k words is k consecutive
//     transactions carrying the same ID;
//   * an RdmaPacketExt: the packet header's fields (the "compression algorithm" field that tells
//     a coalesced packet from a regular one, and the response count: the paper's 3 header bits
//     count only up to 7, fewer than its 10 transactions, so we keep a plain count) plus the
//     original response payloads in packet order. Those pointers are simulator bookkeeping: the
//     requester matches a reply by its payload, so the de-coalescer hands back the originals,
//     after rebuilding their data from the wire image and checking each ID against it.
#pragma once
#include <cstdint>
#include <vector>

#include <tlm>

namespace gpusc::multigpu {

struct RdmaIdExt : tlm::tlm_extension<RdmaIdExt> {
  uint16_t id = 0;
  bool valid = false;
  tlm::tlm_extension_base* clone() const override { return new RdmaIdExt(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override { *this = static_cast<const RdmaIdExt&>(o); }
};

// Marks gp as a fine-grained remote read with response ID `id` (attaches the extension once).
void set_rdma_id(tlm::tlm_generic_payload& gp, uint16_t id);
// The valid RdmaIdExt of gp, or nullptr.
const RdmaIdExt* rdma_id(const tlm::tlm_generic_payload& gp);
void clear_rdma_id(tlm::tlm_generic_payload& gp);

struct RdmaPacketExt : tlm::tlm_extension<RdmaPacketExt> {
  enum class Format : uint8_t { Regular, Coalesced };  // the header's compression-algorithm field
  struct Item {
    tlm::tlm_generic_payload* response;  // the original response (its reference travels here)
    uint16_t id;                          // its response ID, as on the wire
    uint8_t words;                        // its transactions (transfer units its word mask names)
  };
  Format format = Format::Regular;
  uint8_t id_bytes = 2;    // wire layout of one transaction
  uint8_t data_bytes = 4;
  unsigned transactions = 0;
  std::vector<Item> items;  // responses in packet order

  tlm::tlm_extension_base* clone() const override { return new RdmaPacketExt(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override { *this = static_cast<const RdmaPacketExt&>(o); }
};

// The RdmaPacketExt of a coalesced packet, or nullptr for any other message.
RdmaPacketExt* coalesced_packet(tlm::tlm_generic_payload& gp);
const RdmaPacketExt* coalesced_packet(const tlm::tlm_generic_payload& gp);

}  // namespace gpusc::multigpu
