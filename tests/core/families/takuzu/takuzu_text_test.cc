// Tests of the Takuzu / Tango text formats
// (core/families/takuzu/takuzu_text.cc): Unruly game IDs as sgt-unruly prints
// them, 0/1/. grids, and the Tango sign format with suns and moons.
#include <string>
#include <vector>

#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs::formats {
namespace {

using ::qs::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// The givens as rows of '0', '1' and '.'.
std::vector<std::string> Grid(const v1::TakuzuPuzzle& t) {
  std::vector<std::string> rows;
  for (uint32_t r = 0; r < t.rows(); ++r) {
    std::string row;
    for (uint32_t c = 0; c < t.cols(); ++c) {
      const auto cell = t.cells(static_cast<int>(r * t.cols() + c));
      row.push_back(cell == v1::TakuzuPuzzle::BLANK
                        ? '.'
                        : (cell == v1::TakuzuPuzzle::ZERO ? '0' : '1'));
    }
    rows.push_back(row);
  }
  return rows;
}

// Signs as "r,c=r,c" / "r,cxr,c", 0-based.
std::vector<std::string> Signs(const v1::TakuzuPuzzle& t) {
  std::vector<std::string> out;
  for (const v1::TakuzuSign& s : t.signs()) {
    out.push_back(
        std::to_string(s.a().row()) + "," + std::to_string(s.a().col()) +
        (s.kind() == v1::TakuzuSign::EQUAL ? "=" : "x") +
        std::to_string(s.b().row()) + "," + std::to_string(s.b().col()));
  }
  return out;
}

TEST(TakuzuTextTest, UnrulyGameId) {
  // Printed by `sgt-unruly --generate`: lower case places a 0, upper case a 1,
  // after skipping (letter - 'a') blanks; the last letter lands past the grid.
  auto spec = ParsePuzzleText("takuzu", "6x6:abECBDHBdDb");
  ASSERT_OK(spec);
  const v1::TakuzuPuzzle& t = spec->takuzu();
  EXPECT_EQ(t.rows(), 6u);
  EXPECT_EQ(t.cols(), 6u);
  EXPECT_FALSE(t.unique_lines());
  EXPECT_THAT(Grid(t), ElementsAre("0.0...", ".1..1.", "1...1.", "......",
                                   "1.1...", "0...1."));
  EXPECT_EQ(t.signs_size(), 0);
  EXPECT_EQ(t.row_ones_size(), 0);  // balanced rows and columns
}

TEST(TakuzuTextTest, UnrulyUniqueFlagAndRectangles) {
  auto unique = ParsePuzzleText("takuzu", "8x8u:BBcCbDafeABCfBdCcdAcbc\n");
  ASSERT_OK(unique);
  EXPECT_TRUE(unique->takuzu().unique_lines());
  EXPECT_EQ(unique->takuzu().cells_size(), 64);
  // Width first: 8 columns, 6 rows.
  auto wide = ParsePuzzleText("takuzu", "8x6:JBAcABBCGcAeaDBb");
  ASSERT_OK(wide);
  EXPECT_EQ(wide->takuzu().rows(), 6u);
  EXPECT_EQ(wide->takuzu().cols(), 8u);
  // J skips 9 cells and places a 1 at cell 9 (row 2, column 2), B one more at
  // 11, A at 12, c a 0 at 15.
  EXPECT_EQ(Grid(wide->takuzu())[1], ".1.11..0");
  // A difficulty in the parameters is accepted; 'z' skips 25 cells.
  auto long_skip = ParsePuzzleText("takuzu", "6x6dn:zBJ");
  ASSERT_OK(long_skip);
  EXPECT_EQ(Grid(long_skip->takuzu())[4], "..1...");
}

TEST(TakuzuTextTest, UnrulyErrors) {
  EXPECT_THAT(
      ParsePuzzleText("takuzu", "6x6:abc"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("covers")));
  EXPECT_THAT(ParsePuzzleText("takuzu", "6x6:ab1"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("'1' at offset 2")));
  EXPECT_THAT(
      ParsePuzzleText("takuzu", "6x6#12345"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("random-seed")));
  EXPECT_THAT(ParsePuzzleText("takuzu", "6y6:abc"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("not an Unruly parameter")));
}

TEST(TakuzuTextTest, GridFollowsTakuzuRules) {
  auto spec = ParsePuzzleText("takuzu", "1..0/..../0 . . ./...1");
  ASSERT_OK(spec);
  EXPECT_TRUE(spec->takuzu().unique_lines());
  EXPECT_THAT(Grid(spec->takuzu()),
              ElementsAre("1..0", "....", "0...", "...1"));
  auto lines = ParsePuzzleText("takuzu", "10\n01\n");
  ASSERT_OK(lines);
  EXPECT_EQ(lines->takuzu().rows(), 2u);
  EXPECT_THAT(ParsePuzzleText("takuzu", "1..0/..."),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("row 2 has 3 cells")));
  EXPECT_THAT(ParsePuzzleText("takuzu", "1..2/...."),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("unexpected character '2'")));
  EXPECT_THAT(ParsePuzzleText("takuzu", "  "),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("empty")));
}

