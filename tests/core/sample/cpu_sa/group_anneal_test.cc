// cpu-sa's moves that keep the groups (core/sample/cpu_sa/group_anneal.h and
// the sampler's choice of them): the reads keep every group and their kernel
// energies equal a full re-score, a seed gives the same reads on every SIMD
// path and across yields, the annealer reaches a small TSP's optimum, and the
// request and the model decide when the moves run.
#include "core/sample/cpu_sa/group_anneal.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "core/base/rng.h"
#include "core/base/worker_pool.h"
#include "core/sample/cpu_sa/cpu_sa_sampler.h"
#include "core/sample/group_structure.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/sample/testing_sampler.h"
#include "tests/core/sample/testing_sink.h"
#include "tests/core/sample/testing_tsp.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using testing::MakeTsp;
using testing::ReadsInGroups;
using testing::StatusIs;
using testing::Tsp;

ResolvedSchedule Schedule(int64_t sweeps) {
  return ResolvedSchedule::Interpolated(ScheduleType::kGeometric, {0.02, 2},
                                        BetaRangeRule::kTuned, sweeps, 1);
}

// Anneals 5 reads through `sweeps`, KernelLanes(path) at a time, yielding
// at every slice boundary when slice > 0; returns them.
std::vector<KernelRead> Anneal(KernelPath path, const KernelModel& km,
                               const GroupMoves& moves, int64_t sweeps,
                               int64_t slice, int64_t* yields = nullptr) {
  std::vector<KernelRead> reads =
      ReadsInGroups(moves.structure, km.num_variables, 5, 17);
  const ResolvedSchedule schedule = Schedule(sweeps);
  Interrupter never;
  const int lanes = KernelLanes(path);
  for (int first = 0; first < 5; first += lanes) {
    const std::span<KernelRead> batch_reads =
        std::span<KernelRead>(reads).subspan(first, std::min(lanes, 5 - first));
    GroupAnnealBatch batch;
    SweepWindow window{0, slice, [] { return true; }};
    int64_t done = 0;
    for (;;) {
      const KernelStats stats = AnnealReadsInGroups(
          path, km, moves, schedule, batch_reads, batch, never, window);
      done += stats.sweeps_done;
      if (!stats.yielded) break;
      if (yields != nullptr) ++*yields;
      window.first = stats.next_sweep;
    }
    EXPECT_EQ(done, sweeps);
  }
  return reads;
}

TEST(GroupAnnealTest, ReadsKeepTheGroupsAndTheirEnergiesMatchARescore) {
  const Tsp tsp = MakeTsp(7, 4, 11);
  const KernelModel km = *MakeKernelModel(tsp.model);
  const GroupMoves moves = MakeGroupMoves(km, tsp.groups);
  ASSERT_EQ(moves.structure.blocks.size(), 1u);
  const std::vector<KernelRead> reads =
      Anneal(KernelPath::kScalar, km, moves, 300, 0);
  for (const KernelRead& read : reads) {
    EXPECT_TRUE(KeepsGroups(moves.structure, read.state));
    EXPECT_DOUBLE_EQ(read.energy + tsp.model.offset(),
                     tsp.model.Energy(read.state));
  }
}

TEST(GroupAnnealTest, ASeedGivesTheSameReadsOnEveryPathAndAcrossYields) {
  const Tsp tsp = MakeTsp(8, 5, 12);
  const KernelModel km = *MakeKernelModel(tsp.model);
  const GroupMoves moves = MakeGroupMoves(km, tsp.groups);
  const std::vector<KernelRead> scalar =
      Anneal(KernelPath::kScalar, km, moves, 200, 0);
  int64_t yields = 0;
  const KernelPath best = ResolveKernelPath(KernelPath::kAuto);
  const std::vector<KernelRead> sliced =
      Anneal(best, km, moves, 200, 7, &yields);
  const int batches = (5 + KernelLanes(best) - 1) / KernelLanes(best);
  EXPECT_EQ(yields, (200 / 7) * batches);
  ASSERT_EQ(sliced.size(), scalar.size());
  for (size_t r = 0; r < scalar.size(); ++r) {
    EXPECT_EQ(sliced[r].state, scalar[r].state) << "read " << r;
    EXPECT_EQ(sliced[r].energy, scalar[r].energy) << "read " << r;
  }
}

