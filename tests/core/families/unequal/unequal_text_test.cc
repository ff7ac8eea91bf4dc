// The Futoshiki / Unequal text format (unequal_text.cc): sgt-unequal game IDs
// in both modes (flags to signs and bars), the writer's round trip, the grid
// form, boards, and malformed input refused with its place.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// `sgt-unequal --generate 1 4dk`.
constexpr char kId4[] = "4:0,0R,0,0,0,0R,0D,0,0,0,0,0,0U,0,0,0,";
// `sgt-unequal --generate 1 4dt` (givens only).
constexpr char kGivens4[] = "4:2,0,0,0,0,1,0,3,0,0,0,1,0,0,0,0,";
// `sgt-unequal --generate 1 5adt`.
constexpr char kAdjacent5[] =
    "5a:0,0R,0DL,0,1,0,2,4U,0,0D,1,0,0RD,0RDL,0UDL,4RD,0L,0UR,0UL,0U,0U,0,5R,"
    "0L,2,";

v1::PuzzleSpec Parse(const std::string& text) {
  auto spec = formats::ParsePuzzleText("unequal", text);
  EXPECT_OK(spec) << text;
  return spec.ok() ? *spec : v1::PuzzleSpec();
}

std::vector<std::string> Signs(const v1::PuzzleSpec& spec) {
  std::vector<std::string> out;
  for (const auto& s : spec.unequal().signs())
    out.push_back(absl::StrCat(s.first(), ">", s.second()));
  return out;
}

TEST(UnequalTextTest, GameIdFlagsAreSignsFromTheGreaterCell) {
  const v1::PuzzleSpec spec = Parse(kId4);
  ASSERT_TRUE(spec.has_unequal());
  EXPECT_EQ(spec.unequal().size(), 4u);
  EXPECT_EQ(spec.unequal().mode(), v1::UnequalPuzzle::INEQUALITY);
  EXPECT_TRUE(spec.unequal().givens().empty());
  // 1R: cell 1 > cell 2; 5R: 5 > 6; 6D: 6 > 10; 12U: 12 > 8.
  EXPECT_THAT(Signs(spec), ElementsAre("1>2", "5>6", "6>10", "12>8"));
  const v1::PuzzleSpec givens = Parse(kGivens4);
  ASSERT_EQ(givens.unequal().givens_size(), 16);
  EXPECT_EQ(givens.unequal().givens(0), 2u);
  EXPECT_EQ(givens.unequal().givens(7), 3u);
  EXPECT_TRUE(givens.unequal().signs().empty());
}

TEST(UnequalTextTest, AdjacentGameIdHasEachBarOnce) {
  const v1::PuzzleSpec spec = Parse(kAdjacent5);
  EXPECT_EQ(spec.unequal().size(), 5u);
  EXPECT_EQ(spec.unequal().mode(), v1::UnequalPuzzle::ADJACENT);
  EXPECT_EQ(spec.unequal().givens(4), 1u);
  // Row 1: 0R-0DL is the bar 1|2; 2D the bar 2-7; 7U (flag 4U) repeats it.
  const std::vector<std::string> signs = Signs(spec);
  EXPECT_EQ(signs[0], "1>2");
  EXPECT_EQ(signs[1], "2>7");
  int flags = 0;
  for (char ch : std::string(kAdjacent5))
    flags += ch == 'U' || ch == 'R' || ch == 'D' || ch == 'L';
  EXPECT_EQ(static_cast<int>(signs.size()) * 2, flags);
}

TEST(UnequalTextTest, WriterGivesTheGameIdBack) {
  for (const char* id : {kId4, kGivens4, kAdjacent5}) {
    auto text = formats::FormatPuzzleText("unequal", Parse(id));
    ASSERT_OK(text);
    EXPECT_EQ(*text, id);
    EXPECT_EQ(Parse(*text).SerializeAsString(), Parse(id).SerializeAsString());
  }
  // A difficulty in the parameters is read and not written back.
  auto text = formats::FormatPuzzleText(
      "unequal", Parse("4dk:0,0R,0,0,0,0R,0D,0,0,0,0,0,0U,0,0,0,"));
  ASSERT_OK(text);
  EXPECT_EQ(*text, kId4);
}

