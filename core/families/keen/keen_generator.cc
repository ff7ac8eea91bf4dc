// Keen puzzles with proven-unique solutions (docs/keen.md §Generator). A Keen
// puzzle has no clues to remove ([Mücke 2024] §4's step 2): its cages are the
// puzzle. A board is drawn directly: a Latin square (the cyclic square with
// its rows, columns and digits shuffled), cages grown from the cells in
// random order to 1..4 cells (mostly 2 and 3), and an operation per cage from
// its digits (a given for one cell, / where the pair divides, otherwise -, +
// or x for two cells and + or x for more). CaDiCaL on the rules
// (keen_rules.cc) keeps a board only when it finds no second solution. The
// difficulty knob grades boards by how many cells unit propagation of the
// rules decides, as for Tents: every cell (DIFFICULTY_EASY), at least half
// (DIFFICULTY_MEDIUM), or not all (DIFFICULTY_HARD).
#include <algorithm>
#include <memory>
#include <numeric>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/rng.h"
#include "core/base/status_macros.h"
#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/families/keen/keen.h"
#include "core/generate/generator.h"

namespace qs {
namespace {

// Boards drawn before giving up on one puzzle.
constexpr int kMaxAttempts = 2000;

template <typename T>
void Shuffle(std::vector<T>& items, Xoshiro256& rng) {
  for (size_t i = items.size(); i > 1; --i)
    std::swap(items[i - 1], items[rng.NextBelow(i)]);
}

std::vector<int> RandomLatinSquare(int n, Xoshiro256& rng) {
  std::vector<int> rows(n), cols(n), digits(n);
  std::iota(rows.begin(), rows.end(), 0);
  std::iota(cols.begin(), cols.end(), 0);
  std::iota(digits.begin(), digits.end(), 1);
  Shuffle(rows, rng);
  Shuffle(cols, rng);
  Shuffle(digits, rng);
  std::vector<int> square(n * n);
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c)
      square[r * n + c] = digits[(rows[r] + cols[c]) % n];
  }
  return square;
}

// A cage size: 1 (one in twenty), 2, 3 or 4.
int DrawCageSize(Xoshiro256& rng) {
  const double u = rng.NextDouble();
  return u < 0.05 ? 1 : u < 0.55 ? 2 : u < 0.85 ? 3 : 4;
}

std::vector<std::vector<int>> DrawCages(int n, Xoshiro256& rng) {
  std::vector<int> cage_of(n * n, -1), order(n * n);
  std::iota(order.begin(), order.end(), 0);
  Shuffle(order, rng);
  std::vector<std::vector<int>> cages;
  for (int start : order) {
    if (cage_of[start] >= 0) continue;
    const int id = static_cast<int>(cages.size());
    std::vector<int> cells = {start};
    cage_of[start] = id;
    const int want = DrawCageSize(rng);
    while (static_cast<int>(cells.size()) < want) {
      std::vector<int> free;
      for (int cell : cells) {
        const int r = cell / n, c = cell % n;
        const int around[4][2] = {
            {r - 1, c}, {r + 1, c}, {r, c - 1}, {r, c + 1}};
        for (const auto& [rr, cc] : around) {
          if (rr >= 0 && rr < n && cc >= 0 && cc < n &&
              cage_of[rr * n + cc] < 0)
            free.push_back(rr * n + cc);
        }
      }
      if (free.empty()) break;
      const int next = free[rng.NextBelow(free.size())];
      cage_of[next] = id;
      cells.push_back(next);
    }
    std::sort(cells.begin(), cells.end());
    cages.push_back(std::move(cells));
  }
  // Cages by their first cell, as a game ID lists them.
  std::sort(cages.begin(), cages.end());
  return cages;
}

void SetOperation(const std::vector<int>& digits, Xoshiro256& rng,
                  v1::KeenCage& cage) {
  uint64_t sum = 0, product = 1;
  for (int d : digits) sum += d, product *= d;
  if (digits.size() == 1) {
    cage.set_operation(v1::KeenCage::GIVEN);
    cage.set_target(digits[0]);
    return;
  }
  const double u = rng.NextDouble();
  if (digits.size() == 2) {
    const int lo = std::min(digits[0], digits[1]);
    const int hi = std::max(digits[0], digits[1]);
    if (hi % lo == 0 && u < 0.5) {
      cage.set_operation(v1::KeenCage::DIVIDE);
      cage.set_target(hi / lo);
      return;
    }
    if (u < 0.75) {
      cage.set_operation(v1::KeenCage::SUBTRACT);
      cage.set_target(hi - lo);
      return;
    }
  }
  const bool add = rng.NextDouble() < 0.5;
  cage.set_operation(add ? v1::KeenCage::ADD : v1::KeenCage::MULTIPLY);
  cage.set_target(add ? sum : product);
}

