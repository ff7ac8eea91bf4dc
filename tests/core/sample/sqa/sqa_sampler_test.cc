// Tests of simulated quantum annealing (core/sample/sqa): it reaches the
// ground energy of puzzle reference instances, the same seed gives the same
// samples whatever the thread count and the SIMD path, all_slices streams
// every slice, one slice at a fixed field samples the classical Boltzmann
// distribution, the Trotter coupling locks the slices at a weak field and
// leaves them free at a strong one, the schedules' shapes and the slice
// coupling follow their formulas, a time limit keeps the runs it cut, and bad
// parameters are refused naming the field.
#include "core/sample/sqa/sqa_sampler.h"

#include <algorithm>
#include <cmath>
#include <tuple>
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

SampleParams Runs(int reads, int sweeps, uint64_t seed) {
  SampleParams params;
  params.num_reads = reads;
  params.num_sweeps = sweeps;
  params.seed = seed;
  return params;
}

// Streams every one of the P slices of each run.
v1::SolveParams AllSlices(int slices) {
  v1::SolveParams wire;
  wire.mutable_sqa()->set_all_slices(true);
  wire.mutable_sqa()->set_trotter_slices(slices);
  return wire;
}

TEST(SqaSamplerTest, ReachesTheGroundEnergyOfPuzzleModels) {
  for (const auto& [name, ground] : std::vector<std::pair<std::string, double>>{
           {"queens12", 0}, {"takuzu10", 40}, {"sudoku_full", -81}}) {
    absl::StatusOr<Qubo> model = LoadInstance(name);
    ASSERT_TRUE(model.ok()) << model.status();
    SampleParams params = Runs(8, 500, 1);
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

// The samples by run, a run's slices in bit order (the sink's sort is not
// stable, so slices of one run may come in any order).
std::vector<Sample> ByRunAndBits(const CollectingSink& sink) {
  std::vector<Sample> samples = sink.SortedByRead();
  std::sort(
      samples.begin(), samples.end(), [](const Sample& a, const Sample& b) {
        return std::tie(a.read_index, a.bits) < std::tie(b.read_index, b.bits);
      });
  return samples;
}

// 20 runs make two 16-lane batches, which two threads run at once.
TEST(SqaSamplerTest, SameSeedSameSamplesWhateverTheThreadCount) {
  absl::StatusOr<Qubo> model = LoadInstance("takuzu10");
  ASSERT_TRUE(model.ok()) << model.status();
  SampleParams params = Runs(20, 50, 3);
  const v1::SolveParams wire = AllSlices(4);
  params.wire = &wire;
  CollectingSink one, two;
  ASSERT_TRUE(SampleOnPool(NewSqaSampler, *model, params, one, 1).ok());
  absl::StatusOr<SampleStats> stats =
      SampleOnPool(NewSqaSampler, *model, params, two, 2);
  ASSERT_TRUE(stats.ok());
  EXPECT_EQ(stats->reads_done, 80);
  const std::vector<Sample> a = ByRunAndBits(one), b = ByRunAndBits(two);
  ASSERT_EQ(a.size(), 80u);
  ASSERT_EQ(b.size(), 80u);
  for (size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].read_index, b[k].read_index);
    EXPECT_EQ(a[k].bits, b[k].bits) << k;
    EXPECT_EQ(a[k].energy, model->Energy(a[k].bits)) << k;
  }
  EXPECT_EQ(one.BestEnergy(), two.BestEnergy());
}

// The samples on `path` (ByRunAndBits).
std::vector<Sample> OnPath(const Qubo& model, SampleParams params,
                           const v1::SolveParams& wire, KernelPath path) {
  params.wire = &wire;
  params.kernel = path;
  CollectingSink sink;
  absl::StatusOr<SampleStats> stats =
      SampleOnPool(NewSqaSampler, model, params, sink, 2);
  EXPECT_TRUE(stats.ok()) << stats.status();
  if (stats.ok()) {
    EXPECT_EQ(stats->info.kernel(), KernelPathName(path));
  }
  return ByRunAndBits(sink);
}

