// Tests of backend "lns" (core/sample/lns): it reaches the ground energy of
// small random models and of spin-glass tori small enough to enumerate, the
// exact cut of an odd antiferromagnetic torus, the same seed gives the same
// samples whatever the thread count, a target ends the search, and a time
// limit, a deadline or a cancel that cuts a search short still delivers its
// best state, scored and counted.
#include "core/sample/lns/lns_sampler.h"

#include <map>
#include <memory>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
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

// Stops `interrupter` with `reason` once two threads have each polled it
// `polls` times: both reads of a 2-thread pool have started and re-solved
// windows, whatever the machine's load, and neither can have ended (no
// target, a budget of hours). A time limit or a deadline goes through the
// interrupter's deadline, as the engine sets them; a cancel through its check.
void StopOnceBothReadsRan(Interrupter& interrupter, StopReason reason,
                          int polls) {
  struct Polls {
    absl::Mutex mu;
    std::map<std::thread::id, int> by_thread;
  };
  auto seen = std::make_shared<Polls>();
  interrupter.SetCancelCheck([&interrupter, reason, polls, seen] {
    absl::MutexLock lock(&seen->mu);
    ++seen->by_thread[std::this_thread::get_id()];
    if (seen->by_thread.size() < 2) return false;
    for (const auto& [id, count] : seen->by_thread)
      if (count < polls) return false;
    if (reason == StopReason::kCancelled) return true;
    interrupter.SetDeadline(absl::UnixEpoch(), reason);  // passed: stops now
    return false;
  });
}

// A search a stop cuts short is delivered as it stood, with the best state it
// had reached (better than its start), scored with its true energy and counted
// as cut: on a lattice (strip windows) and on a random model (breadth-first
// windows), for each stop that keeps cut reads.
TEST(LnsSamplerTest, EveryStopKeepsTheReadsItCutScored) {
  for (const bool lattice : {true, false}) {
    const Qubo model =
        lattice ? LatticeMaxCut(32, 32, true, 9) : RandomModel(60, 9);
    SampleParams params;
    params.num_reads = 2;
    params.num_sweeps = 100000000;  // hours of work: only the stop ends it
    params.seed = 5;
    // Every read starts from all zeros (energy 0): a delivered state below 0
    // is the search's work, not its start.
    params.initial_states = {std::vector<uint8_t>(model.num_variables(), 0)};
    ASSERT_EQ(model.Energy(params.initial_states[0]), 0);
    for (const StopReason reason :
         {StopReason::kTimeLimit, StopReason::kDeadline,
          StopReason::kCancelled}) {
      SCOPED_TRACE(
          absl::StrCat("lattice ", lattice, ", ", StopReasonName(reason)));
      Interrupter interrupter;
      StopOnceBothReadsRan(interrupter, reason, /*polls=*/6);
      CollectingSink sink;
      absl::StatusOr<SampleStats> stats =
          SampleOnPool(NewLnsSampler, model, params, sink, 2, &interrupter);
      ASSERT_TRUE(stats.ok()) << stats.status();
      EXPECT_EQ(stats->stop_reason, reason);
      EXPECT_EQ(stats->reads_done, 2);
      EXPECT_EQ(stats->reads_cut_short, 2);
      const std::vector<Sample> samples = sink.SortedByRead();
      ASSERT_EQ(samples.size(), 2u);
      for (int r = 0; r < 2; ++r) {
        EXPECT_EQ(samples[r].read_index, static_cast<uint32_t>(r));
        EXPECT_EQ(samples[r].energy, model.Energy(samples[r].bits));
        EXPECT_LT(samples[r].energy, 0);
      }
    }
  }
}

}  // namespace
}  // namespace qs
