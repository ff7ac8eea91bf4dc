// LinkedIn's Patches as an exact cover ([Lucas 2014] §4.1): split a rows x
// cols grid into rectangles ("patches"), each holding exactly one clue, of the
// clue's shape (any, square, tall: more rows than columns, wide: more columns
// than rows) and, when the clue shows one, of its area.
//
// Variables: one binary per candidate rectangle of a clue, a rectangle that
// holds the clue's cell and has the clue's shape and area (PatchCandidates
// lists them in the full model's order: clue by clue, then height, width, top
// row, left column). The model is
//   H = sum_clues (sum_{x of the clue} x - 1)^2
//     + sum_cells (sum_{x covering the cell} x - 1)^2,
// zero exactly on the tilings the rules allow: ground energy 0. A candidate
// holding a second clue costs nothing by itself, but covers that clue's cell
// twice once the other clue picks its own rectangle.
//
// Reductions (CompileResponse.stages): "other_clues" fixes to 0 the
// candidates that hold a second clue (REDUCTION_CLUES); "forced" then removes
// what no tiling can use (REDUCTION_FULL, the default), repeating until
// nothing changes: a cell that only one clue's candidates cover drops that
// clue's candidates missing it; a clue with one candidate left fixes it to 1,
// which drops its clue's other candidates and every candidate overlapping it.
// A cell or clue left without candidates makes the puzzle infeasible
// (INVALID_ARGUMENT on patches.clues naming it).
//
// Boards: cells[i] is the index of the clue whose patch holds cell i, -1 for
// a cell no patch holds and -2 for one several hold; rows show clue k as the
// letter 'a' + k ('A' + k - 26 from the 27th clue, '?' beyond 52), '.' and
// '*'. Validate names the broken rules: "cell_uncovered", "cell_overlap",
// "not_rectangle", "clue_count" (a patch holding another clue, or a clue whose
// cell is outside its patch), "shape", "area".
#ifndef QS_CORE_FAMILIES_PATCHES_PATCHES_H_
#define QS_CORE_FAMILIES_PATCHES_PATCHES_H_

#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "core/compile/compiler.h"
#include "qs/v1/patches.pb.h"

namespace qs {

inline constexpr int kPatchesMaxSide = 20;

// A checked puzzle.
struct PatchesBoard {
  struct Clue {
    int cell = 0;
    int area = 0;  // 0: not shown
    v1::PatchShape shape = v1::PATCH_SHAPE_ANY;
  };
  int rows = 0;
  int cols = 0;
  std::vector<Clue> clues;
  std::vector<int> clue_at;  // per cell: the clue there, or -1

  int size() const { return rows * cols; }
};

// The rows [row, row + height) and columns [col, col + width), as a candidate
// patch of clue `clue`.
struct PatchRect {
  int clue = 0;
  int row = 0;
  int col = 0;
  int height = 0;
  int width = 0;

  int area() const { return height * width; }
  bool Contains(int r, int c) const {
    return r >= row && r < row + height && c >= col && c < col + width;
  }
  bool Overlaps(const PatchRect& o) const {
    return row < o.row + o.height && o.row < row + height &&
           col < o.col + o.width && o.col < col + width;
  }
};

// INVALID_ARGUMENT naming the field: rows and cols 1..kPatchesMaxSide, at
// least one clue, clue cells distinct and on the grid, known shapes, areas
// that a rectangle of the clue's shape on the grid can have.
absl::StatusOr<PatchesBoard> CheckPatches(const v1::PatchesPuzzle& patches);

// Whether a height x width rectangle has `shape`.
bool ShapeFits(v1::PatchShape shape, int height, int width);

// The full model's variables, in order.
std::vector<PatchRect> PatchCandidates(const PatchesBoard& board);

// Their number, from the puzzle alone and without listing them (any spec:
// clue cells off the grid count nothing); saturates for huge grids.
int64_t CountPatchCandidates(const v1::PatchesPuzzle& patches);
// A lower bound of the full model's couplers, the same way: every two
// candidates of one clue are coupled. It keeps a grid of clues that show
// neither area nor shape (thousands of candidates each) under the server's
// size limits before anything is built.
int64_t CountPatchCouplersAtLeast(const v1::PatchesPuzzle& patches);

// Whether the rectangle holds a clue other than its own.
bool HoldsOtherClue(const PatchesBoard& board, const PatchRect& rect);

// The board letter of clue `clue` ('.' for -1, '*' for -2), and back (-3 for
// a character that is none).
char PatchLetter(int clue);
int PatchClueOfLetter(char letter);

std::unique_ptr<PuzzleCompiler> NewPatchesCompiler();

}  // namespace qs

#endif  // QS_CORE_FAMILIES_PATCHES_PATCHES_H_
