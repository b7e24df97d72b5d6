#include "platforms/paper_stages.h"

#include "coalesce/coalesce_stages.h"
#include "critical/critical_stages.h"

namespace gpusc {

McStageRegistry paper_mc_stages() {
  McStageRegistry r;
  register_coalesce_stages(r);
  register_critical_stages(r);
  return r;
}

}  // namespace gpusc
