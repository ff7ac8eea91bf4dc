// Dispatch of the simulated-quantum-annealing kernel (sqa_lanes.inc over
// sa_lanes.inc) to the SIMD paths. Built like sa_kernel.cc: each path in its
// own namespace under its own target, with -ffp-contract=off.
#include "core/sample/sqa/sqa_kernel.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
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
#define QS_LANE_KERNEL_2 "core/sample/sqa/sqa_lanes.inc"
#include "core/sample/cpu_sa/lane_paths.inc"

}  // namespace

double SqaSliceCoupling(double beta, double gamma, int slices) {
  const double t = std::tanh(beta * gamma / slices);
  if (t <= 0) return std::numeric_limits<double>::infinity();
  return -0.5 * std::log(t);
}

SqaStats AnnealSqa(KernelPath path, const KernelModel& model, double beta,
                   int slices, const std::function<SqaPoint(int64_t)>& point_at,
                   int64_t num_sweeps, std::span<SqaRead> reads,
                   Interrupter& interrupter) {
#ifdef QS_SA_X86
  if (path == KernelPath::kAvx512) {
    return avx512::AnnealRunLanes(model, beta, slices, point_at, num_sweeps,
                                  reads, interrupter);
  }
  if (path == KernelPath::kAvx2) {
    return avx2::AnnealRunLanes(model, beta, slices, point_at, num_sweeps,
                                reads, interrupter);
  }
#endif
  return scalar::AnnealRunLanes(model, beta, slices, point_at, num_sweeps,
                                reads, interrupter);
}

}  // namespace qs
