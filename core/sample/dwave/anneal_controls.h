// The QPU controls of the "dwave" backend beyond a plain forward anneal
// (docs/dwave-protocol.md §6): anneal and h-gain schedules checked by the rules
// of D-Wave's solver documentation (QPU solver parameters: anneal_schedule,
// h_gain_schedule), spin-reversal transforms (gauges, as Ocean's
// SpinReversalTransformComposite applies them on the client), the reverse
// anneal's initial_state and per-variable flux biases mapped through the
// embedding onto every qubit of a chain.
#ifndef QS_CORE_SAMPLE_DWAVE_ANNEAL_CONTROLS_H_
#define QS_CORE_SAMPLE_DWAVE_ANNEAL_CONTROLS_H_

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/sample/dwave/embedding.h"
#include "core/sample/dwave/qp_codec.h"
#include "core/sample/dwave/sapi_client.h"

namespace qs::dwave {

// (t µs, value) points of a schedule.
using SchedulePoints = std::vector<std::pair<double, double>>;

// The default reverse schedule of the refinement loop: back to s = 0.45 in
// 5 µs, a 10 µs pause, forward again (dwave-system's ReverseAdvanceComposite
// uses the same shape).
SchedulePoints DefaultReverseSchedule();

// Rules that need no solver: at least 2 finite points, t increasing from
// t >= 0, s in [0, 1], the last s = 1; forward schedules start at (0, 0),
// reverse ones at s = 1. INVALID_ARGUMENT naming `field[k]`.
absl::Status CheckScheduleShape(const SchedulePoints& schedule, bool reverse,
                                absl::string_view field);

// The solver's rules: at most max_anneal_schedule_points points (one more for
// a reverse anneal), the last t within annealing_time_range, no segment
// steeper than the maximum slope (1 / the minimum anneal time unless the
// solver lists max_slope).
absl::Status CheckScheduleForSolver(const SchedulePoints& schedule,
                                    bool reverse, const SolverInfo& solver,
                                    absl::string_view field);

// An h-gain schedule: at least 2 finite points, t increasing from t = 0 to
// `anneal_end_us`; with a solver, g within h_gain_schedule_range and at most
// max_h_gain_schedule_points points (solver == nullptr: shape only, and no end
// check when anneal_end_us < 0).
absl::Status CheckGainSchedule(const SchedulePoints& schedule,
                               double anneal_end_us, const SolverInfo* solver,
                               absl::string_view field);

// A spin-reversal transform: the sign g_q of every active qubit.
using Gauge = absl::flat_hash_map<int, int8_t>;

// A seeded random +/-1 per qubit of the problem.
Gauge RandomGauge(const PhysicalProblem& problem, uint64_t seed);

// h_q -> g_q h_q, J_pq -> g_p g_q J_pq: the gauged problem has the same
// spectrum, with every state s mapped to g s.
PhysicalProblem ApplyGauge(const PhysicalProblem& problem, const Gauge& gauge);

// Un-flips answer solutions (one value per active variable, -1/+1) in place.
void UndoGauge(const Gauge& gauge, const std::vector<int>& active_variables,
               std::vector<std::vector<int8_t>>& solutions);

// SAPI's initial_state: one value per qubit label 0..num_qubits-1, the
// variable's spin (2 b - 1, times the gauge) on every qubit of its chain and 3
// on every other qubit. INVALID_ARGUMENT when `bits` does not have one value
// per chain.
absl::StatusOr<std::vector<int>> ChainInitialState(
    const Embedding& embedding, std::span<const uint8_t> bits, int num_qubits,
    const Gauge& gauge);

// SAPI's flux_biases: one value per qubit label, the variable's bias on every
// qubit of its chain (times the gauge: a flux bias acts like h), 0 elsewhere.
std::vector<double> ChainFluxBiases(const Embedding& embedding,
                                    std::span<const double> per_variable,
                                    int num_qubits, const Gauge& gauge);

}  // namespace qs::dwave

#endif  // QS_CORE_SAMPLE_DWAVE_ANNEAL_CONTROLS_H_
