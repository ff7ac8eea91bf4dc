// Futoshiki puzzles (the normal, inequality mode) with proven-unique
// solutions (docs/unequal.md "Generator"). A random Latin square is filled
// by backtracking with the digits tried in random order; its clues are every
// cell's digit and the sign between every two side neighbours, each sign
// switched by a selector variable whose guarded clauses forbid the digit
// pairs it rules out (the clauses of unequal_rules.cc). Clue removal
// (core/generate/clue_removal.h) then drops givens and signs in random order
// while CaDiCaL proves the square the only solution, and the difficulty knob
// asks how much of the grid unit propagation must still decide. The adjacent
// mode is not generated: GenerateRequest has no field to ask for it.
#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/rng.h"
#include "core/base/status_macros.h"
#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/families/digit_grid.h"
#include "core/families/unequal/unequal.h"
#include "core/generate/clue_removal.h"
#include "core/generate/generator.h"

namespace qs {
namespace {

constexpr int kMinSide = 3;
constexpr int kMaxSide = 9;

class UnequalGenerator final : public PuzzleGenerator {
 public:
  absl::string_view family() const override { return "unequal"; }

  absl::Status Check(const GenerateOptions& options) const override {
    RETURN_IF_ERROR(CheckGridSides(options, family(), kMinSide, kMaxSide));
    if (options.rows != options.cols) {
      return absl::InvalidArgumentError(
          absl::StrCat("cols: unequal grids are square, got ", options.rows,
                       "x", options.cols));
    }
    return absl::OkStatus();
  }

  absl::StatusOr<GeneratedPuzzle> Generate(
      const GenerateOptions& options, uint64_t seed,
      SolutionSampler& /*sampler*/, Interrupter& interrupter) const override {
    const int n = options.rows, cells = n * n;
    Xoshiro256 rng(seed);
    const std::vector<int> square = DrawLatinSquare(n, rng);

    v1::PuzzleSpec empty;
    empty.mutable_unequal()->set_size(static_cast<uint32_t>(n));
    ASSIGN_OR_RETURN(const RulesEncoder* encoder,
                     BuiltinEncoders().ForSpec(empty));
    EncodeOptions encode;
    encode.clues = false;
    CnfBuilder builder(cells * n);
    RETURN_IF_ERROR(encoder->Encode(empty, encode, builder));
    CluePuzzle clues;
    clues.solution.assign(static_cast<size_t>(cells) * n, 0);
    for (int cell = 0; cell < cells; ++cell) {
      const int var = cell * n + square[cell] - 1;
      clues.solution[var] = 1;
      std::vector<int> digits;
      for (int d = 0; d < n; ++d) digits.push_back(cell * n + d + 1);
      clues.cells.push_back(std::move(digits));
      clues.clues.push_back({{var + 1}, cell});
    }
    // Every pair of side neighbours, greater cell first, behind a selector.
    std::vector<std::pair<int, int>> signs;
    for (int cell = 0; cell < cells; ++cell) {
      const int r = cell / n, c = cell % n;
      for (const int other :
           {c + 1 < n ? cell + 1 : -1, r + 1 < n ? cell + n : -1}) {
        if (other < 0) continue;
        const bool first_greater = square[cell] > square[other];
        const int a = first_greater ? cell : other;
        const int b = first_greater ? other : cell;
        const int s = builder.NewVariable();
        for (int d = 0; d < n; ++d) {
          for (int e = d; e < n; ++e)
            builder.AddClause({-s, -(a * n + d + 1), -(b * n + e + 1)});
        }
        signs.push_back({a, b});
        clues.clues.push_back({{s}, -1});
      }
    }
    clues.cnf = std::move(builder).Take();
    ASSIGN_OR_RETURN(const ClueRemoval removal,
                     RemoveClues(clues, options, rng, interrupter));

    GeneratedPuzzle out;
    out.puzzle_kind = "unequal";
    out.puzzle = empty;
    v1::UnequalPuzzle& puzzle = *out.puzzle.mutable_unequal();
    for (int cell = 0; cell < cells; ++cell)
      puzzle.add_givens(removal.kept[cell] ? square[cell] : 0);
    for (size_t k = 0; k < signs.size(); ++k) {
      if (!removal.kept[cells + k]) continue;
      v1::UnequalPair& sign = *puzzle.add_signs();
      sign.set_first(static_cast<uint32_t>(signs[k].first));
      sign.set_second(static_cast<uint32_t>(signs[k].second));
    }
    out.solution = std::move(clues.solution);
    out.clues = removal.clues;
    out.clues_at_start = static_cast<int>(clues.clues.size());
    out.propagation_decided = removal.propagation_decided;
    out.sat_calls = removal.sat_calls;
    return out;
  }
};

}  // namespace

std::unique_ptr<PuzzleGenerator> NewUnequalGenerator() {
  return std::make_unique<UnequalGenerator>();
}

}  // namespace qs
