// Tests of the CPU annealer (core/sample/cpu_sa): every kernel path finds the
// exact ground states of small random QUBOs (checked against brute force),
// reported energies equal the model's energy exactly, the same seed gives the
// same samples whatever the path and the thread count, scalar and SIMD
// statistics agree on 8-queens, and the interrupter stops the kernel mid-sweep.
#include "core/sample/cpu_sa/cpu_sa_sampler.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "core/base/rng.h"
#include "core/base/worker_pool.h"
#include "core/sample/cpu_sa/bitslice_kernel.h"
#include "core/sample/cpu_sa/cpu_sa_params.h"
#include "core/sample/cpu_sa/sa_kernel.h"
#include "core/sample/exact/brute_force_sampler.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/sample/testing_sampler.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;

class Collect final : public SampleSink {
 public:
  void OnSample(Sample sample) override {
    absl::MutexLock lock(&mu_);
    samples_.push_back(std::move(sample));
  }
  // Ordered by read index.
  std::vector<Sample> Sorted() {
    absl::MutexLock lock(&mu_);
    std::vector<Sample> out = samples_;
    std::sort(out.begin(), out.end(), [](const Sample& a, const Sample& b) {
      return a.read_index < b.read_index;
    });
    return out;
  }

 private:
  absl::Mutex mu_;
  std::vector<Sample> samples_;
};

// n variables, each pair coupled with probability `density`; integer weights in
// [-4, 4] or reals in
// [-1, 1] with 6 decimals (like the random reference instances).
Qubo RandomQubo(int n, double density, bool integer, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  auto weight = [&] {
    if (integer) return std::floor(unit(gen) * 9) - 4;
    return std::round((2 * unit(gen) - 1) * 1e6) / 1e6;
  };
  QuboBuilder builder(n);
  builder.AddOffset(weight());
  for (int i = 0; i < n; ++i) builder.AddLinear(i, weight());
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      if (unit(gen) < density) builder.AddQuadratic(i, j, weight());
    }
  }
  auto model = std::move(builder).Build();
  EXPECT_TRUE(model.ok()) << model.status();
  return *std::move(model);
}

// N-queens as in tests/data/instances/README.md: (1 - sum x)^2 per row and
// column, x_a x_b per pair on a diagonal; energy 0 exactly at the solutions.
Qubo Queens(int size) {
  QuboBuilder builder(size * size);
  auto at = [size](int r, int c) { return r * size + c; };
  for (int line = 0; line < size; ++line) {
    for (bool row : {true, false}) {
      builder.AddOffset(1);
      for (int a = 0; a < size; ++a) {
        const int u = row ? at(line, a) : at(a, line);
        builder.AddLinear(u, -1);
        for (int b = a + 1; b < size; ++b)
          builder.AddQuadratic(u, row ? at(line, b) : at(b, line), 2);
      }
    }
  }
  for (int u = 0; u < size * size; ++u) {
    for (int v = u + 1; v < size * size; ++v) {
      const int dr = v / size - u / size, dc = v % size - u % size;
      if (dr == dc || dr == -dc) builder.AddQuadratic(u, v, 1);
    }
  }
  auto model = std::move(builder).Build();
  EXPECT_TRUE(model.ok()) << model.status();
  return *std::move(model);
}

std::vector<KernelPath> AvailablePaths() {
  std::vector<KernelPath> paths;
  for (KernelPath path :
       {KernelPath::kScalar, KernelPath::kAvx2, KernelPath::kAvx512}) {
    if (ResolveKernelPath(path) == path) paths.push_back(path);
  }
  return paths;
}

struct SaRun {
  SampleStats stats;
  std::vector<Sample> samples;
};

SaRun SampleWith(const Qubo& model, SampleParams params, int threads,
                 Interrupter* interrupter = nullptr) {
  WorkerPool pool(threads);
  std::unique_ptr<Sampler> sampler = NewCpuSaSampler(&pool);
  Collect sink;
  Interrupter local;
  auto stats =
      sampler->Sample(model, params, sink, interrupter ? *interrupter : local);
  EXPECT_TRUE(stats.ok()) << stats.status();
  return {stats.ok() ? *stats : SampleStats{}, sink.Sorted()};
}

