// BaseProtocolChecker: a pass-through monitor for one TLM-2.0 link that checks the
// approximately-timed base protocol of IEEE 1666-2011 chapters 14-16 (issue 17; DESIGN §3). Put
// it between an initiator socket and a target socket (initiator -> checker.target_socket,
// checker.initiator_socket -> target): every call is forwarded unchanged, both ways, and checked.
// It is a verification unit, not hardware: no clock, no delay, no change to what passes.
//
// What it checks (rules as this unit reads them from the standard's text; its own code):
//  Phases, per transaction (one payload object = one transaction while it is open):
//   - fw carries only BEGIN_REQ (opens) and END_RESP (only in the response phase); bw carries
//     only END_REQ (only in the request phase) and BEGIN_RESP (request phase or after END_REQ;
//     in the request phase it ends it).
//   - the return value and the phase argument agree: TLM_ACCEPTED leaves the phase unchanged;
//     TLM_UPDATED moves it one legal step (BEGIN_REQ -> END_REQ or BEGIN_RESP; END_REQ ->
//     BEGIN_RESP; BEGIN_RESP -> END_RESP); TLM_COMPLETED ends the transaction; END_RESP must be
//     answered TLM_COMPLETED; END_REQ must not be answered TLM_UPDATED.
//   - a payload is in at most one open transaction on this link (BEGIN_REQ of an open one).
//  Exclusion rules, per link: no BEGIN_REQ while another transaction is in its request phase,
//   no BEGIN_RESP while another is in its response phase.
//  Timing: per transaction, the time each phase takes effect (sc_time_stamp() + annotation) never
//   goes backwards (a later phase cannot take effect before an earlier one). Ordering across
//   different transactions is not checked (the base protocol allows out-of-order responses).
//  Payload at BEGIN_REQ (and at b_transport): response status TLM_INCOMPLETE_RESPONSE; command
//   read, write or ignore; a non-null data pointer and a data length > 0 for read and write;
//   streaming width > 0; byte enable length > 0 when a byte enable pointer is set; DMI allowed
//   false; with a memory manager, a reference count > 0 (the initiator holds a reference).
//  While open: the initiator's attributes (command, address, data pointer and length, byte enable
//   pointer and length, streaming width) are unchanged; every extension set at BEGIN_REQ is still
//   set; when the target answers (BEGIN_RESP or TLM_COMPLETED, or b_transport returns) the
//   response status is no longer TLM_INCOMPLETE_RESPONSE; with a memory manager the reference
//   count stays > 0 while the transaction is open.
// Reporting: by default a violation is an SC_REPORT_ERROR naming the checker, the rule and the
// payload; set_fatal(false) records it instead (violations()) so a test can check what was found.
// The checker forwards get_direct_mem_ptr and transport_dbg unchecked.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>

namespace gpusc {

class BaseProtocolChecker : public sc_core::sc_module,
                            private tlm::tlm_fw_transport_if<>,
                            private tlm::tlm_bw_transport_if<> {
 public:
  tlm::tlm_target_socket<32> target_socket{"target_socket"};        // bind the initiator here
  tlm::tlm_initiator_socket<32> initiator_socket{"initiator_socket"};  // bind this to the target

  explicit BaseProtocolChecker(sc_core::sc_module_name name);

  void set_fatal(bool f) { fatal_ = f; }
  const std::vector<std::string>& violations() const { return violations_; }
  uint64_t transactions() const { return begun_; }      // BEGIN_REQs seen (nb and b_transport)
  uint64_t completed() const { return completed_; }     // transactions that ended
  size_t open() const { return open_.size(); }         // transactions open now
  // Phase-sequence shapes seen, for a test to check that a style was really exercised.
  uint64_t early_completions() const { return early_; }     // TLM_COMPLETED on BEGIN_REQ
  uint64_t end_req_updates() const { return upd_end_req_; } // TLM_UPDATED + END_REQ on BEGIN_REQ
  uint64_t resp_before_end_req() const { return resp_first_; } // BEGIN_RESP ending the request phase
  uint64_t end_resp_from_initiator() const { return end_resp_fw_; }

 private:
  enum class St : uint8_t { Req, WaitResp, Resp };
  struct Snapshot {
    tlm::tlm_command cmd;
    uint64_t addr;
    unsigned char* data;
    unsigned len;
    unsigned char* be;
    unsigned be_len;
    unsigned width;
    std::vector<unsigned> exts;  // extension slots set at BEGIN_REQ
  };
  struct Tx {
    St st = St::Req;
    sc_core::sc_time last;  // effective time of the latest phase
    Snapshot snap;
  };

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t) override;
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& t) override;
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& t) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& d) override;
  unsigned int transport_dbg(tlm::tlm_generic_payload& gp) override;
  void invalidate_direct_mem_ptr(sc_dt::uint64 a, sc_dt::uint64 b) override;

  void check_request(const tlm::tlm_generic_payload& gp, const char* where);
  void check_unchanged(const tlm::tlm_generic_payload& gp, const Tx& tx, const char* where);
  void check_answered(const tlm::tlm_generic_payload& gp, const char* where);
  Snapshot snapshot(const tlm::tlm_generic_payload& gp) const;
  void advance(Tx& tx, const tlm::tlm_generic_payload& gp, const sc_core::sc_time& t, const char* where);
  // Applies phase `ph` (already known legal from state) to the transaction.
  void enter(tlm::tlm_generic_payload& gp, Tx& tx, tlm::tlm_phase ph, const sc_core::sc_time& t, const char* where);
  void finish(tlm::tlm_generic_payload& gp, const char* where);
  template <class... A> void violation(const tlm::tlm_generic_payload* gp, const A&... parts);

  bool fatal_ = true;
  std::vector<std::string> violations_;
  std::unordered_map<const tlm::tlm_generic_payload*, Tx> open_;
  const tlm::tlm_generic_payload* in_req_ = nullptr;   // transaction in its request phase
  const tlm::tlm_generic_payload* in_resp_ = nullptr;  // transaction in its response phase
  uint64_t begun_ = 0, completed_ = 0, early_ = 0, upd_end_req_ = 0, resp_first_ = 0, end_resp_fw_ = 0;
};

}  // namespace gpusc
