#include "platforms/paper_stages.h"

#include "coalesce/coalesce_stages.h"
#include "critical/critical_stages.h"
#include "probe/probe_stages.h"

namespace gpusc {

McStageRegistry paper_mc_stages() {
  McStageRegistry r;
  register_coalesce_stages(r);
  register_critical_stages(r);
  register_probe_mc_stages(r);
  return r;
}

}  // namespace gpusc

namespace gpusc {

SmFrontRegistry paper_sm_front_stages() {
  SmFrontRegistry r;
  register_critical_front_stages(r);
  register_probe_stages(r);
  return r;
}

}  // namespace gpusc
