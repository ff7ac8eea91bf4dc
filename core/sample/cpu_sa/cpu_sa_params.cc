// qs.v1.CpuSaParams <-> SampleParams / SampleStats.
#include "core/sample/cpu_sa/cpu_sa_params.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"

namespace qs {

absl::Status CheckCpuSaParams(const v1::CpuSaParams& wire, uint32_t max_sweeps,
                              absl::string_view prefix) {
  if (wire.beta_hot() > 0 && wire.beta_cold() > 0 &&
      wire.beta_hot() > wire.beta_cold()) {
    return absl::InvalidArgumentError(
        absl::StrCat(prefix, ".cpu_sa: beta_hot (", wire.beta_hot(),
                     ") must not exceed beta_cold (", wire.beta_cold(), ")"));
  }
  if (wire.sweeps_per_beta() > max_sweeps) {
    return absl::InvalidArgumentError(
        absl::StrCat(prefix, ".cpu_sa.sweeps_per_beta: must be at most ",
                     max_sweeps, ", got ", wire.sweeps_per_beta()));
  }
  const uint64_t per_beta = std::max<uint32_t>(1, wire.sweeps_per_beta());
  if (static_cast<uint64_t>(wire.beta_schedule_size()) * per_beta >
      max_sweeps) {
    return absl::InvalidArgumentError(absl::StrCat(
        prefix, ".cpu_sa.beta_schedule: ", wire.beta_schedule_size(),
        " betas of ", per_beta, " sweeps each exceed the limit of ", max_sweeps,
        " sweeps"));
  }
  if (wire.group_moves() == v1::GROUP_MOVES_ON &&
      wire.acceptance() == v1::GIBBS) {
    return absl::InvalidArgumentError(absl::StrCat(
        prefix,
        ".cpu_sa.group_moves: GROUP_MOVES_ON decides by the Metropolis rule; "
        "acceptance GIBBS flips single variables (leave group_moves unset or "
        "GROUP_MOVES_OFF)"));
  }
  return absl::OkStatus();
}

void ApplyCpuSaParams(const v1::CpuSaParams& wire, SampleParams& params) {
  params.beta_hot = wire.beta_hot();
  params.beta_cold = wire.beta_cold();
  params.schedule = wire.schedule() == v1::LINEAR ? ScheduleType::kLinear
                                                  : ScheduleType::kGeometric;
  params.beta_range_rule = wire.beta_range() == v1::BETA_RANGE_DWAVE
                               ? BetaRangeRule::kDwave
                               : BetaRangeRule::kTuned;
  params.sweeps_per_beta =
      static_cast<int>(std::max<uint32_t>(1, wire.sweeps_per_beta()));
  params.beta_schedule.assign(wire.beta_schedule().begin(),
                              wire.beta_schedule().end());
  if (!params.beta_schedule.empty()) {
    params.num_sweeps =
        static_cast<int>(params.beta_schedule.size()) * params.sweeps_per_beta;
  }
  params.acceptance = wire.acceptance() == v1::GIBBS ? Acceptance::kGibbs
                                                     : Acceptance::kMetropolis;
  params.kernel = KernelPathOf(wire.kernel());
}

KernelPath KernelPathOf(v1::KernelPath wire) {
  switch (wire) {
    case v1::KERNEL_SCALAR:
      return KernelPath::kScalar;
    case v1::KERNEL_AVX2:
      return KernelPath::kAvx2;
    case v1::KERNEL_AVX512:
      return KernelPath::kAvx512;
    default:
      return KernelPath::kAuto;
  }
}

void FillBackendInfo(const SampleStats& stats, v1::BackendInfo& info) {
  info.set_beta_hot(stats.beta_hot);
  info.set_beta_cold(stats.beta_cold);
  switch (stats.schedule) {
    case ScheduleType::kLinear:
      info.set_schedule(v1::LINEAR);
      break;
    case ScheduleType::kCustom:
      info.set_schedule(v1::SCHEDULE_CUSTOM);
      break;
    default:
      info.set_schedule(v1::GEOMETRIC);
  }
  info.set_threads(stats.threads);
  info.set_beta_range(stats.beta_range_rule == BetaRangeRule::kDwave
                          ? v1::BETA_RANGE_DWAVE
                          : v1::BETA_RANGE_TUNED);
  info.set_sweeps_per_beta(stats.sweeps_per_beta);
  info.set_acceptance(stats.acceptance == Acceptance::kGibbs ? v1::GIBBS
                                                             : v1::METROPOLIS);
  info.set_kernel(stats.kernel);
  info.set_lanes(stats.lanes);
  info.set_kernel_exact(stats.kernel_exact);
}

}  // namespace qs
