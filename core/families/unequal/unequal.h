// Futoshiki, the game of Simon Tatham's "Unequal" (docs/unequal.md), as a
// QUBO over one-hot digit variables. Variable x_{c,d} ("cell c holds digit
// d + 1") has index c * n + d, c = r * n + col row-major, all 0-based. The
// full model is
//   sum_c (1 - sum_d x_{c,d})^2                     one digit per cell
//   + sum_{row, d} (1 - sum_{c in row} x_{c,d})^2   each digit once per row
//   + sum_{col, d} (1 - sum_{c in col} x_{c,d})^2   ... and per column
//   + sum_{pairs (a, b)} sum_{(d, e) forbidden} x_{a,d} x_{b,e}
// where the forbidden digit pairs of two side neighbours are, in INEQUALITY
// mode, d <= e for a sign a > b (no term for a pair without a sign) and, in
// ADJACENT mode, |d - e| != 1 for a barred pair and |d - e| = 1 for every
// unbarred pair. Every term is a non-negative integer and zero exactly when
// its rule holds, so a solution scores 0 (the ground energy) and every broken
// rule at least 1.
//
// Reductions (REDUCTION_FULL): "clues" clamps the givens; "chains" (signs
// only) removes digits 1..k from a cell greater than a chain of k cells and
// n-k+1..n from one smaller than k chained cells; then rounds of "signs" (or
// "bars": a digit stays only while the neighbour keeps a digit it may stand
// next to) and "latin" (a settled digit leaves its row and column; a digit
// with one place left in a line takes it) run to a fixed point, a stage per
// step while a round still removes something.
#ifndef QS_CORE_FAMILIES_UNEQUAL_UNEQUAL_H_
#define QS_CORE_FAMILIES_UNEQUAL_UNEQUAL_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/compile/compiler.h"
#include "qs/v1/unequal.pb.h"

namespace qs {

std::unique_ptr<PuzzleCompiler> NewUnequalCompiler();

// What two side neighbours' digits must satisfy.
enum class UnequalRelation {
  kGreater,      // a sign: a's digit is larger than b's
  kAdjacent,     // a bar: the digits differ by one
  kNotAdjacent,  // adjacent mode, no bar: the digits do not differ by one
};

// Whether digits da (of a) and db (of b), 1-based, meet the relation.
bool UnequalAllows(UnequalRelation relation, int da, int db);

struct UnequalConstraint {
  int a = 0;
  int b = 0;
  UnequalRelation relation = UnequalRelation::kGreater;
  // The spec's signs[] entry, or -1 for an unbarred pair.
  int sign = -1;
};

// A checked puzzle.
struct UnequalBoard {
  int size = 0;
  bool adjacent = false;
  std::vector<int> givens;  // per cell, 0: none
  // Every rule between side neighbours: the signs (or bars) in the spec's
  // order, then in ADJACENT mode the unbarred pairs in row-major order.
  std::vector<UnequalConstraint> constraints;

  int cells() const { return size * size; }
  int Var(int cell, int digit) const { return cell * size + digit; }
};

// "(r,c)", 1-based.
std::string UnequalCellName(int size, int cell);

// Checks the spec (INVALID_ARGUMENT naming the field: size 3..9, givens,
// signs between side neighbours, none listed twice, no contradicting givens
// in a line, no cycle of signs and no chain longer than the digits allow).
absl::StatusOr<UnequalBoard> UnequalBoardOf(const v1::UnequalPuzzle& puzzle);

}  // namespace qs

#endif  // QS_CORE_FAMILIES_UNEQUAL_UNEQUAL_H_
