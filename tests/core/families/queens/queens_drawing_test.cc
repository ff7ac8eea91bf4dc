// The queens family's drawing (queens_drawing.cc): LinkedIn Queens' regions
// as colours and walls, pre-placed queens given, cells off the board
// blocked, a solution's queens, the counts of the generalized problems as
// labels, and bad input refused naming the field.
#include <climits>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_join.h"
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
using ::qs::testing::RegionRows;
using ::qs::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

const std::map<std::string, char> kQueen = {{"queen", 'Q'}};

// A LinkedIn Queens puzzle of tests/data/queens and its unique solution.
const std::vector<std::string> kRegions = {"ACCCDDDD", "AACCDDDH", "AACCCGDD",
                                           "AFFFFGGD", "GFFFGGDD", "GGFFGGBB",
                                           "EGGFGBBB", "GGGGGBBB"};
const std::vector<std::string> kSolution = {"..Q.....", ".......Q", ".Q......",
                                            "...Q....", "......Q.", "....Q...",
                                            "Q.......", ".....Q.."};

absl::StatusOr<v1::BoardPicture> Draw(
    const v1::PuzzleSpec& spec, const v1::PuzzleSolution* solution = nullptr) {
  return ::qs::testing::DrawWithFamily("queens", spec, solution);
}

v1::PuzzleSpec Parse(const std::string& kind, const std::string& text) {
  auto spec = formats::ParsePuzzleText(kind, text);
  EXPECT_OK(spec);
  return spec.ok() ? *spec : v1::PuzzleSpec();
}

v1::PuzzleSolution Board(const v1::PuzzleSpec& spec,
                         const std::vector<std::string>& rows) {
  auto board =
      formats::ParseBoardText("queens", spec, absl::StrJoin(rows, "/"));
  EXPECT_OK(board);
  return board.ok() ? *board : v1::PuzzleSolution();
}

std::set<std::pair<uint32_t, uint32_t>> Walls(const v1::BoardPicture& picture) {
  std::set<std::pair<uint32_t, uint32_t>> walls;
  for (const v1::CellPair& wall : picture.walls())
    walls.emplace(std::min(wall.a(), wall.b()), std::max(wall.a(), wall.b()));
  return walls;
}

TEST(QueensDrawingTest, LinkedInRegionsAreColoursWithWallsBetweenThem) {
  const v1::PuzzleSpec spec = Parse("queens", absl::StrJoin(kRegions, "/"));
  auto picture = Draw(spec);
  ASSERT_OK(picture);
  EXPECT_EQ(picture->rows(), 8u);
  EXPECT_EQ(picture->cols(), 8u);
  // Letters in alphabetical order are regions 1, 2, ...
  EXPECT_THAT(RegionRows(*picture),
              ElementsAre("13334444", "11334448", "11333744", "16666774",
                          "76667744", "77667722", "57767222", "77777222"));
  // A wall wherever two side neighbours have different letters, nowhere else.
  std::set<std::pair<uint32_t, uint32_t>> expected;
  for (uint32_t r = 0; r < 8; ++r) {
    for (uint32_t c = 0; c < 8; ++c) {
      if (c + 1 < 8 && kRegions[r][c] != kRegions[r][c + 1])
        expected.emplace(r * 8 + c, r * 8 + c + 1);
      if (r + 1 < 8 && kRegions[r][c] != kRegions[r + 1][c])
        expected.emplace(r * 8 + c, (r + 1) * 8 + c);
    }
  }
  EXPECT_EQ(Walls(*picture), expected);
  EXPECT_EQ(picture->walls_size(), static_cast<int>(expected.size()));
  // The puzzle alone: no queen.
  EXPECT_THAT(GlyphRows(*picture, kQueen),
              ElementsAre("........", "........", "........", "........",
                          "........", "........", "........", "........"));
  EXPECT_THAT(picture->row_labels(), IsEmpty());
  EXPECT_THAT(picture->col_labels(), IsEmpty());
}

TEST(QueensDrawingTest, TheSolutionsQueensAreGlyphsNotGiven) {
  const v1::PuzzleSpec spec = Parse("queens", absl::StrJoin(kRegions, "/"));
  const v1::PuzzleSolution solution = Board(spec, kSolution);
  auto picture = Draw(spec, &solution);
  ASSERT_OK(picture);
  EXPECT_EQ(GlyphRows(*picture, kQueen), kSolution);
  EXPECT_THAT(GivenRows(*picture),
              ElementsAre("........", "........", "........", "........",
                          "........", "........", "........", "........"));
}

