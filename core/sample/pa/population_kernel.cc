// Dispatch of pa's population (population_lanes.inc over sa_lanes.inc) to the
// SIMD paths. Built like sa_kernel.cc: each path in its own namespace under its
// own target, with -ffp-contract=off.
#include "core/sample/pa/population_kernel.h"

#include <algorithm>
#include <memory>
#include <numbers>
#include <span>
#include <vector>

#include "absl/functional/function_ref.h"
#include "core/base/rng.h"
#include "core/sample/cpu_sa/lane_target.h"

#define QS_SA_SWEEP_ONLY 1

namespace qs {
namespace {

#define QS_LANE_KERNEL "core/sample/cpu_sa/sa_lanes.inc"
#define QS_LANE_KERNEL_2 "core/sample/pa/population_lanes.inc"
#include "core/sample/cpu_sa/lane_paths.inc"

}  // namespace

std::vector<int> PlanResample(std::span<const int> copies,
                              absl::FunctionRef<void(int from, int to)> copy) {
  const int size = static_cast<int>(copies.size());
  std::vector<int> source(size, -1);  // -1: an empty slot
  std::vector<int> empty;
  for (int m = 0; m < size; ++m) {
    if (copies[m] > 0) {
      source[m] = m;
    } else {
      empty.push_back(m);
    }
  }
  size_t filled = 0;
  for (int m = 0; m < size; ++m) {
    for (int c = 1; c < copies[m]; ++c) {
      int slot;
      if (filled < empty.size()) {
        slot = empty[filled++];
      } else {
        slot = static_cast<int>(source.size());
        source.push_back(-1);
      }
      copy(m, slot);
      source[slot] = m;
    }
  }
  int end = static_cast<int>(source.size());
  for (size_t h = filled; h < empty.size(); ++h) {
    while (end > 0 && source[end - 1] < 0) --end;
    if (empty[h] >= end) break;
    copy(end - 1, empty[h]);
    source[empty[h]] = source[end - 1];
    source[--end] = -1;
  }
  while (end > 0 && source[end - 1] < 0) --end;
  source.resize(end);
  return source;
}

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
