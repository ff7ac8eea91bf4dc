// How a chess-piece board is drawn (Family::draw, Solver.Draw): each piece
// as its glyph ("queen", "rook", "bishop", "knight", "king"; a custom piece
// as its letter), the pieces placed from the start given, cells that take no
// piece blocked, and the coloured regions as region colours with walls.
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/base/status_macros.h"
#include "core/families/picture.h"
#include "qs/v1/chess.pb.h"
#include "qs/v1/drawing.pb.h"
#include "qs/v1/puzzles.pb.h"

namespace qs {
namespace {

// A piece of that type drawn in the cell.
void DrawPiece(const v1::ChessPiece& piece, v1::PictureCell& cell) {
  if (piece.has_custom()) {
    cell.set_text(piece.custom().symbol());
    return;
  }
  switch (piece.standard()) {
    case v1::PIECE_QUEEN:
      cell.set_glyph("queen");
      return;
    case v1::PIECE_ROOK:
      cell.set_glyph("rook");
      return;
    case v1::PIECE_BISHOP:
      cell.set_glyph("bishop");
      return;
    case v1::PIECE_KNIGHT:
      cell.set_glyph("knight");
      return;
    case v1::PIECE_KING:
      cell.set_glyph("king");
      return;
    default:
      cell.set_text("?");  // the compiler refuses it; the picture still shows
  }
}

}  // namespace

absl::StatusOr<v1::BoardPicture> DrawChess(const v1::PuzzleSpec& spec,
                                           const v1::PuzzleSolution* solution) {
  const v1::ChessPuzzle& chess = spec.chess();
  const int64_t cols = chess.cols() == 0 ? chess.rows() : chess.cols();
  ASSIGN_OR_RETURN(v1::BoardPicture picture,
                   EmptyPicture(chess.rows(), cols, "chess"));
  RETURN_IF_ERROR(CheckSolutionCells(picture, solution));
  const int n = picture.cells_size();
  if (chess.pieces().empty())
    return absl::InvalidArgumentError("chess.pieces: no piece type");
  if (!chess.cell_pieces().empty() && chess.cell_pieces_size() != n)
    return absl::InvalidArgumentError(
        absl::StrCat("chess.cell_pieces: ", chess.cell_pieces_size(),
                     " entries for ", n, " cells"));
  if (!chess.regions().empty() && chess.regions_size() != n)
    return absl::InvalidArgumentError(absl::StrCat(
        "chess.regions: ", chess.regions_size(), " entries for ", n, " cells"));
  // The piece type of each cell, 1-based; 0: the cell takes no piece.
  auto type_of = [&](int i) -> uint32_t {
    return chess.cell_pieces().empty() ? 1 : chess.cell_pieces(i);
  };
  for (int i = 0; i < n; ++i) {
    if (type_of(i) > static_cast<uint32_t>(chess.pieces_size()))
      return absl::InvalidArgumentError(
          absl::StrCat("chess.cell_pieces[", i, "]: piece type ", type_of(i),
                       " of ", chess.pieces_size()));
    v1::PictureCell& cell = *picture.mutable_cells(i);
    cell.set_blocked(type_of(i) == 0);
    // Region ids are 0-based, the picture's colours 1-based.
    if (!chess.regions().empty() && !cell.blocked())
      cell.set_region(chess.regions(i) + 1);
  }
  if (!chess.regions().empty()) AddRegionWalls(picture);
  for (int k = 0; k < chess.placed_size(); ++k) {
    const uint32_t at = chess.placed(k);
    RETURN_IF_ERROR(CheckCell(picture, at, "chess.placed", k));
    const int i = static_cast<int>(at);
    if (type_of(i) == 0)
      return absl::InvalidArgumentError(
          absl::StrCat("chess.placed[", k, "]: cell ", at, " takes no piece"));
    v1::PictureCell& cell = *picture.mutable_cells(i);
    DrawPiece(chess.pieces(static_cast<int>(type_of(i)) - 1), cell);
    cell.set_given(true);
  }
  if (solution != nullptr) {
    for (int i = 0; i < n; ++i) {
      v1::PictureCell& cell = *picture.mutable_cells(i);
      if (solution->cells(i) != 1 || cell.given() || type_of(i) == 0) continue;
      DrawPiece(chess.pieces(static_cast<int>(type_of(i)) - 1), cell);
    }
  }
  return picture;
}

}  // namespace qs
