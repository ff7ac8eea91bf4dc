// The anneal-control rules and mappings of core/sample/dwave/anneal_controls.h:
// schedules refused with the offending point named, gauges that keep every
// state's energy (up to the flip) and undo exactly, initial states and flux
// biases spread over the chains with 3 / 0 on the other qubits.
#include "core/sample/dwave/anneal_controls.h"

#include <map>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs::dwave {
namespace {

using ::qs::testing::StatusIs;
using ::testing::HasSubstr;

constexpr char kField[] = "params.dwave.anneal_schedule";

SolverInfo Advantage() {
  SolverInfo s;
  s.name = "test";
  s.annealing_time_range = {0.5, 2000};
  s.max_anneal_schedule_points = 4;
  s.max_h_gain_schedule_points = 3;
  s.h_gain_schedule_range = std::make_pair(-4.0, 4.0);
  return s;
}

TEST(ScheduleTest, AcceptsAPauseAndAReverseAnneal) {
  const SchedulePoints pause = {{0, 0}, {20, 0.4}, {120, 0.4}, {140, 1}};
  EXPECT_OK(CheckScheduleShape(pause, false, kField));
  EXPECT_OK(CheckScheduleForSolver(pause, false, Advantage(), kField));
  SchedulePoints reverse = DefaultReverseSchedule();
  reverse.insert(reverse.begin() + 2, {10, 0.45});  // 5 points: max + 1
  EXPECT_OK(CheckScheduleShape(reverse, true, kField));
  EXPECT_OK(CheckScheduleForSolver(reverse, true, Advantage(), kField));
}

TEST(ScheduleTest, NamesThePointThatBreaksARule) {
  EXPECT_THAT(CheckScheduleShape({{0, 0}, {10, 0.5}, {10, 1}}, false, kField),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.dwave.anneal_schedule[2]: time t "
                                 "must increase")));
  EXPECT_THAT(CheckScheduleShape({{0, 0}, {10, 0.5}}, false, kField),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("[1]: in the final point")));
  EXPECT_THAT(
      CheckScheduleShape({{0, 0.2}, {10, 1}}, false, kField),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("[0]: a forward anneal must start at (0, 0)")));
  EXPECT_THAT(CheckScheduleShape({{0, 1}, {10, 1}}, false, kField),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("reverse_anneal")));
  EXPECT_THAT(CheckScheduleShape({{0, 0}, {10, 1}}, true, kField),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("[0]: a reverse anneal must start")));
  EXPECT_THAT(CheckScheduleShape({{0, 0}}, false, kField),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("at least 2 points")));
}

TEST(ScheduleTest, SolverLimitsOnPointsLengthAndSlope) {
  const SolverInfo solver = Advantage();
  EXPECT_THAT(
      CheckScheduleForSolver({{0, 0}, {1, 0.1}, {2, 0.2}, {3, 0.3}, {4, 1}},
                             false, solver, kField),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("anneal_schedule[4]: the schedule has 5 points, over "
                         "the solver's maximum of 4")));
  EXPECT_THAT(
      CheckScheduleForSolver({{0, 0}, {3000, 1}}, false, solver, kField),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("[1]: the schedule cannot be longer")));
  // 1 / 0.5 µs = 2 per µs at most; exactly 2 passes.
  EXPECT_OK(CheckScheduleForSolver({{0, 0}, {0.5, 1}}, false, solver, kField));
  EXPECT_THAT(CheckScheduleForSolver({{0, 0}, {10, 0.4}, {10.1, 1}}, false,
                                     solver, kField),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("anneal_schedule[2]: slope")));
  SolverInfo listed = solver;
  listed.max_slope = 0.01;
  EXPECT_THAT(CheckScheduleForSolver({{0, 0}, {20, 1}}, false, listed, kField),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("maximum slope of 0.01")));
}

