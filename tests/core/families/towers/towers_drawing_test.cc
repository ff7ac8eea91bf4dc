// The Towers drawing (towers_drawing.cc): givens as marked cell text, a
// solution's heights, both clues of each row ("left|right") and column
// ("top|bottom") as labels, and bad input refused naming the field.
#include <string>
#include <vector>

#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/family_drawing.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// `sgt-towers --generate 1 5dx` and its unique solution.
constexpr char kGameId[] = "5:/2/2//3///3/2////3/3/2///2//,u1c";
constexpr char kSolved[] = "5241335142135242435141235";

absl::StatusOr<v1::BoardPicture> Draw(
    const v1::PuzzleSpec& spec, const v1::PuzzleSolution* solution = nullptr) {
  return ::qs::testing::DrawWithFamily("towers", spec, solution);
}

v1::PuzzleSpec Puzzle(const std::string& id) {
  auto spec = formats::ParsePuzzleText("towers", id);
  EXPECT_OK(spec);
  return spec.ok() ? *spec : v1::PuzzleSpec();
}

std::vector<std::string> TextRows(const v1::BoardPicture& picture,
                                  bool given_only) {
  std::vector<std::string> rows(picture.rows());
  for (int i = 0; i < picture.cells_size(); ++i) {
    const v1::PictureCell& cell = picture.cells(i);
    const bool show = !cell.text().empty() && (!given_only || cell.given());
    rows[i / picture.cols()] += show ? cell.text() : ".";
  }
  return rows;
}

TEST(TowersDrawingTest, GivensAndCluesAroundTheGrid) {
  auto picture = Draw(Puzzle(kGameId));
  ASSERT_OK(picture);
  EXPECT_EQ(picture->rows(), 5u);
  EXPECT_EQ(picture->cols(), 5u);
  EXPECT_THAT(TextRows(*picture, false),
              ElementsAre(".....", ".....", ".....", ".....", ".1..."));
  EXPECT_THAT(TextRows(*picture, true),
              ElementsAre(".....", ".....", ".....", ".....", ".1..."));
  // Left 0,0,3,3,2 and right 0,0,2,0,0; top 0,2,2,0,3 and bottom 0,0,3,2,0.
  EXPECT_THAT(picture->row_labels(),
              ElementsAre("-|-", "-|-", "3|2", "3|-", "2|-"));
  EXPECT_THAT(picture->col_labels(),
              ElementsAre("-|-", "2|-", "2|3", "-|2", "3|-"));
}

TEST(TowersDrawingTest, SolutionHeightsAreDrawnAnswerCellsNotGiven) {
  v1::PuzzleSolution solution;
  for (char ch : std::string(kSolved)) solution.add_cells(ch - '0');
  solution.set_cells(0, -1);  // several heights at once
  solution.set_cells(1, 0);   // none
  auto picture = Draw(Puzzle(kGameId), &solution);
  ASSERT_OK(picture);
  EXPECT_THAT(TextRows(*picture, false),
              ElementsAre("*.413", "35142", "13524", "24351", "41235"));
  EXPECT_THAT(TextRows(*picture, true),
              ElementsAre(".....", ".....", ".....", ".....", ".1..."));
}

TEST(TowersDrawingTest, SidesWithoutCluesHaveNoLabels) {
  // Clues on the top only: the columns' labels say "top|-", rows have none.
  auto picture = Draw(Puzzle("3:1/2/2/////////"));
  ASSERT_OK(picture);
  EXPECT_THAT(picture->row_labels(), IsEmpty());
  EXPECT_THAT(picture->col_labels(), ElementsAre("1|-", "2|-", "2|-"));
}

TEST(TowersDrawingTest, RefusesBadInput) {
  v1::PuzzleSpec spec = Puzzle(kGameId);
  spec.mutable_towers()->set_size(0);
  EXPECT_THAT(Draw(spec), StatusIs(absl::StatusCode::kInvalidArgument,
                                   HasSubstr("towers.rows")));
  v1::PuzzleSolution short_solution;
  short_solution.add_cells(1);
  EXPECT_THAT(Draw(Puzzle(kGameId), &short_solution),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.cells")));
}

}  // namespace
}  // namespace qs