class PathTest : public ::testing::TestWithParam<KernelPath> {
 protected:
  void SetUp() override {
    if (ResolveKernelPath(GetParam()) != GetParam()) {
      GTEST_SKIP() << "this CPU lacks the " << KernelPathName(GetParam())
                   << " path";
    }
  }
};

TEST_P(PathTest, FindsExactGroundStatesOfSmallRandomQubos) {
  int models = 0;
  for (bool integer : {true, false}) {
    for (int n : {6, 12, 17, 20}) {
      for (double density : {0.3, 1.0}) {
        const Qubo model =
            RandomQubo(n, density, integer,
                       1000 * n + static_cast<int>(density * 10) + integer);
        auto ground = FindGroundStates(model, 1, nullptr);
        ASSERT_OK(ground.status());
        SampleParams params;
        params.num_reads = 32;
        params.num_sweeps = 500;
        params.seed = 7 + models++;
        params.kernel = GetParam();
        for (Acceptance acceptance :
             {Acceptance::kMetropolis, Acceptance::kGibbs}) {
          params.acceptance = acceptance;
          const SaRun run = SampleWith(model, params, 2);
          ASSERT_EQ(run.samples.size(), 32u);
          EXPECT_EQ(run.stats.kernel, KernelPathName(GetParam()));
          double best = INFINITY;
          for (const Sample& s : run.samples) {
            EXPECT_EQ(s.energy, model.Energy(s.bits))
                << "read " << s.read_index;
            EXPECT_GE(s.energy, ground->energy - 1e-9);
            best = std::min(best, s.energy);
          }
          EXPECT_NEAR(best, ground->energy, 1e-9)
              << "n=" << n << " density=" << density << " integer=" << integer;
        }
      }
    }
  }
}

TEST_P(PathTest, GivesTheScalarPathsSamples) {
  // Integer weights (exact kernel grid) and 6-decimal reals (rounded grid),
  // both acceptance rules.
  for (bool integer : {true, false}) {
    const Qubo model = RandomQubo(60, 0.2, integer, 99);
    for (Acceptance acceptance :
         {Acceptance::kMetropolis, Acceptance::kGibbs}) {
      SampleParams params;
      params.num_reads = 37;  // not a multiple of any lane count
      params.num_sweeps = 200;
      params.seed = 12345;
      params.acceptance = acceptance;
      params.kernel = KernelPath::kScalar;
      const SaRun scalar = SampleWith(model, params, 1);
      params.kernel = GetParam();
      const SaRun simd = SampleWith(model, params, 2);
      ASSERT_EQ(scalar.samples.size(), simd.samples.size());
      for (size_t k = 0; k < scalar.samples.size(); ++k) {
        EXPECT_EQ(scalar.samples[k].bits, simd.samples[k].bits) << "read " << k;
        EXPECT_EQ(scalar.samples[k].energy, simd.samples[k].energy);
      }
      EXPECT_EQ(scalar.stats.accepted_flips, simd.stats.accepted_flips);
      EXPECT_EQ(scalar.stats.spin_update_attempts,
                simd.stats.spin_update_attempts);
      EXPECT_EQ(scalar.stats.spin_update_attempts, 37 * 200 * 60);
    }
  }
}

TEST_P(PathTest, SolvesEightQueensAsOftenAsTheScalarPath) {
  const Qubo model = Queens(8);
  SampleParams params;
  params.num_reads = 200;
  params.num_sweeps = 1000;
  params.seed = 2024;
  params.beta_range_rule =
      BetaRangeRule::kDwave;  // D-Wave measured p = 0.725 with this schedule
  params.kernel = GetParam();
  const SaRun run = SampleWith(model, params, 2);
  int solved = 0;
  for (const Sample& s : run.samples) solved += s.energy == 0;
  const double p = solved / 200.0;
  // Three standard errors around D-Wave's rate, sqrt(0.725 * 0.275 / 200) =
  // 0.032.
  EXPECT_GT(p, 0.725 - 0.1);
  EXPECT_LT(p, 0.725 + 0.1);
  params.kernel = KernelPath::kScalar;
  const SaRun scalar = SampleWith(model, params, 1);
  int scalar_solved = 0;
  for (const Sample& s : scalar.samples) scalar_solved += s.energy == 0;
  EXPECT_EQ(solved, scalar_solved);
}

