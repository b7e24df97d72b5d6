// AtInitiatorBridge: the boundary adapter from gpusc's internal message convention
// (common/msg_port.h) to a standard approximately-timed base-protocol initiator (IEEE 1666-2011
// ch. 14-16; DESIGN §3; docs/tlm.md). Bind a gpusc request sender to in and a gpusc reply
// receiver to out; bind socket to any third-party AT (or 4-phase / 2-phase / early-completing)
// target: a DRAM model, a vendor interconnect, an RTL wrapper. Typical uses: the memory side of a
// MemoryPartition (memory = "external": L2 misses out, fills back in), or a GpuBlock's request
// boundary (out(kRequest) -> in, out -> in(kReply)).
//
// Each request message becomes one transaction on socket, with the message's payload as the
// transaction object (gpusc payloads are pooled and carry a memory manager; the bridge holds the
// message's reference for the whole transaction, so the count is > 0 while it is open). Before
// BEGIN_REQ the bridge makes the payload a well-formed request: response status
// TLM_INCOMPLETE_RESPONSE, DMI allowed false, and a valid data pointer (an internal payload that
// carries no values has a null one: the bridge lends it a zeroed buffer of data_length bytes
// for the transaction and restores the null pointer after; so without attached memory values an
// external memory sees zero write data and its read data is dropped, gpusc's timing being the
// same either way). MemExt stays attached (an ignorable extension: a target may ignore it).
// A write whose MemExt word_mask selects words that are not one run from the address (an SM's
// partial store: data packed one 4 B word per set bit) is sent unpacked, as the standard needs:
// data_length 4 x (highest selected word + 1) from the line address, each word at its place, and
// byte enables 0xff on the selected words and 0x00 elsewhere; message data and length are
// restored after. (An atomic leaves a block as such a write: the base protocol has no
// read-modify-write command; a target sees a write.)
// `address` (optional) maps the gpusc address to the target's (e.g. a partition-local one); the
// gpusc address is restored after the transaction.
// Phases: every legal target answer is accepted: TLM_COMPLETED (early completion), TLM_UPDATED
// with END_REQ or BEGIN_RESP, TLM_ACCEPTED then END_REQ and/or BEGIN_RESP on the backward path
// (BEGIN_RESP may end the request phase). The bridge answers END_REQ and BEGIN_RESP with
// TLM_ACCEPTED and sends END_RESP itself when out is free to take the reply (so a full gpusc
// receiver back-pressures the target's responses), then hands the reply on. Timing annotations are honoured: a phase
// annotated with delay t takes effect at sc_time_stamp() + t. Nothing is ever called back from
// inside the target's own call (no nested nb_transport): the bridge acts from its own process.
// Request exclusion: one BEGIN_REQ at a time; a further request message waits (is refused, and
// retried) until END_REQ; at most max_outstanding transactions are open at once.
// Completion: a response status other than TLM_OK_RESPONSE is an error naming the bridge and the
// status. `reply` decides what a completed transaction becomes: true = a reply message (it has
// set MemExt itself) sent on out, false = consumed (the bridge releases the payload).
// reads_reply (the memory side: reads come back as fills, writes are absorbed, as gpusc's own
// DRAM models do) and all_reply (every request is answered, as an L2 answers: read data, write
// ack, atomic old value) are the two policies gpusc needs.
// Loosely-timed path: b_transport on in (a cache's functional access) becomes b_transport on
// socket with the same well-formed payload, address map and status check; `reply` then sets the
// reply fields and the caller keeps the payload.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>

#include "common/msg_port.h"

namespace gpusc {

class AtInitiatorBridge : public sc_core::sc_module, private tlm::tlm_bw_transport_if<> {
 public:
  using Reply = std::function<bool(tlm::tlm_generic_payload&)>;
  using Address = std::function<uint64_t(uint64_t)>;
  struct Params {
    unsigned max_outstanding = 16;  // transactions open on socket at once (>= 1)
  };

  MsgIn in{"in"};     // request messages from gpusc
  MsgOut out{"out"};  // reply messages to gpusc
  tlm::tlm_initiator_socket<32> socket{"socket"};  // the base protocol, toward the third-party target

  AtInitiatorBridge(sc_core::sc_module_name name, const Params& p, Reply reply, Address address = {});

  static bool reads_reply(tlm::tlm_generic_payload& gp);  // memory side
  static bool all_reply(tlm::tlm_generic_payload& gp);    // request boundary of a block

  uint64_t transactions() const { return begun_; }
  size_t open() const { return open_.size(); }

 private:
  struct Open {
    uint64_t addr;                  // gpusc address, restored at the end
    unsigned char* data;            // the message's own data pointer (null: no values)
    std::vector<unsigned char> lent;  // buffer lent for the transaction when data was null
    bool end_req = false;
    unsigned len = 0;                 // the message's own data length
    std::vector<unsigned char> be;    // byte enables of an unpacked word-masked write
  };
  enum class Ev : uint8_t { EndReq, BeginResp, Completed };
  struct Done {
    tlm::tlm_generic_payload* gp;
    bool end_resp;  // its response phase is open: END_RESP before handing it on
  };

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
  bool accept(tlm::tlm_generic_payload& gp);
  Open prepare(tlm::tlm_generic_payload& gp);  // a well-formed request; what to restore after
  void restore(tlm::tlm_generic_payload& gp, Open& o);  // checks the response status
  void begin(tlm::tlm_generic_payload& gp);
  void lt(tlm::tlm_generic_payload& gp, sc_core::sc_time& t);  // in's b_transport
  void post(tlm::tlm_generic_payload& gp, Ev ev, const sc_core::sc_time& t);
  void pump();  // SC_METHOD: applies due events, hands replies on, ends responses
  void finish(const Done& d);

  const Params p_;
  Reply reply_;
  Address address_;
  std::unordered_map<tlm::tlm_generic_payload*, Open> open_;
  std::vector<std::vector<unsigned char>> spare_;  // lent buffers to reuse
  tlm::tlm_generic_payload* starting_ = nullptr;   // taken from in, BEGIN_REQ not sent yet
  tlm::tlm_generic_payload* in_req_ = nullptr;     // transaction in its request phase
  std::multimap<sc_core::sc_time, std::pair<tlm::tlm_generic_payload*, Ev>> due_;
  std::deque<Done> done_;             // completed, waiting to be handed on (in order)
  sc_core::sc_event wake_;
  uint64_t begun_ = 0;
};

}  // namespace gpusc
