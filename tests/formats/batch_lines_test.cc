// Tests of the batch file format (formats/batch_lines.cc): tab and
// space forms, ids from the line number, comments, ';' as a line break, and
// duplicate ids.
#include "formats/batch_lines.h"

#include <string>

#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs::formats {
namespace {

using ::qs::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::SizeIs;

TEST(BatchLinesTest, TabForms) {
  auto lines = ParseBatchLines(
      "p1\tsudoku\t..3.2.6..\nnqueens\t8 torus\n"
      "p3\tqueens\tAABB/AABB/CCDD/CCDD\tx\n");
  ASSERT_OK(lines);
  ASSERT_THAT(*lines, SizeIs(3));
  EXPECT_EQ((*lines)[0].id, "p1");
  EXPECT_EQ((*lines)[0].kind, "sudoku");
  EXPECT_EQ((*lines)[0].text, "..3.2.6..");
  EXPECT_EQ((*lines)[0].line_number, 1);
  EXPECT_EQ((*lines)[1].id, "2");
  EXPECT_EQ((*lines)[1].kind, "nqueens");
  EXPECT_EQ((*lines)[1].text, "8 torus");
  // Only the first two tabs separate fields.
  EXPECT_EQ((*lines)[2].text, "AABB/AABB/CCDD/CCDD\tx");
}

TEST(BatchLinesTest, SpaceForms) {
  auto lines = ParseBatchLines(
      "# a comment\n\n  nqueens 7 torus adjacent\r\nlinked queens AB/BA\n"
      "sudoku sudoku\n");
  ASSERT_OK(lines);
  ASSERT_THAT(*lines, SizeIs(3));
  EXPECT_EQ((*lines)[0].id, "3");
  EXPECT_EQ((*lines)[0].kind, "nqueens");
  EXPECT_EQ((*lines)[0].text, "7 torus adjacent");
  EXPECT_EQ((*lines)[1].id, "linked");
  EXPECT_EQ((*lines)[1].kind, "queens");
  EXPECT_EQ((*lines)[1].text, "AB/BA");
  EXPECT_EQ((*lines)[1].line_number, 4);
  // A kind name first is the kind, even when the second word is one too.
  EXPECT_EQ((*lines)[2].kind, "sudoku");
  EXPECT_EQ((*lines)[2].text, "sudoku");
}

TEST(BatchLinesTest, SemicolonIsALineBreak) {
  auto lines = ParseBatchLines("q\tqubo\t2 1 0.5;0 1 -1\n");
  ASSERT_OK(lines);
  ASSERT_THAT(*lines, SizeIs(1));
  EXPECT_EQ((*lines)[0].text, "2 1 0.5\n0 1 -1");
  auto spec = ParsePuzzleText((*lines)[0].kind, (*lines)[0].text);
  ASSERT_OK(spec);
  EXPECT_EQ(spec->qubo().num_variables(), 2u);
}

TEST(BatchLinesTest, BadLinesStillComeBack) {
  auto lines = ParseBatchLines("kakuro 010\nsudoku\n");
  ASSERT_OK(lines);
  ASSERT_THAT(*lines, SizeIs(2));
  EXPECT_EQ((*lines)[1].kind, "sudoku");
  EXPECT_EQ((*lines)[1].text, "");
  EXPECT_THAT(ParsePuzzleText((*lines)[0].kind, (*lines)[0].text),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("unknown puzzle kind 'kakuro'")));
}

TEST(BatchLinesTest, DuplicateIdsAreRejected) {
  EXPECT_THAT(ParseBatchLines("a\tnqueens\t8\nb\tnqueens\t9\na\tnqueens\t7\n"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("batch line 3: id 'a' is already used on "
                                 "line 1")));
  // A line number is an id too.
  EXPECT_THAT(
      ParseBatchLines("nqueens 8\n1 nqueens 9\n"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("id '1'")));
}

TEST(BatchLinesTest, EmptyFile) {
  auto lines = ParseBatchLines("\n# nothing\n");
  ASSERT_OK(lines);
  EXPECT_THAT(*lines, SizeIs(0));
}

}  // namespace
}  // namespace qs::formats
