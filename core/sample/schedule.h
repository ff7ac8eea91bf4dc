// Annealing schedules. DefaultBetaRange follows D-Wave's simulated annealer
// (dwave-samplers
// `_default_ising_beta_range`) on the Ising form of the model (x = (s + 1) /
// 2):
//   beta_hot  = ln 2 / (2 * max_i (|h_i| + sum_j |J_ij|))    (the largest flip
//   cost is accepted with p = 1/2) beta_cold = ln(K / 0.01) / (2 * min_i m_i)
//   (m_i: smallest non-zero |h_i| or |J_ij| of
//               variable i; K: variables sharing that minimum)
// so that at the end even the cheapest uphill flip is accepted with probability
// about 1%.
#ifndef QS_CORE_SAMPLE_SCHEDULE_H_
#define QS_CORE_SAMPLE_SCHEDULE_H_

#include <utility>
#include <vector>

#include "core/qubo/qubo.h"
#include "core/sample/sampler.h"

namespace qs {

struct BetaRange {
  double hot = 0;
  double cold = 0;
};

BetaRange DefaultBetaRange(const Qubo& model);

// num_sweeps inverse temperatures from hot to cold: geometric (hot *
// (cold/hot)^(t/(T-1))) or linear.
std::vector<double> MakeBetaSchedule(ScheduleType type, BetaRange range,
                                     int num_sweeps);

// The range the sampler will use: the caller's when both ends are set (> 0),
// else the default.
BetaRange ResolveBetaRange(const Qubo& model, const SampleParams& params);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_SCHEDULE_H_
