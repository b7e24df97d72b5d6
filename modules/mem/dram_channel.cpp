#include "mem/dram_channel.h"

#include "mem/memory_request.h"

#include <algorithm>

#include "common/mem_ext.h"
#include "common/report.h"

namespace gpusc {

namespace {
uint64_t minus(uint64_t a, unsigned b) { return a > b ? a - b : 0; }
}  // namespace

DramChannel::DramChannel(sc_core::sc_module_name name, const Params& p, ClockDomain& clk)
    : sc_core::sc_module(name),
      p_(p),
      fr_fcfs_(p.scheduler == "fr-fcfs"),
      banks_per_group_(p.bank_groups ? p.banks / p.bank_groups : 1),
      columns_(p.line_bytes ? p.row_bytes / p.line_bytes : 1),
      clk_(clk),
      local_([](uint64_t a) { return a; }),
      banks_(p.banks),
      group_col_ok_(p.bank_groups, 0),
      bank_flag_(p.banks, 0),
      reads_(stats_.counter("reads", Unit::Count, "reads served (column command issued)")),
      writes_(stats_.counter("writes", Unit::Count, "writes served (column command issued)")),
      row_hits_(stats_.counter("row_hits", Unit::Count, "requests served from the row already open")),
      row_misses_(stats_.counter("row_misses", Unit::Count, "requests that needed an activate of a closed bank")),
      row_conflicts_(stats_.counter("row_conflicts", Unit::Count, "requests that needed a precharge of another row")),
      activates_(stats_.counter("activates", Unit::Count, "ACT commands")),
      precharges_(stats_.counter("precharges", Unit::Count, "PRE commands")),
      bus_busy_(stats_.counter("data_bus_busy", Unit::Cycles, "DRAM cycles the data bus carried data")),
      queue_full_(stats_.counter("queue_full", Unit::Count,
                                  "requests refused because the queue (or the fixed-latency pipeline) was full")),
      read_latency_(stats_.average("read_latency", Unit::Cycles, "read acceptance to reply [DRAM cycles]")) {
  check_params();
  queue_.reserve(p_.queue);
  stats_.derived("queue_occupancy", Unit::Count, "held queue entries, time average over DRAM cycles", [this] {
    const uint64_t now = clk_.now();
    const double area = occ_area_ + static_cast<double>(occupancy()) * static_cast<double>(now - occ_since_);
    return now ? area / static_cast<double>(now) : 0.0;
  });
  stats_.derived("data_bus_utilization", Unit::Ratio, "data_bus_busy / elapsed DRAM cycles", [this] {
    const uint64_t now = clk_.now();
    return now ? static_cast<double>(bus_busy_.value()) / static_cast<double>(now) : 0.0;
  });
  stats_.invariant("reads + writes == row_hits + row_misses + row_conflicts", [this] {
    return reads_.value() + writes_.value() == row_hits_.value() + row_misses_.value() + row_conflicts_.value();
  });
  in.set_accept([this](tlm::tlm_generic_payload& gp) { return accept(gp); });
  in.set_b_transport([this](tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
    MemExt& e = checked_memory_request(gp, this->name(), p_.line_bytes);
    if (e.kind == MemKind::Read) e.is_reply = true;
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  });
  out.on_accept([this] { clk_.wake_after_now(*this); });
}

void DramChannel::check_params() const {
  validate(p_, name());
  const std::string n = name();
  if (p_.banks % p_.bank_groups != 0)
    error(n, "banks (", p_.banks, ") must be a multiple of bank_groups (", p_.bank_groups, ")");
  if (p_.row_bytes % p_.line_bytes != 0)
    error(n, "row_bytes (", p_.row_bytes, ") must be a multiple of line_bytes (", p_.line_bytes, ")");
  if (p_.tRAS > p_.tRC)
    error(n, "tRAS (", p_.tRAS, ") must not exceed tRC (", p_.tRC, "): a row is activated at most once per tRC");
}

DramChannel::Coord DramChannel::decode(uint64_t global_addr) const {
  uint64_t x = local_(global_addr) / p_.line_bytes;
  const unsigned group = static_cast<unsigned>(x % p_.bank_groups);
  x /= p_.bank_groups;
  const unsigned column = static_cast<unsigned>(x % columns_);
  x /= columns_;
  const unsigned in_group = static_cast<unsigned>(x % banks_per_group_);
  return Coord{group * banks_per_group_ + in_group, x / banks_per_group_, column};
}

bool DramChannel::accept(tlm::tlm_generic_payload& gp) {
  const MemExt& e = checked_memory_request(gp, this->name(), p_.line_bytes);
  if (p_.fixed_latency ? pipe_.size() >= p_.fixed_latency : occupancy() >= p_.queue) {
    ++queue_full_;
    return false;
  }
  const uint64_t now = clk_.now();
  const Coord c = decode(gp.get_address());
  const Req r{&gp, now, clk_.cycle_after(sc_core::sc_time_stamp()) + p_.fixed_latency, c.row, c.bank,
              e.kind == MemKind::Write, kHit};
  if (p_.fixed_latency) {
    pipe_.push_back(r);
  } else {
    note_occupancy(now);
    queue_.push_back(r);
  }
  clk_.wake(*this, r.ready);
  return true;
}

bool DramChannel::admit(uint64_t cycle) {
  bool moved = false;
  while (!pipe_.empty() && pipe_.front().ready <= cycle && occupancy() < p_.queue) {
    note_occupancy(cycle);
    queue_.push_back(pipe_.front());
    queue_.back().ready = cycle;
    pipe_.pop_front();
    moved = true;
  }
  return moved;
}

void DramChannel::note_occupancy(uint64_t cycle) {
  if (cycle > occ_since_) {
    occ_area_ += static_cast<double>(occupancy()) * static_cast<double>(cycle - occ_since_);
    occ_since_ = cycle;
  }
}

bool DramChannel::tick(uint64_t cycle) {
  retire(cycle);
  if (admit(cycle)) in.retry();  // a withheld request may take the freed stage
  uint64_t next = UINT64_MAX;
  // The pipeline's head needs a queue entry; while the queue is full a retire frees one.
  if (!pipe_.empty() && occupancy() < p_.queue) next = pipe_.front().ready;
  if (!queue_.empty()) {
    scan(cycle, true);
    next = std::min(next, scan(cycle + 1, false));  // earliest legal command after this cycle's
  }
  if (!flight_.empty() && (flight_.front().write || !out.busy())) next = std::min(next, flight_.front().done);
  if (next == UINT64_MAX) return false;  // idle, or waiting for `out` (on_accept wakes us)
  next = std::max(next, cycle + 1);
  if (next == cycle + 1) return true;
  clk_.wake(*this, next);
  return false;
}

// Completed requests leave in data-bus order: reads as replies, writes released.
void DramChannel::retire(uint64_t cycle) {
  bool freed = false;
  while (!flight_.empty() && flight_.front().done <= cycle) {
    const Flight f = flight_.front();
    if (!f.write && out.busy()) break;
    note_occupancy(cycle);
    flight_.pop_front();
    freed = true;
    if (f.write) {
      f.gp->release();
      continue;
    }
    read_latency_.add(static_cast<double>(cycle - f.accepted));
    f.gp->get_extension<MemExt>()->is_reply = true;
    f.gp->set_response_status(tlm::TLM_OK_RESPONSE);
    out.send(*f.gp);  // handed over even if the L2 withholds END_REQ
  }
  if (freed) in.retry();  // a withheld request may take the freed entry
}

// Earliest cycle each eligible request's next command is legal; with `issue`, issues the
// winner of this cycle (one command per cycle). Returns the earliest legal cycle seen.
uint64_t DramChannel::scan(uint64_t cycle, bool issue_now) {
  std::fill(bank_flag_.begin(), bank_flag_.end(), 0);
  if (fr_fcfs_)
    for (const Req& r : queue_)
      if (r.ready <= cycle && banks_[r.bank].open && banks_[r.bank].row == r.row) bank_flag_[r.bank] = 1;
  uint64_t earliest = UINT64_MAX;
  size_t hit = SIZE_MAX, other = SIZE_MAX;
  Cmd other_cmd = Cmd::Act;
  for (size_t i = 0; i < queue_.size(); ++i) {
    const Req& r = queue_[i];
    if (r.ready > cycle) {
      earliest = std::min(earliest, r.ready);
      continue;
    }
    if (!fr_fcfs_) {
      if (bank_flag_[r.bank]) continue;  // an older request to this bank goes first
      bank_flag_[r.bank] = 1;
    }
    Cmd cmd;
    uint64_t at;
    next_command(r, cmd, at);
    if (fr_fcfs_ && cmd == Cmd::Pre && bank_flag_[r.bank]) continue;  // hits of the open row first
    earliest = std::min(earliest, at);
    if (at > cycle) continue;
    if (cmd == Cmd::Col) {
      hit = i;
      break;
    }
    if (other == SIZE_MAX) {
      other = i;
      other_cmd = cmd;
    }
    if (!fr_fcfs_) break;  // fcfs: the oldest legal command, whatever its kind
  }
  if (issue_now) {
    if (hit != SIZE_MAX) issue(hit, Cmd::Col, cycle);
    else if (other != SIZE_MAX) issue(other, other_cmd, cycle);
  }
  return earliest;
}

void DramChannel::next_command(const Req& r, Cmd& cmd, uint64_t& at) const {
  const Bank& b = banks_[r.bank];
  if (!b.open) {
    cmd = Cmd::Act;
    at = std::max(b.act_ok, act_any_);
  } else if (b.row != r.row) {
    cmd = Cmd::Pre;
    at = b.pre_ok;
  } else {
    cmd = Cmd::Col;
    at = std::max({b.col_ok, col_any_, group_col_ok_[group_of(r.bank)]});
    at = r.write ? std::max(at, minus(bus_free_, p_.tWL)) : std::max({at, rd_ok_, minus(bus_free_, p_.tCL)});
  }
}

void DramChannel::issue(size_t i, Cmd cmd, uint64_t c) {
  Req& r = queue_[i];
  Bank& b = banks_[r.bank];
  if (cmd == Cmd::Act) {
    b.open = true;
    b.row = r.row;
    b.col_ok = c + p_.tRCD;
    b.pre_ok = std::max(b.pre_ok, c + p_.tRAS);
    b.act_ok = c + p_.tRC;
    act_any_ = c + p_.tRRD;
    ++activates_;
    if (r.cause == kHit) r.cause = kMiss;
    return;
  }
  if (cmd == Cmd::Pre) {
    b.open = false;
    b.act_ok = std::max(b.act_ok, c + p_.tRP);
    ++precharges_;
    r.cause = kConflict;
    return;
  }
  // Column command: the whole line crosses the data bus right after the previous transfer.
  const uint64_t done = c + (r.write ? p_.tWL : p_.tCL) + p_.burst_cycles;
  bus_free_ = done;
  bus_busy_ += p_.burst_cycles;
  col_any_ = c + p_.tCCD;
  group_col_ok_[group_of(r.bank)] = c + p_.tCCDL;
  if (r.write) {
    b.pre_ok = std::max(b.pre_ok, done + p_.tWR);
    rd_ok_ = std::max(rd_ok_, done + p_.tCDLR);
    ++writes_;
  } else {
    b.pre_ok = std::max(b.pre_ok, c + p_.burst_cycles);
    ++reads_;
  }
  ++(r.cause == kHit ? row_hits_ : r.cause == kMiss ? row_misses_ : row_conflicts_);
  flight_.push_back(Flight{r.gp, r.accepted, done, r.write});
  queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(i));
}

}  // namespace gpusc
