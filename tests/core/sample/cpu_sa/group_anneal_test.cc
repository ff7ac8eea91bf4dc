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

using testing::BestKeepingTheGroups;
using testing::ExpectSameSamples;
using testing::ExpectTheGroupMovesRule;
using testing::MakeTsp;
using testing::OptimumByEnumeration;
using testing::ReadsInGroups;
using testing::StatusIs;
using testing::Tsp;
using testing::TspParams;
using testing::TspRun;

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

TspRun SampleTsp(const Tsp& tsp, const SampleParams& params) {
  return qs::testing::SampleTsp(NewCpuSaSampler, tsp, params);
}

TEST(GroupAnnealTest, CpuSaKeepsTheGroupsOfAModelAndReachesItsOptimum) {
  constexpr int kCities = 7;
  const Tsp tsp = MakeTsp(kCities, 0, 13);
  const TspRun first = SampleTsp(tsp, TspParams(tsp, nullptr));
  EXPECT_EQ(first.moves, "two-way-exchange");
  ASSERT_EQ(first.samples.size(), 16u);
  EXPECT_DOUBLE_EQ(BestKeepingTheGroups(tsp, first),
                   OptimumByEnumeration(tsp, kCities));
  ExpectSameSamples(SampleTsp(tsp, TspParams(tsp, nullptr)), first);
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

// The moves follow the field's rule, and never run with Gibbs acceptance.
TEST(GroupAnnealTest, TheRequestAndTheModelDecideWhenTheMovesRun) {
  const Tsp tsp = MakeTsp(5, 2, 15);
  SampleParams params = TspParams(tsp, nullptr);
  params.num_sweeps = 20;
  ExpectTheGroupMovesRule(
      NewCpuSaSampler, params,
      [](v1::SolveParams& p, v1::GroupMoves value) {
        p.mutable_cpu_sa()->set_group_moves(value);
      },
      GroupMovesDefault::kModels);
  v1::SolveParams on;
  on.mutable_cpu_sa()->set_group_moves(v1::GROUP_MOVES_ON);
  params.wire = &on;
  params.acceptance = Acceptance::kGibbs;
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
