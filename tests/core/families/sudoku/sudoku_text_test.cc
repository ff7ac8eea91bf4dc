// Sudoku text (core/families/sudoku/sudoku_text.cc): grids and Simon Tatham's
// Solo game IDs give the same puzzle; malformed IDs name what is wrong.
#include <string>

#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/nyt_puzzle.h"
#include "tests/testing/status_matchers.h"

namespace qs::formats {
namespace {

using ::qs::testing::StatusIs;
using ::testing::HasSubstr;

TEST(SudokuTextTest, SoloGameIdEqualsTheGrid) {
  // sgt-solo's encoding of the NYT puzzle: letters are runs of blanks, '_'
  // separates adjacent clues.
  const auto from_id =
      ParseSudokuText("3x3:g2e9b4d3a2b7_6a5_1d8c7a5_1c3a2d5a9b7c3a8e9c4b6_5b");
  const auto from_grid = ParseSudokuText(testing::kNytPuzzle);
  ASSERT_OK(from_id);
  ASSERT_OK(from_grid);
  EXPECT_EQ(from_id->SerializeAsString(), from_grid->SerializeAsString());
  EXPECT_EQ(from_id->sudoku().box_size(), 3u);
}

TEST(SudokuTextTest, MalformedSoloGameIdsAreRefused) {
  EXPECT_THAT(ParseSudokuText("2x3:a1b2"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("not a square-block grid")));
  EXPECT_THAT(ParseSudokuText("3x3:a1#b2"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("unexpected character '#'")));
  EXPECT_THAT(
      ParseSudokuText("3x3:z1"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("27 cells")));
}

}  // namespace
}  // namespace qs::formats
