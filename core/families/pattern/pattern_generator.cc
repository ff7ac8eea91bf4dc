// Nonogram puzzles with proven-unique solutions (docs/pattern.md
// "Generator"): a random picture, its clues, kept when line solving
// (pattern_lines.cc, the reduction's fixpoint) decides every cell from the
// clues alone, which proves the picture the only solution; otherwise drawn
// again. Pictures are drawn cell by cell, filled with probability 0.6 or, on
// half the draws, with the probability of the filled share of the cell's
// already drawn neighbours above and to the left (so that larger blocks
// appear, which line solving needs on larger grids). Every puzzle solves by
// line solving alone, whatever the difficulty asked; no givens are added.
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/rng.h"
#include "core/base/status_macros.h"
#include "core/families/pattern/pattern.h"
#include "core/generate/generator.h"

namespace qs {
namespace {

constexpr int kMinSide = 2;
constexpr int kMaxSide = 30;
constexpr int kMaxAttempts = 5000;
constexpr double kFill = 0.6;

std::vector<uint8_t> DrawPicture(int rows, int cols, Xoshiro256& rng) {
  std::vector<uint8_t> filled(rows * cols, 0);
  const bool blocky = rng.NextBelow(2) == 1;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      double p = kFill;
      if (blocky && (r > 0 || c > 0)) {
        int seen = 0, on = 0;
        if (r > 0) {
          on += filled[(r - 1) * cols + c];
          ++seen;
        }
        if (c > 0) {
          on += filled[r * cols + c - 1];
          ++seen;
        }
        p = 0.15 + 0.75 * on / seen;
      }
      filled[r * cols + c] = rng.NextDouble() < p;
    }
  }
  return filled;
}

v1::PuzzleSpec SpecOf(int rows, int cols, const std::vector<uint8_t>& filled) {
  v1::PuzzleSpec spec;
  v1::PatternPuzzle& puzzle = *spec.mutable_pattern();
  puzzle.set_rows(rows);
  puzzle.set_cols(cols);
  std::vector<uint8_t> line;
  for (int r = 0; r < rows; ++r) {
    line.assign(filled.begin() + r * cols, filled.begin() + (r + 1) * cols);
    v1::PatternClue& clue = *puzzle.add_row_clues();
    for (int run : PatternRunsOf(line)) clue.add_runs(run);
  }
  for (int c = 0; c < cols; ++c) {
    line.clear();
    for (int r = 0; r < rows; ++r) line.push_back(filled[r * cols + c]);
    v1::PatternClue& clue = *puzzle.add_col_clues();
    for (int run : PatternRunsOf(line)) clue.add_runs(run);
  }
  return spec;
}

class PatternGenerator final : public PuzzleGenerator {
 public:
  absl::string_view family() const override { return "pattern"; }

  absl::Status Check(const GenerateOptions& options) const override {
    RETURN_IF_ERROR(CheckGridSides(options, family(), kMinSide, kMaxSide));
    if (options.target_clues != 0) {
      return absl::InvalidArgumentError(
          "target_clues: pattern puzzles give every line's clue; there are "
          "no clues to remove");
    }
    return absl::OkStatus();
  }

  absl::StatusOr<GeneratedPuzzle> Generate(
      const GenerateOptions& options, uint64_t seed,
      SolutionSampler& /*sampler*/, Interrupter& interrupter) const override {
    const int rows = options.rows, cols = options.cols;
    Xoshiro256 rng(seed);
    for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
      if (interrupter.reason() != StopReason::kNone)
        return absl::AbortedError("pattern generation stopped");
      const std::vector<uint8_t> filled = DrawPicture(rows, cols, rng);
      v1::PuzzleSpec spec = SpecOf(rows, cols, filled);
      ASSIGN_OR_RETURN(const PatternGrid grid, PatternGridOf(spec.pattern()));
      PatternKnowledge knowledge = InitialKnowledge(grid);
      if (!SolveLinesToFixpoint(grid, knowledge)) continue;
      bool decided = true;
      for (int8_t cell : knowledge.cell) decided &= cell >= 0;
      if (!decided) continue;
      GeneratedPuzzle out;
      out.puzzle_kind = "pattern";
      ASSIGN_OR_RETURN(out.solution, PatternStartsOfBoard(grid, filled));
      out.puzzle = std::move(spec);
      out.clues = rows + cols;
      out.clues_at_start = out.clues;
      out.propagation_decided = 1.0;
      return out;
    }
    return absl::ResourceExhaustedError(
        absl::StrCat("no ", rows, "x", cols,
                     " pattern picture that line solving decides in ",
                     kMaxAttempts, " draws"));
  }
};

}  // namespace

std::unique_ptr<PuzzleGenerator> NewPatternGenerator() {
  return std::make_unique<PatternGenerator>();
}

}  // namespace qs
