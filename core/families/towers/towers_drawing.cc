// How a Towers board is drawn (Family::draw, Solver.Draw): the heights as
// cell text (the givens marked), and the clues around the grid. A picture has
// labels right of the rows and under the columns only, so each row's label
// holds both of its clues as "left|right" and each column's as "top|bottom",
// '-' for a side without a clue there (docs/towers.md §6).
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/base/status_macros.h"
#include "core/families/picture.h"
#include "qs/v1/drawing.pb.h"
#include "qs/v1/puzzles.pb.h"

namespace qs {
namespace {

std::string ClueText(const google::protobuf::RepeatedField<uint32_t>& clues,
                     int i) {
  if (i >= clues.size() || clues[i] == 0) return "-";
  return absl::StrCat(clues[i]);
}

// "a|b" per line; none when neither side has a clue anywhere.
void AddLabels(const google::protobuf::RepeatedField<uint32_t>& first,
               const google::protobuf::RepeatedField<uint32_t>& second, int n,
               google::protobuf::RepeatedPtrField<std::string>* labels) {
  if (first.empty() && second.empty()) return;
  for (int i = 0; i < n; ++i)
    labels->Add(absl::StrCat(ClueText(first, i), "|", ClueText(second, i)));
}

}  // namespace

absl::StatusOr<v1::BoardPicture> DrawTowers(
    const v1::PuzzleSpec& spec, const v1::PuzzleSolution* solution) {
  const v1::TowersPuzzle& towers = spec.towers();
  const int64_t n = towers.size();
  ASSIGN_OR_RETURN(v1::BoardPicture picture, EmptyPicture(n, n, "towers"));
  RETURN_IF_ERROR(CheckSolutionCells(picture, solution));
  for (int i = 0; i < picture.cells_size(); ++i) {
    v1::PictureCell& cell = *picture.mutable_cells(i);
    const uint32_t given = i < towers.givens_size() ? towers.givens(i) : 0;
    if (given != 0) {
      cell.set_text(absl::StrCat(given));
      cell.set_given(true);
    } else if (solution != nullptr && solution->cells(i) != 0) {
      // -1: several heights at once (Decode of a broken read).
      cell.set_text(solution->cells(i) < 0 ? "*"
                                           : absl::StrCat(solution->cells(i)));
    }
  }
  AddLabels(towers.left(), towers.right(), static_cast<int>(n),
            picture.mutable_row_labels());
  AddLabels(towers.top(), towers.bottom(), static_cast<int>(n),
            picture.mutable_col_labels());
  return picture;
}

}  // namespace qs
