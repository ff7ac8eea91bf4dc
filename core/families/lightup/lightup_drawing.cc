// How a Light Up board is drawn (Family::draw, Solver.Draw; docs/lightup.md
// §7): black cells blocked, with their numbers as given text; a solution's
// lights as "sun" glyphs (a bulb's disc) and every cell they light shaded.
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/base/status_macros.h"
#include "core/families/lightup/lightup.h"
#include "core/families/picture.h"
#include "qs/v1/drawing.pb.h"
#include "qs/v1/puzzles.pb.h"

namespace qs {

absl::StatusOr<v1::BoardPicture> DrawLightup(
    const v1::PuzzleSpec& spec, const v1::PuzzleSolution* solution) {
  const v1::LightupPuzzle& lightup = spec.lightup();
  ASSIGN_OR_RETURN(v1::BoardPicture picture,
                   EmptyPicture(lightup.rows(), lightup.cols(), "lightup"));
  RETURN_IF_ERROR(CheckSolutionCells(picture, solution));
  ASSIGN_OR_RETURN(const LightupBoard b, CheckLightupSpec(lightup));
  for (int i = 0; i < b.size(); ++i) {
    if (b.IsWhite(i)) continue;
    v1::PictureCell& cell = *picture.mutable_cells(i);
    cell.set_blocked(true);
    cell.set_given(true);
    if (b.number[i] >= 0) cell.set_text(absl::StrCat(b.number[i]));
  }
  if (solution == nullptr) return picture;
  // Only 1 on a white cell is a light (a light on a black cell is drawn as
  // the black cell: the validator names it).
  for (int i = 0; i < b.size(); ++i) {
    if (!b.IsWhite(i) || solution->cells(i) != 1) continue;
    picture.mutable_cells(i)->set_glyph("sun");
    for (int lit : b.Lighters(i)) picture.mutable_cells(lit)->set_shaded(true);
  }
  return picture;
}

}  // namespace qs
