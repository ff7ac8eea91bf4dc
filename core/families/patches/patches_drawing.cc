// How a Patches board is drawn (Solver.Draw): each clue's cell shows its area
// as text and its shape as a glyph ("square", "tall", "wide"; none for any),
// marked given. A solution colours every cell with its patch's region (the
// clue index + 1), walls the patches off and outlines each patch that is a
// rectangle; a patch that is not one (a wrong board) keeps its colours but
// gets no outline, so the picture shows what is wrong.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/status_macros.h"
#include "core/families/patches/patches.h"
#include "core/families/picture.h"
#include "qs/v1/drawing.pb.h"

namespace qs {

absl::StatusOr<v1::BoardPicture> DrawPatches(
    const v1::PuzzleSpec& puzzle, const v1::PuzzleSolution* solution) {
  ASSIGN_OR_RETURN(const PatchesBoard b, CheckPatches(puzzle.patches()));
  ASSIGN_OR_RETURN(v1::BoardPicture picture,
                   EmptyPicture(b.rows, b.cols, "patches"));
  RETURN_IF_ERROR(CheckSolutionCells(picture, solution));
  for (const PatchesBoard::Clue& clue : b.clues) {
    v1::PictureCell& cell = *picture.mutable_cells(clue.cell);
    if (clue.area != 0) cell.set_text(absl::StrCat(clue.area));
    switch (clue.shape) {
      case v1::PATCH_SHAPE_SQUARE:
        cell.set_glyph("square");
        break;
      case v1::PATCH_SHAPE_TALL:
        cell.set_glyph("tall");
        break;
      case v1::PATCH_SHAPE_WIDE:
        cell.set_glyph("wide");
        break;
      default:
        break;
    }
    cell.set_given(true);
  }
  if (solution == nullptr) return picture;
  const int clues = static_cast<int>(b.clues.size());
  std::vector<int> count(clues, 0), top(clues, b.rows), bottom(clues, -1),
      left(clues, b.cols), right(clues, -1);
  for (int cell = 0; cell < b.size() && cell < solution->cells_size(); ++cell) {
    const int k = solution->cells(cell);
    if (k < 0 || k >= clues) continue;
    picture.mutable_cells(cell)->set_region(static_cast<uint32_t>(k) + 1);
    const int r = cell / b.cols, c = cell % b.cols;
    ++count[k];
    top[k] = std::min(top[k], r);
    bottom[k] = std::max(bottom[k], r);
    left[k] = std::min(left[k], c);
    right[k] = std::max(right[k], c);
  }
  for (int k = 0; k < clues; ++k) {
    const int height = bottom[k] - top[k] + 1, width = right[k] - left[k] + 1;
    if (count[k] == 0 || count[k] != height * width) continue;
    v1::CellRect& rect = *picture.add_rects();
    rect.set_row(top[k]);
    rect.set_col(left[k]);
    rect.set_height(height);
    rect.set_width(width);
    rect.set_region(static_cast<uint32_t>(k) + 1);
  }
  AddRegionWalls(picture);
  return picture;
}

}  // namespace qs
