// How a Nonogram board is drawn (Family::draw, Solver.Draw): each row's clue
// as its row label and each column's as its column label (BoardPicture draws
// them beside the rows and under the columns), the given cells as given
// glyphs ("square" filled, "dot" empty) and a solution's filled cells as
// "square".
#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/str_join.h"
#include "core/base/status_macros.h"
#include "core/families/picture.h"
#include "qs/v1/drawing.pb.h"
#include "qs/v1/pattern.pb.h"
#include "qs/v1/puzzles.pb.h"

namespace qs {
namespace {

// The runs separated by spaces; "0" for an empty line, as printed puzzles
// show it.
std::string ClueLabel(const v1::PatternClue& clue) {
  return clue.runs().empty() ? "0" : absl::StrJoin(clue.runs(), " ");
}

absl::Status MarkGivens(const google::protobuf::RepeatedField<uint32_t>& cells,
                        absl::string_view field, const char* glyph,
                        v1::BoardPicture& picture) {
  for (int k = 0; k < cells.size(); ++k) {
    RETURN_IF_ERROR(CheckCell(picture, cells[k], field, k));
    v1::PictureCell& cell = *picture.mutable_cells(static_cast<int>(cells[k]));
    cell.set_glyph(glyph);
    cell.set_given(true);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<v1::BoardPicture> DrawPattern(
    const v1::PuzzleSpec& spec, const v1::PuzzleSolution* solution) {
  const v1::PatternPuzzle& pattern = spec.pattern();
  ASSIGN_OR_RETURN(v1::BoardPicture picture,
                   EmptyPicture(pattern.rows(), pattern.cols(), "pattern"));
  RETURN_IF_ERROR(CheckSolutionCells(picture, solution));
  RETURN_IF_ERROR(
      MarkGivens(pattern.filled(), "pattern.filled", "square", picture));
  RETURN_IF_ERROR(MarkGivens(pattern.empty(), "pattern.empty", "dot", picture));
  // Clues are drawn only when there is one per line (the compiler refuses
  // other puzzles; a picture of one still shows its givens).
  if (static_cast<uint32_t>(pattern.row_clues_size()) == picture.rows()) {
    for (const v1::PatternClue& clue : pattern.row_clues())
      picture.add_row_labels(ClueLabel(clue));
  }
  if (static_cast<uint32_t>(pattern.col_clues_size()) == picture.cols()) {
    for (const v1::PatternClue& clue : pattern.col_clues())
      picture.add_col_labels(ClueLabel(clue));
  }
  if (solution != nullptr) {
    for (int i = 0; i < picture.cells_size(); ++i) {
      v1::PictureCell& cell = *picture.mutable_cells(i);
      if (!cell.given() && solution->cells(i) == 1) cell.set_glyph("square");
    }
  }
  return picture;
}

}  // namespace qs
