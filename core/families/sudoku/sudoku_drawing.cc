// How a Sudoku of any variant is drawn (Family::draw): its digits as cell
// text (the givens marked), thick walls between cells of different boxes or
// jigsaw regions, the regions of a jigsaw coloured, an X-Sudoku's diagonals
// shaded, and a killer's cages with their sums as labels.
#include <string>

#include "absl/status/statusor.h"
#include "core/families/sudoku/sudoku.h"
#include "qs/v1/drawing.pb.h"
#include "qs/v1/puzzles.pb.h"

namespace qs {

absl::StatusOr<v1::BoardPicture> DrawSudoku(
    const v1::PuzzleSpec& puzzle, const v1::PuzzleSolution* solution) {
  absl::StatusOr<SudokuShape> shape = SudokuShapeOf(puzzle.sudoku());
  if (!shape.ok()) return shape.status();
  const SudokuShape& g = *shape;
  const int side = g.side;
  v1::BoardPicture picture;
  picture.set_rows(side);
  picture.set_cols(side);
  for (int cell = 0; cell < g.cells(); ++cell) {
    v1::PictureCell& out = *picture.add_cells();
    const int r = cell / side, c = cell % side;
    const int given = static_cast<int>(puzzle.sudoku().cells(cell));
    if (given != 0) {
      out.set_text(std::string(1, SudokuDigitChar(given)));
      out.set_given(true);
    } else if (solution != nullptr && solution->cells(cell) != 0) {
      out.set_text(std::string(1, SudokuDigitChar(solution->cells(cell))));
    }
    if (g.jigsaw) out.set_region(g.region[cell] + 1);
    if (g.diagonals && (r == c || r + c == side - 1)) out.set_shaded(true);
  }
  for (int cell = 0; cell < g.cells(); ++cell) {
    const int r = cell / side, c = cell % side;
    if (c + 1 < side && g.region[cell] != g.region[cell + 1]) {
      v1::CellPair& wall = *picture.add_walls();
      wall.set_a(cell);
      wall.set_b(cell + 1);
    }
    if (r + 1 < side && g.region[cell] != g.region[cell + side]) {
      v1::CellPair& wall = *picture.add_walls();
      wall.set_a(cell);
      wall.set_b(cell + side);
    }
  }
  for (const SudokuCage& cage : g.cages) {
    v1::CellCage& out = *picture.add_cages();
    for (int cell : cage.cells) out.add_cells(cell);
    out.set_label(std::to_string(cage.sum));
  }
  return picture;
}

}  // namespace qs
