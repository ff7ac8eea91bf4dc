// Budgets that mean what users mean (docs/budgets.md): a time limit bounds a
// request, so the attempt budget clamps its reads instead of refusing it (and
// still refuses the same request without one); a time limit over the server's
// maximum is refused; num_reads is an upper bound, so a huge one with
// stop_at_first_valid ends at the first valid board on every sampler; and a
// Takuzu whose QUBO ground states break the distinct-lines rule is solved by
// rounds on derived seeds.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/base/worker_pool.h"
#include "core/compile/registry.h"
#include "core/families/builtin.h"
#include "core/solve/builtin_backends.h"
#include "core/solve/solve_engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "qs/v1/takuzu.pb.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::testing::HasSubstr;

// Wide enough never to cut the solves here (they end at their first valid
// board or their last read); a bound, not a measurement.
constexpr double kTimeLimit = 120;

struct Outcome {
  absl::Status status;
  v1::SolveHeader header;
  v1::SolveSummary summary;
};

class BudgetTest : public ::testing::Test {
 protected:
  BudgetTest() : pool_(2) {
    BackendOptions options;
    options.pool = &pool_;
    EXPECT_OK(RegisterBuiltinBackends(backends_, options));
  }

  Outcome Solve(const v1::SolveRequest& request, SolveLimits limits = {}) {
    const SolveEngine engine(&BuiltinCompilers(), &backends_, limits);
    Outcome out;
    Interrupter interrupter;
    out.status = engine.Solve(request, interrupter, [&](v1::SolveResponse&& r) {
      if (r.has_header()) out.header = r.header();
      if (r.has_summary()) out.summary = r.summary();
    });
    return out;
  }

  WorkerPool pool_;
  BackendRegistry backends_;
};

v1::SolveRequest Queens(int n, const std::string& backend, uint32_t reads,
                        uint32_t sweeps) {
  v1::SolveRequest request;
  request.mutable_puzzle()->mutable_queens()->set_rows(n);
  v1::SolveParams& p = *request.mutable_params();
  p.set_backend(backend);
  p.set_num_reads(reads);
  p.set_num_sweeps(sweeps);
  p.set_seed(3);
  return request;
}

// 8-queens has 64 variables: 1000 reads of 100 sweeps are 6.4e6 attempts,
// over a budget of 3e5. Refused without a time limit, naming the fields;
// with one, clamped to 3e5 / (100 * 64) = 46 reads.
TEST_F(BudgetTest, TimeLimitedRequestIsClampedNotRefused) {
  SolveLimits limits;
  limits.max_attempts = 300000;
  v1::SolveRequest request = Queens(8, "cpu-sa", 1000, 100);
  EXPECT_THAT(Solve(request, limits).status,
              testing::StatusIs(absl::StatusCode::kResourceExhausted,
                                ::testing::AllOf(HasSubstr("params.num_reads"),
                                                 HasSubstr("over this server's "
                                                           "limit of 300000"),
                                                 HasSubstr("time_limit"))));

  request.mutable_params()->set_time_limit_seconds(kTimeLimit);
  const Outcome clamped = Solve(request, limits);
  ASSERT_OK(clamped.status);
  EXPECT_EQ(clamped.header.num_reads(), 46u);
  EXPECT_EQ(clamped.header.num_sweeps(), 100u);
  EXPECT_THAT(clamped.summary.budget_clamped(),
              ::testing::AllOf(HasSubstr("num_reads 1000 -> 46"),
                               HasSubstr("the time limit bounds")));
  EXPECT_EQ(clamped.summary.reads_done(), 46u);
  EXPECT_LE(clamped.summary.spin_update_attempts(), limits.max_attempts);

  // Within the budget nothing is clamped or said.
  request.mutable_params()->set_num_reads(40);
  const Outcome within = Solve(request, limits);
  ASSERT_OK(within.status);
  EXPECT_EQ(within.header.num_reads(), 40u);
  EXPECT_EQ(within.summary.budget_clamped(), "");
}

