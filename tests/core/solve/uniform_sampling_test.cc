// Uniform sampling of valid boards ([Mücke 2024] §4): every valid board has the
// ground energy, so the annealer on the unclamped QUBO should draw them alike.
// The 4x4 Sudoku has 288 grids and 6-queens 4 solutions (both counted by the
// exact engines here, not assumed); the annealer's valid reads are tested
// against the uniform distribution with Pearson's chi-square at the 0.1 %
// level, and the distinct_valid mode streams each valid board once.
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/base/worker_pool.h"
#include "core/compile/registry.h"
#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/solve/builtin_backends.h"
#include "core/solve/solve_engine.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

class UniformSamplingTest : public ::testing::Test {
 protected:
  UniformSamplingTest() : pool_(2) {
    BackendOptions options;
    options.pool = &pool_;
    EXPECT_OK(RegisterBuiltinBackends(samplers_, options));
    engine_ = std::make_unique<SolveEngine>(&BuiltinCompilers(), &samplers_,
                                            SolveLimits());
  }

  // Occurrences of each valid board (packed bits) over `reads` annealer reads.
  std::map<std::string, int> ValidBoards(const v1::PuzzleSpec& spec,
                                         uint32_t reads, uint32_t sweeps,
                                         uint64_t seed) {
    v1::SolveRequest request;
    *request.mutable_puzzle() = spec;
    request.mutable_params()->set_backend("cpu-sa");
    request.mutable_params()->set_num_reads(reads);
    request.mutable_params()->set_num_sweeps(sweeps);
    request.mutable_params()->set_seed(seed);
    // The range the distinct_valid mode uses unless told otherwise (every
    // valid read is counted here, so the mode itself is not set).
    request.mutable_params()->mutable_cpu_sa()->set_beta_range(
        v1::BETA_RANGE_DWAVE);
    std::map<std::string, int> boards;
    Interrupter interrupter;
    EXPECT_OK(
        engine_->Solve(request, interrupter, [&](v1::SolveResponse&& event) {
          if (event.has_sample() && event.sample().valid())
            ++boards[event.sample().bits()];
        }));
    return boards;
  }

  uint64_t ExactCount(const v1::PuzzleSpec& spec, int variables) {
    auto encoder = BuiltinEncoders().ForSpec(spec);
    EXPECT_OK(encoder);
    auto count = CountRuleSolutions(**encoder, spec, variables, 1 << 20,
                                    CountMethod::kBdd, nullptr);
    EXPECT_OK(count);
    return count->count;
  }

  WorkerPool pool_;
  BackendRegistry samplers_;
  std::unique_ptr<SolveEngine> engine_;
};

// Pearson's statistic of `observed` against `categories` equally likely ones
// (categories never seen count with 0).
double ChiSquare(const std::map<std::string, int>& observed, int categories) {
  double total = 0;
  for (const auto& [board, count] : observed) total += count;
  const double expected = total / categories;
  double chi2 = 0;
  for (const auto& [board, count] : observed)
    chi2 += (count - expected) * (count - expected) / expected;
  chi2 += (categories - static_cast<int>(observed.size())) * expected;
  return chi2;
}

// The chi-square quantile for `dof` degrees of freedom at upper tail 0.001
// (Wilson-Hilferty: accurate to a few tenths of a percent for dof >= 3).
double Critical001(int dof) {
  const double z = 3.090232;  // standard normal quantile at 0.999
  const double k = dof;
  const double t = 1 - 2 / (9 * k) + z * std::sqrt(2 / (9 * k));
  return k * t * t * t;
}

TEST_F(UniformSamplingTest, FourByFourSudokuGridsAreDrawnUniformly) {
  v1::PuzzleSpec spec;
  spec.mutable_sudoku()->set_box_size(2);
  spec.mutable_sudoku()->mutable_cells()->Resize(16, 0);
  const uint64_t grids = ExactCount(spec, 64);
  ASSERT_EQ(grids, 288u);
  const std::map<std::string, int> boards =
      ValidBoards(spec, /*reads=*/20000, /*sweeps=*/100, /*seed=*/41);
  int valid = 0;
  for (const auto& [board, count] : boards) valid += count;
  const double chi2 = ChiSquare(boards, 288);
  std::printf(
      "4x4 Sudoku: %d valid reads of 20000, %zu of 288 grids seen, "
      "chi-square %.1f (287 dof, 0.1%% critical value %.1f)\n",
      valid, boards.size(), chi2, Critical001(287));
  EXPECT_GT(valid, 10000);
  EXPECT_EQ(boards.size(), 288u);
  EXPECT_LT(chi2, Critical001(287));
}

TEST_F(UniformSamplingTest, SixQueensSolutionsAreDrawnUniformly) {
  v1::PuzzleSpec spec;
  spec.mutable_queens()->set_rows(6);
  ASSERT_EQ(ExactCount(spec, 36), 4u);
  const std::map<std::string, int> boards =
      ValidBoards(spec, /*reads=*/8000, /*sweeps=*/200, /*seed=*/42);
  int valid = 0;
  for (const auto& [board, count] : boards) valid += count;
  const double chi2 = ChiSquare(boards, 4);
  std::printf(
      "6-queens: %d valid reads of 8000, chi-square %.2f (3 dof, "
      "0.1%% critical value %.2f)\n",
      valid, chi2, Critical001(3));
  EXPECT_GT(valid, 2000);
  EXPECT_EQ(boards.size(), 4u);
  EXPECT_LT(chi2, Critical001(3));
}

TEST_F(UniformSamplingTest, DistinctValidStreamsEachValidBoardOnce) {
  v1::PuzzleSpec spec;
  spec.mutable_queens()->set_rows(6);
  v1::SolveRequest request;
  *request.mutable_puzzle() = spec;
  request.mutable_params()->set_num_reads(500);
  request.mutable_params()->set_num_sweeps(200);
  request.mutable_params()->set_seed(3);
  request.mutable_params()->set_distinct_valid(true);
  std::set<std::string> seen;
  int events = 0;
  v1::SolveSummary summary;
  Interrupter interrupter;
  ASSERT_OK(
      engine_->Solve(request, interrupter, [&](v1::SolveResponse&& event) {
        if (event.has_sample()) {
          ++events;
          EXPECT_TRUE(event.sample().valid());
          seen.insert(event.sample().bits());
        }
        if (event.has_summary()) summary = event.summary();
      }));
  EXPECT_EQ(events, 4);
  EXPECT_EQ(seen.size(), 4u);
  EXPECT_EQ(summary.num_distinct_valid(), 4u);
  EXPECT_GT(summary.num_valid(), 4u);  // valid reads, repeats included
  EXPECT_EQ(summary.reads_done(), 500u);
}

}  // namespace
}  // namespace qs