INSTANTIATE_TEST_SUITE_P(Paths, PathTest,
                         ::testing::Values(KernelPath::kScalar,
                                           KernelPath::kAvx2,
                                           KernelPath::kAvx512),
                         [](const auto& info) {
                           return std::string(KernelPathName(info.param));
                         });

TEST(CpuSaSamplerTest, SameSeedSameSamplesWhateverTheThreadCount) {
  const Qubo model = Queens(6);
  SampleParams params;
  params.num_reads = 50;
  params.num_sweeps = 100;
  params.seed = 31337;
  const SaRun once = SampleWith(model, params, 1);
  const SaRun again = SampleWith(model, params, 1);
  const SaRun two_threads = SampleWith(model, params, 2);
  ASSERT_EQ(once.samples.size(), 50u);
  ASSERT_EQ(two_threads.samples.size(), 50u);
  for (size_t k = 0; k < once.samples.size(); ++k) {
    EXPECT_EQ(once.samples[k].bits, again.samples[k].bits);
    EXPECT_EQ(once.samples[k].bits, two_threads.samples[k].bits);
    EXPECT_EQ(once.samples[k].read_index, k);
  }
  params.seed = 31338;
  const SaRun other = SampleWith(model, params, 2);
  int same = 0;
  for (size_t k = 0; k < once.samples.size(); ++k)
    same += once.samples[k].bits == other.samples[k].bits;
  EXPECT_LT(same, 50);
}

TEST(CpuSaSamplerTest, StartsFromInitialStatesAndReportsWhatRan) {
  const Qubo model = RandomQubo(10, 0.5, true, 5);
  SampleParams params;
  params.num_reads = 3;
  params.beta_schedule = {
      1e9};  // one zero-temperature sweep: only downhill flips
  params.initial_states = {std::vector<uint8_t>(10, 1)};
  const SaRun run = SampleWith(model, params, 1);
  ASSERT_EQ(run.samples.size(), 3u);
  for (const Sample& s : run.samples)
    EXPECT_LE(s.energy, model.Energy(params.initial_states[0]));
  EXPECT_EQ(run.stats.schedule, ScheduleType::kCustom);
  EXPECT_EQ(run.stats.sweeps_done, 3);
  EXPECT_EQ(run.stats.beta_hot, 1e9);

  v1::BackendInfo info;
  FillBackendInfo(run.stats, info);
  EXPECT_EQ(info.schedule(), v1::SCHEDULE_CUSTOM);
  EXPECT_EQ(info.kernel(), run.stats.kernel);
  EXPECT_TRUE(info.kernel_exact());

  params.initial_states = {std::vector<uint8_t>(9, 1)};
  WorkerPool pool(1);
  Collect sink;
  Interrupter interrupter;
  EXPECT_THAT(NewCpuSaSampler(&pool)->Sample(model, params, sink, interrupter),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("initial_states[0]")));
}

