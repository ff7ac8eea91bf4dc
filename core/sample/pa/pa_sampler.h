// PaSampler: population annealing (backend "pa", docs/population-annealing.md;
// Wang, Machta, Katzgraber, PRE 92, 013303, 2015). A population of R members
// (R = num_reads) starts from random states, the beta = 0 ensemble, and walks
// down a beta schedule (derived from the model as cpu-sa's by default): at
// each step the population is resampled by the normalised Boltzmann weights
// exp(-(beta_t - beta_{t-1}) E), then every member runs sweeps_per_step
// Metropolis sweeps at beta_t. The sweeps run on cpu-sa's SIMD sweep, one
// member per lane, in lane blocks that are WorkerPool tasks; the population
// stays in those blocks from step to step (population_kernel.h). The
// normalisations Q_t of the resamplings give the free energy, beta F = -(n ln 2
// + sum_t ln Q_t), and the members' ancestries the family count and rho_t.
//
// Seeding: step t draws from DeriveSeed(seed ^ kPaStepSalt, t): the resampling
// from that seed, member slot m's sweeps from DeriveSeed(that, m + 1); member
// m's start from DeriveSeed(seed, m) as a cpu-sa read. Nothing depends on the
// thread count. A step that finds a new lowest energy streams that member at
// once (so a target or stop_at_first_valid ends the run there); the final
// population follows, one sample per member, when the schedule ends, a target
// is reached or the time limit cuts the run.
#ifndef QS_CORE_SAMPLE_PA_PA_SAMPLER_H_
#define QS_CORE_SAMPLE_PA_PA_SAMPLER_H_

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "core/base/rng.h"
#include "core/base/worker_pool.h"
#include "core/sample/sampler.h"
#include "qs/v1/solve.pb.h"

namespace qs {

// INVALID_ARGUMENT naming the field ("<prefix>.pa.beta_hot: ...").
absl::Status CheckPaParams(const v1::PaParams& wire, uint32_t max_sweeps,
                           absl::string_view prefix = "params");

// One resampling: the number of copies of each member, for weights w_i
// (not all zero) and a target population r. Nearest: floor(tau_i) plus one
// with probability frac(tau_i), tau_i = r w_i / sum(w); multinomial: r draws.
std::vector<int> ResampleCopies(std::span<const double> weights, int r,
                                v1::PaResampling rule, Xoshiro256& rng);

std::unique_ptr<Sampler> NewPaSampler(WorkerPool* pool);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_PA_PA_SAMPLER_H_
