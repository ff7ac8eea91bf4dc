// Tests of population annealing (core/sample/pa): it reaches the ground energy
// of puzzle reference instances, its free-energy estimate matches the exact
// one of a small model, the same seed gives the same samples whatever the
// thread count, resampling keeps the population's size (multinomial) or its
// mean (nearest), new bests stream as found, a time limit keeps the
// population and a cancel drops it, and bad parameters are refused naming the
// field.
#include "core/sample/pa/pa_sampler.h"

#include <cmath>
#include <vector>

#include "core/base/worker_pool.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/sample/testing_sampler.h"
#include "tests/core/sample/testing_sink.h"
#include "tests/testing/instance_qubo.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::CollectingSink;
using ::qs::testing::LoadInstance;
using ::qs::testing::SampleOnPool;
using ::qs::testing::StatusIs;
using ::testing::HasSubstr;

TEST(PaSamplerTest, ReachesTheGroundEnergyOfPuzzleModels) {
  for (const auto& [name, ground] : std::vector<std::pair<std::string, double>>{
           {"queens12", 0}, {"takuzu10", 40}, {"sudoku_nyt_I_IV", -81}}) {
    absl::StatusOr<Qubo> model = LoadInstance(name);
    ASSERT_TRUE(model.ok()) << model.status();
    SampleParams params;
    params.num_reads = 64;
    params.num_sweeps = 1000;
    params.seed = 2;
    CollectingSink sink;
    absl::StatusOr<SampleStats> stats =
        SampleOnPool(NewPaSampler, *model, params, sink);
    ASSERT_TRUE(stats.ok()) << stats.status();
    EXPECT_EQ(sink.BestEnergy(), ground) << name;
    EXPECT_EQ(stats->info.pa().steps(), 100u);
    // Each new best member as its step found it, then the final population.
    EXPECT_GT(stats->reads_done, stats->info.pa().population());
    EXPECT_EQ(sink.SortedByRead().size(), stats->reads_done);
    EXPECT_GE(stats->info.pa().families(), 1u);
  }
}

// A random 8-variable model with an offset: ln Z at the last beta, by
// enumeration.
TEST(PaSamplerTest, FreeEnergyMatchesTheExactOne) {
  QuboBuilder builder(8);
  builder.AddOffset(1.5);
  Xoshiro256 rng(9);
  for (int i = 0; i < 8; ++i) {
    builder.AddLinear(i, rng.NextDouble() * 2 - 1);
    for (int j = i + 1; j < 8; ++j)
      builder.AddQuadratic(i, j, rng.NextDouble() * 2 - 1);
  }
  absl::StatusOr<Qubo> model = std::move(builder).Build();
  ASSERT_TRUE(model.ok());
  SampleParams params;
  params.num_reads = 4000;
  params.num_sweeps = 200;
  params.seed = 4;
  v1::SolveParams wire;
  wire.mutable_pa()->set_beta_hot(0.1);
  wire.mutable_pa()->set_beta_cold(2);
  wire.mutable_pa()->set_sweeps_per_step(5);
  params.wire = &wire;
  CollectingSink sink;
  absl::StatusOr<SampleStats> stats =
      SampleOnPool(NewPaSampler, *model, params, sink);
  ASSERT_TRUE(stats.ok()) << stats.status();
  double z = 0;
  std::vector<uint8_t> x(8);
  for (int bits = 0; bits < 256; ++bits) {
    for (int i = 0; i < 8; ++i) x[i] = bits >> i & 1;
    z += std::exp(-2 * model->Energy(x));
  }
  EXPECT_NEAR(stats->info.pa().beta_free_energy(), -std::log(z), 0.05);
  EXPECT_NEAR(stats->info.pa().free_energy(), -std::log(z) / 2, 0.025);
  EXPECT_GT(stats->info.pa().rho_t(), 1);
}

TEST(PaSamplerTest, SameSeedSameSamplesWhateverTheThreadCount) {
  absl::StatusOr<Qubo> model = LoadInstance("takuzu14");
  ASSERT_TRUE(model.ok()) << model.status();
  SampleParams params;
  params.num_reads = 40;
  params.num_sweeps = 60;
  params.seed = 3;
  CollectingSink one, two;
  ASSERT_TRUE(SampleOnPool(NewPaSampler, *model, params, one, 1).ok());
  ASSERT_TRUE(SampleOnPool(NewPaSampler, *model, params, two, 2).ok());
  const std::vector<Sample> a = one.SortedByRead(), b = two.SortedByRead();
  ASSERT_EQ(a.size(), b.size());
  ASSERT_FALSE(a.empty());
  for (size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].bits, b[k].bits) << k;
    EXPECT_EQ(a[k].energy, model->Energy(a[k].bits)) << k;
  }
}

