// How Patches boards are drawn (core/families/patches/patches_drawing.cc),
// through SolveEngine::Draw as Solver.Draw serves them: the clues' areas and
// shape glyphs, and a solution's regions and rectangles.
#include "core/backend/registry.h"
#include "core/compile/registry.h"
#include "core/families/builtin.h"
#include "core/solve/solve_engine.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;

class PatchesDrawingTest : public ::testing::Test {
 protected:
  PatchesDrawingTest()
      : engine_(&BuiltinCompilers(), &backends_, SolveLimits()) {}

  absl::StatusOr<v1::BoardPicture> Draw(const char* puzzle,
                                        const char* board = nullptr) {
    v1::DrawRequest request;
    auto spec = formats::ParsePuzzleText("patches", puzzle);
    if (!spec.ok()) return spec.status();
    *request.mutable_puzzle() = *spec;
    if (board != nullptr) {
      auto solution = formats::ParseBoardText("patches", *spec, board);
      if (!solution.ok()) return solution.status();
      *request.mutable_solution() = *solution;
    }
    auto response = engine_.Draw(request);
    if (!response.ok()) return response.status();
    return response->picture();
  }

  BackendRegistry backends_;
  SolveEngine engine_;
};

constexpr char kLevel[] = "s4 . . . / . . . s4 / . a . . / w3 . . t";

TEST_F(PatchesDrawingTest, CluesShowTheirAreaAndShape) {
  auto picture = Draw(kLevel);
  ASSERT_OK(picture);
  EXPECT_EQ(picture->rows(), 4u);
  EXPECT_EQ(picture->cols(), 4u);
  ASSERT_EQ(picture->cells_size(), 16);
  EXPECT_EQ(picture->cells(0).text(), "4");
  EXPECT_EQ(picture->cells(0).glyph(), "square");
  EXPECT_TRUE(picture->cells(0).given());
  EXPECT_EQ(picture->cells(9).text(), "");
  EXPECT_EQ(picture->cells(9).glyph(), "");  // any shape
  EXPECT_TRUE(picture->cells(9).given());
  EXPECT_EQ(picture->cells(12).glyph(), "wide");
  EXPECT_EQ(picture->cells(15).glyph(), "tall");
  EXPECT_EQ(picture->cells(15).text(), "");
  EXPECT_FALSE(picture->cells(1).given());
  EXPECT_EQ(picture->cells(1).region(), 0u);
  EXPECT_EQ(picture->rects_size(), 0);
  EXPECT_EQ(picture->walls_size(), 0);
}

TEST_F(PatchesDrawingTest, ASolutionColoursEachPatchAndOutlinesRectangles) {
  auto picture = Draw(kLevel, "aabb/aabb/ccce/ddde");
  ASSERT_OK(picture);
  EXPECT_EQ(picture->cells(0).region(), 1u);
  EXPECT_EQ(picture->cells(11).region(), 5u);
  ASSERT_EQ(picture->rects_size(), 5);
  const v1::CellRect& b = picture->rects(1);
  EXPECT_EQ(b.region(), 2u);
  EXPECT_EQ(b.row(), 0u);
  EXPECT_EQ(b.col(), 2u);
  EXPECT_EQ(b.height(), 2u);
  EXPECT_EQ(b.width(), 2u);
  // Walls between patches: a | b on the top row, none inside a.
  auto wall = [&](uint32_t a, uint32_t b) {
    for (const v1::CellPair& w : picture->walls()) {
      if ((w.a() == a && w.b() == b) || (w.a() == b && w.b() == a)) return true;
    }
    return false;
  };
  EXPECT_TRUE(wall(1, 2));
  EXPECT_FALSE(wall(0, 1));
  EXPECT_TRUE(wall(11, 10));
  const v1::CellRect& e = picture->rects(4);
  EXPECT_EQ(e.row(), 2u);
  EXPECT_EQ(e.col(), 3u);
  EXPECT_EQ(e.height(), 2u);
  EXPECT_EQ(e.width(), 1u);
  // A wrong board: d's cells are no rectangle, so only the others (e's a
  // single cell) are outlined; the uncovered cell has no region.
  picture = Draw(kLevel, "aabb/aabb/ccc./dded");
  ASSERT_OK(picture);
  EXPECT_EQ(picture->rects_size(), 4);
  EXPECT_EQ(picture->cells(11).region(), 0u);
  EXPECT_EQ(picture->cells(15).region(), 4u);
}

TEST_F(PatchesDrawingTest, RefusesBadPuzzlesAndBoardsThatDoNotFit) {
  EXPECT_THAT(Draw("s3 . / . a"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("patches.clues[0].area")));
  EXPECT_THAT(Draw(kLevel, "aab/aab/ccc"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("solution.cells")));
}

}  // namespace
}  // namespace qs