// The tour lengths of every permutation: the model's optimum.
double OptimumByEnumeration(const Tsp& tsp, int n) {
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  double best = std::numeric_limits<double>::infinity();
  std::vector<uint8_t> state(tsp.model.num_variables());
  do {
    std::fill(state.begin(), state.end(), 0);
    for (int t = 0; t < n; ++t) state[order[t] * n + t] = 1;
    best = std::min(best, tsp.model.Energy(state));
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

SampleParams TspParams(const Tsp& tsp, const v1::SolveParams* wire) {
  SampleParams params;
  params.num_reads = 16;
  params.num_sweeps = 1000;
  params.seed = 5;
  params.one_hot_groups = &tsp.groups;
  params.wire = wire;
  return params;
}

struct TspRun {
  std::vector<Sample> samples;
  std::string moves;  // what the summary's BackendInfo.moves says
};

TspRun SampleTsp(const Tsp& tsp, const SampleParams& params) {
  WorkerPool pool(2);
  auto sampler = NewCpuSaSampler(&pool);
  qs::testing::CollectingSink sink;
  Interrupter interrupter;
  const auto stats = sampler->Sample(tsp.model, params, sink, interrupter);
  EXPECT_TRUE(stats.ok()) << stats.status();
  if (!stats.ok()) return {};
  return {sink.SortedByRead(), stats->info.moves()};
}

TEST(GroupAnnealTest, CpuSaKeepsTheGroupsOfAModelAndReachesItsOptimum) {
  constexpr int kCities = 7;
  const Tsp tsp = MakeTsp(kCities, 0, 13);
  const GroupStructure structure =
      FindGroupStructure(tsp.model.num_variables(), tsp.groups);
  const TspRun first = SampleTsp(tsp, TspParams(tsp, nullptr));
  EXPECT_EQ(first.moves, "two-way-exchange");
  ASSERT_EQ(first.samples.size(), 16u);
  double best = std::numeric_limits<double>::infinity();
  for (const Sample& s : first.samples) {
    EXPECT_TRUE(KeepsGroups(structure, s.bits));
    EXPECT_DOUBLE_EQ(s.energy, tsp.model.Energy(s.bits));
    best = std::min(best, s.energy);
  }
  EXPECT_DOUBLE_EQ(best, OptimumByEnumeration(tsp, kCities));
  const TspRun second = SampleTsp(tsp, TspParams(tsp, nullptr));
  ASSERT_EQ(second.samples.size(), first.samples.size());
  for (size_t r = 0; r < first.samples.size(); ++r)
    EXPECT_EQ(second.samples[r].bits, first.samples[r].bits) << "read " << r;
}

// No group move enters the groups: a given start that breaks them has its
// grouped variables drawn inside, its free ones kept.
TEST(GroupAnnealTest, CpuSaDrawsTheGroupsOfAStartThatBreaksThem) {
  const Tsp tsp = MakeTsp(6, 3, 14);
  const GroupStructure structure =
      FindGroupStructure(tsp.model.num_variables(), tsp.groups);
  SampleParams params = TspParams(tsp, nullptr);
  params.num_sweeps = 20;
  params.initial_states = {std::vector<uint8_t>(39, 0)};
  const TspRun run = SampleTsp(tsp, params);
  ASSERT_EQ(run.samples.size(), 16u);
  for (const Sample& s : run.samples)
    EXPECT_TRUE(KeepsGroups(structure, s.bits));
}

// The moves run by default where the optimum is sought among feasible states
// (no known ground energy), on request elsewhere, never when turned off or
// with Gibbs acceptance.
TEST(GroupAnnealTest, TheRequestAndTheModelDecideWhenTheMovesRun) {
  const Tsp tsp = MakeTsp(5, 2, 15);
  v1::SolveParams off, on;
  off.mutable_cpu_sa()->set_group_moves(v1::GROUP_MOVES_OFF);
  on.mutable_cpu_sa()->set_group_moves(v1::GROUP_MOVES_ON);
  SampleParams params = TspParams(tsp, &off);
  params.num_sweeps = 20;
  EXPECT_EQ(SampleTsp(tsp, params).moves, "single-flip");
  params.wire = nullptr;
  EXPECT_EQ(SampleTsp(tsp, params).moves, "single-flip+two-way-exchange");
  params.known_ground_energy = -1e9;  // a puzzle's: never reached
  EXPECT_EQ(SampleTsp(tsp, params).moves, "single-flip");
  params.wire = &on;
  EXPECT_EQ(SampleTsp(tsp, params).moves, "single-flip+two-way-exchange");
  params.acceptance = Acceptance::kGibbs;
  EXPECT_EQ(SampleTsp(tsp, params).moves, "single-flip");
  params.one_hot_groups = nullptr;
  params.acceptance = Acceptance::kMetropolis;
  EXPECT_EQ(SampleTsp(tsp, params).moves, "single-flip");
}

TEST(GroupAnnealTest, GroupMovesWithGibbsAcceptanceAreRefused) {
  v1::SolveParams params;
  params.mutable_cpu_sa()->set_group_moves(v1::GROUP_MOVES_ON);
  params.mutable_cpu_sa()->set_acceptance(v1::GIBBS);
  EXPECT_THAT(qs::testing::CheckParamsOf(NewCpuSaSampler, params),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("params.cpu_sa.group_moves")));
  params.mutable_cpu_sa()->set_group_moves(v1::GROUP_MOVES_DEFAULT);
  EXPECT_OK(qs::testing::CheckParamsOf(NewCpuSaSampler, params));
}

}  // namespace
}  // namespace qs