// At a fixed beta both acceptance rules satisfy detailed balance, so the end
// states of many reads follow the Boltzmann distribution exp(-beta E) / Z:
// a check of the thresholds' math (the log2 polynomial, the Gibbs odds).
TEST(CpuSaSamplerTest, FixedBetaSamplesTheBoltzmannDistribution) {
  const Qubo model = RandomQubo(4, 1.0, false, 77);
  const double beta = 2.0;
  std::vector<double> boltzmann(16);
  double z = 0;
  for (int bits = 0; bits < 16; ++bits) {
    std::vector<uint8_t> x(4);
    for (int i = 0; i < 4; ++i) x[i] = bits >> i & 1;
    boltzmann[bits] = std::exp(-beta * model.Energy(x));
    z += boltzmann[bits];
  }
  for (double& p : boltzmann) p /= z;
  for (Acceptance acceptance : {Acceptance::kMetropolis, Acceptance::kGibbs}) {
    SampleParams params;
    params.num_reads = 100000;
    params.beta_schedule = {beta};
    params.sweeps_per_beta = 50;
    params.acceptance = acceptance;
    params.seed = 5;
    const SaRun run = SampleWith(model, params, 2);
    std::vector<double> seen(16);
    for (const Sample& s : run.samples) {
      int bits = 0;
      for (int i = 0; i < 4; ++i) bits |= s.bits[i] << i;
      seen[bits] += 1.0 / run.samples.size();
    }
    double distance = 0;  // total variation
    for (int bits = 0; bits < 16; ++bits) {
      distance += std::abs(seen[bits] - boltzmann[bits]) / 2;
    }
    // Sampling noise gives about 0.004 here; sampling at 1.05 beta instead
    // would give 0.01.
    EXPECT_LT(distance, 0.008)
        << (acceptance == Acceptance::kGibbs ? "Gibbs" : "Metropolis");
  }
}

TEST(CpuSaSamplerTest, EmptyAndSingleVariableModels) {
  QuboBuilder empty(0);
  empty.AddOffset(4);
  auto none = std::move(empty).Build();
  ASSERT_OK(none.status());
  SampleParams params;
  params.num_reads = 20;
  params.num_sweeps = 10;
  SaRun run = SampleWith(*none, params, 2);
  ASSERT_EQ(run.samples.size(), 20u);
  for (const Sample& s : run.samples) EXPECT_EQ(s.energy, 4);
  EXPECT_EQ(run.stats.spin_update_attempts, 0);

  QuboBuilder single(1);
  single.AddLinear(0, -2);
  auto one = std::move(single).Build();
  ASSERT_OK(one.status());
  run = SampleWith(*one, params, 2);
  ASSERT_EQ(run.samples.size(), 20u);
  // The tuned schedule ends where the cheapest uphill flip still passes with
  // p = 1 / (100 n) per proposal: most reads end in the ground state.
  int ground = 0;
  for (const Sample& s : run.samples) {
    ground += s.bits == std::vector<uint8_t>{1};
    EXPECT_EQ(s.energy, s.bits[0] ? -2 : 0);
  }
  EXPECT_GE(ground, 15);
  EXPECT_EQ(run.stats.spin_update_attempts, 200);
}

TEST(CpuSaSamplerTest, TargetEnergyEndsTheRun) {
  const Qubo model = Queens(6);
  SampleParams params;
  params.num_reads = 4000;
  params.num_sweeps = 300;
  params.seed = 3;
  params.target_energy = 0;
  const SaRun run = SampleWith(model, params, 2);
  EXPECT_EQ(run.stats.stop_reason, StopReason::kTargetReached);
  EXPECT_LT(run.stats.reads_done, 4000);
  EXPECT_TRUE(std::any_of(run.samples.begin(), run.samples.end(),
                          [](const Sample& s) { return s.energy == 0; }));
}

TEST(CpuSaSamplerTest, TimeLimitKeepsTheReadsItCut) {
  const Qubo model = RandomQubo(200, 0.1, false, 8);
  SampleParams params;
  params.num_reads = 4;
  params.num_sweeps = 10000000;  // hours of work: only the deadline can end it
  Interrupter interrupter;
  interrupter.SetDeadline(absl::Now() + absl::Milliseconds(200),
                          StopReason::kTimeLimit);
  const SaRun run = SampleWith(model, params, 2, &interrupter);
  EXPECT_EQ(run.stats.stop_reason, StopReason::kTimeLimit);
  EXPECT_EQ(run.stats.reads_done, 4);
  EXPECT_LT(run.stats.sweeps_done, 4LL * params.num_sweeps);
  for (const Sample& s : run.samples) EXPECT_EQ(s.energy, model.Energy(s.bits));
}

