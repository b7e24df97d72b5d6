// CtaPolicy: which SM runs which CTA of a kernel, the strategy a CtaScheduler delegates to
// (DESIGN §6). Chosen by name (CtaScheduler::Params::policy):
//   round-robin        RoundRobinCtaPolicy: GPGPU-Sim's global scheduler (papers 000, 001, and
//                      003's baseline MCM-GPU);
//   contiguous-groups  ContiguousGroupsCtaPolicy: the grid split into one contiguous group per
//                      block, a block's SMs run only its group (003 §5.2's distributed
//                      scheduler, MGPUSim's "partition" of 004 §5);
//   greedy             GreedyCtaPolicy: each CTA to the lowest-numbered SM with room (004 §5).
// A policy sees the SMs only through Sms, once per scheduler cycle; it never touches an SM's
// hooks. Blocks: block_of_sm[s] is the block of SM s (ids 0 .. blocks-1); a platform gives it.
#pragma once
#include <memory>
#include <string>
#include <vector>

namespace gpusc {

class CtaPolicy {
 public:
  // The SMs as the scheduler offers them in one cycle (SM ids 0 .. count()-1).
  class Sms {
   public:
    virtual unsigned count() const = 0;
    // A CTA of the running kernel fits SM `sm` now (CTA, warp and thread limits).
    virtual bool can_launch(unsigned sm) const = 0;
    // Makes CTA `cta` of the running kernel resident on SM `sm` (only after can_launch(sm)).
    virtual void launch(unsigned sm, unsigned cta) = 0;

   protected:
    ~Sms() = default;
  };

  CtaPolicy() = default;
  CtaPolicy(const CtaPolicy&) = delete;
  CtaPolicy& operator=(const CtaPolicy&) = delete;
  virtual ~CtaPolicy() = default;

  // A kernel of `ctas` CTAs (ids 0 .. ctas-1) starts; the previous kernel's CTAs are all out.
  virtual void start_kernel(unsigned ctas) = 0;
  // Hands out this cycle's CTAs through sms.launch(); true when it launched at least one.
  virtual bool assign(Sms& sms) = 0;
  // CTAs of the running kernel not handed out yet.
  virtual unsigned pending() const = 0;
};

// A policy that hands the grid's CTAs out in index order (round-robin, greedy): next_ is the
// next CTA id, total_ the grid.
class InOrderCtaPolicy : public CtaPolicy {
 public:
  void start_kernel(unsigned ctas) override {
    next_ = 0;
    total_ = ctas;
  }
  unsigned pending() const override { return total_ - next_; }

 protected:
  unsigned next_ = 0, total_ = 0;
};

// The known policy names, "round-robin|contiguous-groups|greedy".
extern const char* const kCtaPolicies;
// The policy `name` for SMs whose blocks are block_of_sm (empty: one block of every SM; its
// size must then not matter, which holds for round-robin and greedy). An unknown name, or a
// block without an SM under contiguous-groups, is an error naming `where`.
std::unique_ptr<CtaPolicy> make_cta_policy(const std::string& name, unsigned sms, const std::vector<unsigned>& block_of_sm,
                                           const std::string& where = "cta.policy");

}  // namespace gpusc
