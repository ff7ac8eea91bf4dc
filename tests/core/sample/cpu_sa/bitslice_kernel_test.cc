// Tests of the bit-sliced annealing kernel
// (core/sample/cpu_sa/bitslice_kernel.h): the qualifying rule and the integer
// Ising form, its selection by cpu-sa, energies, reproducibility, ground states
// of small spin glasses (against the exact enumeration), the Boltzmann
// distribution at a fixed beta, and the cut of a G-set-like graph against the
// float kernel's.
#include "core/sample/cpu_sa/bitslice_kernel.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "absl/strings/match.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "core/base/rng.h"
#include "core/base/worker_pool.h"
#include "core/sample/cpu_sa/cpu_sa_sampler.h"
#include "core/sample/cpu_sa/sa_kernel.h"
#include "core/sample/exact/brute_force_sampler.h"
#include "core/sample/sample_util.h"
#include "core/sample/schedule.h"
#include "formats/instance_generators.h"
#include "gtest/gtest.h"
#include "tests/core/sample/testing_sink.h"

namespace qs {
namespace {

struct SaRun {
  SampleStats stats;
  std::vector<Sample> samples;
};

SaRun SampleWith(const Qubo& model, const SampleParams& params, int threads) {
  WorkerPool pool(threads);
  testing::CollectingSink sink;
  Interrupter interrupter;
  auto stats = NewCpuSaSampler(&pool)->Sample(model, params, sink, interrupter);
  EXPECT_TRUE(stats.ok()) << stats.status();
  return {stats.ok() ? *stats : SampleStats{}, sink.SortedByRead()};
}

Qubo Build(QuboBuilder builder) {
  auto model = std::move(builder).Build();
  EXPECT_TRUE(model.ok()) << model.status();
  return *std::move(model);
}

// Minus the cut weight of a graph of formats' G-set generator.
Qubo GsetLike(uint32_t n, double density, bool signed_weights, uint64_t seed) {
  const v1::MaxCutPuzzle graph =
      formats::RandomGsetGraph(n, density, signed_weights, seed).maxcut();
  QuboBuilder builder(n);
  for (int e = 0; e < graph.u_size(); ++e) {
    builder.AddLinear(graph.u(e), -graph.w(e));
    builder.AddLinear(graph.v(e), -graph.w(e));
    builder.AddQuadratic(graph.u(e), graph.v(e), 2 * graph.w(e));
  }
  return Build(std::move(builder));
}

// An Ising spin glass E = unit (sum J_ij s_i s_j + sum h_i s_i) as a QUBO
// (s = 1 - 2x): J_ij in +-[1, max_weight] with probability `density`, h_i in
// [-max_field, max_field].
Qubo SpinGlass(int n, double density, int max_weight, int max_field,
               double unit, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> uniform(0, 1);
  QuboBuilder builder(n);
  for (int i = 0; i < n; ++i) {
    const int h = static_cast<int>(
        std::floor(uniform(gen) * (2 * max_field + 1)) - max_field);
    builder.AddOffset(unit * h);
    builder.AddLinear(i, -2 * unit * h);
    for (int j = i + 1; j < n; ++j) {
      if (uniform(gen) >= density) continue;
      const int magnitude =
          1 + static_cast<int>(std::floor(uniform(gen) * max_weight));
      const double w = unit * (uniform(gen) < 0.5 ? -magnitude : magnitude);
      builder.AddOffset(w);
      builder.AddLinear(i, -2 * w);
      builder.AddLinear(j, -2 * w);
      builder.AddQuadratic(i, j, 4 * w);
    }
  }
  return Build(std::move(builder));
}

// The Ising energy the bit-sliced model describes (its couplings rebuilt from
// the segments), in energy units, without the constant.
double IsingEnergy(const BitSliceModel& model, const std::vector<uint8_t>& x) {
  double units = 0;
  for (int i = 0; i < model.num_variables; ++i) {
    const int si = 1 - 2 * x[i];
    uint32_t e = model.row_start[i];
    for (uint32_t s = model.segment_start[i]; s < model.segment_start[i + 1];
         ++s) {
      const BitSliceSegment& seg = model.segments[s];
      for (; e < seg.end; ++e) {
        const int w = (model.offsets[e] & 32 ? 1 : -1) << seg.level;
        const int sj = 1 - 2 * x[model.offsets[e] >> 6];
        units += 0.5 * w * si * sj;
      }
    }
    units += (model.field_flip[i] ? 1 : -1) * model.field[i] * si;
  }
  return model.unit * units;
}

// Anneals params.num_reads reads of a model of any size on the bit-sliced
// kernel (cpu-sa takes it for large models only), as the sampler seeds them.
std::vector<KernelRead> AnnealDirectly(const Qubo& qubo,
                                       const SampleParams& params) {
  const BitSliceModel model = MakeBitSliceModel(qubo);
  EXPECT_TRUE(model.qualifies) << model.reason;
  auto schedule = ResolveSchedule(qubo, params);
  EXPECT_TRUE(schedule.ok());
  std::vector<KernelRead> reads(params.num_reads);
  for (int k = 0; k < params.num_reads; ++k) {
    ReadStart start = StartOfRead({}, qubo.num_variables(), params.seed,
                                  static_cast<uint64_t>(k));
    reads[k].state = std::move(start.state);
    reads[k].rng_seed = start.rng_seed;
  }
  Interrupter interrupter;
  for (int first = 0; first < params.num_reads; first += kBitSliceLanes) {
    const int count = std::min(kBitSliceLanes, params.num_reads - first);
    AnnealBitSliced(model, *schedule, params.acceptance,
                    std::span(reads).subspan(first, count), interrupter);
  }
  return reads;
}

std::vector<uint8_t> RandomState(int n, std::mt19937& gen) {
  std::vector<uint8_t> x(n);
  for (uint8_t& bit : x) bit = gen() & 1;
  return x;
}

TEST(BitSliceModelTest, QualifyingRule) {
  const BitSliceModel gset = MakeBitSliceModel(GsetLike(100, 0.1, true, 1));
  EXPECT_TRUE(gset.qualifies) << gset.reason;
  EXPECT_TRUE(gset.unit_weights);
  EXPECT_FALSE(gset.has_field);
  EXPECT_EQ(gset.unit, 0.5);  // J = w / 2

  const BitSliceModel weighted =
      MakeBitSliceModel(SpinGlass(12, 0.5, 15, 40, 0.375, 2));
  EXPECT_TRUE(weighted.qualifies) << weighted.reason;
  EXPECT_FALSE(weighted.unit_weights);
  EXPECT_TRUE(weighted.has_field);

  // The unit is the gcd of the couplings and fields (4 J and 4 h) over 4,
  // whether it shrinks through powers of two or not.
  QuboBuilder sixes(3);
  sixes.AddLinear(0, 6);
  sixes.AddQuadratic(0, 1, 6);
  sixes.AddQuadratic(1, 2, -12);  // 4 h = -18, 6, 12
  EXPECT_EQ(MakeBitSliceModel(Build(std::move(sixes))).unit, 1.5);
  QuboBuilder halves(3);
  halves.AddQuadratic(0, 1, 4);
  halves.AddQuadratic(1, 2, -2);  // 4 h = -4, -2, 2
  EXPECT_EQ(MakeBitSliceModel(Build(std::move(halves))).unit, 0.5);

  QuboBuilder heavy(3);
  heavy.AddQuadratic(0, 1, 1);
  heavy.AddQuadratic(1, 2, 16);  // 16 units
  EXPECT_FALSE(MakeBitSliceModel(Build(std::move(heavy))).qualifies);
  QuboBuilder reals(2);
  reals.AddLinear(0, 0.1);
  reals.AddQuadratic(0, 1, 1);
  EXPECT_FALSE(MakeBitSliceModel(Build(std::move(reals))).qualifies);
  QuboBuilder wide(2);
  wide.AddLinear(0, 1e6);
  wide.AddQuadratic(0, 1, 1);
  const BitSliceModel row = MakeBitSliceModel(Build(std::move(wide)));
  EXPECT_FALSE(row.qualifies);
  EXPECT_TRUE(absl::StrContains(row.reason, "row")) << row.reason;
  EXPECT_FALSE(MakeBitSliceModel(Build(QuboBuilder(3))).qualifies);
}

TEST(BitSliceModelTest, IsingFormGivesTheQubosEnergyDifferences) {
  std::mt19937 gen(7);
  for (const Qubo& qubo :
       {GsetLike(60, 0.2, true, 4), SpinGlass(30, 0.3, 15, 9, 0.25, 5),
        SpinGlass(30, 0.5, 3, 0, 3.0, 6)}) {
    const BitSliceModel model = MakeBitSliceModel(qubo);
    ASSERT_TRUE(model.qualifies) << model.reason;
    const std::vector<uint8_t> base = RandomState(qubo.num_variables(), gen);
    for (int k = 0; k < 20; ++k) {
      const std::vector<uint8_t> x = RandomState(qubo.num_variables(), gen);
      EXPECT_DOUBLE_EQ(qubo.Energy(x) - qubo.Energy(base),
                       IsingEnergy(model, x) - IsingEnergy(model, base));
    }
  }
}

TEST(BitSliceSamplerTest, SelectedForQualifyingModelsOnly) {
  SampleParams params;
  params.num_reads = kBitSliceMinReads;
  params.num_sweeps = 10;
  const SaRun gset = SampleWith(GsetLike(600, 0.02, false, 1), params, 1);
  EXPECT_TRUE(absl::StartsWith(gset.stats.kernel, "bitsliced"))
      << gset.stats.kernel;
  EXPECT_EQ(gset.stats.lanes, kBitSliceLanes);
  EXPECT_TRUE(gset.stats.kernel_exact);

  QuboBuilder reals(3);
  reals.AddLinear(0, 0.1);
  reals.AddQuadratic(0, 1, 1);
  reals.AddQuadratic(1, 2, -0.7);
  const SaRun other = SampleWith(Build(std::move(reals)), params, 1);
  EXPECT_FALSE(absl::StartsWith(other.stats.kernel, "bitsliced"));

  // Small models keep the float kernel's independent reads.
  const SaRun small = SampleWith(GsetLike(100, 0.1, false, 1), params, 1);
  EXPECT_TRUE(MakeBitSliceModel(GsetLike(100, 0.1, false, 1)).qualifies);
  EXPECT_FALSE(absl::StartsWith(small.stats.kernel, "bitsliced"));

  params.kernel = KernelPath::kScalar;  // a named path is the float kernel's
  const SaRun named = SampleWith(GsetLike(600, 0.02, false, 1), params, 1);
  EXPECT_EQ(named.stats.kernel, "scalar");
}

TEST(BitSliceSamplerTest, EnergiesAreTheQubosAndTheFloatKernels) {
  const Qubo model = SpinGlass(600, 0.01, 3, 2, 0.5, 8);
  SampleParams params;
  params.num_reads = 300;
  params.num_sweeps = 100;
  params.seed = 3;
  const SaRun run = SampleWith(model, params, 2);
  ASSERT_TRUE(absl::StartsWith(run.stats.kernel, "bitsliced"));
  ASSERT_EQ(run.samples.size(), 300u);
  EXPECT_EQ(run.stats.spin_update_attempts, 300 * 100 * 600);
  // The float kernel's energy of the same states (no sweep: it only sums).
  auto float_model = MakeKernelModel(model);
  ASSERT_TRUE(float_model.ok());
  std::vector<KernelRead> reads(run.samples.size());
  for (size_t k = 0; k < reads.size(); ++k)
    reads[k].state = run.samples[k].bits;
  Interrupter interrupter;
  AnnealReads(KernelPath::kScalar, *float_model,
              ResolvedSchedule::Custom({}, 1), Acceptance::kMetropolis, reads,
              interrupter);
  for (size_t k = 0; k < reads.size(); ++k) {
    EXPECT_EQ(run.samples[k].energy, model.Energy(run.samples[k].bits));
    EXPECT_EQ(run.samples[k].energy, reads[k].energy + model.offset());
  }
  // An offset off the grid: the sampler sums the Qubo instead.
  QuboBuilder shifted(600);
  shifted.AddOffset(0.1);
  shifted.AddLinear(0, -1);
  for (int i = 0; i + 1 < 600; ++i) shifted.AddQuadratic(i, i + 1, i % 3 - 1);
  const Qubo off_grid = Build(std::move(shifted));
  EXPECT_FALSE(MakeBitSliceModel(off_grid).energy_exact);
  EXPECT_TRUE(MakeBitSliceModel(model).energy_exact);
  const SaRun off = SampleWith(off_grid, params, 1);
  ASSERT_TRUE(absl::StartsWith(off.stats.kernel, "bitsliced"));
  for (const Sample& s : off.samples)
    EXPECT_EQ(s.energy, off_grid.Energy(s.bits));
}

TEST(BitSliceSamplerTest, SameSeedSameSamplesWhateverTheThreadCount) {
  const Qubo model = GsetLike(600, 0.02, true, 2);
  SampleParams params;
  params.num_reads = 600;  // three words, the last one part-filled
  params.num_sweeps = 30;
  params.seed = 99;
  const SaRun once = SampleWith(model, params, 1);
  const SaRun again = SampleWith(model, params, 1);
  const SaRun two = SampleWith(model, params, 2);
  ASSERT_EQ(once.samples.size(), 600u);
  ASSERT_EQ(two.samples.size(), 600u);
  int distinct = 0;
  for (size_t k = 0; k < once.samples.size(); ++k) {
    EXPECT_EQ(once.samples[k].bits, again.samples[k].bits);
    EXPECT_EQ(once.samples[k].bits, two.samples[k].bits);
    distinct += k == 0 || once.samples[k].bits != once.samples[k - 1].bits;
  }
  EXPECT_GT(distinct, 590);
  params.seed = 100;
  const SaRun other = SampleWith(model, params, 2);
  int same = 0;
  for (size_t k = 0; k < once.samples.size(); ++k)
    same += once.samples[k].bits == other.samples[k].bits;
  EXPECT_LT(same, 10);
}

TEST(BitSliceSamplerTest, TimeLimitKeepsTheReadsItCutAndTargetsEndTheRun) {
  const Qubo model = GsetLike(800, 0.02, true, 5);
  SampleParams params;
  params.num_reads = 300;
  params.num_sweeps = 10000000;  // hours of work: only the deadline can end it
  WorkerPool pool(2);
  testing::CollectingSink sink;
  Interrupter interrupter;
  interrupter.SetDeadline(absl::Now() + absl::Milliseconds(200),
                          StopReason::kTimeLimit);
  auto stats = NewCpuSaSampler(&pool)->Sample(model, params, sink, interrupter);
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_TRUE(absl::StartsWith(stats->kernel, "bitsliced"));
  EXPECT_EQ(stats->stop_reason, StopReason::kTimeLimit);
  EXPECT_EQ(stats->reads_done, 300);
  for (const Sample& s : sink.SortedByRead())
    EXPECT_EQ(s.energy, model.Energy(s.bits));

  // A target every read reaches (a cut of 52 % of the edges; random: 50 %).
  const Qubo unsigned_model = GsetLike(800, 0.02, false, 5);
  params.num_sweeps = 1000;
  params.target_energy = -0.52 * unsigned_model.num_couplers();
  params.num_reads = 256 * 8;
  const SaRun run = SampleWith(unsigned_model, params, 2);
  EXPECT_EQ(run.stats.stop_reason, StopReason::kTargetReached);
  EXPECT_LT(run.stats.reads_done, params.num_reads);
}

TEST(BitSliceSamplerTest, ReachesExactGroundStatesOfSmallSpinGlasses) {
  struct Case {
    int max_weight, max_field;
    Acceptance acceptance;
  };
  for (const Case& c :
       {Case{1, 0, Acceptance::kMetropolis},
        Case{1, 1, Acceptance::kMetropolis},
        Case{3, 2, Acceptance::kMetropolis}, Case{1, 0, Acceptance::kGibbs},
        Case{2, 1, Acceptance::kGibbs}}) {
    for (uint32_t seed = 1; seed <= 3; ++seed) {
      const Qubo model =
          SpinGlass(20, 0.3, c.max_weight, c.max_field, 1.0, 10 * seed);
      auto exact = FindGroundStates(model, 1, nullptr);
      ASSERT_TRUE(exact.ok());
      SampleParams params;
      params.num_reads = 64;
      params.num_sweeps = 300;
      params.seed = seed;
      params.acceptance = c.acceptance;
      double best = 1e300;
      for (const KernelRead& read : AnnealDirectly(model, params))
        best = std::min(best, model.Energy(read.state));
      EXPECT_NEAR(best, exact->energy, 1e-9)
          << "weights " << c.max_weight << " fields " << c.max_field << " seed "
          << seed;
    }
  }
}

TEST(BitSliceKernelTest, PortableAndAvx2PathsGiveTheSameSamples) {
  for (const Qubo& qubo :
       {GsetLike(300, 0.05, true, 3), SpinGlass(200, 0.05, 7, 20, 0.5, 4)}) {
    const BitSliceModel model = MakeBitSliceModel(qubo);
    ASSERT_TRUE(model.qualifies) << model.reason;
    SampleParams params;
    params.num_sweeps = 50;
    auto schedule = ResolveSchedule(qubo, params);
    ASSERT_TRUE(schedule.ok());
    for (Acceptance acceptance :
         {Acceptance::kMetropolis, Acceptance::kGibbs}) {
      std::vector<KernelRead> best(200), portable(200);
      for (int k = 0; k < 200; ++k) {
        ReadStart start = StartOfRead({}, qubo.num_variables(), 8, k);
        best[k].state = portable[k].state = start.state;
        best[k].rng_seed = portable[k].rng_seed = start.rng_seed;
      }
      Interrupter interrupter;
      const KernelStats a =
          AnnealBitSliced(model, *schedule, acceptance, best, interrupter);
      const KernelStats b = AnnealBitSliced(model, *schedule, acceptance,
                                            portable, interrupter, true);
      EXPECT_EQ(a.accepted, b.accepted);
      for (int k = 0; k < 200; ++k) {
        EXPECT_EQ(best[k].state, portable[k].state);
        EXPECT_EQ(best[k].energy, qubo.Energy(best[k].state));
      }
    }
  }
}

// At a fixed beta each read's chain satisfies detailed balance, so its end
// state follows exp(-beta E) / Z. Reads of one 32-read group share their
// uniforms, so only one read per group is counted (independent samples).
TEST(BitSliceKernelTest, FixedBetaSamplesTheBoltzmannDistribution) {
  const Qubo qubo = SpinGlass(4, 1.0, 3, 2, 0.25, 11);
  const BitSliceModel model = MakeBitSliceModel(qubo);
  ASSERT_TRUE(model.qualifies) << model.reason;
  const double beta = 1.5;
  std::vector<double> boltzmann(16);
  double z = 0;
  for (int bits = 0; bits < 16; ++bits) {
    std::vector<uint8_t> x(4);
    for (int i = 0; i < 4; ++i) x[i] = bits >> i & 1;
    boltzmann[bits] = std::exp(-beta * qubo.Energy(x));
    z += boltzmann[bits];
  }
  for (double& p : boltzmann) p /= z;
  const ResolvedSchedule schedule = ResolvedSchedule::Custom({beta}, 30);
  for (Acceptance acceptance : {Acceptance::kMetropolis, Acceptance::kGibbs}) {
    std::vector<double> seen(16);
    constexpr int kWords = 3000;
    SplitMix64 seeds(5);
    for (int word = 0; word < kWords; ++word) {
      std::vector<KernelRead> reads(kBitSliceLanes);
      for (KernelRead& read : reads) {
        read.state.resize(4);
        for (uint8_t& bit : read.state) bit = seeds.Next() & 1;
      }
      reads[0].rng_seed = seeds.Next();
      Interrupter interrupter;
      AnnealBitSliced(model, schedule, acceptance, reads, interrupter);
      for (int lane = 0; lane < kBitSliceLanes; lane += 32) {
        int bits = 0;
        for (int i = 0; i < 4; ++i) bits |= reads[lane].state[i] << i;
        seen[bits] += 1.0 / (kWords * 8);
      }
    }
    double distance = 0;  // total variation
    for (int bits = 0; bits < 16; ++bits)
      distance += std::abs(seen[bits] - boltzmann[bits]) / 2;
    // 24,000 samples: noise about 0.006.
    EXPECT_LT(distance, 0.015)
        << (acceptance == Acceptance::kGibbs ? "Gibbs" : "Metropolis");
  }
}

TEST(BitSliceSamplerTest, GsetLikeGraphCutsCloseToTheFloatKernels) {
  const Qubo model = GsetLike(800, 0.06, false, 1);  // G1's shape
  SampleParams params;
  params.num_reads = 256;
  params.num_sweeps = 400;
  params.seed = 1;
  const SaRun bits = SampleWith(model, params, 2);
  ASSERT_TRUE(absl::StartsWith(bits.stats.kernel, "bitsliced"));
  params.kernel = ResolveKernelPath(KernelPath::kAuto);
  const SaRun floats = SampleWith(model, params, 2);
  ASSERT_FALSE(absl::StartsWith(floats.stats.kernel, "bitsliced"));
  auto summary = [](const SaRun& run) {
    double best = 0, mean = 0;
    for (const Sample& s : run.samples) {
      best = std::min(best, s.energy);
      mean += s.energy / run.samples.size();
    }
    return std::pair(best, mean);
  };
  const auto [bits_best, bits_mean] = summary(bits);
  const auto [floats_best, floats_mean] = summary(floats);
  // Cuts near 11,600: within 0.2 % of the best, 0.1 % of the mean.
  EXPECT_LE(bits_best, floats_best * 0.998);
  EXPECT_LE(bits_mean, floats_mean * 0.999);
}

}  // namespace
}  // namespace qs