// 20 runs fill a 16-lane batch and a short one (on the 8-lane path), 8 lanes
// and a half, or 20 scalar calls: the samples must not change. One test per
// SIMD path; a path this CPU lacks is a reported skip.
class SqaSimdPathTest : public ::testing::TestWithParam<KernelPath> {};

TEST_P(SqaSimdPathTest, SameSamplesAsTheScalarPath) {
  const KernelPath path = GetParam();
  if (ResolveKernelPath(path) != path)
    GTEST_SKIP() << "this CPU lacks the " << KernelPathName(path) << " path";
  absl::StatusOr<Qubo> model = LoadInstance("queens8");
  ASSERT_TRUE(model.ok()) << model.status();
  const SampleParams params = Runs(20, 40, 5);
  const v1::SolveParams wire = AllSlices(3);
  const std::vector<Sample> scalar =
      OnPath(*model, params, wire, KernelPath::kScalar);
  ASSERT_EQ(scalar.size(), 60u);
  const std::vector<Sample> other = OnPath(*model, params, wire, path);
  ASSERT_EQ(other.size(), scalar.size());
  for (size_t k = 0; k < scalar.size(); ++k) {
    EXPECT_EQ(other[k].read_index, scalar[k].read_index);
    EXPECT_EQ(other[k].bits, scalar[k].bits) << "sample " << k;
  }
}

INSTANTIATE_TEST_SUITE_P(SimdPaths, SqaSimdPathTest,
                         ::testing::Values(KernelPath::kAvx2,
                                           KernelPath::kAvx512),
                         [](const ::testing::TestParamInfo<KernelPath>& info) {
                           return std::string(KernelPathName(info.param));
                         });

// Share of (run, variable) pairs where all four slices of a run agree, at a
// fixed field on a frustrated ring hot enough that lone slices wander.
double SliceAgreement(double gamma) {
  const int n = 200;
  QuboBuilder builder(n);
  Xoshiro256 rng(17);
  for (int i = 0; i < n; ++i) {
    builder.AddLinear(i, rng.NextDouble() < 0.5 ? -1 : 1);
    builder.AddQuadratic(i, (i + 1) % n, rng.NextDouble() < 0.5 ? -2 : 2);
  }
  absl::StatusOr<Qubo> model = std::move(builder).Build();
  EXPECT_TRUE(model.ok());
  SampleParams params = Runs(8, 50, 2);
  v1::SolveParams wire = AllSlices(4);
  wire.mutable_sqa()->set_beta(2);
  wire.mutable_sqa()->set_gamma_start(gamma);
  wire.mutable_sqa()->set_gamma_end(gamma);
  params.wire = &wire;
  CollectingSink sink;
  EXPECT_TRUE(SampleOnPool(NewSqaSampler, *model, params, sink).ok());
  const std::vector<Sample> slices = ByRunAndBits(sink);
  EXPECT_EQ(slices.size(), 32u);
  int agree = 0;
  for (size_t run = 0; run + 3 < slices.size(); run += 4) {
    for (int i = 0; i < n; ++i) {
      bool same = true;
      for (int k = 1; k < 4; ++k)
        same = same && slices[run + k].bits[i] == slices[run].bits[i];
      agree += same;
    }
  }
  return static_cast<double>(agree) / (8 * n);
}

