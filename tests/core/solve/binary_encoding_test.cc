// CompileOptions.encoding = ENCODING_BINARY through the SolveEngine: compile
// statistics of the higher-order model, the backends that take it (exact, sat)
// and the refusals of those that do not, Count in the binary encoding, and the
// refusal of families without one.
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
#include "tests/testing/nqueens_spec.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::NQueens;
using ::qs::testing::StatusIs;
using ::testing::HasSubstr;

v1::PuzzleSpec Sudoku4() {
  v1::PuzzleSpec spec;
  spec.mutable_sudoku()->set_box_size(2);
  for (int c = 0; c < 16; ++c) spec.mutable_sudoku()->add_cells(0);
  return spec;
}

class BinaryEncodingTest : public ::testing::Test {
 protected:
  BinaryEncodingTest() : pool_(1) {
    BackendOptions options;
    options.pool = &pool_;
    EXPECT_TRUE(RegisterBuiltinBackends(backends_, options).ok());
    engine_ = std::make_unique<SolveEngine>(&BuiltinCompilers(), &backends_,
                                            SolveLimits());
  }

  absl::StatusOr<v1::CompileResponse> Compile(const v1::PuzzleSpec& puzzle,
                                              bool return_qubo = false) {
    v1::CompileRequest request;
    *request.mutable_puzzle() = puzzle;
    request.mutable_options()->set_encoding(v1::ENCODING_BINARY);
    request.mutable_options()->set_return_qubo(return_qubo);
    return engine_->Compile(request);
  }

  // The samples and the summary of a binary-encoded solve.
  absl::Status Solve(const v1::PuzzleSpec& puzzle, const std::string& backend,
                     std::vector<v1::SampleEvent>& samples,
                     v1::SolveSummary& summary) {
    v1::SolveRequest request;
    *request.mutable_puzzle() = puzzle;
    request.mutable_compile()->set_encoding(v1::ENCODING_BINARY);
    request.mutable_params()->set_backend(backend);
    request.mutable_params()->set_num_reads(10);
    Interrupter interrupter;
    return engine_->Solve(request, interrupter, [&](v1::SolveResponse&& e) {
      if (e.has_sample()) samples.push_back(e.sample());
      if (e.has_summary()) summary = e.summary();
    });
  }

  WorkerPool pool_;
  BackendRegistry backends_;
  std::unique_ptr<SolveEngine> engine_;
};

TEST_F(BinaryEncodingTest, CompileReportsTheHigherOrderModel) {
  auto response = Compile(NQueens(8));
  ASSERT_OK(response);
  const v1::CompileStats& stats = response->stats();
  EXPECT_EQ(stats.encoding(), v1::ENCODING_BINARY);
  EXPECT_EQ(stats.variables(), 24u);
  EXPECT_EQ(stats.variables_total(), 24u);
  EXPECT_EQ(stats.higher_order_variables(), 24u);
  EXPECT_EQ(stats.higher_order_max_order(), 6u);
  EXPECT_GT(stats.higher_order_terms(), 0u);
  EXPECT_EQ(stats.couplers(), 0u);
  EXPECT_EQ(stats.ground_energy(), 0.0);
  EXPECT_EQ(response->variable_map_size(), 24);
  EXPECT_EQ(response->labels(3), "b(2,0)");
  // The one-hot default is unchanged.
  v1::CompileRequest one_hot;
  *one_hot.mutable_puzzle() = NQueens(8);
  auto plain = engine_->Compile(one_hot);
  ASSERT_OK(plain);
  EXPECT_EQ(plain->stats().variables(), 64u);
  EXPECT_EQ(plain->stats().higher_order_terms(), 0u);
}

TEST_F(BinaryEncodingTest, RefusesWhatItCannotExpress) {
  EXPECT_THAT(Compile(NQueens(8), /*return_qubo=*/true),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("options.return_qubo")));
  EXPECT_THAT(Compile(Sudoku4()),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("compile.encoding: the binary encoding "
                                 "applies to queens puzzles")));
  v1::CompileRequest unknown;
  *unknown.mutable_puzzle() = NQueens(4);
  unknown.mutable_options()->set_encoding(static_cast<v1::Encoding>(9));
  EXPECT_THAT(engine_->Compile(unknown),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("compile.encoding: unknown value 9")));
}

