// Skyscrapers (Simon Tatham's "Towers") as a QUBO (docs/towers.md): an n x n
// Latin square of heights 1..n whose clues count the buildings seen from a
// side. Variable x_{c,h} ("cell c holds height h") has index c * n + h - 1,
// cells row-major. The Latin square is three families of one-hot terms
// (1 - sum)^2: each cell holds one height, each height once per row and per
// column. A clue is not quadratic as it stands; each clue gets a chain of
// auxiliary one-hot states along its line, read from its side
// (docs/towers.md §2): at position k (1 <= k <= n-2) the state (h, seen) says
// "the tallest of positions 0..k is h, and position k is that building"
// (seen) or "... and position k is lower" (hidden). Pairwise penalties tie a
// state to the previous position's state and to the cell's height, and the
// count term (1 + sum of seen states + x_{last,n} - clue)^2 asks for the
// clue: position 0 is always seen and the last position is seen exactly when
// it holds n. Every term is a non-negative integer on every assignment; a
// valid board scores 0 with its chains set to the truth, and everything else
// at least 1.
//
// Auxiliaries: n(n-1) - 2 per clue (2(n-k) states at position k, heights
// k+1..n, as the tallest of k+1 distinct heights is at least k+1), numbered
// after the n^3 cell variables clue by clue (top, bottom, left, right; within a
// side along the line).
#ifndef QS_CORE_FAMILIES_TOWERS_TOWERS_H_
#define QS_CORE_FAMILIES_TOWERS_TOWERS_H_

#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "core/compile/compiler.h"
#include "qs/v1/towers.pb.h"

namespace qs {

std::unique_ptr<PuzzleCompiler> NewTowersCompiler();

// The sides in the proto's order (and the game ID's).
enum TowersSide { kTowersTop = 0, kTowersBottom, kTowersLeft, kTowersRight };
// "top", "bottom", "left", "right".
const char* TowersSideName(int side);

// The cells of a line in the order seen from `side`: column `index` for top
// and bottom, row `index` for left and right.
std::vector<int> TowersLineCells(int n, int side, int index);

// Auxiliary variables of one clue's chain: n(n-1) - 2 (0 for n < 3).
int TowersChainSize(int n);
// Offset within a chain of the state (h, seen) at position k, for
// 1 <= k <= n-2 and k+1 <= h <= n.
int TowersChainState(int n, int k, int h, bool seen);

// The constraints of one clue's chain over model variables (the cell
// variables of the line, x of (cell, h) = cell * n + h - 1, and the chain's
// states from first_aux), stated once for the QUBO (penalties) and the rules
// (clauses).
struct TowersChainRules {
  // Each position's states: exactly one.
  std::vector<std::vector<int>> exactly_one;
  // Never both.
  std::vector<std::pair<int, int>> exclusive;
  // The first implies the second.
  std::vector<std::pair<int, int>> implies;
  // Buildings seen besides the first: the seen states and x of (last, n).
  std::vector<int> seen;
};
TowersChainRules TowersChain(int n, std::span<const int> line_cells,
                             int first_aux);

// Adds the chain's penalties and (1 + sum seen - clue)^2 to `builder`.
void AddTowersClueTerms(QuboBuilder& builder, int n,
                        std::span<const int> line_cells, int first_aux,
                        int clue);

// Per position k = 1..n-2 of a line of heights (0: none), the chain offset of
// its true state (TowersChainState), the line read from its side.
std::vector<int> TowersTrueStates(int n, std::span<const int> heights);
// Buildings seen along heights from the front (0 counts as no building).
int TowersVisible(std::span<const int> heights);

// A checked spec.
struct TowersClue {
  int side = 0;
  int index = 0;
  int clue = 0;
  std::vector<int> cells;  // the line from its side
  int first_aux = 0;
};
struct TowersShape {
  int n = 0;
  std::vector<int> givens;        // n * n, 0: none
  std::vector<TowersClue> clues;  // the non-zero clues, top, bottom, left,
                                  // right
  int num_variables = 0;          // n^3 + one chain per clue

  int Var(int cell, int h) const { return cell * n + h - 1; }
};
// INVALID_ARGUMENT naming the field (towers.size, towers.top[2],
// towers.givens[7] ...), also for givens repeated in a row or column.
absl::StatusOr<TowersShape> TowersShapeOf(const v1::TowersPuzzle& towers);

}  // namespace qs

#endif  // QS_CORE_FAMILIES_TOWERS_TOWERS_H_
