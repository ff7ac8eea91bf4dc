// Singles (Hitori) puzzles with proven-unique solutions (docs/singles.md
// "Generator"), drawn directly as in Simon Tatham's game: a random Latin
// rectangle (a random Latin square of the longer side, cropped), so the
// unshaded numbers never repeat in a line; cells shaded in random order
// wherever no side neighbour is shaded and the unshaded cells stay connected,
// until no more can be; then each shaded cell's number replaced by the number
// of a random unshaded cell of its row or column, so that every shading is
// forced by a duplicate. CaDiCaL on the rules (singles_rules.cc) keeps the
// board only when it finds no second shading, and the difficulty knob asks
// how many cells the compiler's Hitori deductions settle: every cell
// (DIFFICULTY_EASY), at least half (DIFFICULTY_MEDIUM), none required
// (DIFFICULTY_HARD). Every number is a clue; none is removed.
#include <algorithm>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/rng.h"
#include "core/base/status_macros.h"
#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/families/digit_grid.h"
#include "core/families/singles/singles.h"
#include "core/generate/generator.h"

namespace qs {
namespace {

constexpr int kMinSide = 3;
constexpr int kMaxSide = 12;
// Boards drawn before giving up on one puzzle.
constexpr int kMaxAttempts = 20000;

constexpr int kSteps[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};

template <typename T>
void Shuffle(std::vector<T>& items, Xoshiro256& rng) {
  for (size_t i = items.size(); i > 1; --i)
    std::swap(items[i - 1], items[rng.NextBelow(i)]);
}

// The side neighbours of a cell on the grid.
std::vector<int> SideNeighbours(int rows, int cols, int cell) {
  std::vector<int> out;
  const int r = cell / cols, c = cell % cols;
  for (const auto& s : kSteps) {
    const int rr = r + s[0], cc = c + s[1];
    if (rr >= 0 && rr < rows && cc >= 0 && cc < cols)
      out.push_back(rr * cols + cc);
  }
  return out;
}

// Whether the unshaded cells form one side-connected region.
bool UnshadedConnected(int rows, int cols, const std::vector<uint8_t>& shaded) {
  const int n = rows * cols;
  const int start = static_cast<int>(
      std::find(shaded.begin(), shaded.end(), 0) - shaded.begin());
  if (start == n) return false;
  std::vector<uint8_t> seen(n, 0);
  std::vector<int> stack = {start};
  seen[start] = 1;
  int reached = 1;
  while (!stack.empty()) {
    const int cell = stack.back();
    stack.pop_back();
    for (int next : SideNeighbours(rows, cols, cell)) {
      if (shaded[next] || seen[next]) continue;
      seen[next] = 1;
      ++reached;
      stack.push_back(next);
    }
  }
  return reached == n - std::count(shaded.begin(), shaded.end(), 1);
}

// A maximal shading: no two shaded cells side by side, the rest connected.
std::vector<uint8_t> DrawShading(int rows, int cols, Xoshiro256& rng) {
  const int n = rows * cols;
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  Shuffle(order, rng);
  std::vector<uint8_t> shaded(n, 0);
  for (int cell : order) {
    bool touches = false;
    for (int next : SideNeighbours(rows, cols, cell)) touches |= shaded[next];
    if (touches) continue;
    shaded[cell] = 1;
    if (!UnshadedConnected(rows, cols, shaded)) shaded[cell] = 0;
  }
  return shaded;
}

// The numbers: a Latin rectangle, each shaded cell then showing the number
// of an unshaded cell of its row or column.
std::vector<int> DrawNumbers(int rows, int cols,
                             const std::vector<uint8_t>& shaded,
                             Xoshiro256& rng) {
  const int side = std::max(rows, cols);
  const std::vector<int> square = DrawLatinSquare(side, rng);
  std::vector<int> numbers(rows * cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) numbers[r * cols + c] = square[r * side + c];
  for (int cell = 0; cell < rows * cols; ++cell) {
    if (!shaded[cell]) continue;
    const int r = cell / cols, c = cell % cols;
    std::vector<int> seen;
    for (int k = 0; k < cols; ++k)
      if (!shaded[r * cols + k]) seen.push_back(numbers[r * cols + k]);
    for (int k = 0; k < rows; ++k)
      if (!shaded[k * cols + c]) seen.push_back(numbers[k * cols + c]);
    // A shaded cell's side neighbours are all unshaded: seen is not empty.
    numbers[cell] = seen[rng.NextBelow(seen.size())];
  }
  return numbers;
}

v1::PuzzleSpec SpecOf(int rows, int cols, const std::vector<int>& numbers) {
  v1::PuzzleSpec spec;
  v1::SinglesPuzzle& p = *spec.mutable_singles();
  p.set_rows(rows);
  p.set_cols(cols);
  for (int number : numbers) p.add_numbers(static_cast<uint32_t>(number));
  return spec;
}

// The share of the cells that Hitori's deductions settle (the compiler's
// full reduction). Unit propagation of the rules alone decides no cell here:
// its clauses are all binary until a cell is known.
double DeducedShare(int rows, int cols, const std::vector<int>& numbers) {
  SinglesBoard board;
  board.rows = rows;
  board.cols = cols;
  board.numbers = numbers;
  const std::vector<int8_t> fixed = SinglesDeducedShading(board);
  const auto open = std::count(fixed.begin(), fixed.end(), -1);
  return 1.0 - static_cast<double>(open) / fixed.size();
}

class SinglesGenerator final : public PuzzleGenerator {
 public:
  absl::string_view family() const override { return "singles"; }