TEST(QueensDrawingTest, PrePlacedQueensAreGivenAndBlockedCellsBlocked) {
  // 'b' is a queen placed on region B; '#' is off the board.
  const v1::PuzzleSpec spec = Parse("queens", "#ABB/AAbB/CCDD/CCDD");
  auto puzzle = Draw(spec);
  ASSERT_OK(puzzle);
  EXPECT_THAT(GlyphRows(*puzzle, kQueen),
              ElementsAre("#...", "..Q.", "....", "...."));
  EXPECT_THAT(GivenRows(*puzzle), ElementsAre("....", "..G.", "....", "...."));
  EXPECT_THAT(RegionRows(*puzzle), ElementsAre(".122", "1122", "3344", "3344"));
  // A solution that leaves the given cell empty still shows the given queen.
  const v1::PuzzleSolution solution =
      Board(spec, {"....", "Q...", "...Q", ".Q.."});
  auto solved = Draw(spec, &solution);
  ASSERT_OK(solved);
  EXPECT_THAT(GlyphRows(*solved, kQueen),
              ElementsAre("#...", "Q.Q.", "...Q", ".Q.."));
  EXPECT_THAT(GivenRows(*solved), ElementsAre("....", "..G.", "....", "...."));
}

TEST(QueensDrawingTest, ValuesOtherThanOneDrawNoQueen) {
  const v1::PuzzleSpec spec = Parse("nqueens", "4");
  v1::PuzzleSolution solution;
  for (int value :
       {7, -3, 1, INT_MIN, 0, INT_MAX, 2, -1, 0, 0, 0, 1, 0, 0, 0, 0})
    solution.add_cells(value);
  auto picture = Draw(spec, &solution);
  ASSERT_OK(picture);
  EXPECT_THAT(GlyphRows(*picture, kQueen),
              ElementsAre("..Q.", "....", "...Q", "...."));
  // N-queens has no regions and no counts to draw.
  EXPECT_THAT(picture->walls(), IsEmpty());
  EXPECT_THAT(RegionRows(*picture),
              ElementsAre("....", "....", "....", "...."));
}

TEST(QueensDrawingTest, CountsOfTheGeneralizedProblemsAreLabels) {
  v1::PuzzleSpec spec;
  v1::QueensPuzzle& queens = *spec.mutable_queens();
  queens.set_rows(2);
  queens.set_cols(3);
  queens.add_row_counts(1);
  queens.add_row_counts(1);
  queens.add_row_two_values(false);
  queens.add_row_two_values(true);
  for (int c = 0; c < 3; ++c) queens.add_col_counts(c == 1 ? 0 : 1);
  auto picture = Draw(spec);
  ASSERT_OK(picture);
  EXPECT_THAT(picture->row_labels(), ElementsAre("1", "1-2"));
  EXPECT_THAT(picture->col_labels(), ElementsAre("1", "0", "1"));
  queens.add_col_counts(1);
  EXPECT_THAT(Draw(spec), StatusIs(absl::StatusCode::kInvalidArgument,
                                   HasSubstr("queens.col_counts")));
}

TEST(QueensDrawingTest, BadInputIsRefusedNamingTheField) {
  const v1::PuzzleSpec spec = Parse("nqueens", "4");
  v1::PuzzleSolution short_solution;
  short_solution.add_cells(1);
  EXPECT_THAT(Draw(spec, &short_solution),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.cells")));

  v1::PuzzleSpec empty;
  empty.mutable_queens();
  EXPECT_THAT(Draw(empty), StatusIs(absl::StatusCode::kInvalidArgument,
                                    HasSubstr("queens.rows")));

  v1::PuzzleSpec off_board = spec;
  off_board.mutable_queens()->add_given_queens(16);
  EXPECT_THAT(Draw(off_board), StatusIs(absl::StatusCode::kInvalidArgument,
                                        HasSubstr("queens.given_queens[0]")));

  v1::PuzzleSpec regions = spec;
  regions.mutable_queens()->add_regions(0);
  EXPECT_THAT(Draw(regions), StatusIs(absl::StatusCode::kInvalidArgument,
                                      HasSubstr("queens.regions")));

  v1::PuzzleSpec masked = spec;
  masked.mutable_queens()->add_masked(true);
  EXPECT_THAT(Draw(masked), StatusIs(absl::StatusCode::kInvalidArgument,
                                     HasSubstr("queens.masked")));

  // Sides near the top of their type: refused before anything is allocated.
  v1::PuzzleSpec huge;
  huge.mutable_queens()->set_rows(UINT32_MAX);
  EXPECT_THAT(Draw(huge), StatusIs(absl::StatusCode::kResourceExhausted,
                                   HasSubstr("queens.rows")));
}

}  // namespace
}  // namespace qs
