// Population annealing with the moves that keep the groups
// (core/sample/pa/group_population.h and the sampler's choice of them): every
// member keeps the groups and is scored exactly, the population reaches a
// small TSP's optimum, a seed gives the same samples on every SIMD path and
// thread count, and the request and the model decide when the moves run.
#include "core/sample/pa/group_population.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "core/sample/group_structure.h"
#include "core/sample/pa/pa_sampler.h"
#include "gtest/gtest.h"
#include "tests/core/sample/testing_sink.h"
#include "tests/core/sample/testing_tsp.h"

namespace qs {
namespace {

using testing::BestKeepingTheGroups;
using testing::CollectingSink;
using testing::ExpectTheGroupMovesRule;
using testing::MakeTsp;
using testing::OptimumByEnumeration;
using testing::SampleOnPool;
using testing::SampleTsp;
using testing::Tsp;
using testing::TspParams;
using testing::TspRun;

SampleParams PopulationParams(const Tsp& tsp, const v1::SolveParams* wire) {
  SampleParams params = TspParams(tsp, wire);
  params.num_reads = 40;
  params.num_sweeps = 300;
  return params;
}

TEST(GroupPopulationTest, MembersKeepTheGroupsAndTheBestIsTheOptimum) {
  constexpr int kCities = 7;
  const Tsp tsp = MakeTsp(kCities, 0, 13);
  const TspRun run =
      SampleTsp(NewPaSampler, tsp, PopulationParams(tsp, nullptr));
  EXPECT_EQ(run.moves, "two-way-exchange");
  ASSERT_FALSE(run.samples.empty());
  EXPECT_DOUBLE_EQ(BestKeepingTheGroups(tsp, run),
                   OptimumByEnumeration(tsp, kCities));
}

// The scalar path on one thread against the best path on two, with free
// variables beside the block.
TEST(GroupPopulationTest, ASeedGivesTheSameSamplesOnEveryPathAndThreadCount) {
  const Tsp tsp = MakeTsp(6, 5, 16);
  v1::SolveParams scalar;
  scalar.mutable_pa()->set_kernel(v1::KERNEL_SCALAR);
  CollectingSink one, two;
  SampleParams params = PopulationParams(tsp, &scalar);
  params.num_sweeps = 120;
  ASSERT_TRUE(SampleOnPool(NewPaSampler, tsp.model, params, one, 1).ok());
  params.wire = nullptr;
  ASSERT_TRUE(SampleOnPool(NewPaSampler, tsp.model, params, two, 2).ok());
  const std::vector<Sample> a = one.SortedByRead(), b = two.SortedByRead();
  ASSERT_EQ(a.size(), b.size());
  ASSERT_FALSE(a.empty());
  for (size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].bits, b[k].bits) << k;
    EXPECT_EQ(a[k].energy, b[k].energy) << k;
  }
}

TEST(GroupPopulationTest, TheRequestAndTheModelDecideWhenTheMovesRun) {
  SampleParams params;
  params.num_reads = 16;
  params.num_sweeps = 20;
  ExpectTheGroupMovesRule(
      NewPaSampler, params,
      [](v1::SolveParams& p, v1::GroupMoves value) {
        p.mutable_pa()->set_group_moves(value);
      },
      GroupMovesDefault::kModels);
}

}  // namespace
}  // namespace qs
