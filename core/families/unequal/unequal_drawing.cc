// How a Futoshiki / Unequal board is drawn (Family::draw, Solver.Draw;
// docs/unequal.md "Drawing"): the givens as given cell text, a solution's
// digits as plain text, and each sign on the side its two cells share, read
// from the upper or left cell to the other: '>' or '<' between a row's cells,
// 'v' (the upper digit is larger) or '^' between a column's, and a bar in the
// adjacent mode, '|' between a row's cells and '-' between a column's.
#include <algorithm>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/base/status_macros.h"
#include "core/families/picture.h"
#include "core/families/unequal/unequal.h"
#include "qs/v1/drawing.pb.h"
#include "qs/v1/puzzles.pb.h"

namespace qs {
namespace {

// The text of the sign between a (greater, or a bar's first cell) and b, drawn
// on their shared side with the upper or left cell first.
v1::EdgeSign SignOf(const UnequalConstraint& k, int n, bool adjacent) {
  const int first = std::min(k.a, k.b), second = std::max(k.a, k.b);
  const bool same_row = first / n == second / n;
  const bool first_greater = first == k.a;
  v1::EdgeSign sign;
  sign.set_a(static_cast<uint32_t>(first));
  sign.set_b(static_cast<uint32_t>(second));
  if (adjacent) {
    sign.set_text(same_row ? "|" : "-");
  } else if (same_row) {
    sign.set_text(first_greater ? ">" : "<");
  } else {
    sign.set_text(first_greater ? "v" : "^");
  }
  return sign;
}

}  // namespace

absl::StatusOr<v1::BoardPicture> DrawUnequal(
    const v1::PuzzleSpec& spec, const v1::PuzzleSolution* solution) {
  ASSIGN_OR_RETURN(const UnequalBoard b, UnequalBoardOf(spec.unequal()));
  ASSIGN_OR_RETURN(v1::BoardPicture picture,
                   EmptyPicture(b.size, b.size, "unequal"));
  RETURN_IF_ERROR(CheckSolutionCells(picture, solution));
  for (int cell = 0; cell < b.cells(); ++cell) {
    v1::PictureCell& out = *picture.mutable_cells(cell);
    if (b.givens[cell] != 0) {
      out.set_text(absl::StrCat(b.givens[cell]));
      out.set_given(true);
    } else if (solution != nullptr) {
      const int32_t value = solution->cells(cell);
      // 0: empty; -1 (several digits) and values off the digits as Decode
      // would never give them are shown as '*'.
      if (value != 0)
        out.set_text(value >= 1 && value <= b.size ? absl::StrCat(value) : "*");
    }
  }
  for (const UnequalConstraint& k : b.constraints) {
    if (k.sign >= 0) *picture.add_signs() = SignOf(k, b.size, b.adjacent);
  }
  return picture;
}

}  // namespace qs
