// The Nonogram text formats (pattern_text.cc): sgt-pattern game IDs (columns
// first, empty lines, givens), the readable "rows:"/"cols:" form, the writer's
// round trip, the board parser and bad input.
#include <string>

#include "absl/strings/str_join.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "qs/v1/pattern.pb.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string Runs(const v1::PatternClue& clue) {
  return absl::StrJoin(clue.runs(), " ");
}

v1::PatternPuzzle Parse(const std::string& text) {
  auto spec = formats::ParsePuzzleText("pattern", text);
  EXPECT_TRUE(spec.ok()) << spec.status();
  return spec.ok() ? spec->pattern() : v1::PatternPuzzle();
}

TEST(PatternTextTest, GameIdGivesTheColumnsFirst) {
  // sgt-pattern --generate 2 12x8: 12 columns, then 8 rows.
  const v1::PatternPuzzle p = Parse(
      "12x8:1/2.1/3/5/5/4.2/5/3/3/1.2/5/5.1/2.3/3.2/5.5/11/7.2/1/2/2.2.1");
  EXPECT_EQ(p.cols(), 12u);
  EXPECT_EQ(p.rows(), 8u);
  ASSERT_EQ(p.col_clues_size(), 12);
  ASSERT_EQ(p.row_clues_size(), 8);
  EXPECT_EQ(Runs(p.col_clues(0)), "1");
  EXPECT_EQ(Runs(p.col_clues(1)), "2 1");
  EXPECT_EQ(Runs(p.col_clues(11)), "5 1");
  EXPECT_EQ(Runs(p.row_clues(0)), "2 3");
  EXPECT_EQ(Runs(p.row_clues(7)), "2 2 1");
  EXPECT_EQ(p.filled_size() + p.empty_size(), 0);
}

TEST(PatternTextTest, EmptyLinesAndSquareSizes) {
  const v1::PatternPuzzle p = Parse("7x2:2/1/1//1/1/1/3/1.3");
  EXPECT_EQ(Runs(p.col_clues(3)), "");
  EXPECT_EQ(Runs(p.col_clues(4)), "1");
  // An empty first clue, "0" for an empty line, "W" alone for a square.
  const v1::PatternPuzzle q = Parse("3:/0/1.1/1/1/1");
  EXPECT_EQ(q.rows(), 3u);
  EXPECT_EQ(q.cols(), 3u);
  EXPECT_EQ(Runs(q.col_clues(0)), "");
  EXPECT_EQ(Runs(q.col_clues(1)), "");
  EXPECT_EQ(Runs(q.col_clues(2)), "1 1");
}

TEST(PatternTextTest, GivensSuffix) {
  // 'A': skip none, cell 0 filled; 'b': skip 1, cell 2 empty; 'z': skip 25;
  // 'B': skip 1, cell 29 filled; 'f': skip 5 more, to the end (35 cells).
  const v1::PatternPuzzle p = Parse("5x7:1/1/1/1/1/1/1/1/1/1/0/0,AbzBf");
  EXPECT_THAT(p.filled(), ElementsAre(0, 29));
  EXPECT_THAT(p.empty(), ElementsAre(2));
  EXPECT_THAT(formats::FormatPuzzleText("pattern",
                                        [&] {
                                          v1::PuzzleSpec spec;
                                          *spec.mutable_pattern() = p;
                                          return spec;
                                        }()),
              ::testing::Eq(absl::StatusOr<std::string>(
                  "5x7:1/1/1/1/1/1/1/1/1/1//,AbzBf")));
}

