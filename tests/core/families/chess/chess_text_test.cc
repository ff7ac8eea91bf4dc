// Chess-piece board text (core/families/chess/chess_text.cc): boards of piece
// letters, region grids, custom pieces, weights, pre-placed pieces and the "RxC
// piece" shorthand.
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

TEST(ChessTextTest, OnePieceTypeOnABoardOfGivenSize) {
  auto spec = ParseChessText("8x8 N");
  ASSERT_OK(spec);
  const v1::ChessPuzzle& chess = spec->chess();
  EXPECT_EQ(chess.rows(), 8u);
  EXPECT_EQ(chess.cols(), 8u);
  ASSERT_EQ(chess.pieces_size(), 1);
  EXPECT_EQ(chess.pieces(0).standard(), v1::PIECE_KNIGHT);
  EXPECT_TRUE(chess.cell_pieces().empty());
  EXPECT_TRUE(chess.regions().empty());
  EXPECT_EQ(chess.variant(), v1::CHESS_VARIANT_UNSPECIFIED);
}

TEST(ChessTextTest, BoardWithRegionsOnOneLine) {
  auto spec = ParsePuzzleText(
      "chess", "QQQQ/QQQQ/QQQQ/QQQQ/regions/AABB/AABB/CCDD/CCDD");
  ASSERT_OK(spec);
  const v1::ChessPuzzle& chess = spec->chess();
  EXPECT_EQ(chess.rows(), 4u);
  EXPECT_EQ(chess.cols(), 4u);
  ASSERT_EQ(chess.pieces_size(), 1);
  EXPECT_EQ(chess.pieces(0).standard(), v1::PIECE_QUEEN);
  EXPECT_TRUE(
      chess.cell_pieces().empty());  // every cell takes the one piece type
  EXPECT_THAT(chess.regions(),
              ElementsAre(0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3));
}

TEST(ChessTextTest, MixedPiecesCustomMovesWeightsAndPlacedPieces) {
  auto spec = ParseChessText(
      "# a 3x4 board\n"
      "variant max\n"
      "piece Z 1,2 -1,2 0,1*\n"
      "weight Q 3\n"
      "weight z 0.5\n"
      "penalty 7\n"
      "QNz.\n"
      "kB.Z\n"
      "RRQQ\n");
  ASSERT_OK(spec);
  const v1::ChessPuzzle& chess = spec->chess();
  EXPECT_EQ(chess.variant(), v1::CHESS_MAX);
  EXPECT_EQ(chess.rows(), 3u);
  EXPECT_EQ(chess.cols(), 4u);
  ASSERT_EQ(chess.pieces_size(), 6);  // Q N Z K B R in order of appearance
  EXPECT_EQ(chess.pieces(0).standard(), v1::PIECE_QUEEN);
  EXPECT_EQ(chess.pieces(0).weight(), 3);
  EXPECT_EQ(chess.pieces(1).standard(), v1::PIECE_KNIGHT);
  ASSERT_TRUE(chess.pieces(2).has_custom());
  EXPECT_EQ(chess.pieces(2).custom().symbol(), "Z");
  EXPECT_EQ(chess.pieces(2).weight(), 0.5);
  ASSERT_EQ(chess.pieces(2).custom().moves_size(), 3);
  EXPECT_EQ(chess.pieces(2).custom().moves(1).drow(), -1);
  EXPECT_EQ(chess.pieces(2).custom().moves(1).dcol(), 2);
  EXPECT_FALSE(chess.pieces(2).custom().moves(1).slide());
  EXPECT_TRUE(chess.pieces(2).custom().moves(2).slide());
  EXPECT_EQ(chess.pieces(3).standard(), v1::PIECE_KING);
  EXPECT_EQ(chess.pieces(4).standard(), v1::PIECE_BISHOP);
  EXPECT_EQ(chess.pieces(5).standard(), v1::PIECE_ROOK);
  EXPECT_THAT(chess.cell_pieces(),
              ElementsAre(1, 2, 3, 0, 4, 5, 0, 3, 6, 6, 1, 1));
  EXPECT_THAT(chess.placed(), ElementsAre(2, 4));  // the lower-case z and k
  EXPECT_EQ(chess.penalty(), 7);
  EXPECT_TRUE(chess.regions().empty());
}

TEST(ChessTextTest, HashMarksACellThatTakesNoPiece) {
  auto spec = ParseChessText("# an irregular board\n#QQ#\nQQQQ\n#QQ#\n");
  ASSERT_OK(spec);
  EXPECT_EQ(spec->chess().rows(), 3u);
  EXPECT_THAT(spec->chess().cell_pieces(),
              ElementsAre(0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 0));
  auto board = ParseBoardText("chess", *spec, "#Q.#/..../#.Q#");
  ASSERT_OK(board);
  EXPECT_THAT(board->cells(), ElementsAre(0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0));
}

TEST(ChessTextTest, ReadsBoardsForValidate) {
  auto spec = ParseChessText("QN/NQ");
  ASSERT_OK(spec);
  auto board = ParseBoardText("chess", *spec, "q./.n");
  ASSERT_OK(board);
  EXPECT_THAT(board->cells(), ElementsAre(1, 0, 0, 1));
  EXPECT_THAT(board->rows(), ElementsAre("Q.", ".N"));
  EXPECT_EQ(board->height(), 2u);
  EXPECT_EQ(board->width(), 2u);
  EXPECT_THAT(ParseBoardText("chess", *spec, "Q./.?"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("board row 2 column 2: unexpected '?'")));
  EXPECT_THAT(ParseBoardText("chess", *spec, "Q./..."),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("board row 2 has 3 cells")));
}

TEST(ChessTextTest, RejectsMalformedText) {
  auto expect_error = [](const std::string& text, const std::string& message) {
    EXPECT_THAT(
        ParseChessText(text),
        StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(message)))
        << text;
  };
  expect_error("QX/QQ", "board row 1: unknown piece 'X'");
  expect_error("QQ/Q", "board row 2: 1 cells, row 1 has 2");
  expect_error("QQ/Q?", "board row 2: unexpected '?'");
  expect_error("QQ/QQ/regions/AB", "the region grid has 1 rows, the board 2");
  expect_error("QQ/QQ/regions/AB/A", "region row 2: 1 cells, the board has 2");
  expect_error("QQ/QQ/regions/A-/AB", "region row 1: unexpected '-'");
  expect_error("piece Z 1;2/ZZ", "line 1: move '1;2' is not drow,dcol");
  expect_error("piece Q 1,2/QQ", "line 1: piece 'Q' is already defined");
  expect_error("weight R 2/QQ", "weight for 'R', which is not on the board");
  expect_error("variant best/QQ", "variant 'best' is not max or coloured");
  expect_error(
      "4x4 Q/QQ",
      "a board grid and a '<rows>x<cols> <piece>' line cannot both be given");
  expect_error("4y4 Q", "expected '<rows>x<cols> <piece letter>'");
  expect_error("variant max", "no board");
  expect_error("QQ QQ QQ", "line 1: cannot read");
}

}  // namespace
}  // namespace qs::formats
