// The auto race's rounds under a time limit: a round's sweeps are cut to what
// the time left lets it finish at the compute the call gets
// (RoundSweepsForTime), and the kernels' speeds are learned from the rounds
// that ran (KernelSpeeds).
#include "core/sample/auto/auto_race.h"

#include <optional>

#include "absl/time/time.h"
#include "gtest/gtest.h"

namespace qs {
namespace {

RoundTiming Timing(double seconds, double attempts_per_second,
                   bool measured = true) {
  RoundTiming timing;
  timing.measured = measured;
  timing.time_left = absl::Seconds(seconds);
  timing.attempts_per_second = attempts_per_second;
  timing.attempts_per_read_sweep = 20000;  // a G81-sized model
  timing.reads = 512;
  return timing;
}

TEST(RoundSweepsForTimeTest, AShortLimitCutsTheRoundToWhatItCanFinish) {
  // 1e10 attempts/s over 512 reads of 20,000 variables: about 977 sweeps a
  // second, of which a round takes kAutoRoundTimeShare of the time left.
  const uint32_t sweeps = RoundSweepsForTime(10000, Timing(1.0, 1e10));
  EXPECT_EQ(sweeps, static_cast<uint32_t>(kAutoRoundTimeShare * 1e10 /
                                          (512.0 * 20000)));
  // A quarter of the compute (four calls on the same cores), a quarter of
  // the sweeps.
  EXPECT_NEAR(RoundSweepsForTime(10000, Timing(1.0, 2.5e9)), sweeps / 4.0, 1);
  // At an estimated rate, the smaller share.
  EXPECT_EQ(
      RoundSweepsForTime(10000, Timing(1.0, 1e10, false)),
      static_cast<uint32_t>(kAutoFirstRoundTimeShare * 1e10 / (512.0 * 20000)));
}

TEST(RoundSweepsForTimeTest, KeepsThePlanWhenTheTimeAllowsIt) {
  EXPECT_EQ(RoundSweepsForTime(500, Timing(60, 1e10)), 500u);
  // No measure of the speed: no cut.
  EXPECT_EQ(RoundSweepsForTime(500, Timing(0.1, 0)), 500u);
}

TEST(RoundSweepsForTimeTest, NeverBelowTheFloorNorAboveThePlan) {
  EXPECT_EQ(RoundSweepsForTime(10000, Timing(0.001, 1e9)), kAutoMinRoundSweeps);
  EXPECT_EQ(RoundSweepsForTime(10000, Timing(-1, 1e9)), kAutoMinRoundSweeps);
  EXPECT_EQ(RoundSweepsForTime(8, Timing(0.001, 1e9)), 8u);
}

TEST(KernelSpeedsTest, LearnsFromMeasuredRounds) {
  KernelSpeeds speeds;
  EXPECT_EQ(speeds.Get("cpu-sa/bitsliced"), std::nullopt);
  speeds.Record("cpu-sa/bitsliced", 4000000000, absl::Seconds(1));
  EXPECT_EQ(speeds.Get("cpu-sa/bitsliced"), 4e9);
  // Later rounds move the estimate towards them.
  speeds.Record("cpu-sa/bitsliced", 2000000000, absl::Seconds(1));
  const double moved = *speeds.Get("cpu-sa/bitsliced");
  EXPECT_LT(moved, 4e9);
  EXPECT_GT(moved, 2e9);
  // Rounds too short to time are ignored; other kernels keep their own.
  speeds.Record("cpu-sa/bitsliced", 1000, absl::Microseconds(10));
  EXPECT_EQ(speeds.Get("cpu-sa/bitsliced"), moved);
  EXPECT_EQ(speeds.Get("cpu-sa/float"), std::nullopt);
}

}  // namespace
}  // namespace qs
