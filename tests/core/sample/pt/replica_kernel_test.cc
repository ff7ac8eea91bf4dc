// The replica kernel (core/sample/pt/replica_kernel.h): energies it reports
// equal the model's on the states it holds, after sweeps and swap moves at
// per-replica temperatures; swaps keep exactly-one groups one-hot; and every
// SIMD path gives the same states for the same seeds.
#include "core/sample/pt/replica_kernel.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/base/rng.h"
#include "gtest/gtest.h"

namespace qs {
namespace {

// n variables in groups of `group` (one-hot penalty 2 (sum - 1)^2 each) plus
// random integer couplings with probability 0.1.
Qubo GroupedModel(int n, int group, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> weight(-3, 3);
  std::uniform_real_distribution<double> unit(0, 1);
  QuboBuilder builder(n);
  for (int first = 0; first < n; first += group) {
    builder.AddOffset(2);
    for (int a = first; a < first + group; ++a) {
      builder.AddLinear(a, -2);
      for (int b = a + 1; b < first + group; ++b) builder.AddQuadratic(a, b, 4);
    }
  }
  for (int i = 0; i < n; ++i) {
    builder.AddLinear(i, weight(gen));
    for (int j = i + 1; j < n; ++j) {
      if (unit(gen) < 0.1) builder.AddQuadratic(i, j, weight(gen));
    }
  }
  return *std::move(builder).Build();
}

std::vector<std::vector<int32_t>> Groups(int n, int group) {
  std::vector<std::vector<int32_t>> groups;
  for (int first = 0; first < n; first += group) {
    groups.emplace_back();
    for (int a = first; a < first + group; ++a) groups.back().push_back(a);
  }
  return groups;
}

// One-hot starting states (member k of each group at 1 for a random k).
std::vector<KernelRead> OneHotReads(int count, int n, int group,
                                    uint64_t seed) {
  std::vector<KernelRead> reads(count);
  for (int r = 0; r < count; ++r) {
    Xoshiro256 rng(DeriveSeed(seed, r));
    reads[r].state.assign(n, 0);
    for (int first = 0; first < n; first += group)
      reads[r].state[first + rng.Next() % group] = 1;
    reads[r].rng_seed = rng.Next();
  }
  return reads;
}

std::vector<KernelPath> Paths() {
  std::vector<KernelPath> paths;
  for (KernelPath path :
       {KernelPath::kScalar, KernelPath::kAvx2, KernelPath::kAvx512}) {
    if (ResolveKernelPath(path) == path) paths.push_back(path);
  }
  return paths;
}

// Sweeps and swaps `rounds` times at the betas 0.2 .. 2; returns every
// replica's final state.
std::vector<std::vector<uint8_t>> RunRounds(
    KernelPath path, const KernelModel& km, const SwapGroups& swaps,
    const std::vector<KernelRead>& reads, const Qubo& model, int rounds) {
  const int lanes = KernelLanes(path);
  std::vector<std::vector<uint8_t>> states;
  Interrupter never;
  for (size_t first = 0; first < reads.size(); first += lanes) {
    const size_t count = std::min<size_t>(lanes, reads.size() - first);
    auto batch = NewReplicaBatch(
        path, km, std::span<const KernelRead>(reads).subspan(first, count));
    std::vector<double> betas(count);
    for (size_t l = 0; l < count; ++l) betas[l] = 0.2 + 0.1 * (first + l);
    batch->SetBetas(betas);
    for (int round = 0; round < rounds; ++round) {
      EXPECT_TRUE(batch->Sweep(never));
      EXPECT_TRUE(batch->SwapSweep(swaps, never));
    }
    std::vector<double> energies(count);
    batch->Energies(energies);
    for (size_t l = 0; l < count; ++l) {
      std::vector<uint8_t> state;
      batch->ReadState(static_cast<int>(l), state);
      EXPECT_DOUBLE_EQ(energies[l] + model.offset(), model.Energy(state))
          << "replica " << first + l;
      states.push_back(std::move(state));
    }
    EXPECT_GT(batch->counters().swap_proposals, 0);
  }
  return states;
}

TEST(ReplicaKernelTest, EnergiesMatchTheModelOnTheScalarPath) {
  const Qubo model = GroupedModel(96, 8, 7);
  const KernelModel km = *MakeKernelModel(model);
  const SwapGroups swaps = MakeSwapGroups(km, Groups(96, 8));
  ASSERT_EQ(swaps.size(), 12);
  const std::vector<KernelRead> reads = OneHotReads(19, 96, 8, 11);
  EXPECT_EQ(RunRounds(KernelPath::kScalar, km, swaps, reads, model, 25).size(),
            reads.size());
}

// One test per SIMD path against the scalar one; a path this CPU lacks is a
// reported skip.
class ReplicaSimdPathTest : public ::testing::TestWithParam<KernelPath> {};

TEST_P(ReplicaSimdPathTest, EnergiesMatchTheModelAndTheScalarPathAgrees) {
  const KernelPath path = GetParam();
  if (ResolveKernelPath(path) != path)
    GTEST_SKIP() << "this CPU lacks the " << KernelPathName(path) << " path";
  const Qubo model = GroupedModel(96, 8, 7);
  const KernelModel km = *MakeKernelModel(model);
  const SwapGroups swaps = MakeSwapGroups(km, Groups(96, 8));
  const std::vector<KernelRead> reads = OneHotReads(19, 96, 8, 11);
  const auto scalar =
      RunRounds(KernelPath::kScalar, km, swaps, reads, model, 25);
  EXPECT_EQ(RunRounds(path, km, swaps, reads, model, 25), scalar);
}

INSTANTIATE_TEST_SUITE_P(SimdPaths, ReplicaSimdPathTest,
                         ::testing::Values(KernelPath::kAvx2,
                                           KernelPath::kAvx512),
                         [](const ::testing::TestParamInfo<KernelPath>& info) {
                           return std::string(KernelPathName(info.param));
                         });

TEST(ReplicaKernelTest, SwapsAloneKeepGroupsOneHot) {
  const Qubo model = GroupedModel(64, 8, 3);
  const KernelModel km = *MakeKernelModel(model);
  const SwapGroups swaps = MakeSwapGroups(km, Groups(64, 8));
  const std::vector<KernelRead> reads = OneHotReads(4, 64, 8, 5);
  auto batch = NewReplicaBatch(ResolveKernelPath(KernelPath::kAuto), km, reads);
  batch->SetBetas(std::vector<double>{0.1, 0.5, 1, 4});
  Interrupter never;
  for (int round = 0; round < 50; ++round)
    ASSERT_TRUE(batch->SwapSweep(swaps, never));
  EXPECT_EQ(batch->counters().swap_proposals, 50 * 8 * 4);
  EXPECT_GT(batch->counters().swap_accepted, 0);
  std::vector<double> energies(4);
  batch->Energies(energies);
  for (int l = 0; l < 4; ++l) {
    std::vector<uint8_t> state;
    batch->ReadState(l, state);
    for (int first = 0; first < 64; first += 8) {
      int ones = 0;
      for (int a = first; a < first + 8; ++a) ones += state[a];
      EXPECT_EQ(ones, 1) << "replica " << l << " group " << first / 8;
    }
    EXPECT_DOUBLE_EQ(energies[l] + model.offset(), model.Energy(state));
  }
}

// One group of four whose couplings never count (one member at 1 at a time)
// but enter every swap's delta as f_j - f_i - b_ij: swaps alone must visit the
// members with the Boltzmann weights of their linear terms, whatever b_ij and
// however far it lies below the group's largest coupling.
TEST(ReplicaKernelTest, SwapsAloneVisitMembersWithBoltzmannWeights) {
  const double linear[4] = {0, 1, 2, 0.5};
  QuboBuilder builder(4);
  for (int a = 0; a < 4; ++a) builder.AddLinear(a, linear[a]);
  builder.AddQuadratic(0, 1, 6);
  builder.AddQuadratic(0, 2, -2);
  builder.AddQuadratic(1, 2, 3);
  builder.AddQuadratic(1, 3, 9);
  builder.AddQuadratic(2, 3, 1);
  const Qubo model = *std::move(builder).Build();
  const KernelModel km = *MakeKernelModel(model);
  const SwapGroups swaps = MakeSwapGroups(km, {{0, 1, 2, 3}});
  double weight[4], total = 0;
  for (int a = 0; a < 4; ++a) total += weight[a] = std::exp(-linear[a]);
  for (KernelPath path : Paths()) {
    const int lanes = KernelLanes(path);
    const std::vector<KernelRead> reads = OneHotReads(lanes, 4, 4, 21);
    auto batch = NewReplicaBatch(path, km, reads);
    batch->SetBetas(std::vector<double>(lanes, 1.0));
    Interrupter never;
    const int rounds = 64000 / lanes;
    std::vector<int> visits(4, 0);
    std::vector<uint8_t> state;
    for (int round = 0; round < rounds; ++round) {
      ASSERT_TRUE(batch->SwapSweep(swaps, never));
      for (int l = 0; l < lanes; ++l) {
        batch->ReadState(l, state);
        for (int a = 0; a < 4; ++a) visits[a] += state[a];
      }
    }
    for (int a = 0; a < 4; ++a) {
      EXPECT_NEAR(static_cast<double>(visits[a]) / (rounds * lanes),
                  weight[a] / total, 0.02)
          << KernelPathName(path) << " member " << a;
    }
  }
}

TEST(ReplicaKernelTest, SwapGroupsDropShortAndOutOfRangeMembers) {
  const Qubo model = GroupedModel(16, 4, 1);
  const KernelModel km = *MakeKernelModel(model);
  const SwapGroups swaps =
      MakeSwapGroups(km, {{0, 1, 1, 2}, {5}, {7, 99, -1}, {12, 13}});
  ASSERT_EQ(swaps.size(), 2);
  EXPECT_EQ(std::vector<uint32_t>(swaps.members.begin(), swaps.members.end()),
            (std::vector<uint32_t>{0, 1, 2, 12, 13}));
  // The 3 x 3 couplings of {0, 1, 2}: the penalty's 4 plus the random ones.
  EXPECT_EQ(swaps.coupling_start[1], 9u);
  EXPECT_EQ(swaps.coupling[0], 0.0f);
  EXPECT_EQ(swaps.coupling[1], swaps.coupling[3]);
  // Each group's largest coupling between two distinct members.
  ASSERT_EQ(swaps.max_coupling.size(), 2u);
  EXPECT_EQ(
      swaps.max_coupling[0],
      std::max({swaps.coupling[1], swaps.coupling[2], swaps.coupling[5]}));
  EXPECT_EQ(swaps.max_coupling[1], swaps.coupling[10]);
}

TEST(ReplicaKernelTest, AnInterruptStopsASweep) {
  const Qubo model = GroupedModel(2000, 8, 9);
  const KernelModel km = *MakeKernelModel(model);
  const std::vector<KernelRead> reads = OneHotReads(1, 2000, 8, 2);
  auto batch = NewReplicaBatch(KernelPath::kScalar, km, reads);
  batch->SetBetas(std::vector<double>{1.0});
  Interrupter interrupter;
  interrupter.Interrupt(StopReason::kCancelled);
  EXPECT_FALSE(batch->Sweep(interrupter));
  EXPECT_LT(batch->counters().attempts, 2000);
}

}  // namespace
}  // namespace qs
