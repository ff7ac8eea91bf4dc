// pa's population in the kernel's lanes (core/sample/pa/population_kernel.h):
// on every SIMD path its members end their sweeps as the same reads of
// AnnealReads do, with the model's energies, also after a resampling has
// copied members (states and fields) between lanes; and a resampling keeps the
// survivors in their slots.
#include "core/sample/pa/population_kernel.h"

#include <random>
#include <vector>

#include "core/base/rng.h"
#include "gtest/gtest.h"

namespace qs {
namespace {

// Random integer linear terms and couplings with probability 0.2.
Qubo RandomModel(int n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> weight(-3, 3);
  std::uniform_real_distribution<double> unit(0, 1);
  QuboBuilder builder(n);
  for (int i = 0; i < n; ++i) {
    builder.AddLinear(i, weight(gen));
    for (int j = i + 1; j < n; ++j) {
      if (unit(gen) < 0.2) builder.AddQuadratic(i, j, weight(gen));
    }
  }
  return *std::move(builder).Build();
}

std::vector<std::vector<uint8_t>> RandomStates(int count, int n,
                                               uint64_t seed) {
  Xoshiro256 rng(seed);
  std::vector<std::vector<uint8_t>> states(count, std::vector<uint8_t>(n));
  for (auto& state : states)
    for (uint8_t& x : state) x = rng.Next() & 1;
  return states;
}

// Sweeps every block once at `beta` with seed `seed` + member.
void SweepAll(PopulationLanes& population, int lanes, double beta,
              int64_t sweeps, uint64_t seed, std::vector<double>& energies) {
  Interrupter never;
  std::vector<uint64_t> seeds(population.size());
  for (int m = 0; m < population.size(); ++m) seeds[m] = seed + m;
  energies.assign(population.size(), 0);
  for (int b = 0; b < population.blocks(); ++b) {
    const int first = b * lanes;
    const int count = std::min(lanes, population.size() - first);
    population.SweepBlock(b, beta, sweeps,
                          std::span(seeds).subspan(first, count),
                          std::span(energies).subspan(first, count), never);
  }
}

// What AnnealReads makes of `states` in the same sweeps.
std::vector<KernelRead> Annealed(
    const KernelModel& km, const std::vector<std::vector<uint8_t>>& states,
    double beta, int64_t sweeps, uint64_t seed) {
  std::vector<KernelRead> reads(states.size());
  for (size_t m = 0; m < states.size(); ++m) {
    reads[m].state = states[m];
    reads[m].rng_seed = seed + m;
  }
  Interrupter never;
  AnnealReads(KernelPath::kScalar, km, ResolvedSchedule::Custom({beta}, sweeps),
              Acceptance::kMetropolis, reads, never);
  return reads;
}

// One test per path (the scalar one included: AnnealReads is the
// reference); a path this CPU lacks is a reported skip.
class PopulationKernelPathTest : public ::testing::TestWithParam<KernelPath> {};

TEST_P(PopulationKernelPathTest, SweepsAsAnnealReadsAlsoAfterCopies) {
  const KernelPath path = GetParam();
  if (ResolveKernelPath(path) != path)
    GTEST_SKIP() << "this CPU lacks the " << KernelPathName(path) << " path";
  const Qubo model = RandomModel(70, 3);
  const KernelModel km = *MakeKernelModel(model);
  constexpr int kMembers = 37;  // a partial last block on every path
  const std::vector<std::vector<uint8_t>> start = RandomStates(kMembers, 70, 5);
  const std::vector<KernelRead> first = Annealed(km, start, 0.8, 3, 100);
  const int lanes = KernelLanes(path);
  auto population = NewPopulationLanes(path, km, kMembers);
  for (int m = 0; m < kMembers; ++m) population->SetState(m, start[m]);
  population->InitFields();
  std::vector<double> energies;
  SweepAll(*population, lanes, 0.8, 3, 100, energies);
  std::vector<std::vector<uint8_t>> states(kMembers);
  for (int m = 0; m < kMembers; ++m) {
    population->ReadState(m, states[m]);
    EXPECT_EQ(states[m], first[m].state) << m;
    EXPECT_EQ(energies[m], model.Energy(states[m]) - model.offset()) << m;
  }
  // Member m gets m % 3 copies: the copies must carry their fields, or
  // their next sweeps would differ from AnnealReads' (which sums them).
  std::vector<int> copies(kMembers);
  for (int m = 0; m < kMembers; ++m) copies[m] = m % 3;
  const std::vector<int> source = population->Resample(copies);
  std::vector<std::vector<uint8_t>> resampled;
  for (int k : source) resampled.push_back(states[k]);
  const std::vector<KernelRead> second = Annealed(km, resampled, 1.5, 2, 900);
  SweepAll(*population, lanes, 1.5, 2, 900, energies);
  ASSERT_EQ(population->size(), static_cast<int>(second.size()));
  for (int m = 0; m < population->size(); ++m) {
    std::vector<uint8_t> state;
    population->ReadState(m, state);
    EXPECT_EQ(state, second[m].state) << m;
    EXPECT_EQ(energies[m], second[m].energy) << m;
  }
}

INSTANTIATE_TEST_SUITE_P(KernelPaths, PopulationKernelPathTest,
                         ::testing::Values(KernelPath::kScalar,
                                           KernelPath::kAvx2,
                                           KernelPath::kAvx512),
                         [](const ::testing::TestParamInfo<KernelPath>& info) {
                           return std::string(KernelPathName(info.param));
                         });

TEST(PopulationKernelTest, ResampleKeepsSurvivorsInTheirSlots) {
  const Qubo model = RandomModel(20, 4);
  const KernelModel km = *MakeKernelModel(model);
  const std::vector<std::vector<uint8_t>> start = RandomStates(6, 20, 6);
  auto population = NewPopulationLanes(KernelPath::kScalar, km, 6);
  for (int m = 0; m < 6; ++m) population->SetState(m, start[m]);
  population->InitFields();
  // Extras fill the dropped slots 0 and 3, then a new slot 6.
  std::vector<int> source =
      population->Resample(std::vector<int>{0, 2, 1, 0, 3, 1});
  EXPECT_EQ(source, (std::vector<int>{1, 1, 2, 4, 4, 5, 4}));
  std::vector<uint8_t> state;
  for (int m = 0; m < population->size(); ++m) {
    population->ReadState(m, state);
    EXPECT_EQ(state, start[source[m]]) << m;
  }
  // No extras: the last members (slots 6, 5, 4) move down into the dropped
  // slots 0, 2, 3.
  source = population->Resample(std::vector<int>{0, 1, 0, 0, 1, 1, 1});
  EXPECT_EQ(source, (std::vector<int>{6, 1, 5, 4}));
  EXPECT_EQ(population->size(), 4);
  population->ReadState(0, state);
  EXPECT_EQ(state, start[4]);
  population->ReadState(2, state);
  EXPECT_EQ(state, start[5]);
}

}  // namespace
}  // namespace qs
