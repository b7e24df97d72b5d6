#include "cache_fixture.h"

#include "common/stats.h"

namespace gpusc::tb {

MemModel::MemModel(sc_core::sc_module_name name, ClockDomain& clk, unsigned latency, bool ack_writes)
    : sc_core::sc_module(name), clk_(clk), latency_(latency), ack_writes_(ack_writes) {
  in.set_accept([this](Payload& gp) {
    MemExt& e = *gp.get_extension<MemExt>();
    log_.push_back({clk_.now(), gp.get_address(), e.kind, gp.get_data_length(), e});
    if (e.kind == MemKind::Write && !ack_writes_) {
      gp.release();
      return true;
    }
    e.is_reply = true;
    e.dst = e.src;
    q_.emplace_back(clk_.now() + latency_, &gp);
    clk_.wake(*this, q_.front().first);
    return true;
  });
  in.set_b_transport([this](Payload& gp, sc_core::sc_time&) {
    MemExt& e = *gp.get_extension<MemExt>();
    log_.push_back({clk_.now(), gp.get_address(), e.kind, gp.get_data_length(), e});
    e.is_reply = true;
    e.dst = e.src;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  });
  out.on_accept([this] { clk_.wake_after_now(*this); });
}

std::vector<MemModel::Req> MemModel::of_kind(MemKind k) const {
  std::vector<Req> r;
  for (const Req& q : log_)
    if (q.kind == k) r.push_back(q);
  return r;
}

bool MemModel::tick(uint64_t cycle) {
  if (q_.empty() || out.busy()) return false;
  if (q_.front().first > cycle) {
    clk_.wake(*this, q_.front().first);
    return false;
  }
  Payload* gp = q_.front().second;
  q_.pop_front();
  out.send(*gp);
  return !q_.empty();
}

Bench::Bench(sc_core::sc_module_name name, const Cache::Params& p, unsigned mem_latency, bool ack_writes,
             unsigned up_depth)
    : sc_core::sc_module(name),
      cache("cache", p, clk, kCacheNode),
      up("up", clk, up_depth),
      mem("mem", clk, mem_latency, ack_writes) {
  sm.out.bind(cache.up_in);
  cache.up_out.bind(up.in);
  cache.down_out.bind(mem.in);
  mem.out.bind(cache.down_in);
  cache.set_route([](Payload&, MemExt& e) { e.dst = kMcNode; });
}

void Bench::req(uint64_t cycle, MemKind k, uint64_t addr, uint64_t tag, uint32_t sectors) {
  sm.at(cycle, [=](Payload& gp, MemExt& e) {
    e.kind = k;
    e.src = kSmNode;
    e.pc = tag;
    e.warp = static_cast<uint32_t>(tag % 48);
    e.sector_mask = sectors;
    e.word_mask = k == MemKind::Read ? 0xffffffffu : k == MemKind::Write ? 0x3u : 0x1u;
    gp.set_address(addr);
    gp.set_command(k == MemKind::Read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
    gp.set_data_length(k == MemKind::Read ? 128 : k == MemKind::Write ? 8 : 4);
  });
}

ManualBench::ManualBench(sc_core::sc_module_name name, const Cache::Params& p)
    : sc_core::sc_module(name), cache("cache", p, clk, kCacheNode) {
  sm.out.bind(cache.up_in);
  cache.up_out.bind(up.in);
  cache.down_out.bind(down.in);
  below.out.bind(cache.down_in);
}

uint64_t stat(const Cache& c, const std::string& n) {
  return collect_stats()["stats"][std::string(c.name()) + "." + n].get<uint64_t>();
}

std::vector<std::string> invariant_failures() {
  return collect_stats()["invariant_failures"].get<std::vector<std::string>>();
}

Cache::Params l2_params() {
  Cache::Params p;
  p.write_policy = "write-back";
  p.sectored = true;
  p.sets = 2;
  p.ways = 2;
  return p;
}

}  // namespace gpusc::tb
