// Towers puzzles with proven-unique solutions (docs/towers.md §7). A random
// Latin square (the cyclic square with its rows, columns and heights
// shuffled: not uniform over all Latin squares, but every square of that
// kind is equally likely) gives all 4n clues; CaDiCaL on the rules
// (towers_rules.cc) keeps the square only when those clues admit it alone.
// The difficulty sets how many clues go, as in Simon Tatham's game, which
// keeps every clue on Easy: none (DIFFICULTY_EASY), removals down to half of
// them (DIFFICULTY_MEDIUM) or as many as keep the solution unique
// (DIFFICULTY_HARD), tried in random order, each removal kept while the
// solution stays the only one; target_clues stops the removals at that many
// clues. No heights are given. propagation_decided reports the share of the
// cells unit propagation of the rules decides. The clue set changes the
// model's variables (one chain per clue), so each candidate is encoded
// afresh.
#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/rng.h"
#include "core/base/status_macros.h"
#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/families/towers/towers.h"
#include "core/generate/generator.h"

namespace qs {
namespace {

constexpr int kMinSide = 3;
constexpr int kMaxSide = 9;
constexpr int kMaxSquares = 200;

void Shuffle(std::vector<int>& v, Xoshiro256& rng) {
  for (int i = static_cast<int>(v.size()) - 1; i > 0; --i)
    std::swap(v[i], v[rng.NextBelow(static_cast<uint64_t>(i) + 1)]);
}

std::vector<int> Permutation(int n, Xoshiro256& rng) {
  std::vector<int> p(n);
  for (int i = 0; i < n; ++i) p[i] = i;
  Shuffle(p, rng);
  return p;
}

// Heights 1..n, row-major.
std::vector<int> DrawSquare(int n, Xoshiro256& rng) {
  const std::vector<int> rows = Permutation(n, rng), cols = Permutation(n, rng),
                         syms = Permutation(n, rng);
  std::vector<int> square(n * n);
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c)
      square[r * n + c] = syms[(rows[r] + cols[c]) % n] + 1;
  }
  return square;
}

v1::PuzzleSpec SpecOf(int n, const std::vector<int>& clues) {
  v1::PuzzleSpec spec;
  v1::TowersPuzzle& towers = *spec.mutable_towers();
  towers.set_size(n);
  for (int i = 0; i < 4 * n; ++i) {
    auto* side = i < n       ? towers.mutable_top()
                 : i < 2 * n ? towers.mutable_bottom()
                 : i < 3 * n ? towers.mutable_left()
                             : towers.mutable_right();
    side->Add(clues[i]);
  }
  return spec;
}

// The full-model assignment of a square: its heights and each clue's chain.
std::vector<uint8_t> FullAssignment(const TowersShape& s,
                                    const std::vector<int>& square) {
  std::vector<uint8_t> bits(s.num_variables, 0);
  for (int cell = 0; cell < s.n * s.n; ++cell)
    bits[s.Var(cell, square[cell])] = 1;
  for (const TowersClue& clue : s.clues) {
    std::vector<int> heights;
    for (int cell : clue.cells) heights.push_back(square[cell]);
    for (int state : TowersTrueStates(s.n, heights))
      bits[clue.first_aux + state] = 1;
  }
  return bits;
}

class TowersGenerator final : public PuzzleGenerator {
 public:
  absl::string_view family() const override { return "towers"; }

  absl::Status Check(const GenerateOptions& options) const override {
    RETURN_IF_ERROR(CheckGridSides(options, family(), kMinSide, kMaxSide));
    if (options.cols != options.rows) {
      return absl::InvalidArgumentError(
          absl::StrCat("cols: towers grids are square, got ", options.rows, "x",
                       options.cols));
    }
    if (options.target_clues < 0 || options.target_clues > 4 * options.rows) {
      return absl::InvalidArgumentError(
          absl::StrCat("target_clues: a towers grid of side ", options.rows,
                       " has 0..", 4 * options.rows, " clues"));
    }
    return absl::OkStatus();
  }

  absl::StatusOr<GeneratedPuzzle> Generate(
      const GenerateOptions& options, uint64_t seed,
      SolutionSampler& /*sampler*/, Interrupter& interrupter) const override {
    const int n = options.rows;
    Xoshiro256 rng(seed);
    ASSIGN_OR_RETURN(
        const RulesEncoder* encoder,
        BuiltinEncoders().ForSpec(SpecOf(n, std::vector<int>(4 * n, 0))));
    // The fewest clues the difficulty keeps.
    const int floor = options.difficulty == v1::DIFFICULTY_EASY     ? 4 * n
                      : options.difficulty == v1::DIFFICULTY_MEDIUM ? 2 * n
                                                                    : 0;
    const int fewest = std::max(floor, options.target_clues);
    GeneratedPuzzle out;
    out.puzzle_kind = "towers";
    // Whether the clues admit one square only, and the share of cells unit
    // propagation decides.
    auto judge = [&](const std::vector<int>& clues, bool* unique,
                     double* decided) -> absl::Status {
      const v1::PuzzleSpec spec = SpecOf(n, clues);
      ASSIGN_OR_RETURN(const TowersShape s, TowersShapeOf(spec.towers()));
      ASSIGN_OR_RETURN(const Cnf cnf,
                       EncodeCnf(*encoder, spec, s.num_variables));
      const std::vector<int8_t> propagated = Propagate(cnf, {});
      int cells = 0;
      for (int cell = 0; cell < n * n && !propagated.empty(); ++cell) {
        bool single = false;
        for (int h = 1; h <= n; ++h) single |= propagated[s.Var(cell, h)] == 1;
        cells += single;
      }
      *decided = static_cast<double>(cells) / (n * n);
      ASSIGN_OR_RETURN(
          *unique,
          HasExactlyOneSolution(cnf, "towers", interrupter, &out.sat_calls));
      return absl::OkStatus();
    };
    for (int attempt = 0; attempt < kMaxSquares; ++attempt) {
      const std::vector<int> square = DrawSquare(n, rng);
      std::vector<int> clues(4 * n);
      for (int i = 0; i < 4 * n; ++i) {
        std::vector<int> heights;
        for (int cell : TowersLineCells(n, i / n, i % n))
          heights.push_back(square[cell]);
        clues[i] = TowersVisible(heights);
      }
      bool unique = false;
      double decided = 0;
      RETURN_IF_ERROR(judge(clues, &unique, &decided));
      if (!unique) continue;
      out.clues_at_start = 4 * n;
      int left = 4 * n;
      std::vector<int> order = Permutation(4 * n, rng);
      for (int i : order) {
        if (left <= fewest) break;
        const int kept = clues[i];
        clues[i] = 0;
        double now = 0;
        RETURN_IF_ERROR(judge(clues, &unique, &now));
        if (unique) {
          --left;
          decided = now;
        } else {
          clues[i] = kept;
        }
      }
      out.puzzle = SpecOf(n, clues);
      ASSIGN_OR_RETURN(const TowersShape s, TowersShapeOf(out.puzzle.towers()));
      out.solution = FullAssignment(s, square);
      out.clues = left;
      out.propagation_decided = decided;
      return out;
    }
    return absl::ResourceExhaustedError(
        absl::StrCat("no ", n, "x", n,
                     " towers square whose clues admit it alone at this "
                     "difficulty in ",
                     kMaxSquares, " draws"));
  }
};

}  // namespace

std::unique_ptr<PuzzleGenerator> NewTowersGenerator() {
  return std::make_unique<TowersGenerator>();
}

}  // namespace qs
