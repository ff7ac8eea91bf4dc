// The Tents & Trees drawing (tents_drawing.cc): trees given, a solution's
// tents, the counts as row and column labels, values that are no tent, and
// bad input refused naming the field.
#include <climits>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
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
using ::testing::IsEmpty;

const std::map<std::string, char> kGlyphs = {{"tree", 'A'}, {"tent", 'T'}};

// An 8x8 board from `sgt-tents --generate` and its unique solution (as in
// tents_test.cc): the column counts come first in the game ID.
constexpr char kGameId[] = "8x8:abjcedccdfcdd,1,3,0,1,3,1,2,1,1,2,1,2,2,1,1,2";
const std::vector<std::string> kSolved = {"TA..A...", "....T.TA", ".T.A....",
                                          ".A.T.TA.", ".TA...AT", "...AT...",
                                          ".TA...A.", "...AT.T."};

absl::StatusOr<v1::BoardPicture> Draw(
    const v1::PuzzleSpec& spec, const v1::PuzzleSolution* solution = nullptr) {
  return ::qs::testing::DrawWithFamily("tents", spec, solution);
}

v1::PuzzleSpec Puzzle() {
  auto spec = formats::ParsePuzzleText("tents", kGameId);
  EXPECT_OK(spec);
  return spec.ok() ? *spec : v1::PuzzleSpec();
}

TEST(TentsDrawingTest, TreesAreGivenAndCountsAreLabels) {
  auto picture = Draw(Puzzle());
  ASSERT_OK(picture);
  EXPECT_EQ(picture->rows(), 8u);
  EXPECT_EQ(picture->cols(), 8u);
  std::vector<std::string> trees;
  for (const std::string& row : kSolved)
    trees.push_back(absl::StrReplaceAll(row, {{"T", "."}}));
  EXPECT_EQ(GlyphRows(*picture, kGlyphs), trees);
  std::vector<std::string> given;
  for (const std::string& row : trees)
    given.push_back(absl::StrReplaceAll(row, {{"A", "G"}}));
  EXPECT_EQ(GivenRows(*picture), given);
  EXPECT_THAT(picture->row_labels(),
              ElementsAre("1", "2", "1", "2", "2", "1", "1", "2"));
  EXPECT_THAT(picture->col_labels(),
              ElementsAre("1", "3", "0", "1", "3", "1", "2", "1"));
  EXPECT_THAT(picture->walls(), IsEmpty());
}

TEST(TentsDrawingTest, TheSolutionsTentsAreGlyphs) {
  const v1::PuzzleSpec spec = Puzzle();
  auto solution =
      formats::ParseBoardText("tents", spec, absl::StrJoin(kSolved, "/"));
  ASSERT_OK(solution);
  auto picture = Draw(spec, &*solution);
  ASSERT_OK(picture);
  EXPECT_EQ(GlyphRows(*picture, kGlyphs), kSolved);
}

TEST(TentsDrawingTest, OnlyOneIsATentAndTreesStay) {
  v1::PuzzleSpec spec;
  v1::TentsPuzzle& tents = *spec.mutable_tents();
  tents.set_rows(2);
  tents.set_cols(3);
  tents.add_trees(0);
  tents.add_trees(4);
  v1::PuzzleSolution solution;
  // A tent on a tree (Decode's -1, or 1) leaves the tree drawn.
  for (int value : {-1, 1, INT_MIN, 7, 1, -5}) solution.add_cells(value);
  auto picture = Draw(spec, &solution);
  ASSERT_OK(picture);
  EXPECT_THAT(GlyphRows(*picture, kGlyphs), ElementsAre("AT.", ".A."));
  // Counts that are not one per line are not drawn.
  EXPECT_THAT(picture->row_labels(), IsEmpty());
  EXPECT_THAT(picture->col_labels(), IsEmpty());
}

TEST(TentsDrawingTest, BadInputIsRefusedNamingTheField) {
  v1::PuzzleSpec spec = Puzzle();
  v1::PuzzleSolution short_solution;
  short_solution.add_cells(0);
  EXPECT_THAT(Draw(spec, &short_solution),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.cells")));
  ASSERT_EQ(spec.tents().trees_size(), 12);
  spec.mutable_tents()->add_trees(64);
  EXPECT_THAT(Draw(spec), StatusIs(absl::StatusCode::kInvalidArgument,
                                   HasSubstr("tents.trees[12]: cell 64")));
  v1::PuzzleSpec wide;
  wide.mutable_tents()->set_rows(1);
  wide.mutable_tents()->set_cols(UINT32_MAX);
  EXPECT_THAT(Draw(wide), StatusIs(absl::StatusCode::kResourceExhausted,
                                   HasSubstr("tents.rows")));
}

}  // namespace
}  // namespace qs
