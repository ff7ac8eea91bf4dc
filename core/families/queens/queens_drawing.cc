// How a queens board is drawn (Family::draw, Solver.Draw): the queens as
// glyphs ("queen"; pre-placed ones given), cells off the board blocked,
// LinkedIn Queens' colour regions as region colours with walls between them,
// and the row and column counts of the generalized problems as labels.
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

// "1", or "1-2" where a line may hold one more (the *_two_values flags).
std::string CountLabel(uint32_t count, bool two_values) {
  return two_values ? absl::StrCat(count, "-", uint64_t{count} + 1)
                    : absl::StrCat(count);
}

template <typename Counts, typename TwoValues>
absl::Status AddLabels(
    const Counts& counts, const TwoValues& two_values, uint32_t lines,
    absl::string_view field,
    google::protobuf::RepeatedPtrField<std::string>* labels) {
  if (counts.empty()) return absl::OkStatus();  // one queen per line
  if (static_cast<uint32_t>(counts.size()) != lines)
    return absl::InvalidArgumentError(
        absl::StrCat("queens.", field, ": ", counts.size(), " counts for ",
                     lines, " lines"));
  for (int k = 0; k < counts.size(); ++k) {
    *labels->Add() =
        CountLabel(counts[k], k < two_values.size() && two_values[k]);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<v1::BoardPicture> DrawQueens(
    const v1::PuzzleSpec& spec, const v1::PuzzleSolution* solution) {
  const v1::QueensPuzzle& queens = spec.queens();
  const int64_t cols = queens.cols() == 0 ? queens.rows() : queens.cols();
  ASSIGN_OR_RETURN(v1::BoardPicture picture,
                   EmptyPicture(queens.rows(), cols, "queens"));
  RETURN_IF_ERROR(CheckSolutionCells(picture, solution));
  const int n = picture.cells_size();
  if (!queens.masked().empty() && queens.masked_size() != n)
    return absl::InvalidArgumentError(absl::StrCat(
        "queens.masked: ", queens.masked_size(), " entries for ", n, " cells"));
  if (!queens.regions().empty() && queens.regions_size() != n)
    return absl::InvalidArgumentError(
        absl::StrCat("queens.regions: ", queens.regions_size(), " entries for ",
                     n, " cells"));
  for (int i = 0; i < n; ++i) {
    v1::PictureCell& cell = *picture.mutable_cells(i);
    cell.set_blocked(!queens.masked().empty() && queens.masked(i));
    // Region ids are 0-based (-1: none), the picture's colours 1-based.
    if (!queens.regions().empty() && !cell.blocked() && queens.regions(i) >= 0)
      cell.set_region(static_cast<uint32_t>(queens.regions(i)) + 1);
  }
  if (!queens.regions().empty()) AddRegionWalls(picture);
  for (int k = 0; k < queens.given_queens_size(); ++k) {
    const uint32_t at = queens.given_queens(k);
    RETURN_IF_ERROR(CheckCell(picture, at, "queens.given_queens", k));
    v1::PictureCell& cell = *picture.mutable_cells(static_cast<int>(at));
    cell.set_glyph("queen");
    cell.set_given(true);
  }
  RETURN_IF_ERROR(AddLabels(queens.row_counts(), queens.row_two_values(),
                            picture.rows(), "row_counts",
                            picture.mutable_row_labels()));
  RETURN_IF_ERROR(AddLabels(queens.col_counts(), queens.col_two_values(),
                            picture.cols(), "col_counts",
                            picture.mutable_col_labels()));
  if (solution != nullptr) {
    for (int i = 0; i < n; ++i) {
      v1::PictureCell& cell = *picture.mutable_cells(i);
      if (solution->cells(i) == 1 && !cell.given()) cell.set_glyph("queen");
    }
  }
  return picture;
}

}  // namespace qs
