// Ground truth: the exact enumerator and the CPU annealer agree on the ground
// energy of small random QUBOs, and every energy the annealer reports is the
// model's energy of the bits it returns.
#include <random>

#include "core/base/worker_pool.h"
#include "core/sample/cpu_sa/cpu_sa_sampler.h"
#include "core/sample/exact/brute_force_sampler.h"
#include "gtest/gtest.h"
#include "tests/core/sample/testing_sink.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

Qubo RandomQubo(int n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> weight(-1, 1);
  std::bernoulli_distribution keep(0.4);
  QuboBuilder builder(n);
  builder.AddOffset(weight(rng));
  for (int i = 0; i < n; ++i) {
    builder.AddLinear(i, weight(rng));
    for (int j = i + 1; j < n; ++j) {
      if (keep(rng)) builder.AddQuadratic(i, j, weight(rng));
    }
  }
  return *std::move(builder).Build();
}

TEST(ExactVsAnnealerTest, AgreeOnGroundEnergyOfRandomQubos) {
  WorkerPool pool(2);
  auto annealer = NewCpuSaSampler(&pool);
  auto exact = NewBruteForceSampler(&pool);
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 10; ++trial) {
    const Qubo qubo = RandomQubo(8 + trial, rng);
    auto ground = FindGroundStates(qubo, 10, &pool);
    ASSERT_OK(ground);

    testing::CollectingSink exact_sink;
    Interrupter exact_interrupter;
    SampleParams exact_params;
    ASSERT_OK(exact->Sample(qubo, exact_params, exact_sink, exact_interrupter));
    EXPECT_NEAR(exact_sink.BestEnergy(), ground->energy, 1e-9);

    testing::CollectingSink sink;
    Interrupter interrupter;
    SampleParams params;
    params.num_reads = 20;
    params.num_sweeps = 200;
    params.seed = 100 + trial;
    auto stats = annealer->Sample(qubo, params, sink, interrupter);
    ASSERT_OK(stats);
    EXPECT_EQ(stats->reads_done, 20);
    EXPECT_NEAR(sink.BestEnergy(), ground->energy, 1e-9) << "trial " << trial;
    for (const Sample& s : sink.SortedByRead())
      EXPECT_EQ(s.energy, qubo.Energy(s.bits));
  }
}

TEST(ExactSamplerTest, StreamsEveryGroundStateAndRefusesLargeModels) {
  // x0 + x1 - 2 x0 x1 has two ground states (00 and 11) at energy 0.
  QuboBuilder builder(2);
  builder.AddLinear(0, 1);
  builder.AddLinear(1, 1);
  builder.AddQuadratic(0, 1, -2);
  const Qubo qubo = *std::move(builder).Build();
  WorkerPool pool(1);
  auto exact = NewBruteForceSampler(&pool);
  testing::CollectingSink sink;
  Interrupter interrupter;
  ASSERT_OK(exact->Sample(qubo, SampleParams(), sink, interrupter));
  ASSERT_EQ(sink.SortedByRead().size(), 2u);
  EXPECT_EQ(sink.SortedByRead()[0].bits, (std::vector<uint8_t>{0, 0}));
  EXPECT_EQ(sink.SortedByRead()[1].bits, (std::vector<uint8_t>{1, 1}));

  const Qubo big = *QuboBuilder(31).Build();
  EXPECT_THAT(FindGroundStates(big, 1, nullptr),
              qs::testing::StatusIs(absl::StatusCode::kResourceExhausted,
                                    ::testing::HasSubstr("30")));
}

}  // namespace
}  // namespace qs
