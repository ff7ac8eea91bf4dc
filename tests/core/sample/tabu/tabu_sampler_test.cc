// Tests of multistart tabu search (core/sample/tabu): it reaches the best-known
// energy of the dense random reference instance and the ground energy of
// puzzle models, the same seed gives the same samples whatever the thread
// count, elite-perturbed restarts run after the first round, a target and a
// time limit end it, and bad parameters are refused naming the field.
#include "core/sample/tabu/tabu_sampler.h"

#include <vector>

#include "core/base/rng.h"
#include "core/base/worker_pool.h"
#include "core/sample/tabu/tabu_search.h"
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

TEST(TabuSamplerTest, ReachesTheBestKnownEnergyOfTheDenseInstance) {
  absl::StatusOr<Qubo> model = LoadInstance("random_dense1000");
  ASSERT_TRUE(model.ok()) << model.status();
  SampleParams params;
  params.num_reads = 8;
  params.num_sweeps = 100;
  params.seed = 11;
  CollectingSink sink;
  absl::StatusOr<SampleStats> result =
      SampleOnPool(NewTabuSampler, *model, params, sink);
  ASSERT_TRUE(result.ok()) << result.status();
  const SampleStats& stats = *result;
  EXPECT_EQ(stats.reads_done, 8);
  EXPECT_NEAR(sink.BestEnergy(), -2353.041827, 1e-6);
  // n cost comparisons per move.
  EXPECT_EQ(stats.spin_update_attempts, stats.info.tabu().moves() * 1000);
  EXPECT_EQ(stats.info.tabu().tenure(), 20);
}

TEST(TabuSamplerTest, ReachesTheGroundEnergyOfPuzzleModels) {
  for (const auto& [name, ground] : std::vector<std::pair<std::string, double>>{
           {"queens12", 0}, {"takuzu10", 40}, {"takuzu14", 84}}) {
    absl::StatusOr<Qubo> model = LoadInstance(name);
    ASSERT_TRUE(model.ok()) << model.status();
    SampleParams params;
    params.num_reads = 16;
    params.num_sweeps = 200;
    params.seed = 5;
    params.target_energy = ground;
    CollectingSink sink;
    absl::StatusOr<SampleStats> result =
        SampleOnPool(NewTabuSampler, *model, params, sink);
    ASSERT_TRUE(result.ok()) << result.status();
    const SampleStats& stats = *result;
    EXPECT_EQ(sink.BestEnergy(), ground) << name;
    EXPECT_EQ(stats.stop_reason, StopReason::kTargetReached) << name;
  }
}

TEST(TabuSamplerTest, SameSeedSameSamplesWhateverTheThreadCount) {
  absl::StatusOr<Qubo> model = LoadInstance("takuzu14");
  ASSERT_TRUE(model.ok()) << model.status();
  SampleParams params;
  params.num_reads = 20;  // three rounds: elite starts run
  params.num_sweeps = 30;
  params.seed = 3;
  CollectingSink one, two;
  absl::StatusOr<SampleStats> result =
      SampleOnPool(NewTabuSampler, *model, params, one, 1);
  ASSERT_TRUE(result.ok()) << result.status();
  const SampleStats& stats = *result;
  ASSERT_TRUE(SampleOnPool(NewTabuSampler, *model, params, two, 2).ok());
  const std::vector<Sample> a = one.SortedByRead(), b = two.SortedByRead();
  ASSERT_EQ(a.size(), 20u);
  ASSERT_EQ(b.size(), 20u);
  for (size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].bits, b[k].bits) << k;
    EXPECT_EQ(a[k].energy, model->Energy(a[k].bits)) << k;
  }
  // Restarts 9, 11, ..., 19 of rounds two and three.
  EXPECT_EQ(stats.info.tabu().elite_restarts(), 6u);
  EXPECT_EQ(stats.info.tabu().restarts(), 20u);
}

