#include "multigpu/mask_mshr_stage.h"

#include <cstring>

#include "common/mem_ext.h"
#include "common/report.h"
#include "mem/cache.h"
#include "multigpu/rdma_packet.h"

namespace gpusc::multigpu {

MaskMshrStage::MaskMshrStage(sc_core::sc_module_name name, const Params& p, ClockDomain& clk, Cache& l1, Bypass bypass)
    : sc_core::sc_module(name),
      p_(p),
      clk_(clk),
      bypass_(std::move(bypass)),
      mshr_(p.mshr, std::string(this->name()) + ".mshr"),
      bypassed_n_(stats_.counter("bypassed", Unit::Count, "reads the SCBU sent around the L1")),
      allocations_(stats_.counter("allocations", Unit::Count, "fine-grained reads sent below (cases B and C)")),
      case_b_(stats_.counter("case_b", Unit::Count, "allocations for a line already in flight with another mask")),
      merges_(stats_.counter("merges", Unit::Count, "reads merged into an in-flight entry (case A)")),
      refused_(stats_.counter("refused", Unit::Count, "cycles a bypassed read waited for an entry")),
      responses_(stats_.counter("responses", Unit::Count, "fine-grained responses received")),
      merged_replies_(stats_.counter("merged_replies", Unit::Count, "replies made for merged reads")) {
  validate(p_, this->name());
  if (l1.params().line_bytes / p_.word_bytes != p_.mshr.mask_bits)
    error(this->name(), "mshr.mask_bits = ", p_.mshr.mask_bits, " but the L1's ", l1.params().line_bytes, " B lines hold ",
          l1.params().line_bytes / p_.word_bytes, " words of ", p_.word_bytes, " B");
  const unsigned line = l1.params().line_bytes;
  if (p_.transfer_bytes % p_.word_bytes || (p_.transfer_bytes & (p_.transfer_bytes - 1)) || p_.transfer_bytes > line)
    error(this->name(), "transfer_bytes = ", p_.transfer_bytes, " must be a power of two from word_bytes = ",
          p_.word_bytes, " to the line (", line, " B)");
  if (!bypass_) error(this->name(), "needs the SCBU's bypass decision");
  l1.set_bypass([this](const tlm::tlm_generic_payload& gp) {
    if (!bypass_(gp)) return false;
    bypassed_.insert(&gp);  // asked again while the L1 waits for room: the same entry
    return true;
  });
  from_l1_.set_accept([this](tlm::tlm_generic_payload& gp) { return accept_request(gp); });
  from_net_.set_accept([this](tlm::tlm_generic_payload& gp) { return accept_reply(gp); });
  to_net_.on_accept([this] { clk_.wake_after_now(*this); });
  to_l1_.on_accept([this] { clk_.wake_after_now(*this); });
}

bool MaskMshrStage::accept_request(tlm::tlm_generic_payload& gp) {
  const uint64_t at = clk_.cycle_after(sc_core::sc_time_stamp());
  auto it = bypassed_.find(&gp);
  if (it == bypassed_.end()) {  // not fine-grained: passes through
    if (down_.size() >= p_.queue) return false;
    down_.push_back(Timed{at, &gp});
    clk_.wake(*this, at);
    return true;
  }
  if (down_.size() >= p_.queue) return false;
  MemExt& e = mem_ext(gp, name());
  const uint64_t line_bytes = uint64_t{p_.mshr.mask_bits} * p_.word_bytes;
  const uint64_t line = gp.get_address() & ~(line_bytes - 1);
  if (!e.word_mask) e.word_mask = static_cast<uint32_t>(full_mask());
  const uint64_t mask = widen(e.word_mask);
  const MaskAwareMshr::Result r = mshr_.access(line, mask, reinterpret_cast<uint64_t>(&gp));
  if (r.what == MaskAwareMshr::Case::Full) {
    ++refused_;
    return false;  // retried when a response frees an entry
  }
  bypassed_.erase(it);
  ++bypassed_n_;
  if (r.what == MaskAwareMshr::Case::A_Merge) {
    ++merges_;
    return true;
  }
  ++allocations_;
  if (r.what == MaskAwareMshr::Case::B_NewEntrySameLine) ++case_b_;
  if (mask != e.word_mask) {  // asks below for whole units; its own words are restored on the reply
    asked_[&gp] = e.word_mask;
    e.word_mask = static_cast<uint32_t>(mask);
  }
  set_rdma_id(gp, static_cast<uint16_t>(r.entry));
  down_.push_back(Timed{at, &gp});
  clk_.wake(*this, at);
  return true;
}

bool MaskMshrStage::accept_reply(tlm::tlm_generic_payload& gp) {
  const uint64_t at = clk_.cycle_after(sc_core::sc_time_stamp());
  const RdmaIdExt* id = rdma_id(gp);
  if (!id) {
    up_.push_back(Timed{at, &gp});
    clk_.wake(*this, at);
    return true;
  }
  // A fine-grained response: it answers the requests of its entry (itself first).
  ++responses_;
  const unsigned entry = id->id;
  clear_rdma_id(gp);
  const std::vector<uint64_t> tags = mshr_.fill(entry);
  if (tags.empty() || reinterpret_cast<tlm::tlm_generic_payload*>(tags.front()) != &gp)
    error(name(), "the response for MSHR entry ", entry, " is not the read that allocated it");
  MemExt& re = mem_ext(gp, name());
  unsigned char* data = gp.get_data_ptr();
  for (uint64_t t : tags) {
    auto* q = reinterpret_cast<tlm::tlm_generic_payload*>(t);
    if (q != &gp) {
      MemExt& e = mem_ext(*q, name());
      // Its words, in its mask's order, out of the response's packed words (its mask is a subset).
      const unsigned j = pick_words(re.word_mask, e.word_mask, data, q->get_data_ptr());
      e.is_reply = true;
      e.dst = e.src;
      e.t_done = re.t_done;
      e.t_mem_accept = re.t_mem_accept;  // the latency split: it shared the response's trip
      e.t_reply_inject = re.t_reply_inject;
      q->set_data_length(p_.word_bytes * j);
      q->set_response_status(tlm::TLM_OK_RESPONSE);
      ++merged_replies_;
    }
  }
  if (auto a = asked_.find(&gp); a != asked_.end()) {  // sent widened: keep only its own words
    const unsigned j = pick_words(re.word_mask, a->second, data, data);
    re.word_mask = a->second;
    gp.set_data_length(p_.word_bytes * j);
    gp.set_streaming_width(p_.word_bytes * j);
    asked_.erase(a);
  }
  for (uint64_t t : tags) up_.push_back(Timed{at, reinterpret_cast<tlm::tlm_generic_payload*>(t)});
  clk_.wake(*this, at);
  from_l1_.retry();  // an entry is free
  return true;
}

uint64_t MaskMshrStage::widen(uint64_t mask) const {
  const unsigned per = p_.transfer_bytes / p_.word_bytes;
  if (per == 1) return mask;
  const uint64_t unit = per >= 64 ? ~uint64_t{0} : (uint64_t{1} << per) - 1;
  uint64_t out = 0;
  for (unsigned i = 0; i < p_.mshr.mask_bits; i += per)
    if ((mask >> i) & unit) out |= unit << i;
  return out & full_mask();
}

unsigned MaskMshrStage::pick_words(uint64_t have, uint64_t want, const unsigned char* src, unsigned char* dst) const {
  unsigned k = 0, j = 0;
  for (unsigned w = 0; w < p_.mshr.mask_bits; ++w) {
    const bool in_have = (have >> w) & 1u, in_want = (want >> w) & 1u;
    if (in_want && src && dst && (dst != src || j != k))
      std::memmove(dst + p_.word_bytes * j, src + p_.word_bytes * k, p_.word_bytes);
    j += in_want;
    k += in_have;
  }
  return j;
}

bool MaskMshrStage::tick(uint64_t cycle) {
  bool more = false;
  if (!down_.empty() && !to_net_.busy()) {
    if (down_.front().at <= cycle) {
      tlm::tlm_generic_payload* gp = down_.front().gp;
      down_.pop_front();
      from_l1_.retry();
      to_net_.send(*gp);
    }
  }
  if (!up_.empty() && !to_l1_.busy()) {
    if (up_.front().at <= cycle) {
      tlm::tlm_generic_payload* gp = up_.front().gp;
      up_.pop_front();
      to_l1_.send(*gp);
    }
  }
  if (!down_.empty() && !to_net_.busy()) more = true;
  if (!up_.empty() && !to_l1_.busy()) more = true;
  return more;
}

bool MaskMshrStage::idle() const {
  return down_.empty() && up_.empty() && mshr_.in_use() == 0 && bypassed_.empty() && !to_net_.busy() &&
         !to_l1_.busy() && !from_l1_.has_pending() && !from_net_.has_pending();
}

void MaskMshrStage::summarize(json& s, const std::vector<const SmFrontStage*>& all) const {
  uint64_t alloc = 0, merges = 0;
  for (const SmFrontStage* st : all)
    if (auto* m = dynamic_cast<const MaskMshrStage*>(st)) {
      alloc += m->allocations();
      merges += m->merges();
    }
  s["fine_grained_reads_sent"] = alloc;
  s["fine_grained_mshr_merges"] = merges;
}

void register_mask_mshr_stage(SmFrontRegistry& registry, std::function<MaskMshrStage::Bypass(unsigned node)> bypass_for) {
  SmFrontRegistry::Entry e;
  e.description =
      "paper 004 coalescing mode at a CU: the SCBU sends remote reads around the L1, a mask-aware MSHR merges them "
      "(cases A/B/C) and sends fine-grained reads with a response ID; parameters sm_front.stage_params.mask_mshr";
  e.params = [](const json& given, const std::string& where) {
    return params_to_json(params_from_json<MaskMshrStage::Params>(given, where));
  };
  e.make = [bypass_for](const char* name, const json& params, const SmFrontContext& c) -> std::unique_ptr<SmFrontStage> {
    const auto p = params_from_json<MaskMshrStage::Params>(params, "sm_front.stage_params.mask_mshr");
    return std::make_unique<MaskMshrStage>(name, p, c.clk, c.l1, bypass_for(c.node));
  };
  registry.add("mask_mshr", std::move(e));
}

}  // namespace gpusc::multigpu