// One read alone over the budget: one read, its sweeps clamped. pt's replicas
// count: 64 variables * 8 replicas = 512 attempts per round.
TEST_F(BudgetTest, OneReadOverTheBudgetClampsTheSweeps) {
  SolveLimits limits;
  limits.max_attempts = 300000;
  v1::SolveRequest request = Queens(8, "pt", 10, 5000);
  request.mutable_params()->mutable_pt()->set_replicas(8);
  EXPECT_THAT(Solve(request, limits).status,
              testing::StatusIs(absl::StatusCode::kResourceExhausted,
                                HasSubstr("replicas or slices")));
  request.mutable_params()->set_time_limit_seconds(kTimeLimit);
  const Outcome clamped = Solve(request, limits);
  ASSERT_OK(clamped.status);
  EXPECT_EQ(clamped.header.num_reads(), 1u);
  EXPECT_EQ(clamped.header.num_sweeps(), 300000u / 512);
  EXPECT_THAT(clamped.summary.budget_clamped(),
              HasSubstr("num_sweeps 5000 -> 585"));
}

TEST_F(BudgetTest, TimeLimitOverTheServersMaximumIsRefused) {
  SolveLimits limits;
  limits.max_time_limit_seconds = 10;
  v1::SolveRequest request = Queens(8, "cpu-sa", 10, 100);
  request.mutable_params()->set_time_limit_seconds(10.5);
  EXPECT_THAT(
      Solve(request, limits).status,
      testing::StatusIs(absl::StatusCode::kInvalidArgument,
                        ::testing::AllOf(HasSubstr("params.time_limit_seconds"),
                                         HasSubstr("at most 10"))));
  request.mutable_params()->set_time_limit_seconds(10);
  EXPECT_OK(Solve(request, limits).status);
}

// The largest num_reads the server takes, with stop_at_first_valid and a time
// limit: every sampler ends at its first valid board, long before its reads.
class HugeReadsTest : public BudgetTest,
                      public ::testing::WithParamInterface<std::string> {};

TEST_P(HugeReadsTest, StopsAtTheFirstValidBoard) {
  const std::string backend = GetParam();
  // exact and qaoa enumerate or simulate 2^n states, and pa sweeps its whole
  // population each step: 4-queens (16 variables).
  const bool small = backend == "exact" || backend == "qaoa" || backend == "pa";
  v1::SolveRequest request = Queens(small ? 4 : 8, backend, 100000, 200);
  request.mutable_params()->set_stop_at_first_valid(true);
  request.mutable_params()->set_time_limit_seconds(kTimeLimit);
  const Outcome out = Solve(request);
  ASSERT_OK(out.status);
  EXPECT_EQ(out.header.num_reads(), 100000u);
  EXPECT_EQ(out.summary.termination(), v1::TARGET_REACHED);
  EXPECT_TRUE(out.summary.best_valid());
  EXPECT_GE(out.summary.num_valid(), 1u);
  // pa's reads are its population, all delivered with the step that found
  // the board, and qaoa draws its reads at once from its final state (the
  // first sample counts every draw of its state); the others stop within a
  // few lane batches, ladders or restarts.
  if (backend != "pa" && backend != "qaoa") {
    EXPECT_LT(out.summary.reads_done(), 1000u);
  }
}

