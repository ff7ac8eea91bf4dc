// Tests of the annealing schedules (core/sample/schedule.h): D-Wave's default
// beta range on 8-queens, worked out by hand from the README formulation,
// geometric and linear interpolation, sweeps per beta, custom schedules and the
// tuned range.
#include "core/sample/schedule.h"

#include <cmath>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::DoubleNear;
using ::testing::ElementsAre;

// 8-queens: -2 per variable (row and column), +2 per pair in a row or column,
// +1 per diagonal pair.
Qubo Queens8() {
  QuboBuilder builder(64);
  for (int u = 0; u < 64; ++u) {
    builder.AddLinear(u, -2);
    for (int v = u + 1; v < 64; ++v) {
      const int dr = v / 8 - u / 8, dc = v % 8 - u % 8;
      if (dr == 0 || dc == 0) builder.AddQuadratic(u, v, 2);
      if (dr == dc || dr == -dc) builder.AddQuadratic(u, v, 1);
    }
  }
  builder.AddOffset(16);
  auto model = std::move(builder).Build();
  EXPECT_TRUE(model.ok());
  return *std::move(model);
}

std::vector<double> Betas(const ResolvedSchedule& schedule) {
  std::vector<double> betas;
  for (int64_t t = 0; t < schedule.num_sweeps(); ++t)
    betas.push_back(schedule.BetaAt(t));
  return betas;
}

TEST(ScheduleTest, DwaveRangeOfEightQueens) {
  // Ising: J = 1/2 (row, column) and 1/4 (diagonal); h_i = -1 + 14/2 + d_i/4
  // with d_i diagonal neighbours. The largest |h_i| + sum |J_ij| is 6 + 13/4 +
  // 7 + 13/4 = 19.5 (a centre square, d = 13): beta_hot = ln 2 / 39. Every
  // variable's smallest coefficient is a diagonal J = 1/4, so K = 64 and
  // beta_cold = ln(6400) / (2 / 4).
  const BetaRange range = DefaultBetaRange(Queens8());
  EXPECT_NEAR(range.hot, std::log(2.0) / 39, 1e-12);
  EXPECT_NEAR(range.cold, std::log(6400.0) * 2, 1e-12);
}

TEST(ScheduleTest, GeometricAndLinearSchedules) {
  const std::vector<double> geometric =
      MakeBetaSchedule(ScheduleType::kGeometric, {0.1, 10}, 3);
  EXPECT_THAT(geometric,
              ElementsAre(DoubleNear(0.1, 1e-12), DoubleNear(1, 1e-12),
                          DoubleNear(10, 1e-12)));
  const std::vector<double> linear =
      MakeBetaSchedule(ScheduleType::kLinear, {1, 3}, 3);
  EXPECT_THAT(linear, ElementsAre(1, 2, 3));
  EXPECT_THAT(MakeBetaSchedule(ScheduleType::kGeometric, {1, 3}, 1),
              ElementsAre(3));
}

TEST(ScheduleTest, SweepsPerBetaHoldEachBeta) {
  SampleParams params;
  params.num_sweeps = 10;
  params.sweeps_per_beta = 3;
  params.beta_hot = 1;
  params.beta_cold = 8;
  auto schedule = ResolveSchedule(Queens8(), params);
  ASSERT_OK(schedule.status());
  // Four betas 1, 2, 4, 8, three sweeps each, cut to ten sweeps.
  EXPECT_THAT(Betas(*schedule),
              ElementsAre(DoubleNear(1, 1e-12), DoubleNear(1, 1e-12),
                          DoubleNear(1, 1e-12), DoubleNear(2, 1e-12),
                          DoubleNear(2, 1e-12), DoubleNear(2, 1e-12),
                          DoubleNear(4, 1e-12), DoubleNear(4, 1e-12),
                          DoubleNear(4, 1e-12), DoubleNear(8, 1e-12)));
  EXPECT_EQ(schedule->type(), ScheduleType::kGeometric);
  EXPECT_NEAR(schedule->range().hot, 1, 1e-12);
  EXPECT_NEAR(schedule->range().cold, 8, 1e-12);
}

