// How a Zip puzzle is drawn: the waypoints' numbers in their cells, the walls,
// and a solution's path through the cells' centres in step order.
#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/status_macros.h"
#include "core/families/zip/zip.h"
#include "qs/v1/drawing.pb.h"

namespace qs {

absl::StatusOr<v1::BoardPicture> DrawZip(const v1::PuzzleSpec& puzzle,
                                         const v1::PuzzleSolution* solution) {
  ASSIGN_OR_RETURN(const ZipBoard b, CheckZipSpec(puzzle.zip()));
  const int n = b.size();
  v1::BoardPicture picture;
  picture.set_rows(b.rows);
  picture.set_cols(b.cols);
  for (int cell = 0; cell < n; ++cell) picture.add_cells();
  for (size_t k = 0; k < b.waypoints.size(); ++k) {
    v1::PictureCell& cell = *picture.mutable_cells(b.waypoints[k]);
    cell.set_text(absl::StrCat(k + 1));
    cell.set_given(true);
  }
  for (const v1::ZipWall& wall : puzzle.zip().walls()) {
    v1::CellPair& pair = *picture.add_walls();
    pair.set_a(std::min(wall.a(), wall.b()));
    pair.set_b(std::max(wall.a(), wall.b()));
  }
  if (solution == nullptr || solution->cells_size() != n) return picture;
  // The path only when the steps are a permutation of 1..N; any other board
  // draws as the puzzle alone.
  std::vector<int> cell_at(n, -1);
  for (int cell = 0; cell < n; ++cell) {
    const int step = solution->cells(cell);
    if (step < 1 || step > n || cell_at[step - 1] >= 0) return picture;
    cell_at[step - 1] = cell;
  }
  v1::CellPath& path = *picture.add_paths();
  for (int cell : cell_at) path.add_cells(cell);
  return picture;
}

}  // namespace qs