INSTANTIATE_TEST_SUITE_P(Samplers, HugeReadsTest,
                         ::testing::Values("cpu-sa", "pt", "pa", "sqa", "tabu",
                                           "lns", "exact", "qaoa"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

// A 10x10 Takuzu with unique lines, made for this test: 21 givens leave 62
// boards that keep the balance and no-three rules (the QUBO's ground states)
// and one that also has distinct rows and columns.
constexpr char kDistinctRowsGivens[] =
    "..1....1.1/.1......../.11......./..1....0../0........./"
    "...0...0../01....00../....0...../........1./0.....0.11";
const std::vector<std::string> kDistinctRowsSolution = {
    "0011001101", "1101001100", "0110110010", "1010011001", "0101101100",
    "1010110010", "0101010011", "1001001101", "1010100110", "0100110011"};

v1::PuzzleSpec DistinctRowsTakuzu(bool unique_lines) {
  v1::PuzzleSpec spec;
  v1::TakuzuPuzzle& t = *spec.mutable_takuzu();
  t.set_rows(10);
  t.set_cols(10);
  t.set_unique_lines(unique_lines);
  for (char c : std::string(kDistinctRowsGivens)) {
    if (c == '/') continue;
    t.add_cells(c == '.'   ? v1::TakuzuPuzzle::BLANK
                : c == '0' ? v1::TakuzuPuzzle::ZERO
                           : v1::TakuzuPuzzle::ONE);
  }
  return spec;
}

TEST_F(BudgetTest, DistinctRowsPuzzleHasGroundStatesTheRuleRejects) {
  const SolveEngine engine(&BuiltinCompilers(), &backends_, SolveLimits());
  for (const bool unique : {false, true}) {
    v1::CountRequest request;
    *request.mutable_puzzle() = DistinctRowsTakuzu(unique);
    request.set_method(v1::COUNT_METHOD_SAT);
    request.set_limit(1000);
    Interrupter interrupter;
    auto count = engine.Count(request, interrupter);
    ASSERT_OK(count);
    EXPECT_TRUE(count->complete());
    EXPECT_EQ(count->count(), unique ? 1u : 62u);
  }
}

// With stop_at_first_valid and a time limit, rounds of 8 reads on derived
// seeds follow each other past the rejected ground states until the valid
// board; without the time limit the one round ends without it.
class DistinctRowsTest : public BudgetTest,
                         public ::testing::WithParamInterface<std::string> {};

TEST_P(DistinctRowsTest, SolvedByRoundsOnDerivedSeeds) {
  v1::SolveRequest request;
  *request.mutable_puzzle() = DistinctRowsTakuzu(true);
  v1::SolveParams& p = *request.mutable_params();
  p.set_backend(GetParam());
  p.set_num_reads(8);
  p.set_num_sweeps(500);
  p.set_seed(5);
  p.set_stop_at_first_valid(true);

  const Outcome one_round = Solve(request);
  ASSERT_OK(one_round.status);
  EXPECT_EQ(one_round.summary.termination(), v1::COMPLETED);
  EXPECT_FALSE(one_round.summary.best_valid());
  EXPECT_EQ(one_round.summary.rounds(), 0u);
  EXPECT_EQ(one_round.summary.reads_done(), 8u);
  // Its best board sits at the ground energy and breaks only the rule.
  EXPECT_EQ(one_round.summary.best_energy(), one_round.summary.ground_energy());
  ASSERT_GT(one_round.summary.best_violations_size(), 0);
  for (const v1::Violation& v : one_round.summary.best_violations()) {
    EXPECT_THAT(v.rule(),
                ::testing::AnyOf("duplicate_rows", "duplicate_columns"));
  }

  p.set_time_limit_seconds(kTimeLimit);
  const Outcome rounds = Solve(request);
  ASSERT_OK(rounds.status);
  EXPECT_EQ(rounds.summary.termination(), v1::TARGET_REACHED);
  ASSERT_TRUE(rounds.summary.best_valid());
  EXPECT_EQ(
      std::vector<std::string>(rounds.summary.best_solution().rows().begin(),
                               rounds.summary.best_solution().rows().end()),
      kDistinctRowsSolution);
  EXPECT_GT(rounds.summary.rounds(), 1u);
  EXPECT_GT(rounds.summary.reads_done(), 8u);
  EXPECT_LE(rounds.summary.reads_done(), 8u * rounds.summary.rounds());
}

// A 2x4 Takuzu with unique lines has no solution (four columns of two cells,
// each 01 or 10, cannot all differ), while its QUBO has ground states: the
// rounds go on until the time limit ends the solve normally.
TEST_F(BudgetTest, RoundsEndAtTheTimeLimitWithoutAValidBoard) {
  v1::SolveRequest request;
  v1::TakuzuPuzzle& t = *request.mutable_puzzle()->mutable_takuzu();
  t.set_rows(2);
  t.set_cols(4);
  t.set_unique_lines(true);
  v1::SolveParams& p = *request.mutable_params();
  p.set_backend("cpu-sa");  // a sampler: auto's sat would prove it infeasible
  p.set_num_reads(4);
  p.set_num_sweeps(50);
  p.set_seed(1);
  p.set_stop_at_first_valid(true);
  p.set_time_limit_seconds(0.2);
  const Outcome out = Solve(request);
  ASSERT_OK(out.status);
  EXPECT_EQ(out.summary.termination(), v1::TIME_LIMIT);
  EXPECT_FALSE(out.summary.best_valid());
  EXPECT_GT(out.summary.rounds(), 1u);
  EXPECT_EQ(out.summary.num_valid(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Samplers, DistinctRowsTest,
                         ::testing::Values("cpu-sa", "pt"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

}  // namespace
}  // namespace qs
