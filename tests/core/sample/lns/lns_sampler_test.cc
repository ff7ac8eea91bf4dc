// Tests of backend "lns" (core/sample/lns): it reaches the ground energy of
// small random models and of spin-glass tori small enough to enumerate, the
// exact cut of an odd antiferromagnetic torus, the same seed gives the same
// samples whatever the thread count, and a target ends the search.
#include "core/sample/lns/lns_sampler.h"

#include <vector>

#include "core/base/rng.h"
#include "core/sample/exact/brute_force_sampler.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/sample/lns/lns_testing.h"
#include "tests/core/sample/testing_sampler.h"
#include "tests/core/sample/testing_sink.h"

namespace qs {
namespace {

using ::qs::testing::CollectingSink;
using ::qs::testing::LatticeMaxCut;
using ::qs::testing::SampleOnPool;
using ::testing::HasSubstr;

Qubo RandomModel(int n, uint64_t seed) {
  QuboBuilder builder(n);
  Xoshiro256 rng(seed);
  for (int i = 0; i < n; ++i) {
    builder.AddLinear(i, static_cast<int>(rng.NextBelow(9)) - 4);
    for (int j = i + 1; j < n; ++j)
      if (rng.NextBelow(3) == 0)
        builder.AddQuadratic(i, j, static_cast<int>(rng.NextBelow(9)) - 4);
  }
  return *std::move(builder).Build();
}

double GroundEnergy(const Qubo& model) {
  return FindGroundStates(model, 1, nullptr)->energy;
}

double BestEnergy(const Qubo& model, SampleParams params, int threads = 2) {
  CollectingSink sink;
  absl::StatusOr<SampleStats> stats =
      SampleOnPool(NewLnsSampler, model, params, sink, threads);
  EXPECT_TRUE(stats.ok()) << stats.status();
  double best = std::numeric_limits<double>::infinity();
  for (const Sample& s : sink.SortedByRead()) best = std::min(best, s.energy);
  return best;
}

TEST(LnsSamplerTest, ReachesTheGroundEnergyOfSmallRandomModels) {
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    const Qubo model = RandomModel(24, seed);
    SampleParams params;
    params.num_reads = 4;
    params.num_sweeps = 40;
    params.seed = seed;
    EXPECT_NEAR(BestEnergy(model, params), GroundEnergy(model), 1e-9)
        << "seed " << seed;
  }
}

TEST(LnsSamplerTest, ReachesTheGroundEnergyOfSpinGlassTori) {
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    const Qubo model = LatticeMaxCut(4, 6, true, seed);
    SampleParams params;
    params.num_reads = 2;
    params.num_sweeps = 20;
    params.seed = seed;
    EXPECT_NEAR(BestEnergy(model, params), GroundEnergy(model), 1e-9)
        << "seed " << seed;
  }
}

// On a torus of odd height every column is an odd ring, which keeps one bond
// uncut; rows of even length cut all theirs: the best cut is 2 n - cols.
TEST(LnsSamplerTest, CutsAllButOneBondPerColumnOfAnOddAntiferromagnet) {
  const int rows = 21, cols = 40;
  const Qubo model = LatticeMaxCut(rows, cols, true, 0);
  SampleParams params;
  params.num_reads = 2;
  params.num_sweeps = 30;
  params.seed = 3;
  CollectingSink sink;
  absl::StatusOr<SampleStats> stats =
      SampleOnPool(NewLnsSampler, model, params, sink);
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_THAT(stats->info.moves(), HasSubstr("lattice 21x40"));
  double best = 0;
  for (const Sample& s : sink.SortedByRead()) best = std::min(best, s.energy);
  EXPECT_EQ(-best, 2 * rows * cols - cols);
}

TEST(LnsSamplerTest, TheSameSeedGivesTheSameSamplesOnAnyThreadCount) {
  for (const Qubo& model :
       {LatticeMaxCut(12, 10, true, 5), RandomModel(60, 5)}) {
    SampleParams params;
    params.num_reads = 3;
    params.num_sweeps = 12;
    params.seed = 42;
    CollectingSink one, two;
    ASSERT_TRUE(SampleOnPool(NewLnsSampler, model, params, one, 1).ok());
    ASSERT_TRUE(SampleOnPool(NewLnsSampler, model, params, two, 2).ok());
    const std::vector<Sample> a = one.SortedByRead(), b = two.SortedByRead();
    ASSERT_EQ(a.size(), 3u);
    ASSERT_EQ(b.size(), 3u);
    for (int r = 0; r < 3; ++r) {
      EXPECT_EQ(a[r].bits, b[r].bits);
      EXPECT_EQ(a[r].energy, b[r].energy);
    }
  }
}

TEST(LnsSamplerTest, ATargetEndsTheSearch) {
  const Qubo model = LatticeMaxCut(16, 16, true, 0);  // even: all cut
  SampleParams params;
  params.num_reads = 50;
  params.num_sweeps = 1000000;
  params.seed = 1;
  params.target_energy = -2.0 * 16 * 16;
  CollectingSink sink;
  absl::StatusOr<SampleStats> stats =
      SampleOnPool(NewLnsSampler, model, params, sink);
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->stop_reason, StopReason::kTargetReached);
  EXPECT_LT(stats->reads_done, 50);
}

}  // namespace
}  // namespace qs
