// Hitori (Simon Tatham's "Singles") as a QUBO (docs/singles.md). Shade cells
// of a number grid so that no row or column holds an unshaded number twice, no
// two shaded cells touch at a side, and the unshaded cells are connected.
//
// Variables: s_c ("cell c is shaded", index c = r * cols + c) and, for the
// connectivity, a parent pointer with a level per interior cell (docs §2):
// with no two shaded cells side by side, the unshaded cells are connected
// exactly when the graph G' of the shaded cells joined through diagonal
// contacts, with the whole border as one extra node B, is a forest. Every
// shaded border cell points to B (level 0, its own s); a shaded interior cell
// is a root (level 0) or points to one diagonal neighbour with a level that is
// the neighbour's plus 1 when the pointer goes south-east, else the same.
// Every simple cycle of diagonal steps has a south-east step, so levels rule
// out pointer cycles; every contact of two shaded cells must be a pointer.
// Levels run 0..K-1 with K = SinglesLevels(rows, cols).
//
// Full model, every term non-negative and integer:
//   sum_{equal pairs a,b in a line} (1 - s_a)(1 - s_b)      (duplicates)
//   + sum_{side neighbours a,b} s_a s_b                     (adjacent)
//   + sum_{interior a} (s_a - sum V_a)^2                    (one state)
//   + sum_{pointer y: a -> b at level t} y (1 - s_b)
//       + y sum_{w in V_b, level(w) != t} w                 (pointer)
//   + sum_{diagonal pairs a,b} sum_{v in V_a, w in V_b,
//       [v -> b] == [w -> a]} v w                            (contact)
// V_a: the states of cell a (root and pointers; {s_a} for a border cell).
// Ground energy 0.
//
// Reductions (CompiledProblem.stages, REDUCTION_FULL): "unique" (a number
// alone in its row and column stays unshaded), "patterns" (the middle of
// x y x and of x x x stays unshaded, the ends of x x x are shaded, a number
// equal to an adjacent pair elsewhere in the line is shaded), "propagation" to
// a fixed point (next to a shaded cell: unshaded; equal to an unshaded number
// in its line: shaded), and "auxiliaries" (states of unshaded cells, pointers
// to unshaded cells). REDUCTION_CLUES applies "unique" only.
//
// Boards: cells[i] is 1 for a shaded cell, else 0; rows print the numbers
// separated by spaces with '#' for a shaded cell.
#ifndef QS_CORE_FAMILIES_SINGLES_SINGLES_H_
#define QS_CORE_FAMILIES_SINGLES_SINGLES_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "core/compile/compiler.h"
#include "qs/v1/puzzles.pb.h"

namespace qs {

std::unique_ptr<PuzzleCompiler> NewSinglesCompiler();

// A checked puzzle.
struct SinglesBoard {
  int rows = 0;
  int cols = 0;
  std::vector<int> numbers;  // row-major

  int size() const { return rows * cols; }
  bool Border(int cell) const {
    const int r = cell / cols, c = cell % cols;
    return r == 0 || c == 0 || r == rows - 1 || c == cols - 1;
  }
};

// INVALID_ARGUMENT naming the field: rows and cols 2..62, one number >= 1 per
// cell.
absl::StatusOr<SinglesBoard> CheckSinglesSpec(const v1::SinglesPuzzle& spec);

// Levels of the pointer encoding: ceil(max(rows, cols) / 2) + 2.
int SinglesLevels(int rows, int cols);

// The target of a border cell's state: the border node B.
inline constexpr int kSinglesBorderNode = -2;

// One state of a cell (an element of V_a): its variable, its level and the
// cell it points to (-1: none, a root; kSinglesBorderNode for a border
// cell's state).
struct SinglesState {
  int var = 0;
  int level = 0;
  int target = -1;
};

// The variables of the full model, from the size alone.
struct SinglesLayout {
  int rows = 0;
  int cols = 0;
  int levels = 0;
  int num_variables = 0;
  // Per cell: its states (a border cell's one state is s_c itself, level 0).
  std::vector<std::vector<SinglesState>> states;

  int size() const { return rows * cols; }
  // The diagonal neighbours of a cell, north-west, north-east, south-west,
  // south-east (those on the grid).
  std::vector<int> Diagonal(int cell) const;
  // The unordered diagonal pairs {a, b}, a < b.
  std::vector<std::pair<int, int>> DiagonalPairs() const;
};

SinglesLayout MakeSinglesLayout(int rows, int cols);

// The pairs of cells with equal numbers in a row or a column.
std::vector<std::pair<int, int>> SinglesDuplicatePairs(const SinglesBoard& b);

// What the full reduction's deductions (docs §3: unique, patterns,
// propagation) settle of the shading: per cell -1 open, 0 unshaded, 1 shaded.
std::vector<int8_t> SinglesDeducedShading(const SinglesBoard& b);

// The full-model assignment of a valid shading: parents towards the border
// node, floating trees rooted at their lowest cell index, levels counted in
// south-east steps. None when the shading breaks a rule or needs more levels
// than the layout has.
std::optional<std::vector<uint8_t>> SinglesAuxiliaries(
    const SinglesLayout& layout, const std::vector<uint8_t>& shaded);

}  // namespace qs

#endif  // QS_CORE_FAMILIES_SINGLES_SINGLES_H_