TEST(TabuSamplerTest, EveryStopKeepsTheRestartsItCut) {
  absl::StatusOr<Qubo> model = LoadInstance("random_dense1000");
  ASSERT_TRUE(model.ok()) << model.status();
  SampleParams params;
  params.num_reads = 2;
  params.num_sweeps = 1000000;
  v1::SolveParams wire;
  wire.mutable_tabu()->set_stall_sweeps(1000000);
  params.wire = &wire;
  for (StopReason reason : {StopReason::kTimeLimit, StopReason::kDeadline,
                            StopReason::kCancelled}) {
    Interrupter interrupter;
    interrupter.SetDeadline(absl::Now() + absl::Milliseconds(50), reason);
    CollectingSink sink;
    absl::StatusOr<SampleStats> stats =
        SampleOnPool(NewTabuSampler, *model, params, sink, 2, &interrupter);
    ASSERT_TRUE(stats.ok());
    EXPECT_EQ(stats->stop_reason, reason);
    EXPECT_EQ(stats->reads_done, 2);
    EXPECT_EQ(stats->reads_cut_short, 2);
    ASSERT_EQ(sink.SortedByRead().size(), 2u);
    for (const Sample& s : sink.SortedByRead())
      EXPECT_DOUBLE_EQ(s.energy, model->Energy(s.bits));
  }
}

TEST(TabuSearchTest, TenureKeepsAFlippedVariableStill) {
  // Two variables, one downhill flip each: with tenure 1 the search must move
  // the other variable next instead of undoing its move.
  QuboBuilder builder(2);
  builder.AddLinear(0, -1);
  builder.AddLinear(1, -1);
  absl::StatusOr<Qubo> model = std::move(builder).Build();
  ASSERT_TRUE(model.ok());
  Interrupter interrupter;
  const TabuRunResult run = RunTabu(*model, {0, 0}, 1,
                                    {.tenure = 1,
                                     .max_moves = 2,
                                     .stall_moves = 10,
                                     .target_energy = std::nullopt},
                                    interrupter);
  EXPECT_EQ(run.moves, 2);
  EXPECT_EQ(run.best, (std::vector<uint8_t>{1, 1}));
  EXPECT_EQ(run.best_energy, -2);
}

TEST(TabuSearchTest, BestStateOfEveryPrefixIsTheLowestMet) {
  // A dense frustrated model: the search climbs out of minima, so new bests
  // come both right after one another and after long uphill stretches (the
  // best state is then rebuilt from the logged flips or copied whole). A run
  // of k moves is the first k moves of any longer run of the same seed, so
  // the energy of its best state never rises with k.
  constexpr int kN = 96;
  QuboBuilder builder(kN);
  Xoshiro256 rng(7);
  for (int i = 0; i < kN; ++i)
    for (int j = i + 1; j < kN; ++j)
      builder.AddQuadratic(i, j, rng.NextBelow(2) ? 2.0 : -2.0);
  absl::StatusOr<Qubo> model = std::move(builder).Build();
  ASSERT_TRUE(model.ok());
  const std::vector<uint8_t> start(kN, 0);
  Interrupter interrupter;
  double previous = model->Energy(start);
  int improvements = 0;
  for (int64_t moves = 1; moves <= 2000; moves += 7) {
    const TabuRunResult run = RunTabu(*model, start, 3,
                                      {.tenure = 5,
                                       .max_moves = moves,
                                       .stall_moves = 4000,
                                       .target_energy = std::nullopt},
                                      interrupter);
    ASSERT_EQ(run.moves, moves);
    EXPECT_LE(run.best_energy, previous) << moves;
    if (run.best_energy < previous) ++improvements;
    previous = run.best_energy;
  }
  EXPECT_GT(improvements, 10);
}

absl::Status CheckTabuParams(const v1::TabuParams& wire, uint32_t max_sweeps) {
  v1::SolveParams params;
  *params.mutable_tabu() = wire;
  return testing::CheckParamsOf(NewTabuSampler, params, max_sweeps);
}

TEST(TabuParamsTest, RefusesBadParametersNamingTheField) {
  v1::TabuParams wire;
  EXPECT_TRUE(CheckTabuParams(wire, 100).ok());
  wire.set_perturbation(1.5);
  EXPECT_THAT(CheckTabuParams(wire, 100),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.tabu.perturbation")));
  wire = v1::TabuParams();
  wire.set_stall_sweeps(101);
  EXPECT_THAT(CheckTabuParams(wire, 100),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.tabu.stall_sweeps")));
  wire = v1::TabuParams();
  wire.set_elite_size(5000);
  EXPECT_THAT(CheckTabuParams(wire, 100),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.tabu.elite_size")));
  EXPECT_EQ(DefaultTabuTenure(1000), 20);
  EXPECT_EQ(DefaultTabuTenure(12), 3);
  EXPECT_EQ(DefaultTabuTenure(1), 0);
}

}  // namespace
}  // namespace qs