TEST(ScheduleTest, CustomScheduleReplacesTheRange) {
  SampleParams params;
  params.beta_schedule = {0.5, 0.25, 3};
  params.sweeps_per_beta = 2;
  auto schedule = ResolveSchedule(Queens8(), params);
  ASSERT_OK(schedule.status());
  EXPECT_THAT(Betas(*schedule), ElementsAre(0.5, 0.5, 0.25, 0.25, 3, 3));
  EXPECT_EQ(schedule->type(), ScheduleType::kCustom);
  EXPECT_EQ(schedule->range().hot, 0.5);
  EXPECT_EQ(schedule->range().cold, 3);

  params.beta_schedule = {1, NAN};
  EXPECT_THAT(ResolveSchedule(Queens8(), params),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("beta_schedule[1]")));
  params.beta_schedule.clear();
  params.sweeps_per_beta = 0;
  EXPECT_THAT(ResolveSchedule(Queens8(), params),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
}

TEST(ScheduleTest, HugeSweepCountsAreComputedOnDemand) {
  SampleParams params;
  params.num_sweeps = 100000000;
  params.beta_hot = 0.5;
  params.beta_cold = 5;
  auto schedule = ResolveSchedule(Queens8(), params);
  ASSERT_OK(schedule.status());
  EXPECT_EQ(schedule->num_sweeps(), 100000000);
  EXPECT_EQ(schedule->BetaAt(0), 0.5);
  EXPECT_NEAR(schedule->BetaAt(99999999), 5, 1e-12);
  EXPECT_NEAR(schedule->BetaAt(49999999) * schedule->BetaAt(50000000), 2.5,
              1e-6);  // geometric midpoint
}

TEST(ScheduleTest, TunedRangeComesFromFlipCostsAtLocalMinima) {
  // Every positive flip cost of 8-queens is an integer, and a local minimum
  // with a diagonal conflict has one costing 1: beta_cold = ln(100 * 64) / 1,
  // beta_hot = 3.5 over the lower-quartile cost.
  const BetaRange range = TunedBetaRange(Queens8());
  EXPECT_NEAR(range.cold, std::log(6400.0), 1e-12);
  const double quartile = 3.5 / range.hot;
  EXPECT_NEAR(quartile, std::round(quartile), 1e-12);
  EXPECT_GE(quartile, 1);
  EXPECT_LE(quartile, 6);
  // The default rule of a request is the tuned one.
  SampleParams params;
  const BetaRange resolved = ResolveBetaRange(Queens8(), params);
  EXPECT_EQ(resolved.hot, range.hot);
  EXPECT_EQ(resolved.cold, range.cold);
}

TEST(ScheduleTest, TunedRangeFallsBackWithoutUphillMoves) {
  // A constant model: no flip costs anything.
  QuboBuilder builder(3);
  builder.AddOffset(2);
  auto constant = std::move(builder).Build();
  ASSERT_OK(constant.status());
  const BetaRange tuned = TunedBetaRange(*constant);
  const BetaRange dwave = DefaultBetaRange(*constant);
  EXPECT_EQ(tuned.hot, dwave.hot);
  EXPECT_EQ(tuned.cold, dwave.cold);
}

TEST(ScheduleTest, OneEndGivenTheOtherFromTheRule) {
  SampleParams params;
  params.beta_range_rule = BetaRangeRule::kDwave;
  params.beta_cold = 50;
  const BetaRange range = ResolveBetaRange(Queens8(), params);
  EXPECT_NEAR(range.hot, std::log(2.0) / 39, 1e-12);
  EXPECT_EQ(range.cold, 50);
}

}  // namespace
}  // namespace qs