// A 2D +-1 spin glass on a side x side torus as a QUBO: integer couplings of
// one unit, the model the bit-sliced kernel anneals.
Qubo TorusGlass(int side, uint64_t seed) {
  Xoshiro256 rng(seed);
  QuboBuilder builder(side * side);
  for (int r = 0; r < side; ++r) {
    for (int c = 0; c < side; ++c) {
      const int i = r * side + c;
      for (const int j :
           {r * side + (c + 1) % side, ((r + 1) % side) * side + c}) {
        const double w = (rng.Next() >> 63) ? 1 : -1;
        builder.AddQuadratic(i, j, 4 * w);
        builder.AddLinear(i, -2 * w);
        builder.AddLinear(j, -2 * w);
      }
    }
  }
  return *std::move(builder).Build();
}

// Every stop but a reached target leaves the reads where they stood,
// delivered and scored with their true energies: the float kernel, then the
// bit-sliced one, each stopped mid-schedule by a time limit, the call's
// deadline and a cancel.
TEST(CpuSaSamplerTest, EveryStopKeepsTheReadsItCutScored) {
  for (const bool bitsliced : {false, true}) {
    const Qubo model =
        bitsliced ? TorusGlass(32, 5) : RandomQubo(200, 0.1, false, 8);
    SampleParams params;
    params.num_reads = bitsliced ? 300 : 4;
    params.num_sweeps = 10000000;  // hours of work: only the stop can end it
    for (const StopReason reason :
         {StopReason::kTimeLimit, StopReason::kDeadline,
          StopReason::kCancelled}) {
      SCOPED_TRACE(absl::StrCat("bitsliced ", bitsliced, ", reason ",
                                StopReasonName(reason)));
      Interrupter interrupter;
      std::thread stopper([&] {
        absl::SleepFor(absl::Milliseconds(50));
        if (reason == StopReason::kCancelled) {
          interrupter.Interrupt(reason);
        } else {
          interrupter.SetDeadline(absl::Now(), reason);
        }
      });
      const SaRun run = SampleWith(model, params, 2, &interrupter);
      stopper.join();
      EXPECT_EQ(run.stats.stop_reason, reason);
      EXPECT_EQ(run.stats.kernel.rfind("bitsliced", 0) == 0, bitsliced);
      // Every batch started before the stop: 2 threads, at most 2 batches.
      EXPECT_EQ(run.stats.reads_done, params.num_reads);
      EXPECT_EQ(run.stats.reads_cut_short, params.num_reads);
      ASSERT_EQ(run.samples.size(), static_cast<size_t>(params.num_reads));
      for (const Sample& s : run.samples)
        EXPECT_EQ(s.energy, model.Energy(s.bits));
    }
  }
}

// A long anneal stops at each slice boundary where another request waits,
// and resumes behind it; where it stopped never changes its reads.
// A bit-sliced word costs as much for one read as for 256: a call of fewer
// than kBitSliceMinReads reads of a qualifying model keeps the float kernel,
// whose batches of a few reads spread over the pool's threads, and from
// there on it takes the words.
TEST(CpuSaSamplerTest, FewReadsOfALargeModelKeepTheFloatKernel) {
  const Qubo model = TorusGlass(32, 5);
  ASSERT_GE(model.num_variables(), kBitSliceMinVariables);
  SampleParams params;
  params.num_sweeps = 20;
  for (const int reads : {1, 32, kBitSliceMinReads - 1, kBitSliceMinReads}) {
    SCOPED_TRACE(reads);
    params.num_reads = reads;
    const SaRun run = SampleWith(model, params, 2);
    const bool bitsliced = reads >= kBitSliceMinReads;
    EXPECT_EQ(run.stats.kernel.rfind("bitsliced", 0) == 0, bitsliced)
        << run.stats.kernel;
    EXPECT_EQ(run.stats.lanes,
              bitsliced ? kBitSliceLanes
                        : KernelLanes(ResolveKernelPath(KernelPath::kAuto)));
    EXPECT_EQ(run.samples.size(), static_cast<size_t>(reads));
  }
}

