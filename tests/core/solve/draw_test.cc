// SolveEngine::Draw (core/solve/families.cc) over the built-in families:
// every family ListFamilies says draws draws its example, with and without a
// solution; a solution that does not fit the board is INVALID_ARGUMENT
// naming solution.cells; the raw models draw nothing (UNIMPLEMENTED).
#include <memory>
#include <string>

#include "core/base/worker_pool.h"
#include "core/families/builtin.h"
#include "core/solve/builtin_backends.h"
#include "core/solve/solve_engine.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::HasSubstr;

class DrawTest : public ::testing::Test {
 protected:
  DrawTest() : pool_(1) {
    BackendOptions options;
    options.pool = &pool_;
    EXPECT_TRUE(RegisterBuiltinBackends(backends_, options).ok());
    engine_ = std::make_unique<SolveEngine>(&BuiltinCompilers(), &backends_,
                                            SolveLimits());
  }

  v1::DrawRequest Request(const std::string& kind, const std::string& text) {
    v1::DrawRequest request;
    auto puzzle = formats::ParsePuzzleText(kind, text);
    EXPECT_OK(puzzle);
    if (puzzle.ok()) *request.mutable_puzzle() = *puzzle;
    return request;
  }

  WorkerPool pool_;
  BackendRegistry backends_;
  std::unique_ptr<SolveEngine> engine_;
};

TEST_F(DrawTest, EveryFamilyThatDrawsDrawsItsExample) {
  int drawn = 0;
  const v1::ListFamiliesResponse families = engine_->ListFamilies();
  for (const v1::FamilyDescription& family : families.families()) {
    SCOPED_TRACE(family.kind());
    const FamilyInfo* info = nullptr;
    for (const FamilyInfo* f : BuiltinFamilies().All()) {
      for (const std::string& kind : f->text_kinds)
        if (kind == family.kind()) info = f;
    }
    ASSERT_NE(info, nullptr);
    EXPECT_EQ(family.draws(), info->draw != nullptr);
    v1::DrawRequest request = Request(family.kind(), family.example());
    if (!family.draws()) {
      EXPECT_THAT(engine_->Draw(request),
                  StatusIs(absl::StatusCode::kUnimplemented,
                           HasSubstr("draws no boards")));
      continue;
    }
    auto puzzle = engine_->Draw(request);
    ASSERT_OK(puzzle);
    const v1::BoardPicture& picture = puzzle->picture();
    ASSERT_GT(picture.rows(), 0u);
    ASSERT_GT(picture.cols(), 0u);
    EXPECT_EQ(picture.cells_size(),
              static_cast<int>(picture.rows() * picture.cols()));
    // An all-zero solution of the board's size is drawn over the puzzle.
    for (int i = 0; i < picture.cells_size(); ++i)
      request.mutable_solution()->add_cells(0);
    auto solved = engine_->Draw(request);
    ASSERT_OK(solved);
    EXPECT_EQ(solved->picture().cells_size(), picture.cells_size());
    ++drawn;
  }
  // Queens (two kinds), tents, chess, Takuzu and Tango at least.
  EXPECT_GE(drawn, 6);
}

TEST_F(DrawTest, TheSolutionIsDrawnOverThePuzzle) {
  v1::DrawRequest request = Request("nqueens", "4");
  for (int value : {0, 1, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0})
    request.mutable_solution()->add_cells(value);
  auto response = engine_->Draw(request);
  ASSERT_OK(response);
  int queens = 0;
  for (const v1::PictureCell& cell : response->picture().cells())
    queens += cell.glyph() == "queen";
  EXPECT_EQ(queens, 4);
}

TEST_F(DrawTest, ASolutionOfTheWrongSizeIsInvalidArgumentNamingItsCells) {
  v1::DrawRequest request =
      Request("tango", "1=..0/..../...1/..x./0.../..../..x..");
  for (int i = 0; i < 15; ++i) request.mutable_solution()->add_cells(0);
  EXPECT_THAT(
      engine_->Draw(request),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("solution.cells: 15 cells for a board of 16")));
  // A solution message without cells does not fit either.
  request.mutable_solution()->clear_cells();
  EXPECT_THAT(engine_->Draw(request),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.cells")));
}

TEST_F(DrawTest, RawModelsDrawNothing) {
  EXPECT_THAT(engine_->Draw(Request("maxcut", "3 2\n1 2 1\n2 3 1")),
              StatusIs(absl::StatusCode::kUnimplemented,
                       HasSubstr("maxcut family draws no boards")));
}

TEST_F(DrawTest, APuzzleOfNoFamilyIsRefused) {
  EXPECT_FALSE(engine_->Draw(v1::DrawRequest()).ok());
}

}  // namespace
}  // namespace qs
