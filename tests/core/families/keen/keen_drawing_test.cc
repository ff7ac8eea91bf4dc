// The Keen drawing (keen_drawing.cc): cages outlined with their labels in
// the top-left cell, walls between cages, a given's digit, a solution's
// digits, and bad input refused.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/families/keen/keen_testing.h"
#include "tests/testing/family_drawing.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

absl::StatusOr<v1::BoardPicture> Draw(
    const v1::PuzzleSpec& spec, const v1::PuzzleSolution* solution = nullptr) {
  return ::qs::testing::DrawWithFamily("keen", spec, solution);
}

TEST(KeenDrawingTest, CagesCarryTheirLabelsAndWalls) {
  auto picture = Draw(testing::KeenSpec(testing::kKeen4x4));
  ASSERT_OK(picture);
  EXPECT_EQ(picture->rows(), 4u);
  EXPECT_EQ(picture->cols(), 4u);
  std::vector<std::string> labels;
  for (const v1::CellCage& cage : picture->cages())
    labels.push_back(cage.label());
  EXPECT_THAT(labels, ElementsAre("9+", "6x", "1-", "7+", "2-", "2/", "4x"));
  EXPECT_THAT(picture->cages(0).cells(), ElementsAre(0, 4, 8));
  // ABCC / ABDD / ABEF / GGEF: a wall wherever two neighbours differ.
  std::vector<std::string> walls;
  for (const v1::CellPair& wall : picture->walls())
    walls.push_back(std::to_string(wall.a()) + "|" + std::to_string(wall.b()));
  EXPECT_THAT(walls, ElementsAre("0|1", "1|2", "2|6", "3|7", "4|5", "5|6",
                                 "6|10", "7|11", "8|9", "8|12", "9|10", "9|13",
                                 "10|11", "13|14", "14|15"));
  for (const v1::PictureCell& cell : picture->cells()) {
    EXPECT_EQ(cell.text(), "");
    EXPECT_FALSE(cell.given());
  }
}

TEST(KeenDrawingTest, GivensAndSolutionDigitsAreCellText) {
  const v1::PuzzleSpec spec = testing::KeenSpec(testing::kKeen3x3Grid);
  auto puzzle = Draw(spec);
  ASSERT_OK(puzzle);
  EXPECT_EQ(puzzle->cells(4).text(), "2");
  EXPECT_TRUE(puzzle->cells(4).given());
  EXPECT_EQ(puzzle->cages(2).label(), "2");
  v1::PuzzleSolution board = testing::KeenBoard(testing::kKeen3x3Solution);
  board.set_cells(0, 0);
  board.set_cells(1, -1);
  auto solved = Draw(spec, &board);
  ASSERT_OK(solved);
  std::string text;
  for (const v1::PictureCell& cell : solved->cells())
    text += cell.text().empty() ? "." : cell.text();
  EXPECT_EQ(text, ".*2321213");
}

TEST(KeenDrawingTest, RefusesBadInput) {
  v1::PuzzleSpec spec = testing::KeenSpec(testing::kKeen4x4);
  v1::PuzzleSolution short_board;
  short_board.add_cells(1);
  EXPECT_THAT(Draw(spec, &short_board),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.cells")));
  spec.mutable_keen()->set_size(2);
  EXPECT_THAT(Draw(spec), StatusIs(absl::StatusCode::kInvalidArgument,
                                   HasSubstr("keen.size")));
}

}  // namespace
}  // namespace qs