TEST(CpuSaSamplerTest, YieldingAtSliceBoundariesChangesNoRead) {
  for (const bool bitsliced : {false, true}) {
    SCOPED_TRACE(absl::StrCat("bitsliced ", bitsliced));
    const Qubo model =
        bitsliced ? TorusGlass(40, 6) : RandomQubo(300, 0.2, false, 9);
    SampleParams params;
    // Two or more slice boundaries (cpu_sa_sampler.cc kFloatSliceWork,
    // kBitSliceSliceWork) on either kernel.
    params.num_reads = bitsliced ? 256 : 16;
    params.num_sweeps = bitsliced ? 1500 : 1000;  // both on the pool
    params.seed = 11;
    const SaRun alone = SampleWith(model, params, 2);
    // The same solve while a busy request keeps tasks waiting in the pool.
    WorkerPool pool(2);
    std::unique_ptr<Sampler> sampler = NewCpuSaSampler(&pool);
    testing::CompetingRequest busy(pool);
    Collect sink;
    Interrupter interrupter;
    auto stats = sampler->Sample(model, params, sink, interrupter);
    ASSERT_TRUE(busy.Stop().ok());
    ASSERT_TRUE(stats.ok()) << stats.status();
    const std::vector<Sample> loaded = sink.Sorted();
    ASSERT_EQ(loaded.size(), alone.samples.size());
    for (size_t k = 0; k < loaded.size(); ++k) {
      EXPECT_EQ(loaded[k].bits, alone.samples[k].bits) << "read " << k;
      EXPECT_EQ(loaded[k].energy, alone.samples[k].energy) << "read " << k;
    }
  }
}

// The batch gives its thread to the waiting request at its slice
// boundaries: on a one-thread pool the competitor's tasks run while the
// batch's one read is still annealing, once per slice (about twenty; 20
// measured), where a batch that never yields lets only the 4 tasks queued
// ahead of it run.
TEST(CpuSaSamplerTest, ABatchYieldsItsThreadAtSliceBoundaries) {
  const Qubo model = RandomQubo(300, 0.2, false, 9);
  SampleParams params;
  params.num_reads = 1;
  params.num_sweeps = 2000;
  params.seed = 11;
  params.kernel = KernelPath::kScalar;
  EXPECT_GE(
      testing::CompetitorRunsBeforeFirstRead(&NewCpuSaSampler, model, params),
      10);
}

TEST(SaKernelTest, PollsTheInterrupterWithinASweep) {
  // 20000 variables in a ring: one sweep is far more than one poll's worth of
  // work.
  QuboBuilder builder(20000);
  for (int i = 0; i < 20000; ++i) builder.AddQuadratic(i, (i + 1) % 20000, 1);
  auto ring = std::move(builder).Build();
  ASSERT_OK(ring.status());
  auto made = MakeKernelModel(*ring);
  ASSERT_OK(made.status());
  const KernelModel& model = *made;
  ASSERT_GT(model.chunk_end.size(), 2u);
  for (KernelPath path : AvailablePaths()) {
    Interrupter interrupter;
    interrupter.Interrupt(StopReason::kCancelled);
    std::vector<KernelRead> reads(KernelLanes(path));
    for (KernelRead& read : reads) read.state.assign(20000, 0);
    const ResolvedSchedule schedule =
        ResolvedSchedule::Custom(std::vector<double>(5, 1.0), 1);
    const KernelStats stats = AnnealReads(
        path, model, schedule, Acceptance::kMetropolis, reads, interrupter);
    EXPECT_TRUE(stats.interrupted);
    EXPECT_EQ(stats.sweeps_done, 0);
    // Stopped at the first poll: one chunk of the first sweep.
    EXPECT_EQ(stats.attempts,
              static_cast<int64_t>(model.chunk_end[0]) * KernelLanes(path));
  }
}

TEST(SaKernelTest, KernelGridIsExactForIntegerModelsAndRoundsReals) {
  const KernelModel queens = *MakeKernelModel(Queens(8));
  EXPECT_TRUE(queens.exact);
  EXPECT_EQ(queens.scale,
            std::exp2(std::floor(std::log2(queens.scale))));  // a power of two
  const KernelModel reals = *MakeKernelModel(RandomQubo(50, 0.5, false, 1));
  EXPECT_FALSE(reals.exact);
  // Every field stays below 2^24 on the grid.
  for (int i = 0; i < reals.num_variables; ++i) {
    double bound = std::abs(reals.linear[i]);
    for (uint32_t e = reals.row_start[i]; e < reals.row_start[i + 1]; ++e)
      bound += std::abs(reals.edges[e].w);
    EXPECT_LE(bound, 0x1p24);
  }
}

