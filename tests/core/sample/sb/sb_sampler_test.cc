// Tests of simulated bifurcation (core/sample/sb): the reads' energies are the
// QUBO's, the kernel's float energies are the Ising form's, the scalar and
// AVX2 paths give the same samples, the same seed gives the same samples
// whatever the thread count, small models reach their brute-force ground
// energy, a target ends the run early, a cancel stops it, and parameters out
// of range are refused naming the field.
#include "core/sample/sb/sb_sampler.h"

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/base/rng.h"
#include "core/base/worker_pool.h"
#include "core/sample/cpu_sa/sa_kernel.h"
#include "core/sample/sb/sb_kernel.h"
#include "core/solve/request_checks.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/sample/testing_sampler.h"
#include "tests/core/sample/testing_sink.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::CollectingSink;
using ::qs::testing::SampleOnPool;
using ::qs::testing::StatusIs;
using ::testing::HasSubstr;

// A random QUBO over n variables: integer couplers in [-4, 4] on a share
// `density` of the pairs, linear terms in [-4, 4] (Ising fields), offset 1.5.
Qubo RandomQubo(int n, double density, uint64_t seed) {
  Xoshiro256 rng(seed);
  QuboBuilder builder(n);
  builder.AddOffset(1.5);
  for (int i = 0; i < n; ++i) {
    builder.AddLinear(i, static_cast<double>(rng.NextBelow(9)) - 4);
    for (int j = i + 1; j < n; ++j) {
      if (rng.NextDouble() >= density) continue;
      builder.AddQuadratic(i, j, static_cast<double>(rng.NextBelow(9)) - 4);
    }
  }
  return *std::move(builder).Build();
}

double BruteForceGround(const Qubo& model) {
  const int n = model.num_variables();
  double best = std::numeric_limits<double>::infinity();
  std::vector<uint8_t> x(n);
  for (uint64_t bits = 0; bits < (uint64_t{1} << n); ++bits) {
    for (int i = 0; i < n; ++i) x[i] = bits >> i & 1;
    best = std::min(best, model.Energy(x));
  }
  return best;
}

// Max-Cut of a cycle of even length n as a QUBO (-cut): the ground cuts every
// edge, energy -n.
Qubo EvenCycle(int n) {
  QuboBuilder builder(n);
  for (int i = 0; i < n; ++i) {
    const int j = (i + 1) % n;
    builder.AddLinear(i, -1);
    builder.AddLinear(j, -1);
    builder.AddQuadratic(i, j, 2);
  }
  return *std::move(builder).Build();
}

v1::SolveParams Wire(v1::SbVariant variant, bool heated) {
  v1::SolveParams wire;
  wire.mutable_sb()->set_variant(variant);
  wire.mutable_sb()->set_heated(heated);
  return wire;
}

TEST(SbSamplerTest, ReadEnergiesAreTheQubosAndKernelEnergiesTheIsings) {
  const Qubo model = RandomQubo(40, 0.3, 1);
  for (const v1::SbVariant variant : {v1::SB_BALLISTIC, v1::SB_DISCRETE}) {
    const v1::SolveParams wire = Wire(variant, false);
    SampleParams params;
    params.num_reads = 12;
    params.num_sweeps = 50;
    params.seed = 4;
    params.wire = &wire;
    CollectingSink sink;
    absl::StatusOr<SampleStats> stats =
        SampleOnPool(NewSbSampler, model, params, sink);
    ASSERT_TRUE(stats.ok()) << stats.status();
    EXPECT_EQ(stats->reads_done, 12);
    EXPECT_EQ(stats->info.sb().replica_steps(), 12 * 50);
    EXPECT_EQ(stats->spin_update_attempts, 12 * 50 * 40);
    const std::vector<Sample> samples = sink.SortedByRead();
    ASSERT_EQ(samples.size(), 12u);
    for (const Sample& s : samples)
      EXPECT_EQ(s.energy, model.Energy(s.bits)) << s.read_index;
  }
  // The kernel's float energies of the sign-rounded states match the QUBO's
  // (integer weights: the float sums are exact).
  absl::StatusOr<SbModel> sb = MakeSbModel(model);
  ASSERT_TRUE(sb.ok()) << sb.status();
  SbConstants constants;
  constants.steps = 30;
  constants.c0 = ResolveSbConstants(v1::SbParams(), *sb, 30).c0;
  std::unique_ptr<SbLanes> lanes =
      NewSbLanes(ResolveKernelPath(KernelPath::kAuto), *sb, constants);
  for (int k = 0; k < lanes->lanes(); ++k) lanes->Seed(k, 100 + k, nullptr);
  lanes->Run(0, 17);
  std::vector<double> energies(lanes->lanes());
  lanes->SignEnergies(energies.data());
  std::vector<uint8_t> bits;
  for (int k = 0; k < lanes->lanes(); ++k) {
    lanes->State(k, bits);
    EXPECT_EQ(energies[k] + sb->offset, model.Energy(bits)) << k;
  }
}

