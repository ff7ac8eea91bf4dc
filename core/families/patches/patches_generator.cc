// Patches puzzles with proven-unique solutions. A board is drawn directly, not
// annealed: the grid is cut into random rectangles (scanning the cells in
// reading order, each free cell starts a rectangle of random sides up to 4
// that fits the free space), each gets its clue on a random cell, with the
// rectangle's shape and area. Some shapes (about one in five) and some areas
// (about one in three, but never half of them or more) may then be hidden:
// those are the removable clues of core/generate/clue_removal.h, over the rules
// of the puzzle with every shape "any" and every area hidden, where a selector
// variable per shape and per area forbids the clue's other rectangles; the
// clues that stay shown are unit clauses. RemoveClues hides them in random
// order while CaDiCaL proves the tiling is still the only one, so "keep hiding,
// show again when the proof fails" ends on a unique puzzle. A board whose
// clues, all shown, allow a second tiling is drawn again. The difficulty knob
// asks, as for the other families, that unit propagation of the rules decides
// every cell (easy) or half of them (medium); GeneratedPuzzle.clues counts the
// shapes and areas shown, out of two per clue.
#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/rng.h"
#include "core/base/status_macros.h"
#include "core/exact/cnf.h"
#include "core/families/builtin.h"
#include "core/families/patches/patches.h"
#include "core/generate/clue_removal.h"
#include "core/generate/generator.h"

namespace qs {
namespace {

constexpr int kMinSide = 3;
constexpr int kMaxSide = 12;
// Longest side and largest area of a drawn rectangle.
constexpr int kMaxPatchSide = 4;
constexpr int kMaxPatchArea = 9;
// Boards drawn before giving up on one puzzle.
constexpr int kMaxAttempts = 500;
// Chances that a clue's shape, or its area, is offered for hiding.
constexpr double kHideShapeChance = 0.2;
constexpr double kHideAreaChance = 0.35;

v1::PatchShape ShapeOf(int height, int width) {
  return height == width  ? v1::PATCH_SHAPE_SQUARE
         : height > width ? v1::PATCH_SHAPE_TALL
                          : v1::PATCH_SHAPE_WIDE;
}

// A random partition of the grid into rectangles, in reading order of their
// top-left cells.
std::vector<PatchRect> DrawPartition(int rows, int cols, Xoshiro256& rng) {
  std::vector<uint8_t> used(static_cast<size_t>(rows) * cols, 0);
  std::vector<PatchRect> rects;
  for (int cell = 0; cell < rows * cols; ++cell) {
    if (used[cell]) continue;
    const int r = cell / cols, c = cell % cols;
    int max_w = 0;
    while (c + max_w < cols && !used[r * cols + c + max_w] &&
           max_w < kMaxPatchSide)
      ++max_w;
    int h = 1, w = 1;
    // Single cells are allowed but rare: a few redraws avoid most of them.
    for (int draw = 0; draw < 4; ++draw) {
      w = 1 + static_cast<int>(rng.NextBelow(max_w));
      int max_h = 0;
      for (bool free = true;
           free && r + max_h < rows && max_h < kMaxPatchSide;) {
        for (int cc = c; cc < c + w; ++cc)
          free = free && !used[(r + max_h) * cols + cc];
        if (free) ++max_h;
      }
      h = 1 + static_cast<int>(rng.NextBelow(max_h));
      if (h * w > kMaxPatchArea) continue;
      if (h * w > 1 || (max_w == 1 && max_h == 1)) break;
    }
    while (h * w > kMaxPatchArea) --h;
    for (int rr = r; rr < r + h; ++rr) {
      for (int cc = c; cc < c + w; ++cc) used[rr * cols + cc] = 1;
    }
    rects.push_back({0, r, c, h, w});
  }
  return rects;
}

class PatchesGenerator final : public PuzzleGenerator {
 public:
  absl::string_view family() const override { return "patches"; }

  absl::Status Check(const GenerateOptions& options) const override {
    return CheckGridSides(options, family(), kMinSide, kMaxSide);
  }

