// Dispatch of pa's population (population_lanes.inc over sa_lanes.inc) to the
// SIMD paths. Built like sa_kernel.cc: each path in its own namespace under its
// own target, with -ffp-contract=off.
#include "core/sample/pa/population_kernel.h"

#include <algorithm>
#include <memory>
#include <numbers>
#include <span>
#include <vector>

#include "core/base/rng.h"
#include "core/sample/cpu_sa/lane_target.h"

#define QS_SA_SWEEP_ONLY 1

namespace qs {
namespace {

#define QS_LANE_KERNEL "core/sample/cpu_sa/sa_lanes.inc"
#define QS_LANE_KERNEL_2 "core/sample/pa/population_lanes.inc"
#include "core/sample/cpu_sa/lane_paths.inc"

}  // namespace

std::unique_ptr<PopulationLanes> NewPopulationLanes(KernelPath path,
                                                    const KernelModel& model,
                                                    int size) {
#ifdef QS_SA_X86
  if (path == KernelPath::kAvx512) return avx512::NewPopulation(model, size);
  if (path == KernelPath::kAvx2) return avx2::NewPopulation(model, size);
#endif
  return scalar::NewPopulation(model, size);
}

}  // namespace qs
