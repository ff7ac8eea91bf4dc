// How a Tents & Trees board is drawn (Family::draw, Solver.Draw): the trees
// as given glyphs ("tree"), a solution's tents ("tent"), and the tents each
// row and column holds as the row and column labels.
#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/base/status_macros.h"
#include "core/families/picture.h"
#include "qs/v1/drawing.pb.h"
#include "qs/v1/puzzles.pb.h"

namespace qs {

absl::StatusOr<v1::BoardPicture> DrawTents(const v1::PuzzleSpec& spec,
                                           const v1::PuzzleSolution* solution) {
  const v1::TentsPuzzle& tents = spec.tents();
  const int64_t cols = tents.cols() == 0 ? tents.rows() : tents.cols();
  ASSIGN_OR_RETURN(v1::BoardPicture picture,
                   EmptyPicture(tents.rows(), cols, "tents"));
  RETURN_IF_ERROR(CheckSolutionCells(picture, solution));
  for (int k = 0; k < tents.trees_size(); ++k) {
    const uint32_t at = tents.trees(k);
    RETURN_IF_ERROR(CheckCell(picture, at, "tents.trees", k));
    v1::PictureCell& cell = *picture.mutable_cells(static_cast<int>(at));
    cell.set_glyph("tree");
    cell.set_given(true);
  }
  // Counts are drawn only when there is one per line (the compiler refuses
  // other puzzles; a picture of one still shows its trees).
  if (static_cast<uint32_t>(tents.row_counts_size()) == picture.rows()) {
    for (uint32_t count : tents.row_counts())
      picture.add_row_labels(absl::StrCat(count));
  }
  if (static_cast<uint32_t>(tents.col_counts_size()) == picture.cols()) {
    for (uint32_t count : tents.col_counts())
      picture.add_col_labels(absl::StrCat(count));
  }
  if (solution != nullptr) {
    // 1: a tent; a tree's cell keeps its tree whatever the solution holds
    // there (Decode marks a tent on a tree -1, which Validate reports).
    for (int i = 0; i < picture.cells_size(); ++i) {
      v1::PictureCell& cell = *picture.mutable_cells(i);
      if (solution->cells(i) == 1 && !cell.given()) cell.set_glyph("tent");
    }
  }
  return picture;
}

}  // namespace qs