  absl::StatusOr<GeneratedPuzzle> Generate(
      const GenerateOptions& options, uint64_t seed,
      SolutionSampler& /*sampler*/, Interrupter& interrupter) const override {
    const int rows = options.rows, cols = options.cols;
    Xoshiro256 rng(seed);
    GeneratedPuzzle out;
    out.puzzle_kind = "patches";
    const double required = RequiredPropagation(options.difficulty);
    for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
      if (interrupter.reason() != StopReason::kNone)
        return absl::AbortedError("patches generation stopped");
      std::vector<PatchRect> rects = DrawPartition(rows, cols, rng);
      // Each rectangle's clue cell; clues in reading order of their cells.
      std::vector<std::pair<int, int>> clue_cells;  // (cell, rect)
      for (size_t k = 0; k < rects.size(); ++k) {
        const PatchRect& p = rects[k];
        const int r = p.row + static_cast<int>(rng.NextBelow(p.height));
        const int c = p.col + static_cast<int>(rng.NextBelow(p.width));
        clue_cells.push_back({r * cols + c, static_cast<int>(k)});
      }
      std::sort(clue_cells.begin(), clue_cells.end());
      std::vector<PatchRect> truth;
      v1::PuzzleSpec open;  // every shape "any", every area hidden
      open.mutable_patches()->set_rows(rows);
      open.mutable_patches()->set_cols(cols);
      for (size_t k = 0; k < clue_cells.size(); ++k) {
        PatchRect p = rects[clue_cells[k].second];
        p.clue = static_cast<int>(k);
        truth.push_back(p);
        open.mutable_patches()->add_clues()->set_cell(clue_cells[k].first);
      }
      ASSIGN_OR_RETURN(const PatchesBoard board, CheckPatches(open.patches()));
      const std::vector<PatchRect> candidates = PatchCandidates(board);
      const int n = static_cast<int>(candidates.size());
      ASSIGN_OR_RETURN(const RulesEncoder* encoder,
                       BuiltinEncoders().ForSpec(open));
      CnfBuilder builder(n);
      RETURN_IF_ERROR(encoder->Encode(open, {}, builder));
      CluePuzzle clues;
      clues.solution.assign(n, 0);
      clues.cells.resize(board.size());
      for (int v = 0; v < n; ++v) {
        const PatchRect& p = candidates[v];
        const PatchRect& t = truth[p.clue];
        if (p.row == t.row && p.col == t.col && p.height == t.height &&
            p.width == t.width)
          clues.solution[v] = 1;
        for (int r = p.row; r < p.row + p.height; ++r) {
          for (int c = p.col; c < p.col + p.width; ++c)
            clues.cells[r * cols + c].push_back(v + 1);
        }
      }
      // Per clue, a shape selector and an area selector (in that order), and
      // whether each may be hidden.
      std::vector<int> removable;  // index into `selectors`
      std::vector<int> selectors;
      int fixed = 0;
      // Most clues show their area.
      int area_offers = (static_cast<int>(truth.size()) - 1) / 2;
      for (size_t k = 0; k < truth.size(); ++k) {
        const PatchRect& t = truth[k];
        const v1::PatchShape shape = ShapeOf(t.height, t.width);
        for (const bool is_area : {false, true}) {
          const int s = builder.NewVariable();
          for (int v = 0; v < n; ++v) {
            const PatchRect& p = candidates[v];
            if (p.clue != static_cast<int>(k)) continue;
            const bool fits = is_area ? p.area() == t.area()
                                      : ShapeFits(shape, p.height, p.width);
            if (!fits) builder.AddClause({-s, -(v + 1)});
          }
          const double chance = is_area ? kHideAreaChance : kHideShapeChance;
          if (rng.NextDouble() < chance && (!is_area || area_offers-- > 0)) {
            removable.push_back(static_cast<int>(selectors.size()));
            clues.clues.push_back({{s}, -1});
          } else {
            builder.AddUnit(s);
            ++fixed;
          }
          selectors.push_back(s);
        }
      }
      clues.cnf = std::move(builder).Take();
      GenerateOptions removal_options = options;
      removal_options.target_clues = std::max(0, options.target_clues - fixed);
      absl::StatusOr<ClueRemoval> removal =
          RemoveClues(clues, removal_options, rng, interrupter);
      if (!removal.ok()) {
        if (removal.status().code() == absl::StatusCode::kFailedPrecondition) {
          ++out.sat_calls;
          continue;  // the clues, all shown, allow a second tiling
        }
        if (interrupter.reason() != StopReason::kNone)
          return absl::AbortedError("patches generation stopped");
        return removal.status();
      }
      out.sat_calls += removal->sat_calls;
      if (removal->propagation_decided < required) continue;
      std::vector<uint8_t> shown(selectors.size(), 1);
      for (size_t i = 0; i < removable.size(); ++i)
        shown[removable[i]] = removal->kept[i];
      v1::PuzzleSpec spec = open;
      for (size_t k = 0; k < truth.size(); ++k) {
        v1::PatchClue& clue = *spec.mutable_patches()->mutable_clues(k);
        if (shown[2 * k])
          clue.set_shape(ShapeOf(truth[k].height, truth[k].width));
        if (shown[2 * k + 1]) clue.set_area(truth[k].area());
      }
      ASSIGN_OR_RETURN(const PatchesBoard final_board,
                       CheckPatches(spec.patches()));
      const std::vector<PatchRect> final_candidates =
          PatchCandidates(final_board);
      out.solution.assign(final_candidates.size(), 0);
      for (size_t v = 0; v < final_candidates.size(); ++v) {
        const PatchRect& p = final_candidates[v];
        const PatchRect& t = truth[p.clue];
        out.solution[v] = p.row == t.row && p.col == t.col &&
                          p.height == t.height && p.width == t.width;
      }
      out.puzzle = std::move(spec);
      out.clues = fixed + removal->clues;
      out.clues_at_start = static_cast<int>(selectors.size());
      out.propagation_decided = removal->propagation_decided;
      return out;
    }
    return absl::ResourceExhaustedError(
        absl::StrCat("no ", rows, "x", cols,
                     " patches board with a unique tiling at this difficulty "
                     "in ",
                     kMaxAttempts, " draws"));
  }
};

}  // namespace

std::unique_ptr<PuzzleGenerator> NewPatchesGenerator() {
  return std::make_unique<PatchesGenerator>();
}

}  // namespace qs
