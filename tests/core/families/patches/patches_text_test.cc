// Patches text format (core/families/patches/patches_text.cc): puzzles read
// and written back, boards of clue letters, and the errors naming the place.
#include <string>

#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs::formats {
namespace {

using ::qs::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(PatchesTextTest, ReadsShapesAreasAndCellsInReadingOrder) {
  auto spec = ParsePuzzleText("patches",
                              "s4 . . W3\n. t6 . .\n# a comment\n\n"
                              ". . a . / A12 . . w");
  ASSERT_OK(spec);
  const v1::PatchesPuzzle& p = spec->patches();
  EXPECT_EQ(p.rows(), 4u);
  EXPECT_EQ(p.cols(), 4u);
  ASSERT_EQ(p.clues_size(), 6);
  EXPECT_EQ(p.clues(0).cell(), 0u);
  EXPECT_EQ(p.clues(0).shape(), v1::PATCH_SHAPE_SQUARE);
  EXPECT_EQ(p.clues(0).area(), 4u);
  EXPECT_EQ(p.clues(1).cell(), 3u);
  EXPECT_EQ(p.clues(1).shape(), v1::PATCH_SHAPE_WIDE);
  EXPECT_EQ(p.clues(2).cell(), 5u);
  EXPECT_EQ(p.clues(2).shape(), v1::PATCH_SHAPE_TALL);
  EXPECT_EQ(p.clues(2).area(), 6u);
  EXPECT_EQ(p.clues(3).cell(), 10u);
  EXPECT_EQ(p.clues(3).shape(), v1::PATCH_SHAPE_ANY);
  EXPECT_EQ(p.clues(3).area(), 0u);
  EXPECT_EQ(p.clues(4).area(), 12u);
  EXPECT_EQ(p.clues(5).shape(), v1::PATCH_SHAPE_WIDE);
  EXPECT_EQ(p.clues(5).area(), 0u);
}

TEST(PatchesTextTest, WriterRoundTrips) {
  const std::string text = "s4 . . w3 / . t6 . . / . . a . / a12 . . w";
  auto spec = ParsePuzzleText("patches", text);
  ASSERT_OK(spec);
  auto written = FormatPuzzleText("patches", *spec);
  ASSERT_OK(written);
  EXPECT_EQ(*written, text);
  auto again = ParsePuzzleText("patches", *written);
  ASSERT_OK(again);
  EXPECT_EQ(again->SerializeAsString(), spec->SerializeAsString());
}

TEST(PatchesTextTest, WriterRefusesWhatTheTextCannotSay) {
  auto spec = ParsePuzzleText("patches", "s4 . / . w2");
  ASSERT_OK(spec);
  v1::PuzzleSpec swapped = *spec;
  swapped.mutable_patches()->mutable_clues()->SwapElements(0, 1);
  EXPECT_THAT(FormatPuzzleText("patches", swapped),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("not in reading order")));
  v1::PuzzleSpec odd_shape = *spec;
  odd_shape.mutable_patches()->mutable_clues(0)->set_shape(
      static_cast<v1::PatchShape>(7));
  EXPECT_THAT(FormatPuzzleText("patches", odd_shape),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("unknown shape 7")));
  v1::PuzzleSpec sudoku;
  sudoku.mutable_sudoku();
  EXPECT_THAT(FormatPuzzleText("patches", sudoku),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("not a patches puzzle")));
}

TEST(PatchesTextTest, ErrorsNameThePlace) {
  auto error = [](const std::string& text) {
    return ParsePuzzleText("patches", text).status();
  };
  EXPECT_THAT(error(" \n# only a comment\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("patches text: no rows")));
  EXPECT_THAT(error("s4 . . / . ."),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("row 2 has 2 cells, row 1 has 3")));
  EXPECT_THAT(error(". x4 / . ."),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("row 1 column 2: 'x4' is neither")));
  EXPECT_THAT(
      error(". . / s0 ."),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("row 2 column 1: '0' in 's0' is not an area")));
  EXPECT_THAT(error(". . / s+4 ."),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("'+4' in 's+4' is not an area")));
  EXPECT_THAT(error(". . / t2x ."),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("'2x' in 't2x' is not an area")));
}

TEST(PatchesTextTest, BoardsAreClueLetters) {
  auto spec = ParsePuzzleText("patches",
                              "s4 . . . / . . . s4 / . w3 . . / "
                              "w3 . . t2");
  ASSERT_OK(spec);
  auto board = ParseBoardText("patches", *spec, "a a b b\naabb/ccce/dd.*");
  ASSERT_OK(board);
  EXPECT_EQ(board->height(), 4u);
  EXPECT_EQ(board->width(), 4u);
  EXPECT_THAT(board->rows(), ElementsAre("aabb", "aabb", "ccce", "dd.*"));
  EXPECT_EQ(board->cells(0), 0);
  EXPECT_EQ(board->cells(11), 4);
  EXPECT_EQ(board->cells(14), -1);
  EXPECT_EQ(board->cells(15), -2);
  EXPECT_THAT(ParseBoardText("patches", *spec, "aabb/aabb/ccce/ddf."),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("board row 4 column 3: 'f' names no clue of "
                                 "the 5")));
  EXPECT_THAT(ParseBoardText("patches", *spec, "aabb/aab"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("board row 2 has 3 cells")));
  EXPECT_THAT(
      ParseBoardText("patches", *spec, " / "),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("no rows")));
}

}  // namespace
}  // namespace qs::formats
