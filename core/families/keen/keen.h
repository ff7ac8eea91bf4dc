// KenKen, the game of Simon Tatham's "Keen" (docs/keen.md): an n x n Latin
// square split into cages whose digits combine under the cage's operation to
// its target. The QUBO (docs/keen.md §Formulation) is Sudoku's Latin-square
// form over x_{c,d} ("cell c holds digit d+1", index c * n + d) without boxes:
// linear weight -1 per variable and kLatinPenalty per pair that puts two
// digits in one cell or one digit twice in a row or column; plus, per cage,
//   +  (two cells or more): (sum_c sum_d (d+1) x_{c,d} - target)^2;
//   -, / (two cells):       one coupler per forbidden digit pair;
//   x  (two cells or more): a selector y_t per allowed digit tuple t, exactly
//                           one chosen, (1 - sum_t y_t)^2, tied to the cells
//                           by sum_{c,d} (x_{c,d} - sum_{t: t_c = d} y_t)^2;
//   one cell (GIVEN):       sum_{d != target} x_{c,d}.
// The selectors follow the n^3 cell variables, cage by cage. A valid board
// has energy -n^2 (offset included); every other assignment at least 1 more.
#ifndef QS_CORE_FAMILIES_KEEN_KEEN_H_
#define QS_CORE_FAMILIES_KEEN_KEEN_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/compile/compiler.h"
#include "qs/v1/keen.pb.h"

namespace qs {

std::unique_ptr<PuzzleCompiler> NewKeenCompiler();

// Sides the family accepts (the proto's range).
inline constexpr int kKeenMinSize = 3;
inline constexpr int kKeenMaxSize = 9;
// Most digit tuples a cage may allow: the selectors of a x cage are its tuples.
inline constexpr int kKeenMaxTuples = 4096;

struct KeenCageShape {
  v1::KeenCage::Operation operation = v1::KeenCage::ADD;
  uint64_t target = 0;
  std::vector<int> cells;  // ascending
  // Every filling of the cells (digits 1..n, in the order of `cells`) that
  // reaches the target with no digit twice in a row or column of the cage.
  std::vector<std::vector<int>> tuples;
  // First selector variable of the cage, or -1 when it has none.
  int first_selector = -1;
};

// A checked Keen spec.
struct KeenShape {
  int size = 0;
  std::vector<KeenCageShape> cages;  // in the spec's order
  std::vector<int> cage_of;          // per cell
  int num_selectors = 0;

  int cells() const { return size * size; }
  int Var(int cell, int digit) const { return cell * size + digit - 1; }
  int num_variables() const { return size * size * size + num_selectors; }
};

// Whether the cage is stated through selectors (one per tuple).
bool KeenCageUsesSelectors(const KeenCageShape& cage);

// Checks the spec, naming the field (keen.size, keen.cages[3].cells ...):
// cages tile the grid, are connected, have the cell count their operation
// needs and at least one and at most kKeenMaxTuples tuples.
absl::StatusOr<KeenShape> KeenShapeOf(const v1::KeenPuzzle& keen);

// The cage's label: "12+", "2-", "6x", "2/", or the target of a one-cell cage.
std::string KeenCageLabel(const v1::KeenCage& cage);

}  // namespace qs

#endif  // QS_CORE_FAMILIES_KEEN_KEEN_H_