TEST(SaKernelTest, KernelGridCoversExtremeMagnitudes) {
  for (double magnitude : {1e-30, 1e-9, 1e9, 1e30}) {
    QuboBuilder builder(3);
    builder.AddLinear(0, -magnitude);
    builder.AddQuadratic(0, 1, 2 * magnitude);
    builder.AddQuadratic(1, 2, -magnitude);
    auto model = std::move(builder).Build();
    ASSERT_OK(model.status());
    auto kernel = MakeKernelModel(*model);
    ASSERT_OK(kernel.status());
    for (const KernelEdge& edge : kernel->edges)
      EXPECT_TRUE(std::isfinite(edge.w));
    // The grid keeps the model at every scale: every read ends at -magnitude.
    SampleParams params;
    params.num_reads = 8;
    params.num_sweeps = 100;
    const SaRun run = SampleWith(*model, params, 1);
    // The brute-force enumerator's tolerance is absolute (1e-9): enumerate.
    double ground = INFINITY;
    for (int bits = 0; bits < 8; ++bits) {
      const std::vector<uint8_t> x = {static_cast<uint8_t>(bits & 1),
                                      static_cast<uint8_t>(bits >> 1 & 1),
                                      static_cast<uint8_t>(bits >> 2 & 1)};
      ground = std::min(ground, model->Energy(x));
    }
    EXPECT_EQ(ground, -magnitude);
    for (const Sample& s : run.samples)
      EXPECT_EQ(s.energy, ground) << magnitude;
  }
  QuboBuilder huge(2);
  huge.AddQuadratic(0, 1, 1e300);
  auto model = std::move(huge).Build();
  ASSERT_OK(model.status());
  EXPECT_THAT(MakeKernelModel(*model),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("float range")));
}

absl::Status CheckCpuSa(const v1::CpuSaParams& wire, uint32_t max_sweeps) {
  v1::SolveParams params;
  *params.mutable_cpu_sa() = wire;
  return testing::CheckParamsOf(NewCpuSaSampler, params, max_sweeps);
}

TEST(CpuSaParamsTest, ChecksAndMapsTheWireParameters) {
  v1::CpuSaParams wire;
  wire.add_beta_schedule(0.1);
  wire.add_beta_schedule(-1);
  EXPECT_THAT(CheckCpuSa(wire, 1000),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("params.cpu_sa.beta_schedule[1]")));
  wire.set_beta_schedule(1, 2);
  wire.set_sweeps_per_beta(600);
  EXPECT_THAT(CheckCpuSa(wire, 1000),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
  wire.set_sweeps_per_beta(5);
  wire.set_acceptance(v1::GIBBS);
  wire.set_beta_range(v1::BETA_RANGE_DWAVE);
  wire.set_kernel(v1::KERNEL_SCALAR);
  ASSERT_OK(CheckCpuSa(wire, 1000));
  SampleParams params;
  ApplyCpuSaParams(wire, params);
  EXPECT_EQ(params.num_sweeps, 10);
  EXPECT_EQ(params.sweeps_per_beta, 5);
  EXPECT_EQ(params.acceptance, Acceptance::kGibbs);
  EXPECT_EQ(params.beta_range_rule, BetaRangeRule::kDwave);
  EXPECT_EQ(params.kernel, KernelPath::kScalar);
  EXPECT_THAT(params.beta_schedule, ::testing::ElementsAre(0.1, 2));

  v1::CpuSaParams hot_above_cold;
  hot_above_cold.set_beta_hot(2);
  hot_above_cold.set_beta_cold(1);
  EXPECT_THAT(CheckCpuSa(hot_above_cold, 1000),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_));
}

}  // namespace
}  // namespace qs
