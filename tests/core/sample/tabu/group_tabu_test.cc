// Tabu search with the moves that keep the groups
// (core/sample/tabu/group_tabu_search.h and the sampler's choice of them):
// every state it returns keeps the groups and is scored exactly, its running
// energies agree with a re-score (a target it reached stops it at once), a
// perturbation by group moves keeps them, the sampler reaches a small TSP's
// optimum with a seed that reproduces its samples, and the request and the
// model decide when the moves run.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "core/base/rng.h"
#include "core/sample/group_structure.h"
#include "core/sample/tabu/group_tabu_search.h"
#include "core/sample/tabu/tabu_sampler.h"
#include "gtest/gtest.h"
#include "tests/core/sample/testing_tsp.h"

namespace qs {
namespace {

using testing::BestKeepingTheGroups;
using testing::ExpectSameSamples;
using testing::ExpectTheGroupMovesRule;
using testing::MakeTsp;
using testing::OptimumByEnumeration;
using testing::SampleTsp;
using testing::Tsp;
using testing::TspParams;
using testing::TspRun;

// Rows as one-way groups only: the structure has no block, and the
// variables of the extra ones are free.
Tsp RowsOnly(int n, int free, uint32_t seed) {
  Tsp tsp = MakeTsp(n, free, seed);
  tsp.groups.resize(n);
  return tsp;
}

std::vector<uint8_t> StartInside(const GroupStructure& structure, int vars,
                                 uint64_t seed) {
  Xoshiro256 rng(seed);
  std::vector<uint8_t> state;
  GroupRespectingState(structure, vars, rng, state);
  return state;
}

TabuRunResult Search(const Tsp& tsp, const GroupStructure& structure,
                     int64_t max_moves, std::optional<double> target = {}) {
  Interrupter never;
  return RunGroupTabu(tsp.model, structure,
                      StartInside(structure, tsp.model.num_variables(), 3), 21,
                      {.tenure = 3,
                       .max_moves = max_moves,
                       .stall_moves = max_moves,
                       .target_energy = target},
                      never);
}

TEST(GroupTabuTest, EveryPrefixOfARunKeepsTheGroupsAndScoresExactly) {
  for (const Tsp& tsp : {MakeTsp(7, 5, 31), RowsOnly(6, 4, 32)}) {
    const GroupStructure structure =
        FindGroupStructure(tsp.model.num_variables(), tsp.groups);
    ASSERT_FALSE(structure.empty());
    // From 4 moves on the tenure (3) is not cut by the move cap: the runs
    // are prefixes of one search.
    double previous = std::numeric_limits<double>::infinity();
    for (int64_t moves = 4; moves <= 60; ++moves) {
      const TabuRunResult run = Search(tsp, structure, moves);
      EXPECT_EQ(run.moves, moves);
      EXPECT_TRUE(KeepsGroups(structure, run.best)) << moves;
      EXPECT_DOUBLE_EQ(run.best_energy, tsp.model.Energy(run.best));
      EXPECT_LE(run.best_energy, previous) << moves;
      previous = run.best_energy;
    }
  }
}

// The search stops when its running best reaches the target: a run given the
// best energy of a longer one stops at the move that first reached it, with
// that energy re-scored.
TEST(GroupTabuTest, RunningEnergiesAgreeWithARescore) {
  const Tsp tsp = MakeTsp(8, 6, 33);
  const GroupStructure structure =
      FindGroupStructure(tsp.model.num_variables(), tsp.groups);
  const TabuRunResult full = Search(tsp, structure, 400);
  const TabuRunResult stopped = Search(tsp, structure, 400, full.best_energy);
  EXPECT_DOUBLE_EQ(stopped.best_energy, full.best_energy);
  EXPECT_EQ(stopped.best, full.best);
  EXPECT_LT(stopped.moves, full.moves);
  // One move earlier the target was not reached yet.
  const TabuRunResult before = Search(tsp, structure, stopped.moves - 1);
  EXPECT_GT(before.best_energy, full.best_energy);
}

TEST(GroupTabuTest, PerturbationsKeepTheGroups) {
  for (const Tsp& tsp : {MakeTsp(6, 3, 34), RowsOnly(5, 3, 35)}) {
    const GroupStructure structure =
        FindGroupStructure(tsp.model.num_variables(), tsp.groups);
    Xoshiro256 rng(8);
    std::vector<uint8_t> state =
        StartInside(structure, tsp.model.num_variables(), 4);
    const std::vector<uint8_t> start = state;
    for (int k = 0; k < 50; ++k) {
      PerturbInGroups(structure, 0.3, rng, state);
      ASSERT_TRUE(KeepsGroups(structure, state)) << k;
    }
    EXPECT_NE(state, start);
  }
}

TEST(GroupTabuTest, TabuKeepsTheGroupsOfAModelAndReachesItsOptimum) {
  constexpr int kCities = 7;
  const Tsp tsp = MakeTsp(kCities, 0, 13);
  SampleParams params = TspParams(tsp, nullptr);
  params.num_sweeps = 50;
  const TspRun first = SampleTsp(NewTabuSampler, tsp, params);
  EXPECT_EQ(first.moves, "two-way-exchange");
  ASSERT_EQ(first.samples.size(), 16u);
  EXPECT_DOUBLE_EQ(BestKeepingTheGroups(tsp, first),
                   OptimumByEnumeration(tsp, kCities));
  ExpectSameSamples(SampleTsp(NewTabuSampler, tsp, params), first);
}

// A given start that breaks the groups has its grouped variables drawn
// inside; the elite's perturbed restarts keep them too.
TEST(GroupTabuTest, RestartsFromAnyStartKeepTheGroups) {
  const Tsp tsp = MakeTsp(6, 3, 14);
  const GroupStructure structure =
      FindGroupStructure(tsp.model.num_variables(), tsp.groups);
  SampleParams params = TspParams(tsp, nullptr);
  params.num_sweeps = 20;
  params.num_reads = 24;  // three rounds: the later ones start from the elite
  params.initial_states = {std::vector<uint8_t>(39, 0)};
  const TspRun run = SampleTsp(NewTabuSampler, tsp, params);
  ASSERT_EQ(run.samples.size(), 24u);
  for (const Sample& s : run.samples)
    EXPECT_TRUE(KeepsGroups(structure, s.bits));
}

TEST(GroupTabuTest, TheRequestAndTheModelDecideWhenTheMovesRun) {
  SampleParams params;
  params.num_reads = 8;
  params.num_sweeps = 20;
  ExpectTheGroupMovesRule(
      NewTabuSampler, params,
      [](v1::SolveParams& p, v1::GroupMoves value) {
        p.mutable_tabu()->set_group_moves(value);
      },
      GroupMovesDefault::kEverywhere);
}

}  // namespace
}  // namespace qs
