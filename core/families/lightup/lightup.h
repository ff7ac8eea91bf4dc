// Light Up (Akari, Simon Tatham's "Light Up") as a QUBO (docs/lightup.md).
// Variable l_i ("a light on cell i") has index i = r * cols + c for every
// cell, black ones included. With the white cells cut by the black ones into
// row and column segments (maximal runs), R(c) and C(c) the lights of the row
// and column segment of cell c, the full model is
//   sum_S (|S| - 1) sum_{a<b in S} l_a l_b
//       (no light lights another: at most one light per segment S)
//   + sum_{c white} (1 - R(c)) (1 - C(c))
//       (every white cell lit: 1 - R - C + RC, quadratic)
//   + sum_{numbered b} (sum_{white side neighbours n of b} l_n - k_b)^2
//       (a number k_b counts the lights on its side neighbours)
//   + sum_{b black} l_b
//       (no light on a black cell; the game has none there)
// The segment weight |S| - 1 makes two lights in a segment cost more than
// the lit term can give back (a cell lit twice along one line scores
// negative there), so every broken rule scores at least 1 and every valid
// board scores the ground energy 0 (proof in docs/lightup.md §2).
//
// Reductions (CompiledProblem.stages), each keeping every valid board:
// "blacks" (REDUCTION_CLUES) fixes the black cells to 0; "zero_clues" the
// neighbours of a 0; "full_clues" lights every white neighbour of a number
// equal to their count; then rounds of "lit_lines#k" (a light darkens the
// rest of its segments), "lone_lighters#k" (a cell that only one undecided
// cell can still light, and no light does, gets its light there) and
// "numbers#k" (a number already met darkens its other neighbours, one that
// needs all its undecided neighbours lights them), until a round fixes
// nothing. A contradiction (the puzzle has no valid board) stops the rounds.
//
// Boards: rows of 'L' (light), '.' (white), '#' (black) and '0'..'4'
// (numbered black), '*' for a light on a black cell (only without the
// "blacks" reduction); cells hold 1 for a light and 0 elsewhere (black cells
// 0).
#ifndef QS_CORE_FAMILIES_LIGHTUP_LIGHTUP_H_
#define QS_CORE_FAMILIES_LIGHTUP_LIGHTUP_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/compile/compiler.h"
#include "qs/v1/lightup.pb.h"

namespace qs {

std::unique_ptr<PuzzleCompiler> NewLightupCompiler();

// A checked Light Up puzzle: its cells and the segments of its white cells.
struct LightupBoard {
  static constexpr int kWhite = -2;
  static constexpr int kPlainBlack = -1;

  int rows = 0;
  int cols = 0;
  // Per cell: kWhite, kPlainBlack or the black cell's number 0..4.
  std::vector<int> number;
  // The numbered black cells, row-major.
  std::vector<int> numbered;
  // Maximal runs of white cells: the row segments first, then the column
  // segments; each segment's cells in order.
  std::vector<std::vector<int>> segments;
  int num_row_segments = 0;
  // Per cell, its row and column segment (-1 for a black cell).
  std::vector<int> row_segment;
  std::vector<int> col_segment;

  int size() const { return rows * cols; }
  bool IsWhite(int cell) const { return number[cell] == kWhite; }
  // White cells orthogonally next to `cell`.
  std::vector<int> WhiteNeighbours(int cell) const;
  // The cells whose light would light white `cell`: its row and column
  // segments (the cell itself once).
  std::vector<int> Lighters(int cell) const;
};

// INVALID_ARGUMENT naming the field: rows and cols 1..100, black cells in
// range and listed once, numbers 0..4 and no larger than the number of the
// cell's white side neighbours.
absl::StatusOr<LightupBoard> CheckLightupSpec(const v1::LightupPuzzle& spec);

// "(r,c)", 1-based.
std::string LightupCellName(int cell, int cols);

// Whether `lights` (one per cell) is a valid board: no light on a black
// cell, none seen by another, every white cell lit, every number met.
bool IsValidLightupBoard(const LightupBoard& board,
                         const std::vector<uint8_t>& lights);

// What the clues force, as the reduction applies it: per cell -1
// (undecided), 0 or 1, after each named step (the steps of the header's
// comment, from "blacks" on). Every valid board agrees with every step.
struct LightupDeduction {
  struct Step {
    std::string name;
    std::vector<int8_t> value;
  };
  std::vector<Step> steps;
  // A step met a cell forced both ways: the puzzle has no valid board; the
  // steps stop before the conflicting value.
  bool contradiction = false;
};
LightupDeduction DeduceLightup(const LightupBoard& board);

// Exactly-one groups that hold on every valid board agreeing with `known`
// (per cell -1, 0, 1): the undecided cells of a segment that alone can still
// light some unlit cell, and the undecided neighbours of a number that needs
// one more light. Members are cells; groups are sorted and distinct.
std::vector<std::vector<int32_t>> LightupOneHotGroups(
    const LightupBoard& board, const std::vector<int8_t>& known);

}  // namespace qs

#endif  // QS_CORE_FAMILIES_LIGHTUP_LIGHTUP_H_
