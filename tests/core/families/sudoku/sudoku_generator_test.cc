// Generate for the Sudoku variants (GenerateRequest.sudoku): each made puzzle
// has the variant's shape and rules, its solution is valid and proven unique
// again here with CaDiCaL, a killer's cages cover the grid with the
// solution's sums, the same seed gives the same puzzle, and the request checks
// name their fields.
#include <string>
#include <vector>

#include "core/base/worker_pool.h"
#include "core/compile/registry.h"
#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/solve/builtin_backends.h"
#include "core/solve/solve_engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::HasSubstr;

class SudokuGeneratorTest : public ::testing::Test {
 protected:
  SudokuGeneratorTest() : pool_(2) {
    BackendOptions options;
    options.pool = &pool_;
    EXPECT_OK(RegisterBuiltinBackends(samplers_, options));
    engine_ = std::make_unique<SolveEngine>(&BuiltinCompilers(), &samplers_,
                                            SolveLimits());
  }

  static v1::GenerateRequest Request(int rows) {
    v1::GenerateRequest request;
    request.set_family("sudoku");
    request.set_rows(rows);
    request.set_seed(5);
    return request;
  }

  // The one puzzle of the request, checked valid and unique.
  v1::GeneratedPuzzle GenerateOne(const v1::GenerateRequest& request) {
    std::vector<v1::GeneratedPuzzle> out;
    Interrupter interrupter;
    EXPECT_OK(engine_->Generate(
        request, interrupter,
        [&](v1::GeneratedPuzzle&& p) { out.push_back(std::move(p)); }));
    EXPECT_EQ(out.size(), 1u);
    if (out.empty()) return {};
    const v1::PuzzleSpec& spec = out[0].puzzle();
    auto compiler = BuiltinCompilers().ForSpec(spec);
    EXPECT_TRUE(compiler.ok());
    auto report = (*compiler)->Validate(spec, out[0].solution());
    EXPECT_TRUE(report.ok() && report->valid()) << spec.ShortDebugString();
    auto encoder = BuiltinEncoders().ForSpec(spec);
    EXPECT_TRUE(encoder.ok());
    auto count = CountRuleSolutions(
        **encoder, spec, static_cast<int>((*compiler)->ModelVariables(spec)),
        /*limit=*/2, CountMethod::kSat, nullptr);
    EXPECT_TRUE(count.ok());
    EXPECT_EQ(count->count, 1u);
    EXPECT_TRUE(count->complete);
    return out[0];
  }

  WorkerPool pool_;
  BackendRegistry samplers_;
  std::unique_ptr<SolveEngine> engine_;
};

TEST_F(SudokuGeneratorTest, RectangularBoxes) {
  v1::GenerateRequest request = Request(0);
  request.mutable_sudoku()->set_box_rows(2);
  request.mutable_sudoku()->set_box_cols(3);
  const v1::GeneratedPuzzle made = GenerateOne(request);
  EXPECT_EQ(made.puzzle().sudoku().box_rows(), 2u);
  EXPECT_EQ(made.puzzle().sudoku().box_cols(), 3u);
  EXPECT_EQ(made.puzzle().sudoku().cells_size(), 36);
  EXPECT_EQ(made.solution().rows_size(), 6);
}

TEST_F(SudokuGeneratorTest, JigsawRegionsAreDrawnAndReproducible) {
  v1::GenerateRequest request = Request(6);
  request.mutable_sudoku()->set_jigsaw(true);
  const v1::GeneratedPuzzle made = GenerateOne(request);
  const v1::SudokuPuzzle& sudoku = made.puzzle().sudoku();
  ASSERT_EQ(sudoku.regions_size(), 36);
  EXPECT_EQ(sudoku.box_size(), 0u);
  // Not the 2x3 boxes any more.
  bool reshaped = false;
  for (int cell = 0; cell < 36; ++cell) {
    const int box = (cell / 6) / 2 * 2 + (cell % 6) / 3;
    for (int other = 0; other < 36; ++other) {
      const int box2 = (other / 6) / 2 * 2 + (other % 6) / 3;
      reshaped |=
          (box == box2) != (sudoku.regions(cell) == sudoku.regions(other));
    }
  }
  EXPECT_TRUE(reshaped);
  EXPECT_EQ(GenerateOne(request).puzzle().SerializeAsString(),
            made.puzzle().SerializeAsString());
}

TEST_F(SudokuGeneratorTest, XSudoku) {
  v1::GenerateRequest request = Request(4);
  request.mutable_sudoku()->set_diagonals(true);
  const v1::GeneratedPuzzle made = GenerateOne(request);
  EXPECT_TRUE(made.puzzle().sudoku().diagonals());
  EXPECT_EQ(made.puzzle().sudoku().box_size(), 2u);
}

TEST_F(SudokuGeneratorTest, KillerCagesCoverTheGridWithTheSolutionsSums) {
  v1::GenerateRequest request = Request(0);
  request.mutable_sudoku()->set_box_rows(2);
  request.mutable_sudoku()->set_box_cols(3);
  request.mutable_sudoku()->set_killer(true);
  const v1::GeneratedPuzzle made = GenerateOne(request);
  const v1::SudokuPuzzle& sudoku = made.puzzle().sudoku();
  ASSERT_GT(sudoku.cages_size(), 0);
  std::vector<int> covered(36, 0);
  for (const v1::SudokuCage& cage : sudoku.cages()) {
    EXPECT_LE(cage.cells_size(), 4);
    uint32_t sum = 0;
    for (uint32_t cell : cage.cells()) {
      ++covered[cell];
      sum += static_cast<uint32_t>(made.solution().cells(cell));
    }
    EXPECT_EQ(sum, cage.sum());
  }
  EXPECT_THAT(covered, ::testing::Each(1));
  // The cages carry most of the puzzle: fewer givens than a plain 6x6 needs.
  EXPECT_LT(made.clues(), 8u);
}

TEST_F(SudokuGeneratorTest, RequestChecksNameTheField) {
  v1::GenerateRequest alone = Request(0);
  alone.mutable_sudoku()->set_box_rows(2);
  EXPECT_THAT(engine_->CheckGenerateRequest(alone),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("sudoku.box_cols")));
  v1::GenerateRequest mismatch = Request(8);
  mismatch.mutable_sudoku()->set_box_rows(2);
  mismatch.mutable_sudoku()->set_box_cols(3);
  EXPECT_THAT(engine_->CheckGenerateRequest(mismatch),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("rows")));
  v1::GenerateRequest both = Request(0);
  both.mutable_sudoku()->set_box_rows(2);
  both.mutable_sudoku()->set_box_cols(3);
  both.mutable_sudoku()->set_jigsaw(true);
  EXPECT_THAT(
      engine_->CheckGenerateRequest(both),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("sudoku.jigsaw")));
  EXPECT_THAT(engine_->CheckGenerateRequest(Request(6)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("rows")));
  v1::GenerateRequest big_killer = Request(25);
  big_killer.mutable_sudoku()->set_killer(true);
  EXPECT_THAT(
      engine_->CheckGenerateRequest(big_killer),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("sudoku.killer")));
  EXPECT_OK(engine_->CheckGenerateRequest(Request(25)));
}

}  // namespace
}  // namespace qs