TEST_F(BinaryEncodingTest, QuboBackendsRefuseAndNameTheOnesThatTakeIt) {
  std::vector<v1::SampleEvent> samples;
  v1::SolveSummary summary;
  EXPECT_THAT(Solve(NQueens(8), "cpu-sa", samples, summary),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("params.backend: 'cpu-sa' samples QUBOs")));
  EXPECT_THAT(
      Solve(NQueens(8), "cpu-sa", samples, summary),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("exact, sat")));
  const v1::ListBackendsResponse list = engine_->ListBackends();
  for (const v1::BackendDescription& d : list.backends()) {
    EXPECT_EQ(d.higher_order(), d.name() == "exact" || d.name() == "sat" ||
                                    d.name() == "qaoa" || d.name() == "auto")
        << d.name();
  }
}

TEST_F(BinaryEncodingTest, ExactBackendStreamsEverySolution) {
  std::vector<v1::SampleEvent> samples;
  v1::SolveSummary summary;
  ASSERT_OK(Solve(NQueens(6), "exact", samples, summary));
  ASSERT_EQ(samples.size(), 4u);  // 6-queens has 4 solutions
  for (const v1::SampleEvent& s : samples) {
    EXPECT_EQ(s.energy(), 0.0);
    EXPECT_TRUE(s.valid());
  }
  EXPECT_EQ(summary.num_valid(), 4u);
  EXPECT_EQ(summary.ground_energy(), 0.0);
}

TEST_F(BinaryEncodingTest, SatBackendSolvesTheBinFormula) {
  std::vector<v1::SampleEvent> samples;
  v1::SolveSummary summary;
  ASSERT_OK(Solve(NQueens(8), "sat", samples, summary));
  ASSERT_FALSE(samples.empty());
  for (const v1::SampleEvent& s : samples) {
    EXPECT_EQ(s.energy(), 0.0);
    EXPECT_TRUE(s.valid());
  }
  EXPECT_TRUE(summary.best_valid());
  // The encoding's primary variables are the 24 bits.
  EXPECT_EQ(summary.exact().encoding().primary_variables(), 24);
}

TEST_F(BinaryEncodingTest, CountInTheBinaryEncoding) {
  v1::CountRequest request;
  *request.mutable_puzzle() = NQueens(8);
  request.set_encoding(v1::ENCODING_BINARY);
  Interrupter interrupter;
  auto counted = engine_->Count(request, interrupter);
  ASSERT_OK(counted);
  EXPECT_EQ(counted->count(), 92u);
  EXPECT_TRUE(counted->complete());
  EXPECT_EQ(counted->encoding().primary_variables(), 24);
  EXPECT_EQ(counted->encoding().bdd_operations(), 521);  // (7 + 3) 64 - 128 + 9
  *request.mutable_puzzle() = Sudoku4();
  Interrupter again;
  EXPECT_THAT(engine_->Count(request, again),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("encoding: the binary encoding applies")));
  v1::CountRequest two_per_row;
  two_per_row.mutable_puzzle()->mutable_queens()->set_rows(2);
  two_per_row.mutable_puzzle()->mutable_queens()->set_cols(4);
  two_per_row.mutable_puzzle()->mutable_queens()->add_row_counts(2);
  two_per_row.mutable_puzzle()->mutable_queens()->add_row_counts(2);
  two_per_row.set_encoding(v1::ENCODING_BINARY);
  Interrupter third;
  auto refused = engine_->Count(two_per_row, third);
  EXPECT_THAT(refused, StatusIs(absl::StatusCode::kInvalidArgument,
                                HasSubstr("encoding: the binary encoding")));
  if (!refused.ok())
    EXPECT_THAT(std::string(refused.status().message()),
                ::testing::StartsWith("encoding"));
}

}  // namespace
}  // namespace qs
