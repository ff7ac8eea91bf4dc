// How a Keen board is drawn (Family::draw, Solver.Draw; docs/keen.md
// §Drawing): a thick wall between every two neighbours of different cages,
// each cage outlined with its label ("12+", "2-", "6x", "2/", a given's
// digit) in the corner of its top-left cell, a given's digit as its cell's
// text, and a solution's digits in the other cells.
#include <string>

#include "absl/status/statusor.h"
#include "core/base/status_macros.h"
#include "core/families/digit_grid.h"
#include "core/families/keen/keen.h"
#include "core/families/picture.h"
#include "qs/v1/drawing.pb.h"
#include "qs/v1/puzzles.pb.h"

namespace qs {

absl::StatusOr<v1::BoardPicture> DrawKeen(const v1::PuzzleSpec& spec,
                                          const v1::PuzzleSolution* solution) {
  ASSIGN_OR_RETURN(const KeenShape g, KeenShapeOf(spec.keen()));
  const int n = g.size;
  ASSIGN_OR_RETURN(v1::BoardPicture picture, EmptyPicture(n, n, "keen"));
  RETURN_IF_ERROR(CheckSolutionCells(picture, solution));
  for (int i = 0; i < static_cast<int>(g.cages.size()); ++i) {
    const KeenCageShape& cage = g.cages[i];
    // Cells ascending: the first, where the label goes, is the top-left one.
    v1::CellCage& out = *picture.add_cages();
    for (int cell : cage.cells) out.add_cells(cell);
    out.set_label(KeenCageLabel(spec.keen().cages(i)));
    if (cage.cells.size() == 1) {
      v1::PictureCell& cell = *picture.mutable_cells(cage.cells[0]);
      cell.set_text(std::to_string(cage.tuples[0][0]));
      cell.set_given(true);
    }
  }
  for (int cell = 0; cell < g.cells(); ++cell) {
    const int r = cell / n, c = cell % n;
    for (const int other :
         {c + 1 < n ? cell + 1 : -1, r + 1 < n ? cell + n : -1}) {
      if (other < 0 || g.cage_of[cell] == g.cage_of[other]) continue;
      v1::CellPair& wall = *picture.add_walls();
      wall.set_a(cell);
      wall.set_b(other);
    }
  }
  if (solution != nullptr) {
    for (int i = 0; i < picture.cells_size(); ++i) {
      v1::PictureCell& cell = *picture.mutable_cells(i);
      const int value = solution->cells(i);
      if (!cell.given() && value != 0)
        cell.set_text(std::string(1, DigitGridChar(value)));
    }
  }
  return picture;
}

}  // namespace qs
