// Building blocks of the families' drawings (core/families/picture.h).
#include "core/families/picture.h"

#include "absl/strings/str_cat.h"

namespace qs {

absl::StatusOr<v1::BoardPicture> EmptyPicture(int64_t rows, int64_t cols,
                                              absl::string_view field) {
  if (rows < 1)
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".rows: a board needs at least one row"));
  if (cols < 1)
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".cols: a board needs at least one column"));
  // Each side checked alone first, so that the product cannot overflow.
  if (rows > kMaxPictureCells || cols > kMaxPictureCells ||
      rows * cols > kMaxPictureCells)
    return absl::ResourceExhaustedError(
        absl::StrCat(field, ".rows: a ", rows, "x", cols, " board is over the ",
                     kMaxPictureCells, " cells a picture holds"));
  v1::BoardPicture picture;
  picture.set_rows(static_cast<uint32_t>(rows));
  picture.set_cols(static_cast<uint32_t>(cols));
  for (int64_t i = 0; i < rows * cols; ++i) picture.add_cells();
  return picture;
}

absl::Status CheckSolutionCells(const v1::BoardPicture& picture,
                                const v1::PuzzleSolution* solution) {
  if (solution == nullptr || solution->cells_size() == picture.cells_size())
    return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("solution.cells: ", solution->cells_size(),
                   " cells for a board of ", picture.cells_size()));
}

absl::Status CheckCell(const v1::BoardPicture& picture, int64_t cell,
                       absl::string_view field, int index) {
  if (cell >= 0 && cell < picture.cells_size()) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(field, "[", index, "]: cell ", cell, " is off the ",
                   picture.rows(), "x", picture.cols(), " board"));
}

void AddRegionWalls(v1::BoardPicture& picture) {
  const uint32_t rows = picture.rows(), cols = picture.cols();
  auto wall = [&](uint32_t a, uint32_t b) {
    if (picture.cells(a).region() == picture.cells(b).region()) return;
    v1::CellPair& pair = *picture.add_walls();
    pair.set_a(a);
    pair.set_b(b);
  };
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < cols; ++c) {
      const uint32_t i = r * cols + c;
      if (c + 1 < cols) wall(i, i + 1);
      if (r + 1 < rows) wall(i, i + cols);
    }
  }
}

}  // namespace qs
