// The wire form of the annealer's options (qs.v1.CpuSaParams, solve.proto) <->
// SampleParams and SampleStats: request checks with errors that name the field,
// the mapping the solve engine applies, and the BackendInfo of the summary.
#ifndef QS_CORE_SAMPLE_CPU_SA_CPU_SA_PARAMS_H_
#define QS_CORE_SAMPLE_CPU_SA_CPU_SA_PARAMS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "core/sample/sampler.h"
#include "qs/v1/solve.pb.h"

namespace qs {

// What the schema cannot say, INVALID_ARGUMENT naming the field: beta_hot
// above beta_cold, a schedule longer than max_sweeps or sweeps_per_beta above
// it, group moves asked for with Gibbs acceptance.
absl::Status CheckCpuSaParams(const v1::CpuSaParams& wire, uint32_t max_sweeps,
                              absl::string_view prefix = "params");

// Copies checked options into params. A custom beta_schedule also sets
// params.num_sweeps to the number of sweeps it runs (its length times
// sweeps_per_beta).
void ApplyCpuSaParams(const v1::CpuSaParams& wire, SampleParams& params);

// The kernel path a request names (KERNEL_DEFAULT: kAuto).
KernelPath KernelPathOf(v1::KernelPath wire);

// What ran: schedule, rule, acceptance and kernel path (BackendInfo.name is the
// caller's).
void FillBackendInfo(const SampleStats& stats, v1::BackendInfo& info);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_CPU_SA_CPU_SA_PARAMS_H_
