// Takuzu and LinkedIn Tango puzzles ([Mata Ali & Mencia 2025] §2, [Mata Ali &
// Mencia 2024] §3) with proven-unique solutions. The annealer fills an empty
// board under the QUBO (for Takuzu the solve goes on until a board also has
// unique rows and columns, the rule no QUBO term expresses); the clues are the
// cells and, for Tango, an '=' or 'x' sign between every two side neighbours,
// each sign switched by a selector variable whose two guarded clauses state it.
// Removal in random order then leaves a mix of givens and signs.
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/rng.h"
#include "core/base/status_macros.h"
#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/generate/clue_removal.h"
#include "core/generate/generator.h"

namespace qs {
namespace {

constexpr int kMinSide = 4;
constexpr int kMaxSide = 14;

class TakuzuGenerator final : public PuzzleGenerator {
 public:
  explicit TakuzuGenerator(bool tango) : tango_(tango) {}

  absl::string_view family() const override {
    return tango_ ? "tango" : "takuzu";
  }

  absl::Status Check(const GenerateOptions& options) const override {
    for (const auto& [field, side] :
         {std::pair<const char*, int>{"rows", options.rows},
          std::pair<const char*, int>{"cols", options.cols}}) {
      if (side < kMinSide || side > kMaxSide || side % 2 != 0) {
        return absl::InvalidArgumentError(
            absl::StrCat(field, ": ", family(), " sides are even, ", kMinSide,
                         "..", kMaxSide, ", got ", side));
      }
    }
    return absl::OkStatus();
  }

  absl::StatusOr<GeneratedPuzzle> Generate(
      const GenerateOptions& options, uint64_t seed, SolutionSampler& sampler,
      Interrupter& interrupter) const override {
    const int rows = options.rows, cols = options.cols, n = rows * cols;
    Xoshiro256 rng(seed);
    GeneratedPuzzle out;
    out.puzzle_kind = std::string(family());

    v1::PuzzleSpec empty;
    v1::TakuzuPuzzle& board = *empty.mutable_takuzu();
    board.set_rows(rows);
    board.set_cols(cols);
    board.set_unique_lines(!tango_);
    ASSIGN_OR_RETURN(std::vector<uint8_t> solution,
                     sampler.SampleValidBoard(empty, rng.Next(), interrupter,
                                              &out.sample_reads));

    ASSIGN_OR_RETURN(const RulesEncoder* encoder,
                     BuiltinEncoders().ForSpec(empty));
    EncodeOptions encode;
    encode.clues = false;
    CnfBuilder builder(n);
    RETURN_IF_ERROR(encoder->Encode(empty, encode, builder));
    CluePuzzle clues;
    for (int cell = 0; cell < n; ++cell) {
      clues.cells.push_back({cell + 1});
      clues.clues.push_back({{solution[cell] ? cell + 1 : -(cell + 1)}, cell});
    }
    // Tango: the sign of every pair of side neighbours, behind a selector.
    struct Sign {
      int a, b;
      bool different;
    };
    std::vector<Sign> signs;
    if (tango_) {
      for (int cell = 0; cell < n; ++cell) {
        const int r = cell / cols, c = cell % cols;
        for (const int other :
             {c + 1 < cols ? cell + 1 : -1, r + 1 < rows ? cell + cols : -1}) {
          if (other < 0) continue;
          const bool different = solution[cell] != solution[other];
          const int s = builder.NewVariable();
          const int a = cell + 1, b = different ? -(other + 1) : other + 1;
          builder.AddClause({-s, -a, b});
          builder.AddClause({-s, a, -b});
          signs.push_back({cell, other, different});
          clues.clues.push_back({{s}, -1});
        }
      }
    }
    clues.cnf = std::move(builder).Take();
    clues.solution = std::move(solution);
    ASSIGN_OR_RETURN(const ClueRemoval removal,
                     RemoveClues(clues, options, rng, interrupter));

    out.puzzle = empty;
    v1::TakuzuPuzzle& puzzle = *out.puzzle.mutable_takuzu();
    for (int cell = 0; cell < n; ++cell) {
      puzzle.add_cells(!removal.kept[cell]    ? v1::TakuzuPuzzle::BLANK
                       : clues.solution[cell] ? v1::TakuzuPuzzle::ONE
                                              : v1::TakuzuPuzzle::ZERO);
    }
    for (size_t k = 0; k < signs.size(); ++k) {
      if (!removal.kept[n + k]) continue;
      v1::TakuzuSign& sign = *puzzle.add_signs();
      sign.mutable_a()->set_row(signs[k].a / cols);
      sign.mutable_a()->set_col(signs[k].a % cols);
      sign.mutable_b()->set_row(signs[k].b / cols);
      sign.mutable_b()->set_col(signs[k].b % cols);
      sign.set_kind(signs[k].different ? v1::TakuzuSign::DIFFERENT
                                       : v1::TakuzuSign::EQUAL);
    }
    out.solution = std::move(clues.solution);
    out.clues = removal.clues;
    out.clues_at_start = static_cast<int>(clues.clues.size());
    out.propagation_decided = removal.propagation_decided;
    out.sat_calls = removal.sat_calls;
    return out;
  }

 private:
  const bool tango_;
};

}  // namespace

std::unique_ptr<PuzzleGenerator> NewTakuzuGenerator() {
  return std::make_unique<TakuzuGenerator>(/*tango=*/false);
}

std::unique_ptr<PuzzleGenerator> NewTangoGenerator() {
  return std::make_unique<TakuzuGenerator>(/*tango=*/true);
}

}  // namespace qs
