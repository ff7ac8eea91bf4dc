// The Nonogram drawing (pattern_drawing.cc): the clues as row and column
// labels, the givens as given glyphs, a solution's filled cells, and bad
// input refused naming the field.
#include <map>
#include <string>
#include <vector>

#include "core/families/builtin.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/family_drawing.h"
#include "tests/testing/picture_rows.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::GivenRows;
using ::qs::testing::GlyphRows;
using ::qs::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::map<std::string, char> kGlyphs = {{"square", '#'}, {"dot", 'x'}};

absl::StatusOr<v1::BoardPicture> Draw(
    const v1::PuzzleSpec& spec, const v1::PuzzleSolution* solution = nullptr) {
  return ::qs::testing::DrawWithFamily("pattern", spec, solution);
}

v1::PuzzleSpec Puzzle(const char* text) {
  auto spec = formats::ParsePuzzleText("pattern", text);
  EXPECT_OK(spec);
  return spec.ok() ? *spec : v1::PuzzleSpec();
}

TEST(PatternDrawingTest, CluesAreLabels) {
  // Column 4 is empty: its label reads 0.
  auto picture = Draw(Puzzle("7x2:2/1/1//1/1/1/3/1.3"));
  ASSERT_OK(picture);
  EXPECT_EQ(picture->rows(), 2u);
  EXPECT_EQ(picture->cols(), 7u);
  EXPECT_THAT(picture->row_labels(), ElementsAre("3", "1 3"));
  EXPECT_THAT(picture->col_labels(),
              ElementsAre("2", "1", "1", "0", "1", "1", "1"));
  EXPECT_THAT(GlyphRows(*picture, kGlyphs), ElementsAre(".......", "......."));
}

TEST(PatternDrawingTest, GivensAndSolutionCells) {
  // 2x2 diagonals; the top-left cell given filled, the top-right given empty.
  const v1::PuzzleSpec spec = Puzzle("2x2:1/1/1/1,Aac");
  ASSERT_EQ(spec.pattern().filled_size(), 1);
  auto puzzle = Draw(spec);
  ASSERT_OK(puzzle);
  EXPECT_THAT(GlyphRows(*puzzle, kGlyphs), ElementsAre("#x", ".."));
  EXPECT_THAT(GivenRows(*puzzle), ElementsAre("GG", ".."));
  v1::PuzzleSolution solution;
  for (int v : {1, 0, 0, 1}) solution.add_cells(v);
  auto solved = Draw(spec, &solution);
  ASSERT_OK(solved);
  EXPECT_THAT(GlyphRows(*solved, kGlyphs), ElementsAre("#x", ".#"));
  EXPECT_THAT(GivenRows(*solved), ElementsAre("GG", ".."));
}

TEST(PatternDrawingTest, BadInputIsRefusedNamingTheField) {
  v1::PuzzleSpec spec = Puzzle("2x2:1/1/1/1");
  v1::PuzzleSolution short_solution;
  short_solution.add_cells(1);
  EXPECT_THAT(Draw(spec, &short_solution),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.cells")));
  spec.mutable_pattern()->add_filled(9);
  EXPECT_THAT(Draw(spec), StatusIs(absl::StatusCode::kInvalidArgument,
                                   HasSubstr("pattern.filled[0]")));
  spec.mutable_pattern()->set_rows(0);
  EXPECT_THAT(Draw(spec), StatusIs(absl::StatusCode::kInvalidArgument,
                                   HasSubstr("pattern.rows")));
}

}  // namespace
}  // namespace qs
