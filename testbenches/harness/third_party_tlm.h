// Third-party TLM-2.0 models for conformance tests (issue 17): written as a user outside gpusc
// would write them, against the standard only (no gpusc header but for nothing: they use plain
// tlm sockets and the generic payload; MemExt, if present, is ignored).
//
// PlainMemory: a byte-array memory target of a chosen approximately-timed style:
//   EarlyCompletion  BEGIN_REQ -> TLM_COMPLETED, the latency in the annotation (2-phase LT-like)
//   UpdatedBeginResp BEGIN_REQ -> TLM_UPDATED(BEGIN_RESP), latency annotated; END_RESP expected
//   UpdatedEndReq    BEGIN_REQ -> TLM_UPDATED(END_REQ); BEGIN_RESP after the latency
//   FourPhase        BEGIN_REQ -> TLM_ACCEPTED; END_REQ after accept_delay (back-pressure when
//                    large); BEGIN_RESP after the latency (> accept_delay)
//   RespEndsReq      BEGIN_REQ -> TLM_ACCEPTED; BEGIN_RESP after the latency, no END_REQ
// Its size is `bytes` (addresses 0..bytes-1), stored sparsely (4 KB pages allocated on a write).
// Byte enables are honoured (repeating every byte enable length).
// Responses are sent one at a time (response exclusion); a BEGIN_RESP answered TLM_ACCEPTED
// waits for END_RESP. Out-of-range accesses complete with TLM_ADDRESS_ERROR_RESPONSE.
//
// PlainInitiator: a scripted initiator with its own memory manager (reference counted
// payloads), one request phase at a time, up to max_open transactions open, in a chosen style:
//   FourPhase        answers BEGIN_RESP TLM_ACCEPTED and sends END_RESP resp_delay later
//   TwoPhase         answers BEGIN_RESP TLM_COMPLETED
//   UpdatedEndResp   answers BEGIN_RESP TLM_UPDATED(END_RESP)
// Every request carries `annotate` as its BEGIN_REQ timing annotation.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>

namespace gpusc::tb {

// Ordered actions at absolute simulation times, run by one SC_METHOD of the owner.
class Agenda {
 public:
  void at(const sc_core::sc_time& when, std::function<void()> f);
  void run_due();  // call from the owner's method
  sc_core::sc_event& event() { return ev_; }

 private:
  std::multimap<sc_core::sc_time, std::function<void()>> q_;
  sc_core::sc_event ev_;
};

class PlainMemory : public sc_core::sc_module, private tlm::tlm_fw_transport_if<> {
 public:
  enum class Style { EarlyCompletion, UpdatedBeginResp, UpdatedEndReq, FourPhase, RespEndsReq };
  tlm::tlm_target_socket<32> socket{"socket"};
  PlainMemory(sc_core::sc_module_name name, Style style, uint64_t bytes, sc_core::sc_time latency,
              sc_core::sc_time accept_delay = sc_core::SC_ZERO_TIME);
  unsigned char byte(uint64_t address) const;
  uint64_t reads() const { return reads_; }
  uint64_t writes() const { return writes_; }
  uint64_t max_address() const { return max_addr_; }

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t) override;
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }
  void execute(tlm::tlm_generic_payload& gp);
  void respond(tlm::tlm_generic_payload* gp);  // queue a BEGIN_RESP
  void send_responses();
  void step();

  const Style style_;
  const uint64_t bytes_;
  std::map<uint64_t, std::vector<unsigned char>> pages_;  // sparse: 4 KB pages, zero until written
  const sc_core::sc_time latency_, accept_delay_;
  Agenda agenda_;
  std::vector<tlm::tlm_generic_payload*> resp_q_;
  tlm::tlm_generic_payload* resp_open_ = nullptr;
  uint64_t reads_ = 0, writes_ = 0, max_addr_ = 0;
};

class PlainInitiator : public sc_core::sc_module, private tlm::tlm_bw_transport_if<> {
 public:
  enum class Style { FourPhase, TwoPhase, UpdatedEndResp };
  struct Request {
    tlm::tlm_command cmd;
    uint64_t address;
    unsigned length;
    unsigned char fill = 0;  // write data: every byte
  };
  struct Response {
    uint64_t address;
    tlm::tlm_response_status status;
    std::vector<unsigned char> data;
    sc_core::sc_time at;
  };
  tlm::tlm_initiator_socket<32> socket{"socket"};
  PlainInitiator(sc_core::sc_module_name name, Style style, std::vector<Request> script, unsigned max_open = 4,
                 sc_core::sc_time annotate = sc_core::SC_ZERO_TIME,
                 sc_core::sc_time resp_delay = sc_core::sc_time(5, sc_core::SC_NS));
  ~PlainInitiator() override;
  const std::vector<Response>& responses() const { return done_; }
  bool finished() const { return done_.size() == script_.size(); }
  size_t payloads_in_use() const;  // memory manager: payloads not yet freed

 private:
  struct Mm;
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
  void issue();
  void complete(tlm::tlm_generic_payload& gp);
  void step();

  const Style style_;
  const std::vector<Request> script_;
  const unsigned max_open_;
  const sc_core::sc_time annotate_, resp_delay_;
  std::unique_ptr<Mm> mm_;
  Agenda agenda_;
  size_t next_ = 0;
  unsigned open_ = 0;
  tlm::tlm_generic_payload* in_req_ = nullptr;
  std::vector<Response> done_;
};

}  // namespace gpusc::tb
