// The moves that keep the groups (core/sample/pt/group_moves.h and the
// replica kernel's ExchangeSweep and SweepRanges): every move keeps its
// blocks and groups, the kernel's incremental energy equals a full re-score,
// every SIMD path gives the same states, the ladder range is tuned on the
// group moves, and pt keeps the groups of a constrained model and reproduces
// its samples from a seed.
#include "core/sample/pt/group_moves.h"

#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <vector>

#include "core/base/rng.h"
#include "core/base/worker_pool.h"
#include "core/sample/pt/pt_sampler.h"
#include "core/sample/pt/replica_kernel.h"
#include "gtest/gtest.h"
#include "tests/core/sample/testing_sink.h"
#include "tests/core/sample/testing_tsp.h"

namespace qs {
namespace {

using testing::MakeTsp;
using testing::ReadsInGroups;
using testing::Tsp;

// Runs `rounds` of free flips, swaps and exchanges at betas spread over
// [0.02, 2]; checks after each round that every replica keeps the groups and
// that the kernel's energy equals the model's; returns the final states.
std::vector<std::vector<uint8_t>> RunGroupRounds(KernelPath path,
                                                 const Tsp& tsp,
                                                 const KernelModel& km,
                                                 const GroupMoves& moves,
                                                 int replicas, int rounds) {
  const int vars = tsp.model.num_variables();
  const std::vector<KernelRead> reads =
      ReadsInGroups(moves.structure, vars, replicas, 3);
  const int lanes = KernelLanes(path);
  std::vector<std::vector<uint8_t>> states;
  Interrupter never;
  for (int first = 0; first < replicas; first += lanes) {
    const int count = std::min(lanes, replicas - first);
    auto batch = NewReplicaBatch(
        path, km, std::span<const KernelRead>(reads).subspan(first, count));
    std::vector<double> betas(count);
    for (int l = 0; l < count; ++l) betas[l] = 0.02 * (1 + 10 * (first + l));
    batch->SetBetas(betas);
    std::vector<double> energies(count);
    std::vector<uint8_t> state;
    for (int round = 0; round < rounds; ++round) {
      EXPECT_TRUE(batch->SweepRanges(moves.free, never));
      EXPECT_TRUE(batch->SwapSweep(moves.one_way, never));
      EXPECT_TRUE(batch->ExchangeSweep(moves.structure.blocks, never));
      batch->Energies(energies);
      for (int l = 0; l < count; ++l) {
        batch->ReadState(l, state);
        EXPECT_TRUE(KeepsGroups(moves.structure, state))
            << "replica " << first + l << " round " << round;
        EXPECT_DOUBLE_EQ(energies[l] + tsp.model.offset(),
                         tsp.model.Energy(state))
            << "replica " << first + l << " round " << round;
      }
    }
    EXPECT_GT(batch->counters().exchange_accepted, 0);
    EXPECT_LT(batch->counters().exchange_accepted,
              batch->counters().exchange_proposals);
    for (int l = 0; l < count; ++l) {
      batch->ReadState(l, state);
      states.push_back(state);
    }
  }
  return states;
}

TEST(GroupMovesTest, ATspIsOneBlockAndItsExtraVariablesFlip) {
  const Tsp tsp = MakeTsp(7, 5, 1);
  const KernelModel km = *MakeKernelModel(tsp.model);
  const GroupMoves moves = MakeGroupMoves(km, tsp.groups);
  ASSERT_EQ(moves.structure.blocks.size(), 1u);
  EXPECT_EQ(moves.structure.blocks[0].size, 7);
  EXPECT_EQ(moves.one_way.size(), 0);
  EXPECT_EQ(moves.structure.free.size(), 5u);
  EXPECT_EQ(moves.Names(), "single-flip+two-way-exchange");
  EXPECT_EQ(FlipAndSwapMoves(km, tsp.groups).Names(),
            "single-flip+one-hot-swap");
}

TEST(GroupMovesTest, EveryMoveKeepsTheGroupsAndTheEnergyMatchesARescore) {
  const Tsp tsp = MakeTsp(7, 5, 2);
  const KernelModel km = *MakeKernelModel(tsp.model);
  const GroupMoves moves = MakeGroupMoves(km, tsp.groups);
  RunGroupRounds(KernelPath::kScalar, tsp, km, moves, 6, 60);
}

TEST(GroupMovesTest, OneWaySwapsKeepRowsWhenTheColumnsAreNotDeclared) {
  Tsp tsp = MakeTsp(6, 0, 3);
  tsp.groups.resize(6);  // the rows alone: one-way groups, no block
  const KernelModel km = *MakeKernelModel(tsp.model);
  const GroupMoves moves = MakeGroupMoves(km, tsp.groups);
  EXPECT_TRUE(moves.structure.blocks.empty());
  EXPECT_EQ(moves.one_way.size(), 6);
  EXPECT_EQ(moves.Names(), "one-hot-swap");
  const std::vector<KernelRead> reads =
      ReadsInGroups(moves.structure, 36, 3, 9);
  auto batch = NewReplicaBatch(KernelPath::kScalar, km, reads);
  batch->SetBetas(std::vector<double>{0.01, 0.1, 1});
  Interrupter interrupter;
  for (int round = 0; round < 40; ++round) {
    ASSERT_TRUE(batch->SweepRanges(moves.free, interrupter));
    ASSERT_TRUE(batch->SwapSweep(moves.one_way, interrupter));
  }
  std::vector<uint8_t> state;
  for (int l = 0; l < 3; ++l) {
    batch->ReadState(l, state);
    EXPECT_TRUE(KeepsGroups(moves.structure, state));
  }
  EXPECT_EQ(batch->counters().attempts, batch->counters().swap_proposals);
}

class GroupMovesSimdPathTest : public ::testing::TestWithParam<KernelPath> {};

TEST_P(GroupMovesSimdPathTest, SameStatesAsTheScalarPath) {
  const KernelPath path = GetParam();
  if (ResolveKernelPath(path) != path)
    GTEST_SKIP() << "this CPU lacks the " << KernelPathName(path) << " path";
  const Tsp tsp = MakeTsp(6, 4, 4);
  const KernelModel km = *MakeKernelModel(tsp.model);
  const GroupMoves moves = MakeGroupMoves(km, tsp.groups);
  EXPECT_EQ(RunGroupRounds(path, tsp, km, moves, 19, 20),
            RunGroupRounds(KernelPath::kScalar, tsp, km, moves, 19, 20));
}

INSTANTIATE_TEST_SUITE_P(SimdPaths, GroupMovesSimdPathTest,
                         ::testing::Values(KernelPath::kAvx2,
                                           KernelPath::kAvx512),
                         [](const ::testing::TestParamInfo<KernelPath>& info) {
                           return std::string(KernelPathName(info.param));
                         });

// The single-flip rule's cold end is set by the penalties (no single flip at
// a local minimum costs less than about one penalty); the group moves pay
// none, so their range reaches colder, down to the distances.
TEST(GroupMovesTest, TheRangeIsTunedOnTheGroupMovesCosts) {
  const Tsp tsp = MakeTsp(8, 0, 5);
  const KernelModel km = *MakeKernelModel(tsp.model);
  const GroupMoves moves = MakeGroupMoves(km, tsp.groups);
  const std::optional<BetaRange> grouped = GroupTunedBetaRange(km, moves);
  ASSERT_TRUE(grouped.has_value());
  const BetaRange flips = TunedBetaRange(tsp.model);
  EXPECT_GT(grouped->cold, 4 * flips.cold);
  EXPECT_LE(grouped->hot, grouped->cold);
}

SampleParams ModelParams(const Tsp& tsp, uint64_t seed) {
  SampleParams params;
  params.num_reads = 3;
  params.num_sweeps = 300;
  params.seed = seed;
  params.one_hot_groups = &tsp.groups;
  return params;
}

TEST(GroupMovesTest, PtKeepsTheGroupsOfAModelAndASeedReproducesItsSamples) {
  const Tsp tsp = MakeTsp(9, 0, 6);
  const KernelModel km = *MakeKernelModel(tsp.model);
  const GroupStructure structure =
      FindGroupStructure(tsp.model.num_variables(), tsp.groups);
  WorkerPool pool(2);
  auto pt = NewPtSampler(&pool);
  std::vector<std::vector<Sample>> runs;
  for (int run = 0; run < 2; ++run) {
    testing::CollectingSink sink;
    Interrupter interrupter;
    const auto stats =
        pt->Sample(tsp.model, ModelParams(tsp, 21), sink, interrupter);
    ASSERT_TRUE(stats.ok()) << stats.status();
    EXPECT_EQ(stats->info.moves(), "two-way-exchange");
    EXPECT_GT(stats->info.pt().swap_accepted(), 0);
    runs.push_back(sink.SortedByRead());
    ASSERT_EQ(runs.back().size(), 3u);
    for (const Sample& s : runs.back()) {
      EXPECT_TRUE(KeepsGroups(structure, s.bits));
      EXPECT_DOUBLE_EQ(s.energy, tsp.model.Energy(s.bits));
    }
  }
  for (int r = 0; r < 3; ++r) EXPECT_EQ(runs[0][r].bits, runs[1][r].bits);
}

// A given start that breaks the groups would freeze every grouped variable
// (no group move enters the groups): its grouped variables are drawn inside.
TEST(GroupMovesTest, PtDrawsTheGroupsOfAStartThatBreaksThem) {
  const Tsp tsp = MakeTsp(6, 3, 8);
  const GroupStructure structure =
      FindGroupStructure(tsp.model.num_variables(), tsp.groups);
  WorkerPool pool(1);
  auto pt = NewPtSampler(&pool);
  testing::CollectingSink sink;
  Interrupter interrupter;
  SampleParams params = ModelParams(tsp, 2);
  params.num_sweeps = 50;
  params.initial_states = {std::vector<uint8_t>(39, 0)};
  const auto stats = pt->Sample(tsp.model, params, sink, interrupter);
  ASSERT_TRUE(stats.ok()) << stats.status();
  for (const Sample& s : sink.SortedByRead())
    EXPECT_TRUE(KeepsGroups(structure, s.bits));
}

// Where the formulation fixes the ground energy (a puzzle), the default is
// single flips with swaps: they measured faster there.
TEST(GroupMovesTest, PtFlipsAndSwapsWhereTheGroundEnergyIsKnown) {
  const Tsp tsp = MakeTsp(5, 0, 7);
  WorkerPool pool(1);
  auto pt = NewPtSampler(&pool);
  testing::CollectingSink sink;
  Interrupter interrupter;
  SampleParams params = ModelParams(tsp, 1);
  params.known_ground_energy = -1e9;  // never reached: every round runs
  params.num_sweeps = 20;
  const auto stats = pt->Sample(tsp.model, params, sink, interrupter);
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->info.moves(), "single-flip+one-hot-swap");
}

}  // namespace
}  // namespace qs
