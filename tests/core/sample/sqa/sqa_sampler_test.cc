// Tests of simulated quantum annealing (core/sample/sqa): it reaches the
// ground energy of puzzle reference instances, the same seed gives the same
// samples whatever the thread count, all_slices streams every slice, one
// slice at a fixed field samples the classical Boltzmann distribution, the
// schedules' shapes and the slice coupling follow their formulas, a time limit
// keeps the runs it cut, and bad parameters are refused naming the field.
#include "core/sample/sqa/sqa_sampler.h"

#include <cmath>
#include <vector>

#include "core/base/rng.h"
#include "core/base/worker_pool.h"
#include "core/sample/sqa/sqa_kernel.h"
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

TEST(SqaSamplerTest, ReachesTheGroundEnergyOfPuzzleModels) {
  for (const auto& [name, ground] : std::vector<std::pair<std::string, double>>{
           {"queens12", 0}, {"takuzu10", 40}, {"sudoku_full", -81}}) {
    absl::StatusOr<Qubo> model = LoadInstance(name);
    ASSERT_TRUE(model.ok()) << model.status();
    SampleParams params;
    params.num_reads = 8;
    params.num_sweeps = 500;
    params.seed = 1;
    CollectingSink sink;
    absl::StatusOr<SampleStats> stats =
        SampleOnPool(NewSqaSampler, *model, params, sink);
    ASSERT_TRUE(stats.ok()) << stats.status();
    EXPECT_EQ(sink.BestEnergy(), ground) << name;
    EXPECT_EQ(stats->reads_done, 8);
    EXPECT_EQ(stats->spin_update_attempts,
              int64_t{8} * 500 * 8 * model->num_variables());
    EXPECT_EQ(stats->info.sqa().trotter_slices(), 8u);
  }
}

TEST(SqaSamplerTest, SameSeedSameSamplesWhateverTheThreadCount) {
  absl::StatusOr<Qubo> model = LoadInstance("takuzu10");
  ASSERT_TRUE(model.ok()) << model.status();
  SampleParams params;
  params.num_reads = 6;
  params.num_sweeps = 50;
  params.seed = 3;
  v1::SolveParams wire;
  wire.mutable_sqa()->set_all_slices(true);
  wire.mutable_sqa()->set_trotter_slices(4);
  params.wire = &wire;
  CollectingSink one, two;
  ASSERT_TRUE(SampleOnPool(NewSqaSampler, *model, params, one, 1).ok());
  absl::StatusOr<SampleStats> stats =
      SampleOnPool(NewSqaSampler, *model, params, two, 2);
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->reads_done, 24);
  const std::vector<Sample> a = one.SortedByRead(), b = two.SortedByRead();
  ASSERT_EQ(a.size(), 24u);
  ASSERT_EQ(b.size(), 24u);
  // Equal read indices keep their slice order within a run.
  for (size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].read_index, b[k].read_index);
    EXPECT_EQ(a[k].energy, model->Energy(a[k].bits)) << k;
  }
  EXPECT_EQ(one.BestEnergy(), two.BestEnergy());
}

// One slice has no transverse coupling: the kernel is Metropolis at beta, and
// a 2-variable model's state frequencies follow exp(-beta E).
TEST(SqaKernelTest, OneSliceSamplesTheBoltzmannDistribution) {
  QuboBuilder builder(2);
  builder.AddLinear(0, 1);
  builder.AddLinear(1, -0.5);
  builder.AddQuadratic(0, 1, -1);
  absl::StatusOr<Qubo> model = std::move(builder).Build();
  ASSERT_TRUE(model.ok());
  Interrupter interrupter;
  SqaRun run{.slices = 1, .x = {0, 0}, .seed = 8};
  std::vector<int> counts(4);
  for (int t = 0; t < 200000; ++t) {
    run.seed = DeriveSeed(8, t);
    RunSqa(
        *model, 1.0,
        [](int64_t) {
          return SqaPoint{1, 1};
        },
        1, run, interrupter);
    ++counts[run.x[0] + 2 * run.x[1]];
  }
  const double e[4] = {0, 1, -0.5, -0.5};
  double z = 0;
  for (double v : e) z += std::exp(-v);
  for (int s = 0; s < 4; ++s)
    EXPECT_NEAR(counts[s] / 200000.0, std::exp(-e[s]) / z, 0.01) << s;
}

