// A Sudoku PuzzleSpec from a grid written as one string, row by row ('.'
// blank, digits 1-9), of any square size (16 cells for 4x4, 81 for 9x9), for
// tests that build puzzles without the text parsers.
#ifndef QS_TESTS_TESTING_SUDOKU_GRID_H_
#define QS_TESTS_TESTING_SUDOKU_GRID_H_

#include <string>

#include "qs/v1/puzzles.pb.h"

namespace qs::testing {

inline v1::PuzzleSpec SudokuGridSpec(const std::string& grid,
                                     double penalty = 0) {
  v1::PuzzleSpec spec;
  int side = 1;
  while (side * side < static_cast<int>(grid.size())) ++side;
  int box = 1;
  while (box * box < side) ++box;
  spec.mutable_sudoku()->set_box_size(box);
  for (char ch : grid)
    spec.mutable_sudoku()->add_cells(ch == '.' ? 0 : ch - '0');
  spec.mutable_sudoku()->set_penalty(penalty);
  return spec;
}

}  // namespace qs::testing

#endif  // QS_TESTS_TESTING_SUDOKU_GRID_H_
