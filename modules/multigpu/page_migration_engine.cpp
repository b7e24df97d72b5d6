#include "multigpu/page_migration_engine.h"

#include "common/report.h"

namespace gpusc::multigpu {

PageMigrationEngine::PageMigrationEngine(sc_core::sc_module_name name, const Params& p, unsigned gpus,
                                         uint64_t page_bytes, ClockDomain& clk, Hooks hooks)
    : sc_core::sc_module(name),
      p_(p),
      gpus_(gpus),
      page_bytes_(page_bytes),
      clk_(clk),
      hooks_(std::move(hooks)),
      faults_(stats_.counter("faults", Unit::Count, "accesses that found their page remote and not pinned (one per page)")),
      migrations_(stats_.counter("migrations", Unit::Count, "pages moved")),
      busy_cycles_(stats_.counter("busy_cycles", Unit::Cycles, "cycles with a migration in progress")),
      fault_phase_(stats_.average("fault_cycles", Unit::Cycles, "per migration: fault phase")),
      drain_phase_(stats_.average("drain_cycles", Unit::Cycles, "per migration: waiting for the drain")),
      shootdown_phase_(stats_.average("shootdown_cycles", Unit::Cycles, "per migration: shoot-down command")),
      flush_phase_(stats_.average("flush_cycles", Unit::Cycles, "per migration: waiting for the owner's flush")),
      transfer_phase_(stats_.average("transfer_cycles", Unit::Cycles, "per migration: transfer and restart")),
      all_(gpus, 0),
      remote_(gpus, 0) {
  validate(p_, this->name());
  if (gpus_ < 2) error(this->name(), "needs at least 2 GPUs, got ", gpus_);
  if (page_bytes_ == 0) error(this->name(), "page_bytes must be positive");
  if (!hooks_.owner || !hooks_.move || !hooks_.flush || !hooks_.flushed)
    error(this->name(), "every hook (owner, move, flush, flushed) must be given");
  stats_.invariant("no request in flight is counted below zero", [this] {
    for (unsigned g = 0; g < gpus_; ++g)
      if (remote_[g] > all_[g]) return false;
    return true;
  });
}

bool PageMigrationEngine::check(unsigned gpu, uint64_t addr) {
  if (gpu >= gpus_) error(name(), "a request from GPU ", gpu, ", but there are ", gpus_);
  const uint64_t page = addr / page_bytes_;
  if (pending_.count(page)) return false;  // queued or migrating: wait for it
  const unsigned owner = hooks_.owner(addr);
  if (owner != gpu && !pinned_.count(page)) {  // a fault: this GPU will own the page
    pending_.insert(page);
    queue_.push_back(Fault{page, gpu});
    ++faults_;
    emit(Event::Fault, page, owner, gpu);
    if (phase_ == Phase::Idle) clk_.wake_after_now(*this);
    return false;
  }
  if (phase_ == Phase::Idle || phase_ == Phase::Fault) return true;
  // Drain through transfer: no remote request leaves any GPU, no request leaves the owner.
  return owner == gpu && gpu != owner_;
}

void PageMigrationEngine::sent(unsigned gpu, bool remote) {
  ++all_.at(gpu);
  if (remote) ++remote_[gpu];
}

void PageMigrationEngine::replied(unsigned gpu, bool remote) {
  if (all_.at(gpu) == 0 || (remote && remote_[gpu] == 0))
    error(name(), "GPU ", gpu, " reported a reply with nothing of its kind in flight");
  --all_[gpu];
  if (remote) --remote_[gpu];
}

bool PageMigrationEngine::drained() const {
  if (all_[owner_] != 0) return false;
  for (unsigned g = 0; g < gpus_; ++g)
    if (remote_[g] != 0) return false;
  return true;
}

void PageMigrationEngine::enter(Phase ph, uint64_t cycle) {
  const double spent = static_cast<double>(cycle - phase_start_);
  switch (phase_) {
    case Phase::Fault: fault_phase_.add(spent); break;
    case Phase::Drain: drain_phase_.add(spent); break;
    case Phase::Shootdown: shootdown_phase_.add(spent); break;
    case Phase::Flush: flush_phase_.add(spent); break;
    case Phase::Transfer: transfer_phase_.add(spent); break;
    case Phase::Idle: break;
  }
  phase_ = ph;
  phase_start_ = cycle;
}

bool PageMigrationEngine::tick(uint64_t cycle) {
  if (phase_ != Phase::Idle) ++busy_cycles_;
  switch (phase_) {
    case Phase::Idle: {
      if (queue_.empty()) return false;
      const Fault& f = queue_.front();
      owner_ = hooks_.owner(f.page * page_bytes_);
      enter(Phase::Fault, cycle);
      until_ = cycle + p_.fault_cycles;
      emit(Event::Start, f.page, owner_, f.gpu);
      return true;
    }
    case Phase::Fault:
      if (cycle < until_) return true;
      enter(Phase::Drain, cycle);
      [[fallthrough]];
    case Phase::Drain:
      if (!drained()) return true;
      enter(Phase::Shootdown, cycle);
      until_ = cycle + p_.shootdown_cycles;
      [[fallthrough]];
    case Phase::Shootdown:
      if (cycle < until_) return true;
      hooks_.flush(owner_, queue_.front().page * page_bytes_, p_.flush_scope == "page");
      enter(Phase::Flush, cycle);
      return true;  // the flush's write-backs are queued from the next edge
    case Phase::Flush:
      if (!hooks_.flushed(owner_)) return true;
      enter(Phase::Transfer, cycle);
      until_ = cycle + p_.transfer_cycles;
      [[fallthrough]];
    case Phase::Transfer:
      if (cycle < until_) return true;
      finish(cycle);
      return !queue_.empty();
  }
  return false;
}

void PageMigrationEngine::finish(uint64_t cycle) {
  const Fault f = queue_.front();
  queue_.pop_front();
  enter(Phase::Idle, cycle);
  hooks_.move(f.page * page_bytes_, f.gpu);
  pinned_.insert(f.page);
  pending_.erase(f.page);
  ++migrations_;
  emit(Event::Moved, f.page, owner_, f.gpu);
  wake_stages();
}

void PageMigrationEngine::emit(Event::Kind k, uint64_t page, unsigned from, unsigned to) {
  const Event e{k, page, from, to, clk_.now()};
  for (const auto& o : obs_) o(e);
}

void PageMigrationEngine::wake_stages() {
  for (const auto& w : wake_) w();
}

}  // namespace gpusc::multigpu