TEST(PatternTextTest, WriterRoundTrips) {
  for (const char* id :
       {"10x10:3.1/4.2/3/3.4/1/1.1/1/9/5.3/9/4/4.3/4.3/1.3/1.3/3/1.1.1/2.3/"
        "1.1.3/2.1.5",
        "7x2:2/1/1//1/1/1/3/1.3", "6x2:/2/2/1/1//2/4", "2x2:1/1/1/1,aBb",
        "3x2:2/1/1/3/1,Ae"}) {
    SCOPED_TRACE(id);
    auto spec = formats::ParsePuzzleText("pattern", id);
    ASSERT_OK(spec);
    auto text = formats::FormatPuzzleText("pattern", *spec);
    ASSERT_OK(text);
    EXPECT_EQ(*text, id);
    auto again = formats::ParsePuzzleText("pattern", *text);
    ASSERT_OK(again);
    EXPECT_EQ(again->SerializeAsString(), spec->SerializeAsString());
  }
}

TEST(PatternTextTest, ReadableForm) {
  const v1::PatternPuzzle p = Parse(
      "# the 5x3 example\n"
      "rows: 1 3, 3, 1\n"
      "cols: 1, 1, 2, 2, 2\n");
  EXPECT_EQ(p.rows(), 3u);
  EXPECT_EQ(p.cols(), 5u);
  EXPECT_EQ(Runs(p.row_clues(0)), "1 3");
  EXPECT_EQ(Runs(p.col_clues(4)), "2");
  auto written = formats::FormatPuzzleText("pattern", [&] {
    v1::PuzzleSpec spec;
    *spec.mutable_pattern() = p;
    return spec;
  }());
  ASSERT_OK(written);
  EXPECT_EQ(*written, "5x3:1/1/2/2/2/1.3/3/1");
  // On one line with '/', an empty line as '-', and a grid of givens.
  const v1::PatternPuzzle g =
      Parse("rows: 1, -, 1 / columns: 1 1, 0 / x. / .. / #.");
  EXPECT_EQ(Runs(g.row_clues(1)), "");
  EXPECT_EQ(Runs(g.col_clues(0)), "1 1");
  EXPECT_THAT(g.filled(), ElementsAre(4));
  EXPECT_THAT(g.empty(), ElementsAre(0));
}

TEST(PatternTextTest, BoardParser) {
  auto spec = formats::ParsePuzzleText("pattern", "5x3:1/1/2/2/2/1.3/3/1");
  ASSERT_OK(spec);
  auto board = formats::ParseBoardText("pattern", *spec, "#.###/..###/.#...");
  ASSERT_OK(board);
  EXPECT_THAT(board->cells(),
              ElementsAre(1, 0, 1, 1, 1, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0));
  EXPECT_THAT(formats::ParseBoardText("pattern", *spec, "#.##/..###/.#..."),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("board row 2 has 5 cells")));
  EXPECT_THAT(formats::ParseBoardText("pattern", *spec, "#.###/..###"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("the puzzle 3x5")));
  EXPECT_THAT(formats::ParseBoardText("pattern", *spec, "#.###/..#?#/.#..."),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("unexpected '?'")));
}

TEST(PatternTextTest, BadInputNamesTheProblem) {
  auto refuse = [](const char* text, const char* message) {
    EXPECT_THAT(
        formats::ParsePuzzleText("pattern", text),
        StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(message)))
        << text;
  };
  refuse("5x3:1/1/2/2/2/1.3/3", "has 7 clues; a 5x3 grid needs 8");
  refuse("5x3:1/1/2/2/2/1.x/3/1", "game ID row clue 1: 'x' is not a run");
  refuse("5x3:1/1/2/2/2/1.3/3/1,A9", "givens: unexpected '9'");
  refuse("5x3:1/1/2/2/2/1.3/3/1,zz", "givens run past the grid");
  refuse("5x3:1/1/2/2/2/1.3/3/1,Ab", "givens cover 3 of the 15 cells");
  refuse("0x3:1", "is not WxH");
  refuse("rows: 1", "expected a 'rows:' line and a 'cols:' line");
  refuse("rows: 1\ncols: 1\n##", "grid row 1: 2 cells");
  refuse("rows: 1\ncols: 1\nfoo: 2", "unexpected line 'foo: 2'");
}

}  // namespace
}  // namespace qs