  absl::Status Check(const GenerateOptions& options) const override {
    RETURN_IF_ERROR(CheckGridSides(options, family(), kMinSide, kMaxSide));
    if (options.target_clues != 0) {
      return absl::InvalidArgumentError(
          "target_clues: singles puzzles show a number in every cell; there "
          "are no clues to remove");
    }
    return absl::OkStatus();
  }

  absl::StatusOr<GeneratedPuzzle> Generate(
      const GenerateOptions& options, uint64_t seed,
      SolutionSampler& /*sampler*/, Interrupter& interrupter) const override {
    const int rows = options.rows, cols = options.cols, n = rows * cols;
    Xoshiro256 rng(seed);
    ASSIGN_OR_RETURN(const RulesEncoder* encoder, BuiltinEncoders().ForSpec([] {
      v1::PuzzleSpec spec;
      spec.mutable_singles();
      return spec;
    }()));
    const SinglesLayout layout = MakeSinglesLayout(rows, cols);
    const double required = RequiredPropagation(options.difficulty);
    GeneratedPuzzle out;
    out.puzzle_kind = "singles";
    for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
      if (interrupter.reason() != StopReason::kNone)
        return absl::AbortedError("singles generation stopped");
      const std::vector<uint8_t> shaded = DrawShading(rows, cols, rng);
      // A shading the encoding's levels cannot state is drawn again.
      std::optional<std::vector<uint8_t>> solution =
          SinglesAuxiliaries(layout, shaded);
      if (!solution) continue;
      const std::vector<int> numbers = DrawNumbers(rows, cols, shaded, rng);
      const double decided = DeducedShare(rows, cols, numbers);
      if (decided < required) continue;
      const v1::PuzzleSpec spec = SpecOf(rows, cols, numbers);
      ASSIGN_OR_RETURN(const Cnf cnf,
                       EncodeCnf(*encoder, spec, layout.num_variables));
      ASSIGN_OR_RETURN(
          const bool unique,
          HasExactlyOneSolution(cnf, "singles", interrupter, &out.sat_calls));
      if (!unique) continue;
      out.puzzle = spec;
      out.solution = *std::move(solution);
      out.clues = out.clues_at_start = n;
      out.propagation_decided = decided;
      return out;
    }
    return absl::ResourceExhaustedError(
        absl::StrCat("no ", rows, "x", cols,
                     " singles board with a unique solution at this "
                     "difficulty in ",
                     kMaxAttempts, " draws"));
  }
};

}  // namespace

std::unique_ptr<PuzzleGenerator> NewSinglesGenerator() {
  return std::make_unique<SinglesGenerator>();
}

}  // namespace qs
