// Beta schedules for the annealers (D-Wave's default range, geometric and
// linear interpolation).
#include "core/sample/schedule.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace qs {

BetaRange DefaultBetaRange(const Qubo& model) {
  const IsingModel ising = ToIsing(model);
  const int n = ising.num_variables;
  if (n == 0) return {0.1, 1.0};
  std::vector<double> total(n, 0.0);
  std::vector<double> smallest(n, std::numeric_limits<double>::infinity());
  auto note = [&](int i, double w) {
    const double a = std::abs(w);
    total[i] += a;
    if (a > 0) smallest[i] = std::min(smallest[i], a);
  };
  for (int i = 0; i < n; ++i) note(i, ising.h[i]);
  for (const QuboTerm& t : ising.couplings) {
    note(t.i, t.w);
    note(t.j, t.w);
  }
  const double max_field = *std::max_element(total.begin(), total.end());
  const double min_gap = *std::min_element(smallest.begin(), smallest.end());
  if (max_field == 0 || !std::isfinite(min_gap))
    return {0.1, 1.0};  // a constant model
  int count_min = 0;
  for (double m : smallest) count_min += m == min_gap;
  BetaRange range;
  range.hot = std::log(2.0) / (2 * max_field);
  range.cold = std::log(count_min / 0.01) / (2 * min_gap);
  if (range.cold < range.hot) range.cold = range.hot;
  return range;
}

std::vector<double> MakeBetaSchedule(ScheduleType type, BetaRange range,
                                     int num_sweeps) {
  std::vector<double> betas(std::max(0, num_sweeps));
  if (num_sweeps <= 0) return betas;
  if (num_sweeps == 1) {
    betas[0] = range.cold;
    return betas;
  }
  for (int t = 0; t < num_sweeps; ++t) {
    const double f = static_cast<double>(t) / (num_sweeps - 1);
    betas[t] = type == ScheduleType::kLinear
                   ? range.hot + f * (range.cold - range.hot)
                   : range.hot * std::pow(range.cold / range.hot, f);
  }
  return betas;
}

BetaRange ResolveBetaRange(const Qubo& model, const SampleParams& params) {
  if (params.beta_hot > 0 && params.beta_cold > 0)
    return {params.beta_hot, params.beta_cold};
  BetaRange range = DefaultBetaRange(model);
  if (params.beta_hot > 0) range.hot = params.beta_hot;
  if (params.beta_cold > 0) range.cold = params.beta_cold;
  return range;
}

}  // namespace qs
