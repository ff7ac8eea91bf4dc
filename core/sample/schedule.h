// Annealing schedules: the beta range derived from a model and the per-sweep
// inverse temperatures.
//
// DefaultBetaRange follows D-Wave's simulated annealer (dwave-samplers
// `_default_ising_beta_range`) on the Ising form of the model, x = (s + 1) / 2:
//   beta_hot  = ln 2 / (2 max_i (|h_i| + sum_j |J_ij|))
//   beta_cold = ln(K / 0.01) / (2 min_i m_i)
// with m_i the smallest non-zero |h_i| or |J_ij| of variable i and K the number
// of variables sharing the minimum: the largest possible flip starts accepted
// with p = 1/2, the cheapest uphill flip ends accepted with p of about 1%.
//
// TunedBetaRange (the default, BetaRangeRule::kTuned) measures the energy
// scale where the anneal matters: the positive flip costs at the local minima
// that greedy descents from four random states reach (a fixed seed; a few
// sweeps of work). With c25 their lower quartile and c_min their smallest,
//   beta_hot  = 3.5 / c25        (a small excitation passes with p = 3%)
//   beta_cold = ln(100 n) / c_min  (the cheapest passes once per 100 sweeps)
// D-Wave's range starts where the largest possible flip passes half the time,
// far hotter than any state the anneal needs on penalty models, and ends at the
// smallest coefficient, about 1e-6 on models with real weights. The tuned range
// raised the success rate 1.2-12x on the reference instances at 1000 sweeps
// (docs/annealer.md). A model without any uphill move at those minima falls
// back to D-Wave's range.
#ifndef QS_CORE_SAMPLE_SCHEDULE_H_
#define QS_CORE_SAMPLE_SCHEDULE_H_

#include <vector>

#include "absl/status/statusor.h"
#include "core/qubo/qubo.h"
#include "core/sample/sampler.h"

namespace qs {

struct BetaRange {
  double hot = 0;
  double cold = 0;
};

// dwave-samplers' default range (see above).
BetaRange DefaultBetaRange(const Qubo& model);
// This project's default range (see TunedBetaRange in schedule.cc).
BetaRange TunedBetaRange(const Qubo& model);
// The tuned rule's range from the uphill costs of a sampler's moves at local
// minima (ascending, energy units, not empty) over `num_variables`: hot
// accepts the costs' lower quartile with log-odds 3.5, cold the least one
// with probability 1 / (100 num_variables).
BetaRange BetaRangeFromUphillCosts(const std::vector<double>& costs,
                                   int num_variables);
BetaRange BetaRangeFor(BetaRangeRule rule, const Qubo& model);
// BetaRangeFor, made once per compiled problem when `derived` is not null.
BetaRange CachedBetaRange(BetaRangeRule rule, const Qubo& model,
                          DerivedCache* derived);

// num_sweeps inverse temperatures from hot to cold: geometric (hot *
// (cold/hot)^(t/(T-1))) or linear.
std::vector<double> MakeBetaSchedule(ScheduleType type, BetaRange range,
                                     int num_sweeps);

// The range the sampler will use: the caller's ends where set (> 0), the rule's
// elsewhere.
BetaRange ResolveBetaRange(const Qubo& model, const SampleParams& params);

// The schedule a request asked for, one beta per sweep: a custom list (each
// entry held sweeps_per_beta sweeps), or num_betas = ceil(num_sweeps /
// sweeps_per_beta) betas of a geometric or linear schedule over the resolved
// range, each held sweeps_per_beta sweeps, cut to num_sweeps. Betas are
// computed on demand past kMaxStoredBetas, so that a huge sweep count costs no
// memory.
class ResolvedSchedule {
 public:
  static constexpr int64_t kMaxStoredBetas = int64_t{1} << 16;

  ResolvedSchedule() = default;
  static ResolvedSchedule Custom(std::vector<double> betas,
                                 int sweeps_per_beta);
  static ResolvedSchedule Interpolated(ScheduleType type, BetaRange range,
                                       BetaRangeRule rule, int64_t num_sweeps,
                                       int sweeps_per_beta);

  int64_t num_sweeps() const { return num_sweeps_; }
  // The beta of sweep t, 0 <= t < num_sweeps().
  double BetaAt(int64_t sweep) const {
    const int64_t index = sweep / sweeps_per_beta_;
    return stored_.empty() ? Interpolate(index) : stored_[index];
  }
  BetaRange range() const { return {BetaAt(0), BetaAt(num_sweeps_ - 1)}; }
  ScheduleType type() const { return type_; }
  BetaRangeRule rule() const { return rule_; }
  int sweeps_per_beta() const { return sweeps_per_beta_; }

 private:
  double Interpolate(int64_t index) const;

  ScheduleType type_ = ScheduleType::kGeometric;
  BetaRangeRule rule_ = BetaRangeRule::kTuned;
  BetaRange ends_;
  int64_t num_betas_ = 1;
  int64_t num_sweeps_ = 1;
  int sweeps_per_beta_ = 1;
  std::vector<double> stored_;
};

// INVALID_ARGUMENT for a negative or non-finite custom beta, num_sweeps < 1 or
// sweeps_per_beta < 1.
absl::StatusOr<ResolvedSchedule> ResolveSchedule(const Qubo& model,
                                                 const SampleParams& params);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_SCHEDULE_H_
