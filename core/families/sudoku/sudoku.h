// Sudoku and its variants (rectangular boxes, jigsaw regions, X diagonals,
// killer cages) as the QUBO of [Mücke 2024] (§2 eq. 2-3 and §2.1 clamping
// rules I-IV), generalized from the 9x9 grid to any side and any set of
// all-different groups. Variable z_ijk ("cell (i, j) holds digit k") has index
// (i * side + j) * side + k, all 0-based, which for 9x9 is the paper's
// iota(i, j, k) = 81 i + 9 j + k. Every variable has linear weight -1; every
// pair that breaks a rule (same cell with different digits, or the same digit
// twice in a row, column, box or region, diagonal or cage) gets lambda once,
// even when it breaks two rules. A killer cage adds (sum_c sum_d d z_cd - S)^2,
// zero exactly when its digits sum to S. A valid grid of any variant has
// energy -side^2 (-81 for 9x9, -36 for 6x6), and every other assignment more.
#ifndef QS_CORE_FAMILIES_SUDOKU_SUDOKU_H_
#define QS_CORE_FAMILIES_SUDOKU_SUDOKU_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/compile/compiler.h"
#include "qs/v1/sudoku.pb.h"

namespace qs {

std::unique_ptr<PuzzleCompiler> NewSudokuCompiler();

// Board character of a Sudoku value: '.' for 0, '1'..'9', then 'A'.. for 10..
// (16x16 and 25x25 grids),
// '*' for a cell holding several digits at once (-1).
char SudokuDigitChar(int value);

// The kind of an all-different group; its validator rule is
// "<name>_duplicate" (row_duplicate, block_duplicate, region_duplicate ...).
enum class SudokuGroupKind { kRow, kColumn, kBox, kRegion, kDiagonal };
const char* SudokuGroupName(SudokuGroupKind kind);

struct SudokuGroup {
  SudokuGroupKind kind;
  int index = 0;           // 0-based among the groups of its kind
  std::vector<int> cells;  // side of them, each digit once
};

struct SudokuCage {
  int sum = 0;
  std::vector<int> cells;  // distinct, no digit twice
};

// The geometry of a checked Sudoku spec: its side and its rules.
struct SudokuShape {
  int side = 9;
  // Box height and width; 0 for a jigsaw.
  int box_rows = 3;
  int box_cols = 3;
  // Per cell: its box or jigsaw region, 0..side-1.
  std::vector<int> region;
  bool jigsaw = false;
  bool diagonals = false;
  // Rows, columns, boxes or regions, then the two diagonals when set.
  std::vector<SudokuGroup> groups;
  std::vector<SudokuCage> cages;
  // Per cell: its cage, or -1.
  std::vector<int> cage_of;
  // Per cell: the other cells that may not hold its digit (a shared group or
  // cage), ascending.
  std::vector<std::vector<int>> peers;

  int cells() const { return side * side; }
  int Var(int cell, int digit) const { return cell * side + digit; }
  // What the two cells share, for messages ("row", "box", "cage" ...), or
  // null when nothing.
  const char* SharedUnit(int a, int b) const;
};

// Checks everything of the spec but its cell values and penalty, naming the
// field (sudoku.box_rows, sudoku.regions, sudoku.cages[2].sum ...).
absl::StatusOr<SudokuShape> SudokuShapeOf(const v1::SudokuPuzzle& sudoku);

// Whether the cage's open cells (no given) can be filled with distinct digits,
// none of its givens, summing to its sum less the givens; if so, *digits
// (when not null) gets the digits (1-based, ascending) some such filling uses:
// a 2-cell cage of sum 3 allows only 1 and 2.
bool SudokuCageDigits(const SudokuShape& shape, int cage,
                      const v1::SudokuPuzzle& sudoku, std::vector<int>* digits);

}  // namespace qs

#endif  // QS_CORE_FAMILIES_SUDOKU_SUDOKU_H_
