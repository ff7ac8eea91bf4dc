// Sudoku on n^2 x n^2 grids as the QUBO of [Mücke 2024] (§2 eq. 2-3 and
// §2.1 clamping rules I-IV). Variable z_ijk ("cell (i, j) holds digit k") has
// index (i * side + j) * side + k, all 0-based, which for 9x9 is the paper's
// iota(i, j, k) = 81 i + 9 j + k. Every variable has linear weight -1; every
// pair that breaks a rule (same cell with different digits, or the same digit
// twice in a row, column or block) gets lambda once, even when it breaks two
// rules. A valid grid has energy -side^2 (-81 for 9x9).
#ifndef QS_CORE_FAMILIES_SUDOKU_SUDOKU_H_
#define QS_CORE_FAMILIES_SUDOKU_SUDOKU_H_

#include <memory>

#include "core/compile/compiler.h"

namespace qs {

std::unique_ptr<PuzzleCompiler> NewSudokuCompiler();

// Board character of a Sudoku value: '.' for 0, '1'..'9', then 'A'.. for 10..
// (16x16 and 25x25 grids),
// '*' for a cell holding several digits at once (-1).
char SudokuDigitChar(int value);

}  // namespace qs

#endif  // QS_CORE_FAMILIES_SUDOKU_SUDOKU_H_