TEST(SbSamplerTest, ScalarAndAvx2GiveTheSameSamples) {
  if (ResolveKernelPath(KernelPath::kAvx2) != KernelPath::kAvx2)
    GTEST_SKIP() << "no AVX2";
  // Real-valued couplings, so that bSB's products round.
  QuboBuilder builder(60);
  Xoshiro256 rng(9);
  for (int i = 0; i < 60; ++i) {
    builder.AddLinear(i, rng.NextDouble() - 0.5);
    for (int j = i + 1; j < 60; ++j)
      if (rng.NextDouble() < 0.2)
        builder.AddQuadratic(i, j, rng.NextDouble() - 0.5);
  }
  const Qubo model = *std::move(builder).Build();
  for (const v1::SbVariant variant : {v1::SB_BALLISTIC, v1::SB_DISCRETE}) {
    for (const bool heated : {false, true}) {
      std::vector<std::vector<Sample>> runs;
      for (const auto kernel :
           {v1::SbParams::KERNEL_SCALAR, v1::SbParams::KERNEL_AVX2}) {
        v1::SolveParams wire = Wire(variant, heated);
        wire.mutable_sb()->set_kernel(kernel);
        SampleParams params;
        params.num_reads = 11;  // a partial second batch of 8 lanes
        params.num_sweeps = 120;
        params.seed = 21;
        params.wire = &wire;
        params.kernel = kernel == v1::SbParams::KERNEL_SCALAR
                            ? KernelPath::kScalar
                            : KernelPath::kAvx2;
        CollectingSink sink;
        absl::StatusOr<SampleStats> stats =
            SampleOnPool(NewSbSampler, model, params, sink);
        ASSERT_TRUE(stats.ok()) << stats.status();
        EXPECT_EQ(stats->kernel,
                  kernel == v1::SbParams::KERNEL_SCALAR ? "scalar" : "avx2");
        runs.push_back(sink.SortedByRead());
      }
      ASSERT_EQ(runs[0].size(), 11u);
      ASSERT_EQ(runs[1].size(), 11u);
      for (int r = 0; r < 11; ++r) {
        EXPECT_EQ(runs[0][r].bits, runs[1][r].bits)
            << "variant " << variant << " heated " << heated << " read " << r;
      }
    }
  }
}

TEST(SbSamplerTest, SameSeedSameSamplesWhateverTheThreadCount) {
  const Qubo model = RandomQubo(50, 0.2, 2);
  SampleParams params;
  params.num_reads = 40;
  params.num_sweeps = 400;  // enough work to go through the pool
  params.seed = 8;
  CollectingSink one, two, other;
  ASSERT_TRUE(SampleOnPool(NewSbSampler, model, params, one, 1).ok());
  ASSERT_TRUE(SampleOnPool(NewSbSampler, model, params, two, 2).ok());
  params.seed = 9;
  ASSERT_TRUE(SampleOnPool(NewSbSampler, model, params, other, 2).ok());
  const std::vector<Sample> a = one.SortedByRead(), b = two.SortedByRead(),
                            c = other.SortedByRead();
  ASSERT_EQ(a.size(), 40u);
  ASSERT_EQ(b.size(), 40u);
  int differ = 0;
  for (int r = 0; r < 40; ++r) {
    EXPECT_EQ(a[r].bits, b[r].bits) << r;
    differ += a[r].bits != c[r].bits;
  }
  EXPECT_GT(differ, 0);
}

// dSB (the default), heated or not, reaches the ground of every model. bSB's
// replicas tend to one attractor whatever their start (the bifurcation follows
// the couplings' leading modes): on one of these models all of them end one
// unit above the ground, so it must reach the ground of two of the three.
TEST(SbSamplerTest, SmallModelsReachTheirGroundEnergy) {
  std::map<std::pair<int, bool>, int> grounds;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    const Qubo model = RandomQubo(14, 0.4, seed);
    const double ground = BruteForceGround(model);
    for (const v1::SbVariant variant : {v1::SB_BALLISTIC, v1::SB_DISCRETE}) {
      for (const bool heated : {false, true}) {
        const v1::SolveParams wire = Wire(variant, heated);
        SampleParams params;
        params.num_reads = 100;
        params.num_sweeps = 1000;
        params.seed = seed;
        params.wire = &wire;
        CollectingSink sink;
        ASSERT_TRUE(SampleOnPool(NewSbSampler, model, params, sink).ok());
        EXPECT_LE(sink.BestEnergy(), ground + 1);
        grounds[{variant, heated}] += sink.BestEnergy() == ground;
      }
    }
  }
  EXPECT_EQ(grounds[std::make_pair(int{v1::SB_DISCRETE}, false)], 3);
  EXPECT_EQ(grounds[std::make_pair(int{v1::SB_DISCRETE}, true)], 3);
  EXPECT_GE(grounds[std::make_pair(int{v1::SB_BALLISTIC}, false)], 2);
  EXPECT_GE(grounds[std::make_pair(int{v1::SB_BALLISTIC}, true)], 2);
}