TEST(SqaKernelTest, ScheduleShapesAndSliceCoupling) {
  EXPECT_DOUBLE_EQ(SqaGamma(v1::SQA_LINEAR, 2, 0.5, 0), 2);
  EXPECT_DOUBLE_EQ(SqaGamma(v1::SQA_LINEAR, 2, 0.5, 0.5), 1.25);
  EXPECT_DOUBLE_EQ(SqaGamma(v1::SQA_QUADRATIC, 2, 0.5, 0.5), 0.875);
  EXPECT_DOUBLE_EQ(SqaGamma(v1::SQA_GEOMETRIC, 2, 0.5, 0.5), 1);
  EXPECT_DOUBLE_EQ(SqaGamma(v1::SQA_GEOMETRIC, 2, 0.5, 1), 0.5);
  EXPECT_DOUBLE_EQ(SqaSliceCoupling(4, 1, 8), -0.5 * std::log(std::tanh(0.5)));
}

TEST(SqaSamplerTest, TimeLimitKeepsTheRunsItCut) {
  absl::StatusOr<Qubo> model = LoadInstance("random_dense1000");
  ASSERT_TRUE(model.ok()) << model.status();
  SampleParams params;
  params.num_reads = 2;
  params.num_sweeps = 1000000;
  for (StopReason reason : {StopReason::kTimeLimit, StopReason::kCancelled}) {
    Interrupter interrupter;
    interrupter.SetDeadline(absl::Now() + absl::Milliseconds(50), reason);
    CollectingSink sink;
    absl::StatusOr<SampleStats> stats =
        SampleOnPool(NewSqaSampler, *model, params, sink, 2, &interrupter);
    ASSERT_TRUE(stats.ok());
    EXPECT_EQ(stats->stop_reason, reason);
    EXPECT_EQ(sink.SortedByRead().size(),
              reason == StopReason::kTimeLimit ? 2u : 0u);
  }
}

TEST(SqaSamplerTest, RefusesSlicesBeyondItsMemoryLimit) {
  absl::StatusOr<Qubo> model = QuboBuilder(40000).Build();
  ASSERT_TRUE(model.ok());
  SampleParams params;
  params.num_reads = 1;
  v1::SolveParams wire;
  wire.mutable_sqa()->set_trotter_slices(1024);  // 4.1e7 slice variables
  params.wire = &wire;
  CollectingSink sink;
  EXPECT_THAT(SampleOnPool(NewSqaSampler, *model, params, sink),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       HasSubstr("fewer trotter_slices")));
}

TEST(SqaParamsTest, RefusesBadParametersNamingTheField) {
  v1::SqaParams wire;
  EXPECT_TRUE(CheckSqaParams(wire).ok());
  wire.set_trotter_slices(5000);
  EXPECT_THAT(CheckSqaParams(wire),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.sqa.trotter_slices")));
  wire = v1::SqaParams();
  wire.set_beta(-2);
  EXPECT_THAT(CheckSqaParams(wire), StatusIs(absl::StatusCode::kInvalidArgument,
                                             HasSubstr("params.sqa.beta")));
  wire = v1::SqaParams();
  wire.set_gamma_start(1);
  wire.set_gamma_end(2);
  EXPECT_THAT(CheckSqaParams(wire),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.sqa.gamma_end")));
  wire = v1::SqaParams();
  wire.set_schedule(static_cast<v1::SqaSchedule>(9));
  EXPECT_THAT(CheckSqaParams(wire), StatusIs(absl::StatusCode::kInvalidArgument,
                                             HasSubstr("params.sqa.schedule")));
}

}  // namespace
}  // namespace qs