TEST(UnequalTextTest, GridFormIsTheSamePuzzle) {
  const v1::PuzzleSpec grid =
      Parse(". .>. ./. .>. ./. . v ./. . . ./^ . . ./. . . .");
  EXPECT_EQ(grid.SerializeAsString(), Parse(kId4).SerializeAsString())
      << grid.DebugString();
  const v1::PuzzleSpec spread = Parse(
      "# a 4x4 puzzle\n"
      "2 . . .\n"
      ". 1 . 3\n\n"
      ". . . 1\n"
      ". . . .\n");
  EXPECT_EQ(spread.SerializeAsString(), Parse(kGivens4).SerializeAsString());
  // Bars make the adjacent mode; so does the word, with no bar at all.
  const v1::PuzzleSpec bars = Parse("1|. ./- . ./. . ./. . .");
  EXPECT_EQ(bars.unequal().mode(), v1::UnequalPuzzle::ADJACENT);
  EXPECT_THAT(Signs(bars), ElementsAre("0>1", "0>3"));
  EXPECT_EQ(Parse("adjacent/.../.../...").unequal().mode(),
            v1::UnequalPuzzle::ADJACENT);
  EXPECT_EQ(Parse(".<./..").unequal().size(), 2u);
  EXPECT_THAT(Signs(Parse(".<./..")), ElementsAre("1>0"));
}

TEST(UnequalTextTest, MalformedTextIsRefusedWithItsPlace) {
  auto refused = [](const std::string& text, const std::string& what) {
    EXPECT_THAT(formats::ParsePuzzleText("unequal", text).status(),
                StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(what)))
        << text;
  };
  refused("4:0,0,0", "covers 3 of the 16 cells");
  refused("4:0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,", "more than 16 cells");
  refused("4:0U,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,", "points off the grid");
  refused("4:0R,0L,0,0,0,0,0,0,0,0,0,0,0,0,0,0,", "flagged greater");
  refused("4a:0R,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,", "both of its cells");
  refused("4:5,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,", "out of range");
  refused("4:0 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,", "expected ','");
  refused("4q:0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,", "parameters '4q'");
  refused("12:0", "size must be 1..9");
  refused(">../...", "between two cells");
  refused("..>/...", "ends with a sign");
  refused("..../...", "row 2: 3 cells");
  refused("../..v", "sign row under row 1 has 3 marks");
  refused("../vv", "ends with a sign row");
  refused(".<./-./..", "mixes");
  refused("..x/...", "unexpected 'x'");
  refused("5../.../...", "larger than");
  refused(".../...", "must be square");
}

TEST(UnequalTextTest, BoardsAreRowsOfDigits) {
  const v1::PuzzleSpec spec = Parse(kId4);
  auto board = formats::ParseBoardText("unequal", spec, "4213/2431/13.4/314*");
  ASSERT_OK(board);
  ASSERT_EQ(board->cells_size(), 16);
  EXPECT_EQ(board->cells(0), 4);
  EXPECT_EQ(board->cells(10), 0);
  EXPECT_EQ(board->cells(15), -1);
  EXPECT_EQ(board->rows(2), "13.4");
  // A solved grid with its signs reads as the same board.
  auto signed_board = formats::ParseBoardText(
      "unequal", spec, "4 2>1 3/2 4>3 1/. . v ./1 3 2 4/^ . . ./3 1 4 2");
  ASSERT_OK(signed_board);
  EXPECT_EQ(signed_board->rows(0), "4213");
  EXPECT_EQ(signed_board->height(), 4u);
  EXPECT_THAT(formats::ParseBoardText("unequal", spec, "42x3").status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("unexpected 'x'")));
}

}  // namespace
}  // namespace qs
