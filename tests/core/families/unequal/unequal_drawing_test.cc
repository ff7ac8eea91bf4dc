// The Futoshiki / Unequal drawing (unequal_drawing.cc): givens as given text,
// a solution's digits, the signs on the sides their cells share ('>' '<'
// between a row's cells, 'v' '^' between a column's, '|' '-' bars in the
// adjacent mode), and bad input refused naming the field.
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
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
using ::testing::UnorderedElementsAre;

const std::map<std::string, char> kDigits = {
    {"1", '1'}, {"2", '2'}, {"3", '3'}, {"4", '4'}, {"*", '*'}};

absl::StatusOr<v1::BoardPicture> Draw(
    const v1::PuzzleSpec& spec, const v1::PuzzleSolution* solution = nullptr) {
  return ::qs::testing::DrawWithFamily("unequal", spec, solution);
}

v1::PuzzleSpec Parse(const std::string& text) {
  auto spec = formats::ParsePuzzleText("unequal", text);
  EXPECT_OK(spec);
  return spec.ok() ? *spec : v1::PuzzleSpec();
}

std::vector<std::string> Signs(const v1::BoardPicture& picture) {
  std::vector<std::string> out;
  for (const v1::EdgeSign& s : picture.signs())
    out.push_back(absl::StrCat(s.a(), s.text(), s.b()));
  return out;
}

TEST(UnequalDrawingTest, GivensAndSignsBetweenCells) {
  // Signs of every direction, each drawn from the upper or left cell:
  // (1,1) > (1,2) '>', (1,3) < (1,4) '<', (2,2) > (3,2) below it 'v', and
  // (2,4) < (3,4) '^'.
  auto picture = Draw(Parse("2>. .<./. . . ./. v . ^/. . . 1/. . . ."));
  ASSERT_OK(picture);
  EXPECT_EQ(picture->rows(), 4u);
  EXPECT_EQ(picture->cols(), 4u);
  EXPECT_THAT(GlyphRows(*picture, kDigits),
              ElementsAre("2...", "....", "...1", "...."));
  EXPECT_THAT(GivenRows(*picture), ElementsAre("G...", "....", "...G", "...."));
  EXPECT_THAT(Signs(*picture),
              UnorderedElementsAre("0>1", "2<3", "5v9", "7^11"));
}

TEST(UnequalDrawingTest, SolutionDigitsAreNotGiven) {
  // `sgt-unequal --generate 1 4dk` and its solution.
  const v1::PuzzleSpec spec = Parse("4:0,0R,0,0,0,0R,0D,0,0,0,0,0,0U,0,0,0,");
  v1::PuzzleSolution solution;
  for (int d : {4, 2, 1, 3, 2, 4, 3, 1, 1, 3, 2, 4, 3, 1, 4, 0})
    solution.add_cells(d);
  solution.set_cells(14, -1);
  auto picture = Draw(spec, &solution);
  ASSERT_OK(picture);
  EXPECT_THAT(GlyphRows(*picture, kDigits),
              ElementsAre("4213", "2431", "1324", "31*."));
  EXPECT_THAT(GivenRows(*picture), ElementsAre("....", "....", "....", "...."));
  EXPECT_THAT(Signs(*picture), ElementsAre("1>2", "5>6", "6v10", "8^12"));
}

TEST(UnequalDrawingTest, BarsInTheAdjacentMode) {
  auto picture = Draw(Parse("1|. ./- . ./. . ./. . ."));
  ASSERT_OK(picture);
  EXPECT_THAT(Signs(*picture), ElementsAre("0|1", "0-3"));
}

TEST(UnequalDrawingTest, BadInputIsRefused) {
  v1::PuzzleSpec spec = Parse("..../..../..../....");
  spec.mutable_unequal()->set_size(12);
  EXPECT_THAT(Draw(spec).status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                            HasSubstr("unequal.size")));
  v1::PuzzleSolution short_solution;
  short_solution.add_cells(1);
  EXPECT_THAT(Draw(Parse("..../..../..../...."), &short_solution).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.cells")));
}

}  // namespace
}  // namespace qs
