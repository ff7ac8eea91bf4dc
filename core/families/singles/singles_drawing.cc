// How a Singles (Hitori) board is drawn (Family::draw, Solver.Draw): every
// cell's number as given text, and a solution's shaded cells drawn dark
// (blocked) and crossed out, their numbers kept so that the duplicates they
// remove can be read; a spanning tree of its unshaded cells, drawn as paths
// between side neighbours, shows the connectivity rule holding.
#include <cstdint>
#include <deque>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/base/status_macros.h"
#include "core/families/picture.h"
#include "qs/v1/drawing.pb.h"
#include "qs/v1/puzzles.pb.h"

namespace qs {
namespace {

// Breadth-first tree over the unshaded cells from the first of them; each
// edge becomes a two-cell path. A disconnected shading leaves cells out.
void AddUnshadedTree(const v1::PuzzleSolution& solution, int rows, int cols,
                     v1::BoardPicture& picture) {
  const int cells = rows * cols;
  std::vector<bool> seen(cells, false);
  std::deque<int> queue;
  for (int i = 0; i < cells && queue.empty(); ++i) {
    if (solution.cells(i) != 1) {
      seen[i] = true;
      queue.push_back(i);
    }
  }
  while (!queue.empty()) {
    const int at = queue.front();
    queue.pop_front();
    const int r = at / cols, c = at % cols;
    const int next[4][2] = {{r - 1, c}, {r + 1, c}, {r, c - 1}, {r, c + 1}};
    for (const auto& [nr, nc] : next) {
      if (nr < 0 || nr >= rows || nc < 0 || nc >= cols) continue;
      const int to = nr * cols + nc;
      if (seen[to] || solution.cells(to) == 1) continue;
      seen[to] = true;
      queue.push_back(to);
      v1::CellPath& path = *picture.add_paths();
      path.add_cells(static_cast<uint32_t>(at));
      path.add_cells(static_cast<uint32_t>(to));
    }
  }
}

}  // namespace

absl::StatusOr<v1::BoardPicture> DrawSingles(
    const v1::PuzzleSpec& spec, const v1::PuzzleSolution* solution) {
  const v1::SinglesPuzzle& singles = spec.singles();
  ASSIGN_OR_RETURN(v1::BoardPicture picture,
                   EmptyPicture(singles.rows(), singles.cols(), "singles"));
  RETURN_IF_ERROR(CheckSolutionCells(picture, solution));
  if (singles.numbers_size() != picture.cells_size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("singles.numbers: expected ", picture.cells_size(),
                     " numbers, got ", singles.numbers_size()));
  }
  for (int i = 0; i < picture.cells_size(); ++i) {
    v1::PictureCell& cell = *picture.mutable_cells(i);
    cell.set_text(absl::StrCat(singles.numbers(i)));
    cell.set_given(true);
    if (solution != nullptr && solution->cells(i) == 1) {
      cell.set_blocked(true);
      cell.set_glyph("cross");
    }
  }
  if (solution != nullptr) {
    AddUnshadedTree(*solution, static_cast<int>(singles.rows()),
                    static_cast<int>(singles.cols()), picture);
  }
  return picture;
}

}  // namespace qs