TEST(PaResampleTest, MultinomialKeepsTheSizeNearestKeepsTheMean) {
  const std::vector<double> weights = {1, 2, 3, 0.5, 0.25};
  Xoshiro256 rng(1);
  int total = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    const std::vector<int> multi =
        ResampleCopies(weights, 10, v1::PA_RESAMPLING_MULTINOMIAL, rng);
    int size = 0;
    for (int c : multi) size += c;
    EXPECT_EQ(size, 10);
    const std::vector<int> nearest =
        ResampleCopies(weights, 10, v1::PA_RESAMPLING_NEAREST, rng);
    // tau = 10 w / 6.75: member 2 gets floor(4.44) = 4 or 5 copies.
    EXPECT_GE(nearest[2], 4);
    EXPECT_LE(nearest[2], 5);
    for (int c : nearest) total += c;
  }
  EXPECT_NEAR(total / 1000.0, 10, 0.2);
}

TEST(PaSamplerTest, EveryStopKeepsThePopulationScored) {
  absl::StatusOr<Qubo> model = LoadInstance("random_sparse2000");
  ASSERT_TRUE(model.ok()) << model.status();
  SampleParams params;
  params.num_reads = 32;
  params.num_sweeps = 1000000;
  for (StopReason reason : {StopReason::kTimeLimit, StopReason::kDeadline,
                            StopReason::kCancelled}) {
    Interrupter interrupter;
    interrupter.SetDeadline(absl::Now() + absl::Milliseconds(200), reason);
    CollectingSink sink;
    absl::StatusOr<SampleStats> stats =
        SampleOnPool(NewPaSampler, *model, params, sink, 2, &interrupter);
    ASSERT_TRUE(stats.ok());
    EXPECT_EQ(stats->stop_reason, reason);
    // The bests streamed as found stay, and the population as the stop left
    // it follows (nearest-integer resampling lets its size drift from 32).
    const std::vector<Sample> samples = sink.SortedByRead();
    EXPECT_EQ(samples.size(), stats->reads_done);
    EXPECT_GT(stats->info.pa().population(), 0u);
    EXPECT_GT(samples.size(), stats->info.pa().population());
    EXPECT_EQ(static_cast<uint32_t>(stats->reads_cut_short),
              stats->info.pa().population());
    for (const Sample& s : samples)
      EXPECT_DOUBLE_EQ(s.energy, model->Energy(s.bits));
  }
}

// A limit that fires before the starts are done (a short limit on a loaded
// machine) still returns the members started, scored as they started.
TEST(PaSamplerTest, ATimeLimitDuringTheStartsKeepsTheStartedMembers) {
  absl::StatusOr<Qubo> model = LoadInstance("random_sparse2000");
  ASSERT_TRUE(model.ok()) << model.status();
  SampleParams params;
  params.num_reads = 256;
  params.num_sweeps = 1000;
  Interrupter interrupter;
  interrupter.Interrupt(StopReason::kTimeLimit);
  CollectingSink sink;
  absl::StatusOr<SampleStats> stats =
      SampleOnPool(NewPaSampler, *model, params, sink, 2, &interrupter);
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->stop_reason, StopReason::kTimeLimit);
  const std::vector<Sample> samples = sink.SortedByRead();
  EXPECT_GT(samples.size(), 0u);
  EXPECT_LT(samples.size(), 256u);
  EXPECT_EQ(samples.size(), stats->reads_done);
  EXPECT_EQ(stats->reads_cut_short, stats->reads_done);
  EXPECT_EQ(stats->sweeps_done, 0);
  for (const Sample& s : samples)
    EXPECT_DOUBLE_EQ(s.energy, model->Energy(s.bits));
}

TEST(PaSamplerTest, RefusesAPopulationBeyondItsMemoryLimit) {
  absl::StatusOr<Qubo> model = LoadInstance("random_sparse2000");
  ASSERT_TRUE(model.ok()) << model.status();
  SampleParams params;
  params.num_reads = 100000;  // 2e8 member variables
  CollectingSink sink;
  EXPECT_THAT(
      SampleOnPool(NewPaSampler, *model, params, sink),
      StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("fewer reads")));
}

absl::Status CheckPaParams(const v1::PaParams& wire, uint32_t max_sweeps) {
  v1::SolveParams params;
  *params.mutable_pa() = wire;
  return testing::CheckParamsOf(NewPaSampler, params, max_sweeps);
}

TEST(PaParamsTest, RefusesBadParametersNamingTheField) {
  v1::PaParams wire;
  EXPECT_TRUE(CheckPaParams(wire, 100).ok());
  wire.set_beta_hot(-1);
  EXPECT_THAT(CheckPaParams(wire, 100),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.pa.beta_hot")));
  wire = v1::PaParams();
  wire.set_beta_hot(3);
  wire.set_beta_cold(2);
  EXPECT_THAT(CheckPaParams(wire, 100),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.pa: beta_hot")));
  wire = v1::PaParams();
  wire.set_sweeps_per_step(101);
  EXPECT_THAT(CheckPaParams(wire, 100),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.pa.sweeps_per_step")));
  wire = v1::PaParams();
  wire.set_schedule(v1::SCHEDULE_CUSTOM);
  EXPECT_THAT(CheckPaParams(wire, 100),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.pa.schedule")));
}

}  // namespace
}  // namespace qs