v1::PuzzleSpec DrawPuzzle(int n, const std::vector<int>& square,
                          Xoshiro256& rng) {
  v1::PuzzleSpec spec;
  v1::KeenPuzzle& keen = *spec.mutable_keen();
  keen.set_size(n);
  for (const std::vector<int>& cells : DrawCages(n, rng)) {
    v1::KeenCage& cage = *keen.add_cages();
    std::vector<int> digits;
    for (int cell : cells) {
      cage.add_cells(cell);
      digits.push_back(square[cell]);
    }
    SetOperation(digits, rng, cage);
  }
  return spec;
}

// The share of cells whose digit unit propagation of the rules decides.
double DecidedShare(const Cnf& cnf, int n) {
  const std::vector<int8_t> values = Propagate(cnf, {});
  if (values.empty()) return 0;
  int decided = 0;
  for (int cell = 0; cell < n * n; ++cell) {
    for (int d = 0; d < n; ++d) decided += values[cell * n + d] == 1;
  }
  return static_cast<double>(decided) / (n * n);
}

class KeenGenerator final : public PuzzleGenerator {
 public:
  absl::string_view family() const override { return "keen"; }

  absl::Status Check(const GenerateOptions& options) const override {
    RETURN_IF_ERROR(
        CheckGridSides(options, family(), kKeenMinSize, kKeenMaxSize));
    if (options.rows != options.cols) {
      return absl::InvalidArgumentError(
          absl::StrCat("cols: keen grids are square, got ", options.rows, "x",
                       options.cols));
    }
    if (options.target_clues != 0) {
      return absl::InvalidArgumentError(
          "target_clues: a keen puzzle is its cages; there are no clues to "
          "remove");
    }
    return absl::OkStatus();
  }

  absl::StatusOr<GeneratedPuzzle> Generate(
      const GenerateOptions& options, uint64_t seed,
      SolutionSampler& /*sampler*/, Interrupter& interrupter) const override {
    const int n = options.rows;
    Xoshiro256 rng(seed);
    ASSIGN_OR_RETURN(const RulesEncoder* encoder, BuiltinEncoders().ForSpec([] {
      v1::PuzzleSpec spec;
      spec.mutable_keen();
      return spec;
    }()));
    const auto compiler = NewKeenCompiler();
    const double required = RequiredPropagation(options.difficulty);
    GeneratedPuzzle out;
    out.puzzle_kind = "keen";
    for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
      if (interrupter.reason() != StopReason::kNone)
        return absl::AbortedError("keen generation stopped");
      const std::vector<int> square = RandomLatinSquare(n, rng);
      v1::PuzzleSpec spec = DrawPuzzle(n, square, rng);
      ASSIGN_OR_RETURN(const KeenShape g, KeenShapeOf(spec.keen()));
      ASSIGN_OR_RETURN(const Cnf cnf,
                       EncodeCnf(*encoder, spec, g.num_variables()));
      const double share = DecidedShare(cnf, n);
      if (share < required) continue;
      if (options.difficulty == v1::DIFFICULTY_HARD && share >= 1.0) continue;
      ASSIGN_OR_RETURN(
          const bool unique,
          HasExactlyOneSolution(cnf, "keen", interrupter, &out.sat_calls));
      if (!unique) continue;
      v1::PuzzleSolution board;
      for (int digit : square) board.add_cells(digit);
      ASSIGN_OR_RETURN(const CompiledProblem problem,
                       compiler->Compile(spec, v1::CompileOptions()));
      ASSIGN_OR_RETURN(out.solution, compiler->Encode(spec, problem, board));
      out.puzzle = std::move(spec);
      out.clues = out.clues_at_start = out.puzzle.keen().cages_size();
      out.propagation_decided = share;
      return out;
    }
    return absl::ResourceExhaustedError(
        absl::StrCat("no ", n, "x", n,
                     " keen board with a unique solution at this difficulty "
                     "in ",
                     kMaxAttempts, " draws"));
  }
};

}  // namespace

std::unique_ptr<PuzzleGenerator> NewKeenGenerator() {
  return std::make_unique<KeenGenerator>();
}

}  // namespace qs
