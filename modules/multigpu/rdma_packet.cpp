#include "multigpu/rdma_packet.h"

namespace gpusc::multigpu {

void set_rdma_id(tlm::tlm_generic_payload& gp, uint16_t id) {
  RdmaIdExt* e = gp.get_extension<RdmaIdExt>();
  if (!e) {
    e = new RdmaIdExt;  // owned by the payload from now on (freed with it)
    gp.set_extension(e);
  }
  e->id = id;
  e->valid = true;
}

const RdmaIdExt* rdma_id(const tlm::tlm_generic_payload& gp) {
  const RdmaIdExt* e = gp.get_extension<RdmaIdExt>();
  return e && e->valid ? e : nullptr;
}

void clear_rdma_id(tlm::tlm_generic_payload& gp) {
  if (RdmaIdExt* e = gp.get_extension<RdmaIdExt>()) e->valid = false;
}

RdmaPacketExt* coalesced_packet(tlm::tlm_generic_payload& gp) {
  RdmaPacketExt* e = gp.get_extension<RdmaPacketExt>();
  return e && e->format == RdmaPacketExt::Format::Coalesced ? e : nullptr;
}

const RdmaPacketExt* coalesced_packet(const tlm::tlm_generic_payload& gp) {
  const RdmaPacketExt* e = gp.get_extension<RdmaPacketExt>();
  return e && e->format == RdmaPacketExt::Format::Coalesced ? e : nullptr;
}

}  // namespace gpusc::multigpu
