// SqaSampler: simulated quantum annealing (backend "sqa", docs/sqa.md):
// path-integral Monte Carlo of s E(x) - Gamma(s) sum_i sigma^x_i with P
// Trotter slices (sqa_kernel.h), s rising from 0 to 1 over the sweeps and
// Gamma falling from gamma_start to gamma_end along a linear, geometric or
// quadratic shape, at a fixed beta. Reads
// are independent runs, one per SIMD lane, each lane batch a WorkerPool task;
// run r draws its start (shared by its slices) and its stream from
// DeriveSeed(seed, r), so the samples depend neither on the thread count nor
// on the SIMD path. A run streams its lowest-energy slice when its batch ends
// (or every slice, with all_slices).
#ifndef QS_CORE_SAMPLE_SQA_SQA_SAMPLER_H_
#define QS_CORE_SAMPLE_SQA_SQA_SAMPLER_H_

#include <cstdint>
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "core/base/worker_pool.h"
#include "core/sample/sampler.h"
#include "qs/v1/solve.pb.h"

namespace qs {

// INVALID_ARGUMENT naming the field ("<prefix>.sqa.gamma_end: ...").
absl::Status CheckSqaParams(const v1::SqaParams& wire,
                            absl::string_view prefix = "params");

// Gamma at s in [0, 1] for the schedule's shape.
double SqaGamma(v1::SqaSchedule shape, double gamma_start, double gamma_end,
                double s);

std::unique_ptr<Sampler> NewSqaSampler(WorkerPool* pool);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_SQA_SQA_SAMPLER_H_
