// Anneal and h-gain schedule rules, spin-reversal transforms and chain
// mapping of initial states and flux biases (docs/dwave-protocol.md §6).
#include "core/sample/dwave/anneal_controls.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "core/base/rng.h"

namespace qs::dwave {
namespace {

absl::Status PointError(absl::string_view field, size_t k,
                        absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(field, "[", k, "]: ", what));
}

// At least 2 finite points with t increasing from t >= 0.
absl::Status CheckTimes(const SchedulePoints& schedule,
                        absl::string_view field) {
  if (schedule.size() < 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        field, ": needs at least 2 points, got ", schedule.size()));
  }
  for (size_t k = 0; k < schedule.size(); ++k) {
    const auto [t, v] = schedule[k];
    if (!std::isfinite(t) || !std::isfinite(v))
      return PointError(field, k, "not a finite number");
    if (k == 0 && t < 0) return PointError(field, k, "time must be >= 0");
    if (k > 0 && !(t > schedule[k - 1].first)) {
      return PointError(
          field, k,
          absl::StrCat("time t must increase for all points in the schedule (",
                       t, " after ", schedule[k - 1].first, ")"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

SchedulePoints DefaultReverseSchedule() {
  return {{0, 1}, {5, 0.45}, {15, 0.45}, {20, 1}};
}

absl::Status CheckScheduleShape(const SchedulePoints& schedule, bool reverse,
                                absl::string_view field) {
  if (absl::Status s = CheckTimes(schedule, field); !s.ok()) return s;
  for (size_t k = 0; k < schedule.size(); ++k) {
    const double s = schedule[k].second;
    if (s < 0 || s > 1)
      return PointError(field, k,
                        absl::StrCat("s = ", s, " is outside [0, 1]"));
  }
  const size_t last = schedule.size() - 1;
  if (schedule[last].second != 1)
    return PointError(field, last,
                      "in the final point, anneal fraction s must equal 1");
  if (reverse) {
    if (schedule[0].second != 1)
      return PointError(field, 0,
                        "a reverse anneal must start at anneal fraction s = 1");
    return absl::OkStatus();
  }
  if (schedule[0].first != 0 || schedule[0].second != 0) {
    return PointError(field, 0,
                      schedule[0].second == 1
                          ? "a schedule that starts at s = 1 is a reverse "
                            "anneal: set reverse_anneal and initial_states"
                          : "a forward anneal must start at (0, 0)");
  }
  return absl::OkStatus();
}

absl::Status CheckScheduleForSolver(const SchedulePoints& schedule,
                                    bool reverse, const SolverInfo& solver,
                                    absl::string_view field) {
  if (solver.max_anneal_schedule_points > 0) {
    // SAPI allows a reverse anneal one point more than the property says.
    const size_t max = static_cast<size_t>(solver.max_anneal_schedule_points) +
                       (reverse ? 1 : 0);
    if (schedule.size() > max) {
      return PointError(
          field, max,
          absl::StrCat("the schedule has ", schedule.size(),
                       " points, over the solver's maximum of ", max,
                       reverse ? " for a reverse anneal" : "",
                       " (max_anneal_schedule_points ",
                       solver.max_anneal_schedule_points, ")"));
    }
  }
  const size_t last = schedule.size() - 1;
  if (schedule[last].first > solver.annealing_time_range.second) {
    return PointError(
        field, last,
        absl::StrCat("the schedule cannot be longer than the maximum anneal "
                     "time of ",
                     solver.annealing_time_range.second,
                     " us (annealing_time_range)"));
  }
  const double max_slope =
      solver.max_slope.value_or(solver.annealing_time_range.first > 0
                                    ? 1.0 / solver.annealing_time_range.first
                                    : HUGE_VAL);
  for (size_t k = 1; k < schedule.size(); ++k) {
    const double slope =
        std::abs((schedule[k].second - schedule[k - 1].second) /
                 (schedule[k].first - schedule[k - 1].first));
    // Rounded as D-Wave's client rounds it, so that a slope of exactly the
    // limit passes.
    if (std::round(slope * 1e10) / 1e10 > max_slope) {
      return PointError(field, k,
                        absl::StrCat("slope ", slope,
                                     " per us from the previous point exceeds "
                                     "the solver's maximum slope of ",
                                     max_slope));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckGainSchedule(const SchedulePoints& schedule,
                               double anneal_end_us, const SolverInfo* solver,
                               absl::string_view field) {
  if (absl::Status s = CheckTimes(schedule, field); !s.ok()) return s;
  if (schedule[0].first != 0)
    return PointError(field, 0, "the h-gain schedule must start at t = 0");
  const size_t last = schedule.size() - 1;
  if (anneal_end_us >= 0 && schedule[last].first != anneal_end_us) {
    return PointError(field, last,
                      absl::StrCat("the h-gain schedule must end at the end of "
                                   "the anneal, t = ",
                                   anneal_end_us, " us"));
  }
  if (solver == nullptr) return absl::OkStatus();
  if (solver->max_h_gain_schedule_points > 0 &&
      schedule.size() >
          static_cast<size_t>(solver->max_h_gain_schedule_points)) {
    return PointError(field, solver->max_h_gain_schedule_points,
                      absl::StrCat("the h-gain schedule has ", schedule.size(),
                                   " points, over the solver's "
                                   "max_h_gain_schedule_points of ",
                                   solver->max_h_gain_schedule_points));
  }
  if (solver->h_gain_schedule_range) {
    const auto [lo, hi] = *solver->h_gain_schedule_range;
    for (size_t k = 0; k < schedule.size(); ++k) {
      const double g = schedule[k].second;
      if (g < lo || g > hi) {
        return PointError(field, k,
                          absl::StrCat("g = ", g,
                                       " is outside the solver's "
                                       "h_gain_schedule_range [",
                                       lo, ", ", hi, "]"));
      }
    }
  }
  return absl::OkStatus();
}

Gauge RandomGauge(const PhysicalProblem& problem, uint64_t seed) {
  std::vector<int> qubits;
  for (const auto& [q, h] : problem.linear) qubits.push_back(q);
  std::sort(qubits.begin(), qubits.end());  // independent of hash order
  Xoshiro256 rng(seed);
  Gauge gauge;
  for (int q : qubits) gauge[q] = (rng.Next() & 1) ? 1 : -1;
  return gauge;
}

namespace {
int8_t SignOf(const Gauge& gauge, int q) {
  auto it = gauge.find(q);
  return it == gauge.end() ? 1 : it->second;
}
}  // namespace

PhysicalProblem ApplyGauge(const PhysicalProblem& problem, const Gauge& gauge) {
  PhysicalProblem out;
  for (const auto& [q, h] : problem.linear)
    out.linear[q] = SignOf(gauge, q) * h;
  out.quadratic.reserve(problem.quadratic.size());
  for (const auto& [edge, j] : problem.quadratic) {
    out.quadratic.push_back(
        {edge, SignOf(gauge, edge.first) * SignOf(gauge, edge.second) * j});
  }
  return out;
}

void UndoGauge(const Gauge& gauge, const std::vector<int>& active_variables,
               std::vector<std::vector<int8_t>>& solutions) {
  if (gauge.empty()) return;
  std::vector<int8_t> sign(active_variables.size());
  for (size_t i = 0; i < active_variables.size(); ++i)
    sign[i] = SignOf(gauge, active_variables[i]);
  for (auto& solution : solutions) {
    for (size_t i = 0; i < solution.size() && i < sign.size(); ++i)
      solution[i] = static_cast<int8_t>(solution[i] * sign[i]);
  }
}

absl::StatusOr<std::vector<int>> ChainInitialState(
    const Embedding& embedding, std::span<const uint8_t> bits, int num_qubits,
    const Gauge& gauge) {
  if (bits.size() != embedding.chains.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the initial state has ", bits.size(), " values for a model of ",
        embedding.chains.size(), " variables"));
  }
  std::vector<int> state(num_qubits, 3);
  for (size_t v = 0; v < bits.size(); ++v) {
    const int spin = bits[v] ? 1 : -1;
    for (int q : embedding.chains[v]) {
      if (q >= 0 && q < num_qubits) state[q] = spin * SignOf(gauge, q);
    }
  }
  return state;
}

std::vector<double> ChainFluxBiases(const Embedding& embedding,
                                    std::span<const double> per_variable,
                                    int num_qubits, const Gauge& gauge) {
  std::vector<double> biases(num_qubits, 0.0);
  for (size_t v = 0; v < per_variable.size() && v < embedding.chains.size();
       ++v) {
    for (int q : embedding.chains[v]) {
      if (q >= 0 && q < num_qubits)
        biases[q] = per_variable[v] * SignOf(gauge, q);
    }
  }
  return biases;
}

}  // namespace qs::dwave