// At a tiny field B = -1/2 ln tanh(beta Gamma / P) is about 12: a lone slice's
// flip costs 4 B > 24 ln 2 and never passes, so the slices stay equal. At a
// huge one B = 0 and the slices decorrelate: all four agree on a variable
// about 1/8 of the time. Ignoring the coupling would fail the first; applying
// it at full strength would fail the second.
TEST(SqaKernelTest, TrotterCouplingLocksOrFreesTheSlices) {
  EXPECT_EQ(SliceAgreement(1e-9), 1.0);
  const double free = SliceAgreement(1e3);
  EXPECT_GT(free, 0.02);
  EXPECT_LT(free, 0.4);
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
  absl::StatusOr<KernelModel> kernel_model = MakeKernelModel(*model);
  ASSERT_TRUE(kernel_model.ok());
  const KernelPath path = ResolveKernelPath(KernelPath::kAuto);
  Interrupter interrupter;
  constexpr int kRuns = 200000, kBatch = 16;
  // 16 Markov chains: each call continues from the last one's state.
  std::vector<SqaRead> runs(kBatch);
  for (SqaRead& run : runs) run.start = {0, 0};
  std::vector<int> counts(4);
  for (int t = 0; t < kRuns; t += kBatch) {
    for (int r = 0; r < kBatch; ++r) {
      if (t > 0) runs[r].start = runs[r].slices;
      runs[r].rng_seed = DeriveSeed(8, t + r);
    }
    AnnealSqa(
        path, *kernel_model, 1.0, 1,
        [](int64_t) {
          return SqaPoint{1, 1};
        },
        1, runs, interrupter);
    for (const SqaRead& run : runs) ++counts[run.slices[0] + 2 * run.slices[1]];
  }
  const double e[4] = {0, 1, -0.5, -0.5};
  double z = 0;
  for (double v : e) z += std::exp(-v);
  for (int s = 0; s < 4; ++s)
    EXPECT_NEAR(counts[s] / double{kRuns}, std::exp(-e[s]) / z, 0.01) << s;
}

TEST(SqaKernelTest, ScheduleShapesAndSliceCoupling) {
  EXPECT_DOUBLE_EQ(SqaGamma(v1::SQA_LINEAR, 2, 0.5, 0), 2);
  EXPECT_DOUBLE_EQ(SqaGamma(v1::SQA_LINEAR, 2, 0.5, 0.5), 1.25);
  EXPECT_DOUBLE_EQ(SqaGamma(v1::SQA_QUADRATIC, 2, 0.5, 0.5), 0.875);
  EXPECT_DOUBLE_EQ(SqaGamma(v1::SQA_GEOMETRIC, 2, 0.5, 0.5), 1);
  EXPECT_DOUBLE_EQ(SqaGamma(v1::SQA_GEOMETRIC, 2, 0.5, 1), 0.5);
  EXPECT_DOUBLE_EQ(SqaSliceCoupling(4, 1, 8), -0.5 * std::log(std::tanh(0.5)));
}

TEST(SqaSamplerTest, EveryStopKeepsTheRunsItCut) {
  absl::StatusOr<Qubo> model = LoadInstance("random_dense1000");
  ASSERT_TRUE(model.ok()) << model.status();
  SampleParams params;
  params.num_reads = 2;
  params.num_sweeps = 1000000;
  for (StopReason reason : {StopReason::kTimeLimit, StopReason::kDeadline,
                            StopReason::kCancelled}) {
    Interrupter interrupter;
    interrupter.SetDeadline(absl::Now() + absl::Milliseconds(50), reason);
    CollectingSink sink;
    absl::StatusOr<SampleStats> stats =
        SampleOnPool(NewSqaSampler, *model, params, sink, 2, &interrupter);
    ASSERT_TRUE(stats.ok());
    EXPECT_EQ(stats->stop_reason, reason);
    EXPECT_EQ(stats->reads_cut_short, 2);
    ASSERT_EQ(sink.SortedByRead().size(), 2u);
    for (const Sample& s : sink.SortedByRead())
      EXPECT_DOUBLE_EQ(s.energy, model->Energy(s.bits));
  }
}

TEST(SqaSamplerTest, RefusesSlicesBeyondItsMemoryLimit) {
  absl::StatusOr<Qubo> model = QuboBuilder(40000).Build();
  ASSERT_TRUE(model.ok());
  SampleParams params;
  params.num_reads = 1;
  v1::SolveParams wire;
  wire.mutable_sqa()->set_trotter_slices(64);  // 2.6e6 slice variables
  params.wire = &wire;
  CollectingSink sink;
  EXPECT_THAT(SampleOnPool(NewSqaSampler, *model, params, sink),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       HasSubstr("fewer trotter_slices")));
}

absl::Status CheckSqaParams(const v1::SqaParams& wire) {
  v1::SolveParams params;
  *params.mutable_sqa() = wire;
  return testing::CheckParamsOf(NewSqaSampler, params);
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
