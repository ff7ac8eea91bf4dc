// Light Up puzzles with proven-unique solutions (docs/lightup.md §8), after
// [Mücke 2024] §4's sketch with the board drawn directly, not annealed: about
// one cell in five is black, in pairs symmetric under a half turn as in
// Simon Tatham's game; lights go on the white cells in random order wherever
// no light lights the cell yet, which leaves every cell lit and no light
// seeing another. Every black cell then shows the number of lights beside
// it, and CaDiCaL on the rules (lightup_rules.cc) keeps the board only when
// it admits one solution. The numbers are then removed one by one in random
// order, each removal kept only while the solution stays the only one and
// unit propagation of the rules still decides the difficulty's share of the
// white cells (all for DIFFICULTY_EASY, half for DIFFICULTY_MEDIUM, none
// required for DIFFICULTY_HARD) and, with target_clues, until that many
// numbers are left. What it guarantees: a unique solution, and the
// propagation share; not Tatham's own grading.
#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/rng.h"
#include "core/base/status_macros.h"
#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/families/lightup/lightup.h"
#include "core/generate/generator.h"

namespace qs {
namespace {

constexpr int kMinSide = 3;
constexpr int kMaxSide = 20;
// Boards drawn before giving up on one puzzle.
constexpr int kMaxAttempts = 2000;
// One black cell per this many cells.
constexpr int kCellsPerBlack = 5;

void Shuffle(std::vector<int>& v, Xoshiro256& rng) {
  for (int i = static_cast<int>(v.size()) - 1; i > 0; --i)
    std::swap(v[i], v[rng.NextBelow(static_cast<uint64_t>(i) + 1)]);
}

// A random grid: -1 for a white cell, the number of lights beside each black
// cell; and its lights.
struct DrawnBoard {
  std::vector<int> number;
  std::vector<uint8_t> light;
};

DrawnBoard DrawBoard(int rows, int cols, Xoshiro256& rng) {
  const int n = rows * cols;
  DrawnBoard d;
  d.number.assign(n, -1);
  for (int cell = 0; cell < n; ++cell) {
    const int twin = n - 1 - cell;
    if (twin < cell) break;
    if (rng.NextBelow(kCellsPerBlack) == 0) d.number[cell] = d.number[twin] = 0;
  }
  d.light.assign(n, 0);
  std::vector<uint8_t> lit(n, 0);
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  Shuffle(order, rng);
  static constexpr int kSteps[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
  for (int cell : order) {
    if (d.number[cell] >= 0 || lit[cell]) continue;
    d.light[cell] = lit[cell] = 1;
    for (const auto& s : kSteps) {
      for (int r = cell / cols + s[0], c = cell % cols + s[1];
           r >= 0 && r < rows && c >= 0 && c < cols &&
           d.number[r * cols + c] < 0;
           r += s[0], c += s[1])
        lit[r * cols + c] = 1;
    }
  }
  for (int cell = 0; cell < n; ++cell) {
    if (d.number[cell] < 0) continue;
    const int r = cell / cols, c = cell % cols;
    for (const auto& s : kSteps) {
      const int rr = r + s[0], cc = c + s[1];
      if (rr >= 0 && rr < rows && cc >= 0 && cc < cols)
        d.number[cell] += d.light[rr * cols + cc];
    }
  }
  return d;
}

v1::PuzzleSpec SpecOf(int rows, int cols, const std::vector<int>& number,
                      const std::vector<uint8_t>& shown) {
  v1::PuzzleSpec spec;
  v1::LightupPuzzle& p = *spec.mutable_lightup();
  p.set_rows(rows);
  p.set_cols(cols);
  for (int cell = 0; cell < rows * cols; ++cell) {
    if (number[cell] < 0) continue;
    v1::LightupBlack& black = *p.add_blacks();
    black.set_cell(cell);
    if (shown[cell]) black.set_lights(number[cell]);
  }
  return spec;
}

class LightupGenerator final : public PuzzleGenerator {
 public:
  absl::string_view family() const override { return "lightup"; }

  absl::Status Check(const GenerateOptions& options) const override {
    return CheckGridSides(options, family(), kMinSide, kMaxSide);
  }

  absl::StatusOr<GeneratedPuzzle> Generate(
      const GenerateOptions& options, uint64_t seed,
      SolutionSampler& /*sampler*/, Interrupter& interrupter) const override {
    const int rows = options.rows, cols = options.cols, n = rows * cols;
    Xoshiro256 rng(seed);
    ASSIGN_OR_RETURN(const RulesEncoder* encoder, BuiltinEncoders().ForSpec([] {
      v1::PuzzleSpec spec;
      spec.mutable_lightup();
      return spec;
    }()));
    const double required = RequiredPropagation(options.difficulty);
    GeneratedPuzzle out;
    out.puzzle_kind = "lightup";
    // Whether the numbers `shown` leave one solution and the propagation
    // share; sets *decided to that share.
    auto good = [&](const DrawnBoard& d, const std::vector<uint8_t>& shown,
                    double* decided) -> absl::StatusOr<bool> {
      const v1::PuzzleSpec spec = SpecOf(rows, cols, d.number, shown);
      ASSIGN_OR_RETURN(const Cnf cnf, EncodeCnf(*encoder, spec, n));
      const std::vector<int8_t> propagated = Propagate(cnf, {});
      int white = 0, known = 0;
      for (int cell = 0; cell < n; ++cell) {
        if (d.number[cell] >= 0) continue;
        ++white;
        known += !propagated.empty() && propagated[cell] >= 0;
      }
      *decided = white == 0 ? 1.0 : static_cast<double>(known) / white;
      if (*decided < required) return false;
      return HasExactlyOneSolution(cnf, "lightup", interrupter, &out.sat_calls);
    };
    for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
      if (interrupter.reason() != StopReason::kNone)
        return absl::AbortedError("lightup generation stopped");
      DrawnBoard d = DrawBoard(rows, cols, rng);
      std::vector<uint8_t> shown(n, 0);
      std::vector<int> blacks;
      for (int cell = 0; cell < n; ++cell) {
        if (d.number[cell] < 0) continue;
        shown[cell] = 1;
        blacks.push_back(cell);
      }
      double decided = 0;
      ASSIGN_OR_RETURN(const bool unique, good(d, shown, &decided));
      if (!unique) continue;
      out.clues_at_start = static_cast<int>(blacks.size());
      int clues = out.clues_at_start;
      Shuffle(blacks, rng);
      for (int cell : blacks) {
        if (options.target_clues > 0 && clues <= options.target_clues) break;
        shown[cell] = 0;
        double share = 0;
        ASSIGN_OR_RETURN(const bool still, good(d, shown, &share));
        if (still) {
          --clues;
          decided = share;
        } else {
          shown[cell] = 1;
        }
      }
      out.puzzle = SpecOf(rows, cols, d.number, shown);
      out.solution = std::move(d.light);
      out.clues = clues;
      out.propagation_decided = decided;
      return out;
    }
    return absl::ResourceExhaustedError(
        absl::StrCat("no ", rows, "x", cols,
                     " lightup board with a unique solution at this "
                     "difficulty in ",
                     kMaxAttempts, " draws"));
  }
};

}  // namespace

std::unique_ptr<PuzzleGenerator> NewLightupGenerator() {
  return std::make_unique<LightupGenerator>();
}

}  // namespace qs
