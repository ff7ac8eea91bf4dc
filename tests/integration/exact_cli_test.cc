// The qsolve subcommands of the exact engines against an in-process server:
// `count` (N-queens, toroidal boards, NYT Sudoku uniqueness; text and --json),
// `solve --backend sat`, and `generate`, whose output lines are puzzles in the
// kind's text format that `count` then proves unique.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "google/protobuf/struct.pb.h"
#include "gtest/gtest.h"
#include "tests/testing/nyt_puzzle.h"
#include "tests/testing/qsolve_runner.h"
#include "tests/testing/test_server.h"

namespace qs {
namespace {

using testing::CommandResult;
using ::testing::HasSubstr;
using testing::LastJsonLine;
using testing::RunQsolve;

class ExactCliTest : public testing::SharedServerTest {};

TEST_F(ExactCliTest, CountsNQueens) {
  const CommandResult result =
      RunQsolve("count" + Addr() + "--kind nqueens --input 8");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("queens: 92 solutions (all of them)"));
  EXPECT_THAT(result.out, HasSubstr("method bdd"));

  const CommandResult torus =
      RunQsolve("count" + Addr() +
                "--kind nqueens --input '7 torus' --method sat --json");
  ASSERT_EQ(torus.exit_code, 0) << torus.err;
  const google::protobuf::Struct json = LastJsonLine(torus.out);
  EXPECT_EQ(json.fields().at("count").string_value(), "28");  // uint64
  EXPECT_TRUE(json.fields().at("complete").bool_value());
  EXPECT_EQ(json.fields().at("method").string_value(), "COUNT_METHOD_SAT");

  const CommandResult none =
      RunQsolve("count" + Addr() + "--kind nqueens --input '6 torus'");
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_THAT(none.out, HasSubstr("queens: 0 solutions (all of them)"));
}

TEST_F(ExactCliTest, CountsTheNytSudokuAsUnique) {
  const CommandResult result = RunQsolve(absl::StrCat(
      "count", Addr(), "--kind sudoku --input '", testing::kNytPuzzle, "'"));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("sudoku: 1 solution (unique)"));
  EXPECT_THAT(result.out, HasSubstr("method sat: 729 variables"));
}

TEST_F(ExactCliTest, SolvesWithTheSatBackend) {
  const CommandResult result = RunQsolve(
      absl::StrCat("solve", Addr(), "--kind sudoku --backend sat --input '",
                   testing::kNytPuzzle, "'"));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_THAT(result.out, HasSubstr("sat: the solution is unique"));
  EXPECT_THAT(result.out, HasSubstr("valid"));

  const CommandResult none = RunQsolve(
      "solve" + Addr() + "--kind nqueens --backend sat --input '4 torus'");
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_THAT(none.out, HasSubstr("no valid board"));
}

TEST_F(ExactCliTest, GeneratesPuzzlesThatCountProvesUnique) {
  for (const std::string kind :
       {"sudoku", "queens", "takuzu", "tango", "tents"}) {
    SCOPED_TRACE(kind);
    const std::string size = kind == "sudoku" ? "4" : "6";
    const CommandResult made =
        RunQsolve(absl::StrCat("generate", Addr(), "--kind ", kind, " --size ",
                               size, " --count 3 --seed 5"));
    ASSERT_EQ(made.exit_code, 0) << made.err;
    const std::vector<std::string> lines =
        absl::StrSplit(made.out, '\n', absl::SkipEmpty());
    ASSERT_EQ(lines.size(), 3u) << made.out;
    EXPECT_THAT(made.err, HasSubstr("unique"));
    for (const std::string& line : lines) {
      const CommandResult count =
          RunQsolve(absl::StrCat("count", Addr(), "--kind ", kind,
                                 " --method sat --input '", line, "'"));
      ASSERT_EQ(count.exit_code, 0) << count.err << "\n" << line;
      EXPECT_THAT(count.out, HasSubstr("1 solution (unique)")) << line;
    }
    // Same seed, same puzzles.
    const CommandResult again =
        RunQsolve(absl::StrCat("generate", Addr(), "--kind ", kind, " --size ",
                               size, " --count 3 --seed 5"));
    EXPECT_EQ(again.out, made.out);
  }
  const CommandResult bad =
      RunQsolve("generate" + Addr() + "--kind sudoku --size 5");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_THAT(bad.err, HasSubstr("rows"));
  // No --size: the error names the flag and what to give it.
  const CommandResult unsized =
      RunQsolve("generate" + Addr() + "--kind sudoku");
  EXPECT_EQ(unsized.exit_code, 2);
  EXPECT_THAT(unsized.err, HasSubstr("--size: the board's rows"));
}

}  // namespace
}  // namespace qs
