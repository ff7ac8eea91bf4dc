// How a Singles (Hitori) board is drawn (Family::draw, Solver.Draw): every
// cell's number as given text, and a solution's shaded cells drawn dark
// (blocked) and crossed out, their numbers kept so that the duplicates they
// remove can be read.
#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/base/status_macros.h"
#include "core/families/picture.h"
#include "qs/v1/drawing.pb.h"
#include "qs/v1/puzzles.pb.h"

namespace qs {

absl::StatusOr<v1::BoardPicture> DrawSingles(
    const v1::PuzzleSpec& spec, const v1::PuzzleSolution* solution) {
  const v1::SinglesPuzzle& singles = spec.singles();
  ASSIGN_OR_RETURN(v1::BoardPicture picture,
                   EmptyPicture(singles.rows(), singles.cols(), "singles"));
  RETURN_IF_ERROR(CheckSolutionCells(picture, solution));
  if (singles.numbers_size() != picture.cells_size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("singles.numbers: expected ", picture.cells_size(),
                     " numbers, got ", singles.numbers_size()));
  }
  for (int i = 0; i < picture.cells_size(); ++i) {
    v1::PictureCell& cell = *picture.mutable_cells(i);
    cell.set_text(absl::StrCat(singles.numbers(i)));
    cell.set_given(true);
    if (solution != nullptr && solution->cells(i) == 1) {
      cell.set_blocked(true);
      cell.set_glyph("cross");
    }
  }
  return picture;
}

}  // namespace qs