TEST(SbSamplerTest, ATargetEndsTheRunEarly) {
  const Qubo model = EvenCycle(64);
  SampleParams params;
  params.num_reads = 16;
  params.num_sweeps = 100000;
  params.seed = 3;
  params.target_energy = -64;
  CollectingSink sink;
  absl::StatusOr<SampleStats> stats =
      SampleOnPool(NewSbSampler, model, params, sink);
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->stop_reason, StopReason::kTargetReached);
  EXPECT_EQ(sink.BestEnergy(), -64);
  EXPECT_LT(stats->info.sb().replica_steps(), int64_t{16} * 100000 / 10);
}

TEST(SbSamplerTest, ACancelStopsTheRunAndKeepsItsReadsScored) {
  const Qubo model = RandomQubo(200, 0.1, 5);
  SampleParams params;
  params.num_reads = 64;
  params.num_sweeps = 10000000;
  params.seed = 1;
  Interrupter interrupter;
  std::thread stopper([&] {
    absl::SleepFor(absl::Milliseconds(30));
    interrupter.Interrupt(StopReason::kCancelled);
  });
  CollectingSink sink;
  absl::StatusOr<SampleStats> stats =
      SampleOnPool(NewSbSampler, model, params, sink, 2, &interrupter);
  stopper.join();
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->stop_reason, StopReason::kCancelled);
  // The batches that had started when the cancel came, as they stood.
  EXPECT_GT(stats->reads_done, 0);
  EXPECT_EQ(stats->reads_cut_short, stats->reads_done);
  EXPECT_EQ(sink.SortedByRead().size(), static_cast<size_t>(stats->reads_done));
  for (const Sample& s : sink.SortedByRead())
    EXPECT_EQ(s.energy, model.Energy(s.bits));
  EXPECT_LT(stats->info.sb().replica_steps(), int64_t{64} * 10000000);
}

TEST(SbSamplerTest, ATimeLimitKeepsTheReadsItCut) {
  const Qubo model = RandomQubo(200, 0.1, 6);
  SampleParams params;
  params.num_reads = 16;
  params.num_sweeps = 10000000;
  params.seed = 1;
  Interrupter interrupter;
  interrupter.SetDeadline(absl::Now() + absl::Milliseconds(300),
                          StopReason::kTimeLimit);
  CollectingSink sink;
  absl::StatusOr<SampleStats> stats =
      SampleOnPool(NewSbSampler, model, params, sink, 2, &interrupter);
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->stop_reason, StopReason::kTimeLimit);
  EXPECT_EQ(stats->reads_done, 16);
  for (const Sample& s : sink.SortedByRead())
    EXPECT_EQ(s.energy, model.Energy(s.bits));
}

TEST(SbParamsTest, OutOfRangeParametersAreRefusedNamingTheField) {
  WorkerPool pool(1);
  BackendRegistry registry;
  ASSERT_TRUE(registry.Register(NewSbSampler(&pool)).ok());
  SolveLimits limits;
  limits.max_sweeps = 1000;
  auto check = [&](const std::function<void(v1::SbParams&)>& set) {
    v1::SolveParams params;
    params.set_backend("sb");
    params.set_num_reads(10);
    params.set_num_sweeps(100);
    set(*params.mutable_sb());
    return CheckBackend(registry, params, nullptr, limits, "params").status();
  };
  EXPECT_TRUE(check([](v1::SbParams& p) { p.set_c0(0.3); }).ok());
  const std::vector<std::pair<std::function<void(v1::SbParams&)>, std::string>>
      cases = {
          {[](v1::SbParams& p) { p.set_time_step(-1); }, "params.sb.time_step"},
          {[](v1::SbParams& p) { p.set_time_step(11); }, "params.sb.time_step"},
          {[](v1::SbParams& p) {
             p.set_c0(std::numeric_limits<double>::quiet_NaN());
           },
           "params.sb.c0"},
          {[](v1::SbParams& p) { p.set_a0(-2); }, "params.sb.a0"},
          {[](v1::SbParams& p) { p.set_heat(20); }, "params.sb.heat"},
          {[](v1::SbParams& p) { p.set_steps(1001); }, "params.sb.steps"},
          {[](v1::SbParams& p) {
             p.set_variant(static_cast<v1::SbVariant>(7));
           },
           "params.sb.variant"},
          {[](v1::SbParams& p) {
             p.set_kernel(static_cast<v1::SbParams::Kernel>(9));
           },
           "params.sb.kernel"},
      };
  for (const auto& [set, field] : cases) {
    EXPECT_THAT(check(set),
                StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(field)));
  }
}

}  // namespace
}  // namespace qs
