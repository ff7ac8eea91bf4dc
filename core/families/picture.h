// Building blocks of the families' drawings (<name>_drawing.cc, Family::draw):
// an empty picture of a checked size, the walls between differently coloured
// regions and the check of a solution's cells, so that each family's drawing
// holds only what is its own.
#ifndef QS_CORE_FAMILIES_PICTURE_H_
#define QS_CORE_FAMILIES_PICTURE_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "qs/v1/drawing.pb.h"
#include "qs/v1/puzzles.pb.h"

namespace qs {

// The most cells a picture holds: a picture is for people to look at, and
// each cell costs a message on the wire.
inline constexpr int64_t kMaxPictureCells = int64_t{1} << 16;

// A picture of rows x cols empty cells. INVALID_ARGUMENT naming
// `<field>.rows` / `<field>.cols` for a side of 0, RESOURCE_EXHAUSTED for a
// board over kMaxPictureCells.
absl::StatusOr<v1::BoardPicture> EmptyPicture(int64_t rows, int64_t cols,
                                              absl::string_view field);

// INVALID_ARGUMENT naming solution.cells unless the solution (when not null)
// has one value per cell of the picture. SolveEngine::Draw checks this
// before drawing; a drawing checks again, as it is also called directly.
absl::Status CheckSolutionCells(const v1::BoardPicture& picture,
                                const v1::PuzzleSolution* solution);

// INVALID_ARGUMENT naming `<field>[<index>]` unless `cell` is a cell of the
// picture.
absl::Status CheckCell(const v1::BoardPicture& picture, int64_t cell,
                       absl::string_view field, int index);

// A wall between every two orthogonal neighbours of different regions
// (PictureCell.region), so that regions read without their colours too.
void AddRegionWalls(v1::BoardPicture& picture);

}  // namespace qs

#endif  // QS_CORE_FAMILIES_PICTURE_H_
