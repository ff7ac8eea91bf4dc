// How a Takuzu or Tango board is drawn (Family::draw, Solver.Draw): the
// givens and a solution's values as glyphs ("sun" for 0, "moon" for 1, as
// Tango draws them), the '=' and 'x' signs between side neighbours as
// signs, and count regions as region colours with walls. A sign between
// cells that are not side neighbours ([Mata Ali & Mencia 2024] §3.3.5) has no
// place on a picture's edges and is left out.
#include <cstdint>
#include <cstdlib>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/base/status_macros.h"
#include "core/families/picture.h"
#include "qs/v1/drawing.pb.h"
#include "qs/v1/puzzles.pb.h"
#include "qs/v1/takuzu.pb.h"

namespace qs {
namespace {

const char* GlyphOf(int value) { return value == 0 ? "sun" : "moon"; }

// The cell's index, or INVALID_ARGUMENT naming `field` when it is off the
// board.
absl::StatusOr<uint32_t> CellOf(const v1::TakuzuCellRef& ref,
                                const v1::BoardPicture& picture,
                                absl::string_view field) {
  if (ref.row() >= picture.rows() || ref.col() >= picture.cols())
    return absl::InvalidArgumentError(absl::StrCat(
        field, ": cell (", ref.row(), ",", ref.col(), ") is off the ",
        picture.rows(), "x", picture.cols(), " board"));
  return ref.row() * picture.cols() + ref.col();
}

}  // namespace

absl::StatusOr<v1::BoardPicture> DrawTakuzu(
    const v1::PuzzleSpec& spec, const v1::PuzzleSolution* solution) {
  const v1::TakuzuPuzzle& takuzu = spec.takuzu();
  ASSIGN_OR_RETURN(v1::BoardPicture picture,
                   EmptyPicture(takuzu.rows(), takuzu.cols(), "takuzu"));
  RETURN_IF_ERROR(CheckSolutionCells(picture, solution));
  const int n = picture.cells_size();
  if (!takuzu.cells().empty() && takuzu.cells_size() != n)
    return absl::InvalidArgumentError(absl::StrCat(
        "takuzu.cells: ", takuzu.cells_size(), " entries for ", n, " cells"));
  for (int i = 0; i < takuzu.cells_size(); ++i) {
    const v1::TakuzuPuzzle::Cell given = takuzu.cells(i);
    if (given != v1::TakuzuPuzzle::ZERO && given != v1::TakuzuPuzzle::ONE)
      continue;
    v1::PictureCell& cell = *picture.mutable_cells(i);
    cell.set_glyph(GlyphOf(given == v1::TakuzuPuzzle::ZERO ? 0 : 1));
    cell.set_given(true);
  }
  // Regions may overlap; a cell takes the colour of the first that holds it.
  for (int k = 0; k < takuzu.regions_size(); ++k) {
    const std::string field = absl::StrCat("takuzu.regions[", k, "].cells");
    for (const v1::TakuzuCellRef& ref : takuzu.regions(k).cells()) {
      ASSIGN_OR_RETURN(const uint32_t at, CellOf(ref, picture, field));
      v1::PictureCell& cell = *picture.mutable_cells(static_cast<int>(at));
      if (cell.region() == 0) cell.set_region(static_cast<uint32_t>(k) + 1);
    }
  }
  if (!takuzu.regions().empty()) AddRegionWalls(picture);
  for (int k = 0; k < takuzu.signs_size(); ++k) {
    const v1::TakuzuSign& sign = takuzu.signs(k);
    const std::string field = absl::StrCat("takuzu.signs[", k, "]");
    ASSIGN_OR_RETURN(const uint32_t a,
                     CellOf(sign.a(), picture, absl::StrCat(field, ".a")));
    ASSIGN_OR_RETURN(const uint32_t b,
                     CellOf(sign.b(), picture, absl::StrCat(field, ".b")));
    const int64_t rows_apart =
        std::abs(int64_t{sign.a().row()} - sign.b().row());
    const int64_t cols_apart =
        std::abs(int64_t{sign.a().col()} - sign.b().col());
    if (rows_apart + cols_apart != 1) continue;
    if (sign.kind() != v1::TakuzuSign::EQUAL &&
        sign.kind() != v1::TakuzuSign::DIFFERENT)
      continue;
    v1::EdgeSign& edge = *picture.add_signs();
    edge.set_a(a);
    edge.set_b(b);
    edge.set_text(sign.kind() == v1::TakuzuSign::EQUAL ? "=" : "x");
  }
  if (solution != nullptr) {
    for (int i = 0; i < n; ++i) {
      v1::PictureCell& cell = *picture.mutable_cells(i);
      const int32_t value = solution->cells(i);
      if (cell.given() || (value != 0 && value != 1)) continue;
      cell.set_glyph(GlyphOf(value));
    }
  }
  return picture;
}

}  // namespace qs
