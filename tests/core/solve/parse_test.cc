// SolveEngine::Parse (core/solve/families.cc): every text kind ListFamilies
// lists parses its own example into the PuzzleSpec field it names and reports
// its family; a bad request is INVALID_ARGUMENT naming the field at fault
// (`kind`, `text` or `board`), so that clients can send text without parsers
// of their own.
#include <string>

#include "core/backend/registry.h"
#include "core/compile/registry.h"
#include "core/families/builtin.h"
#include "core/solve/solve_engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::testing::HasSubstr;
using testing::IsOk;
using ::testing::StartsWith;
using testing::StatusIs;

class ParseTest : public ::testing::Test {
 protected:
  ParseTest() : engine_(&BuiltinCompilers(), &backends_, SolveLimits()) {}

  absl::StatusOr<v1::ParseResponse> Parse(const std::string& kind,
                                          const std::string& text,
                                          const std::string& board = "") const {
    v1::ParseRequest request;
    request.set_kind(kind);
    request.set_text(text);
    request.set_board(board);
    return engine_.Parse(request);
  }

  BackendRegistry backends_;  // Parse needs no backend
  SolveEngine engine_;
};

TEST_F(ParseTest, EveryListedKindParsesItsExample) {
  const v1::ListFamiliesResponse families = engine_.ListFamilies();
  ASSERT_GT(families.families_size(), 0);
  for (const v1::FamilyDescription& family : families.families()) {
    SCOPED_TRACE(family.kind());
    absl::StatusOr<v1::ParseResponse> parsed =
        Parse(family.kind(), family.example());
    ASSERT_THAT(parsed, IsOk());
    EXPECT_FALSE(parsed->has_board());
    const auto* field = v1::PuzzleSpec::descriptor()->FindFieldByNumber(
        parsed->puzzle().puzzle_case());
    ASSERT_NE(field, nullptr);
    EXPECT_EQ(field->name(), family.puzzle_field());
    // The family is the one whose compiler takes the puzzle.
    ASSERT_NE(BuiltinFamilies().Find(parsed->family()), nullptr)
        << parsed->family();
    auto compiler = BuiltinCompilers().ForSpec(parsed->puzzle());
    ASSERT_THAT(compiler, IsOk());
    EXPECT_EQ((*compiler)->kind(), parsed->family());
  }
}

TEST_F(ParseTest, AKindOfAFamilyReportsTheFamily) {
  absl::StatusOr<v1::ParseResponse> parsed = Parse("nqueens", "6");
  ASSERT_THAT(parsed, IsOk());
  EXPECT_EQ(parsed->family(), "queens");
  EXPECT_EQ(parsed->puzzle().queens().rows(), 6u);
}

TEST_F(ParseTest, ABoardIsParsedForThePuzzle) {
  absl::StatusOr<v1::ParseResponse> parsed =
      Parse("nqueens", "4", ".Q../...Q/Q.../..Q.");
  ASSERT_THAT(parsed, IsOk());
  ASSERT_TRUE(parsed->has_board());
  EXPECT_EQ(parsed->board().height(), 4u);
  EXPECT_EQ(parsed->board().width(), 4u);
  ASSERT_EQ(parsed->board().cells_size(), 16);
  int queens = 0;
  for (int cell : parsed->board().cells()) queens += cell;
  EXPECT_EQ(queens, 4);
  EXPECT_EQ(parsed->board().cells(1), 1);  // row 1, column 2
}

TEST_F(ParseTest, UnknownKindNamesKind) {
  EXPECT_THAT(Parse("chess-ish", "8"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(StartsWith("kind: "), HasSubstr("chess-ish"))));
  EXPECT_THAT(Parse("", "8"), StatusIs(absl::StatusCode::kInvalidArgument,
                                       StartsWith("kind: ")));
}

TEST_F(ParseTest, BadTextNamesText) {
  EXPECT_THAT(
      Parse("sudoku", "12345"),
      StatusIs(absl::StatusCode::kInvalidArgument, StartsWith("text: ")));
  EXPECT_THAT(
      Parse("nqueens", "eight"),
      StatusIs(absl::StatusCode::kInvalidArgument, StartsWith("text: ")));
}

TEST_F(ParseTest, BadBoardNamesBoard) {
  // A row of another width, then a character no board has.
  EXPECT_THAT(
      Parse("nqueens", "4", ".Q../...Q/Q.."),
      StatusIs(absl::StatusCode::kInvalidArgument, StartsWith("board: ")));
  EXPECT_THAT(Parse("nqueens", "4", ".Q../...Q/Q.../..Z."),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(StartsWith("board: "), HasSubstr("'Z'"))));
}

}  // namespace
}  // namespace qs