TEST(GainScheduleTest, RunsFromZeroToTheEndOfTheAnnealWithinRange) {
  const SolverInfo solver = Advantage();
  constexpr char kGain[] = "params.dwave.h_gain_schedule";
  EXPECT_OK(CheckGainSchedule({{0, 1}, {10, 2}, {20, 1}}, 20, &solver, kGain));
  EXPECT_THAT(CheckGainSchedule({{1, 1}, {20, 1}}, 20, &solver, kGain),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("h_gain_schedule[0]: ")));
  EXPECT_THAT(CheckGainSchedule({{0, 1}, {30, 1}}, 20, &solver, kGain),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("[1]: the h-gain schedule must end")));
  EXPECT_THAT(CheckGainSchedule({{0, 1}, {10, 5}, {20, 1}}, 20, &solver, kGain),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("h_gain_schedule[1]: g = 5 is outside")));
  EXPECT_THAT(
      CheckGainSchedule({{0, 1}, {5, 1}, {10, 1}, {20, 1}}, 20, &solver, kGain),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("max_h_gain_schedule_points of 3")));
  // Without a solver nor a known anneal length only the shape is checked.
  EXPECT_OK(CheckGainSchedule({{0, 1}, {10, 5}, {30, 1}}, -1, nullptr, kGain));
}

// A frustrated triangle plus a pendant qubit, with fields.
PhysicalProblem Triangle() {
  PhysicalProblem p;
  p.linear = {{0, 0.5}, {1, -0.25}, {4, 0.0}, {7, 1.0}};
  p.quadratic = {{{0, 1}, 1.0}, {{1, 4}, -0.5}, {{0, 4}, 0.75}, {{4, 7}, -1.0}};
  return p;
}

double Energy(const PhysicalProblem& p, const std::map<int, int>& spins) {
  double e = 0;
  for (const auto& [q, h] : p.linear) e += h * spins.at(q);
  for (const auto& [edge, j] : p.quadratic)
    e += j * spins.at(edge.first) * spins.at(edge.second);
  return e;
}

TEST(GaugeTest, KeepsEveryEnergyUnderTheFlipAndUndoesExactly) {
  const PhysicalProblem problem = Triangle();
  const Gauge gauge = RandomGauge(problem, 11);
  ASSERT_EQ(gauge.size(), 4u);
  EXPECT_EQ(RandomGauge(problem, 11), gauge);  // seeded
  bool differs = false;
  for (uint64_t seed = 1; seed < 20 && !differs; ++seed)
    differs = RandomGauge(problem, seed) != gauge;
  EXPECT_TRUE(differs);
  const PhysicalProblem gauged = ApplyGauge(problem, gauge);
  const std::vector<int> labels = {0, 1, 4, 7};
  for (int mask = 0; mask < 16; ++mask) {
    std::map<int, int> s, flipped;
    for (int i = 0; i < 4; ++i) {
      s[labels[i]] = (mask >> i & 1) ? 1 : -1;
      flipped[labels[i]] = s[labels[i]] * gauge.at(labels[i]);
    }
    EXPECT_DOUBLE_EQ(Energy(gauged, flipped), Energy(problem, s));
    std::vector<std::vector<int8_t>> solutions = {{}};
    for (int q : labels)
      solutions[0].push_back(static_cast<int8_t>(flipped[q]));
    UndoGauge(gauge, labels, solutions);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(solutions[0][i], s[labels[i]]);
  }
}

TEST(ChainMappingTest, InitialStateOnEveryChainQubitAndThreeElsewhere) {
  Embedding embedding;
  embedding.chains = {{0, 1}, {4}, {5, 6, 7}};
  const std::vector<uint8_t> bits = {1, 0, 1};
  auto state = ChainInitialState(embedding, bits, 9, Gauge());
  ASSERT_OK(state);
  EXPECT_EQ(*state, (std::vector<int>{1, 1, 3, 3, -1, 1, 1, 1, 3}));
  Gauge gauge = {{1, -1}, {4, -1}, {7, 1}};
  auto gauged = ChainInitialState(embedding, bits, 9, gauge);
  ASSERT_OK(gauged);
  EXPECT_EQ(*gauged, (std::vector<int>{1, -1, 3, 3, 1, 1, 1, 1, 3}));
  EXPECT_THAT(ChainInitialState(embedding, std::vector<uint8_t>{1}, 9, gauge),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("1 values for a model of 3 variables")));
}

TEST(ChainMappingTest, FluxBiasesPerVariableOnItsChain) {
  Embedding embedding;
  embedding.chains = {{0, 1}, {4}};
  const std::vector<double> flux = {0.002, -0.001};
  EXPECT_EQ(ChainFluxBiases(embedding, flux, 6, Gauge()),
            (std::vector<double>{0.002, 0.002, 0, 0, -0.001, 0}));
  EXPECT_EQ(ChainFluxBiases(embedding, flux, 6, Gauge{{1, -1}}),
            (std::vector<double>{0.002, -0.002, 0, 0, -0.001, 0}));
}

}  // namespace
}  // namespace qs::dwave