// Found by tests/fuzz/takuzu_text_fuzzer (regressions/takuzu_text_fuzzer/):
// "110110:" asked for a 110110x110110 cell array before reading the
// description.
TEST(TakuzuTextTest, HugeUnrulySidesAreRejectedBeforeAllocating) {
  EXPECT_THAT(ParsePuzzleText("takuzu", "110110:"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("larger than 1024x1024")));
  EXPECT_THAT(ParsePuzzleText("takuzu", "6x999999:a"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("larger than 1024x1024")));
  // At the bound the parse goes on to the description.
  EXPECT_THAT(ParsePuzzleText("takuzu", "1024x2:z"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::Not(HasSubstr("larger than"))));
}

TEST(TakuzuTextTest, TangoSignFormat) {
  // The example of takuzu_text.cc, on one line and spread over lines with
  // spaces.
  const std::string one_line = "1=..0/..../...1/..x./0.../..../..x..";
  const std::string pretty =
      "1=. . 0\n"
      ". . . .\n"
      ". . . 1\n"
      ". . x .\n"
      "0 . . .\n"
      ". . . .\n"
      ". .x. .\n";
  for (const std::string& text : {one_line, pretty}) {
    auto spec = ParsePuzzleText("tango", text);
    ASSERT_OK(spec);
    const v1::TakuzuPuzzle& t = spec->takuzu();
    EXPECT_FALSE(t.unique_lines());
    EXPECT_THAT(Grid(t), ElementsAre("1..0", "...1", "0...", "...."));
    EXPECT_THAT(Signs(t), ElementsAre("0,0=0,1", "1,2x2,2", "3,1x3,2"));
  }
  // An empty sign row has no signs.
  auto empty_rows = ParsePuzzleText("tango", "0x1//1=1");
  ASSERT_OK(empty_rows);
  EXPECT_THAT(Signs(empty_rows->takuzu()), ElementsAre("0,0x0,1", "1,0=1,1"));
}

TEST(TakuzuTextTest, TangoSunsAndMoons) {
  // LinkedIn's icons: sun = 0, moon = 1; '×' for a cross; the emoji variation
  // selector is skipped.
  auto spec = ParsePuzzleText("tango", "☀️ × 🌙 ☾\n= . .\nS M 🌞");
  ASSERT_OK(spec);
  EXPECT_THAT(Grid(spec->takuzu()), ElementsAre("011", "010"));
  EXPECT_THAT(Signs(spec->takuzu()), ElementsAre("0,0x0,1", "0,0=1,0"));
}

TEST(TakuzuTextTest, TangoErrors) {
  EXPECT_THAT(
      ParsePuzzleText("tango", "01/../10/.."),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("2N - 1 lines")));
  EXPECT_THAT(ParsePuzzleText("tango", "01=/../10"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("a sign ends the row")));
  EXPECT_THAT(ParsePuzzleText("tango", "=01/../10"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("must stand between two cells")));
  EXPECT_THAT(ParsePuzzleText("tango", "01/..=/10"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("more marks than the 2 columns")));
  EXPECT_THAT(ParsePuzzleText("tango", "01/=/10"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("1 marks; expected one per column")));
  EXPECT_THAT(ParsePuzzleText("tango", "0?/../10"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("line 1 (row 1): unexpected character '?'")));
  EXPECT_THAT(ParsePuzzleText("tango", "01/../100"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("3 cells, row 1 has 2")));
  EXPECT_THAT(ParsePuzzleText("tango", "0\xC3"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("UTF-8")));
}

TEST(TakuzuTextTest, Boards) {
  auto spec = ParsePuzzleText("tango", "..../..../..../..../..../..../....");
  ASSERT_OK(spec);
  for (const char* kind : {"takuzu", "tango"}) {
    auto board = ParseBoardText(kind, *spec, "0101/1010\n01 . 1/☀🌙☀☾\n");
    ASSERT_OK(board);
    EXPECT_EQ(board->height(), 4u);
    EXPECT_EQ(board->width(), 4u);
    EXPECT_THAT(board->rows(), ElementsAre("0101", "1010", "01.1", "0101"));
    EXPECT_EQ(board->cells(10), -1);
    EXPECT_EQ(board->cells(15), 1);
  }
  EXPECT_THAT(ParseBoardText("takuzu", *spec, "01/010"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("board row 2 has 3 cells")));
  EXPECT_THAT(ParseBoardText("takuzu", *spec, "0a"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("unexpected character 'a'")));
}

TEST(TakuzuTextTest, KindsAreListed) {
  const std::vector<std::string> kinds = PuzzleKinds();
  EXPECT_THAT(kinds, ::testing::Contains("takuzu"));
  EXPECT_THAT(kinds, ::testing::Contains("tango"));
}

}  // namespace
}  // namespace qs::formats
