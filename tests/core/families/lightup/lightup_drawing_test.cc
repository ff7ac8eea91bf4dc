// The Light Up drawing (lightup_drawing.cc): black cells blocked and given,
// numbers as their text, a solution's lights as "sun" glyphs and the cells
// they light shaded; bad input refused naming the field.
#include <climits>
#include <map>
#include <string>
#include <vector>

#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/family_drawing.h"
#include "tests/testing/picture_rows.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::GlyphRows;
using ::qs::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

absl::StatusOr<v1::BoardPicture> Draw(
    const v1::PuzzleSpec& spec, const v1::PuzzleSolution* solution = nullptr) {
  return ::qs::testing::DrawWithFamily("lightup", spec, solution);
}

v1::PuzzleSpec Puzzle(const std::string& text) {
  auto spec = formats::ParsePuzzleText("lightup", text);
  EXPECT_OK(spec);
  return spec.ok() ? *spec : v1::PuzzleSpec();
}

// Per cell: '#' blocked, its text if any, 'L' a sun, '+' shaded, '.' else.
std::vector<std::string> Rows(const v1::BoardPicture& picture) {
  std::vector<std::string> rows;
  for (uint32_t r = 0; r < picture.rows(); ++r) {
    std::string row;
    for (uint32_t c = 0; c < picture.cols(); ++c) {
      const v1::PictureCell& cell =
          picture.cells(static_cast<int>(r * picture.cols() + c));
      char ch = '.';
      if (cell.blocked()) ch = cell.text().empty() ? '#' : cell.text()[0];
      if (cell.glyph() == "sun") ch = 'L';
      if (ch == '.' && cell.shaded()) ch = '+';
      row.push_back(ch);
    }
    rows.push_back(row);
  }
  return rows;
}

TEST(LightupDrawingTest, BlackCellsAreBlockedGivensWithTheirNumbers) {
  auto picture = Draw(Puzzle("7x7:b2a0iBe0g1e2i1aBb"));
  ASSERT_OK(picture);
  EXPECT_EQ(picture->rows(), 7u);
  EXPECT_EQ(picture->cols(), 7u);
  EXPECT_THAT(Rows(*picture),
              ElementsAre("..2.0..", ".......", "#.....0", ".......", "1.....2",
                          ".......", "..1.#.."));
  for (const v1::PictureCell& cell : picture->cells())
    EXPECT_EQ(cell.given(), cell.blocked());
  EXPECT_THAT(picture->walls(), IsEmpty());
  EXPECT_THAT(picture->row_labels(), IsEmpty());
}

TEST(LightupDrawingTest, LightsAreSunsAndTheCellsTheyLightAreShaded) {
  const v1::PuzzleSpec spec = Puzzle("7x7:b2a0iBe0g1e2i1aBb");
  auto solution = formats::ParseBoardText(
      "lightup", spec,
      ".L2.0.L/..L..../#...L.0/L....../1....L2/......L/L.1L#..");
  ASSERT_OK(solution);
  auto picture = Draw(spec, &*solution);
  ASSERT_OK(picture);
  // A solution lights every white cell.
  EXPECT_THAT(Rows(*picture),
              ElementsAre("+L2+0+L", "++L++++", "#+++L+0", "L++++++", "1++++L2",
                          "++++++L", "L+1L#++"));
}

TEST(LightupDrawingTest, OnlyOneOnAWhiteCellIsALight) {
  const v1::PuzzleSpec spec = Puzzle("#../.1.");
  v1::PuzzleSolution solution;
  // 1 on the black cell, 7 and INT_MIN are no lights; the light at (1,2)
  // lights its row, and the 1 below it cuts its column.
  for (int value : {1, 1, 0, 7, 0, INT_MIN}) solution.add_cells(value);
  auto picture = Draw(spec, &solution);
  ASSERT_OK(picture);
  EXPECT_THAT(Rows(*picture), ElementsAre("#L+", ".1."));
}

TEST(LightupDrawingTest, BadInputIsRefusedNamingTheField) {
  v1::PuzzleSpec spec = Puzzle("7x7:b2a0iBe0g1e2i1aBb");
  v1::PuzzleSolution short_solution;
  short_solution.add_cells(0);
  EXPECT_THAT(Draw(spec, &short_solution),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.cells")));
  spec.mutable_lightup()->add_blacks()->set_cell(49);
  EXPECT_THAT(Draw(spec), StatusIs(absl::StatusCode::kInvalidArgument,
                                   HasSubstr("lightup.blacks[8].cell: 49")));
  v1::PuzzleSpec wide;
  wide.mutable_lightup()->set_rows(1);
  wide.mutable_lightup()->set_cols(UINT32_MAX);
  EXPECT_THAT(Draw(wide), StatusIs(absl::StatusCode::kResourceExhausted,
                                   HasSubstr("lightup.rows")));
}

}  // namespace
}  // namespace qs
