// The chess-piece drawing (chess_drawing.cc): each standard piece as its
// glyph and a custom piece as its letter, placed pieces given, cells that
// take no piece blocked, regions as colours with walls, values that are no
// piece, and bad input refused naming the field.
#include <climits>
#include <map>
#include <string>

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

const std::map<std::string, char> kPieces = {{"queen", 'Q'},  {"rook", 'R'},
                                             {"bishop", 'B'}, {"knight", 'N'},
                                             {"king", 'K'},   {"Z", 'Z'}};

absl::StatusOr<v1::BoardPicture> Draw(
    const v1::PuzzleSpec& spec, const v1::PuzzleSolution* solution = nullptr) {
  return ::qs::testing::DrawWithFamily("chess", spec, solution);
}

v1::PuzzleSpec Parse(const std::string& text) {
  auto spec = formats::ParsePuzzleText("chess", text);
  EXPECT_OK(spec);
  return spec.ok() ? *spec : v1::PuzzleSpec();
}

TEST(ChessDrawingTest, RegionsAreColoursWithWallsAndTheSolutionsPiecesGlyphs) {
  const v1::PuzzleSpec spec =
      Parse("QQQQ/QQQQ/QQQQ/QQQQ/regions/AABB/AABB/CCDD/CCDD");
  auto puzzle = Draw(spec);
  ASSERT_OK(puzzle);
  EXPECT_THAT(RegionRows(*puzzle), ElementsAre("1122", "1122", "3344", "3344"));
  // The quadrants' borders: four sides between columns 1 and 2, four
  // between rows 1 and 2.
  EXPECT_EQ(puzzle->walls_size(), 8);
  EXPECT_THAT(GlyphRows(*puzzle, kPieces),
              ElementsAre("....", "....", "....", "...."));
  auto solution = formats::ParseBoardText("chess", spec, "Q.../..Q./.Q../...Q");
  ASSERT_OK(solution);
  auto solved = Draw(spec, &*solution);
  ASSERT_OK(solved);
  EXPECT_THAT(GlyphRows(*solved, kPieces),
              ElementsAre("Q...", "..Q.", ".Q..", "...Q"));
  EXPECT_THAT(GivenRows(*solved), ElementsAre("....", "....", "....", "...."));
}

TEST(ChessDrawingTest, EveryPieceTypeBlockedCellsAndPlacedPieces) {
  // A custom piece Z, a cell that takes no piece and a queen placed.
  const v1::PuzzleSpec spec = Parse("piece Z 1,2/RBNZ/K#qZ");
  auto puzzle = Draw(spec);
  ASSERT_OK(puzzle);
  EXPECT_THAT(GlyphRows(*puzzle, kPieces), ElementsAre("....", ".#Q."));
  EXPECT_THAT(GivenRows(*puzzle), ElementsAre("....", "..G."));
  EXPECT_THAT(puzzle->walls(), IsEmpty());
  // The custom piece is its letter as text, with no glyph.
  v1::PuzzleSolution solution;
  for (int value : {1, 1, 1, 1, 1, 1, 0, 1}) solution.add_cells(value);
  auto solved = Draw(spec, &solution);
  ASSERT_OK(solved);
  EXPECT_THAT(GlyphRows(*solved, kPieces), ElementsAre("RBNZ", "K#QZ"));
  EXPECT_EQ(solved->cells(3).text(), "Z");
  EXPECT_EQ(solved->cells(3).glyph(), "");
  EXPECT_TRUE(solved->cells(5).blocked());
  EXPECT_EQ(solved->cells(5).glyph(), "");  // a 1 on a blocked cell
}

TEST(ChessDrawingTest, ValuesOtherThanOneDrawNoPiece) {
  const v1::PuzzleSpec spec = Parse("NN/NN");
  v1::PuzzleSolution solution;
  for (int value : {2, -1, INT_MIN, 1}) solution.add_cells(value);
  auto picture = Draw(spec, &solution);
  ASSERT_OK(picture);
  EXPECT_THAT(GlyphRows(*picture, kPieces), ElementsAre("..", ".N"));
}

TEST(ChessDrawingTest, BadInputIsRefusedNamingTheField) {
  const v1::PuzzleSpec spec = Parse("piece Z 1,2/RBNZ/K#qZ");
  v1::PuzzleSolution long_solution;
  for (int i = 0; i < 9; ++i) long_solution.add_cells(0);
  EXPECT_THAT(Draw(spec, &long_solution),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.cells")));

  v1::PuzzleSpec bad_type = spec;
  bad_type.mutable_chess()->set_cell_pieces(2, 9);
  EXPECT_THAT(Draw(bad_type), StatusIs(absl::StatusCode::kInvalidArgument,
                                       HasSubstr("chess.cell_pieces[2]")));

  v1::PuzzleSpec off_board = spec;
  off_board.mutable_chess()->add_placed(8);
  EXPECT_THAT(Draw(off_board), StatusIs(absl::StatusCode::kInvalidArgument,
                                        HasSubstr("chess.placed[1]")));

  v1::PuzzleSpec on_blocked = spec;
  on_blocked.mutable_chess()->add_placed(5);
  EXPECT_THAT(Draw(on_blocked), StatusIs(absl::StatusCode::kInvalidArgument,
                                         HasSubstr("chess.placed[1]")));

  v1::PuzzleSpec regions = spec;
  regions.mutable_chess()->add_regions(0);
  EXPECT_THAT(Draw(regions), StatusIs(absl::StatusCode::kInvalidArgument,
                                      HasSubstr("chess.regions")));

  v1::PuzzleSpec no_pieces = spec;
  no_pieces.mutable_chess()->clear_pieces();
  EXPECT_THAT(Draw(no_pieces), StatusIs(absl::StatusCode::kInvalidArgument,
                                        HasSubstr("chess.pieces")));
}

}  // namespace
}  // namespace qs
