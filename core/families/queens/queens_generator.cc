// LinkedIn Queens puzzles ([Mata Ali & Mencia 2024] §2.1-2.2: one queen
// per row, column and colour region, no two queens diagonally adjacent) with
// proven-unique solutions. The annealer places N queens under the row, column
// and adjacency rules (the LinkedIn QUBO without regions); one region is grown
// from each queen into random orthogonal neighbours; then, while CaDiCaL finds
// another solution, a cell where that solution has a queen and the placement
// has none moves to a neighbouring region (never disconnecting its own): the
// other solution then has two queens in one region, the placement is still a
// solution, and the next check looks for another. The clues are pre-placed
// queens: with unique regions DIFFICULTY_HARD removes them all, easier levels
// keep some.
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
constexpr int kMaxSide = 16;
// Region moves per growth, and growths per puzzle, before giving up.
constexpr int kMovesPerSide = 40;
constexpr int kMaxGrowths = 50;

std::vector<int> Neighbours(int n, int cell) {
  std::vector<int> out;
  const int r = cell / n, c = cell % n;
  if (r > 0) out.push_back(cell - n);
  if (r + 1 < n) out.push_back(cell + n);
  if (c > 0) out.push_back(cell - 1);
  if (c + 1 < n) out.push_back(cell + 1);
  return out;
}

// True when region `id` stays connected without `removed`.
bool ConnectedWithout(int n, const std::vector<int>& regions, int id,
                      int removed) {
  std::vector<int> stack;
  std::vector<bool> seen(n * n, false);
  int total = 0;
  for (int cell = 0; cell < n * n; ++cell) {
    if (regions[cell] != id || cell == removed) continue;
    ++total;
    if (stack.empty()) {
      stack.push_back(cell);
      seen[cell] = true;
    }
  }
  int reached = 0;
  while (!stack.empty()) {
    const int cell = stack.back();
    stack.pop_back();
    ++reached;
    for (int next : Neighbours(n, cell)) {
      if (next == removed || seen[next] || regions[next] != id) continue;
      seen[next] = true;
      stack.push_back(next);
    }
  }
  return reached == total;
}

// Regions grown from the queens: an unassigned cell next to a region joins it,
// one random cell at a time. Region ids are shuffled so that they say nothing
// about the rows.
std::vector<int> GrowRegions(int n, const std::vector<int>& queen_cells,
                             Xoshiro256& rng) {
  std::vector<int> ids(n);
  for (int k = 0; k < n; ++k) ids[k] = k;
  for (int i = n - 1; i > 0; --i) std::swap(ids[i], ids[rng.NextBelow(i + 1)]);
  std::vector<int> regions(n * n, -1);
  for (int k = 0; k < n; ++k) regions[queen_cells[k]] = ids[k];
  for (int assigned = n; assigned < n * n; ++assigned) {
    std::vector<std::pair<int, int>> options;  // (cell, region)
    for (int cell = 0; cell < n * n; ++cell) {
      if (regions[cell] >= 0) continue;
      for (int nb : Neighbours(n, cell)) {
        if (regions[nb] >= 0) options.push_back({cell, regions[nb]});
      }
    }
    const auto [cell, region] = options[rng.NextBelow(options.size())];
    regions[cell] = region;
  }
  return regions;
}

v1::PuzzleSpec LinkedInSpec(int n, const std::vector<int>& regions) {
  v1::PuzzleSpec spec;
  v1::QueensPuzzle& queens = *spec.mutable_queens();
  queens.set_rows(n);
  queens.set_cols(n);
  queens.set_attack(v1::QUEENS_ATTACK_ADJACENT_DIAGONALS);
  for (int id : regions) queens.add_regions(id);
  return spec;
}

class QueensGenerator final : public PuzzleGenerator {
 public:
  absl::string_view family() const override { return "queens"; }

  absl::Status Check(const GenerateOptions& options) const override {
    if (options.rows < kMinSide || options.rows > kMaxSide) {
      return absl::InvalidArgumentError(
          absl::StrCat("rows: LinkedIn Queens boards are ", kMinSide, "..",
                       kMaxSide, " wide, got ", options.rows));
    }
    if (options.cols != options.rows) {
      return absl::InvalidArgumentError(
          absl::StrCat("cols: a LinkedIn Queens board is square; give 0 or ",
                       options.rows, ", got ", options.cols));
    }
    return absl::OkStatus();
  }

  absl::StatusOr<GeneratedPuzzle> Generate(
      const GenerateOptions& options, uint64_t seed, SolutionSampler& sampler,
      Interrupter& interrupter) const override {
    const int n = options.rows;
    Xoshiro256 rng(seed);
    GeneratedPuzzle out;
    out.puzzle_kind = "queens";

    v1::PuzzleSpec placement;
    placement.mutable_queens()->set_rows(n);
    placement.mutable_queens()->set_attack(
        v1::QUEENS_ATTACK_ADJACENT_DIAGONALS);
    ASSIGN_OR_RETURN(std::vector<uint8_t> target,
                     sampler.SampleValidBoard(placement, rng.Next(),
                                              interrupter, &out.sample_reads));
    std::vector<int> queen_cells;
    for (int cell = 0; cell < n * n; ++cell) {
      if (target[cell]) queen_cells.push_back(cell);
    }

    ASSIGN_OR_RETURN(const RulesEncoder* encoder,
                     BuiltinEncoders().ForSpec(placement));
    EncodeOptions encode;
    encode.clues = false;
    std::vector<int> regions;
    bool unique = false;
    for (int growth = 0; growth < kMaxGrowths && !unique; ++growth) {
      regions = GrowRegions(n, queen_cells, rng);
      for (int move = 0; move < kMovesPerSide * n; ++move) {
        ASSIGN_OR_RETURN(
            const Cnf cnf,
            EncodeCnf(*encoder, LinkedInSpec(n, regions), n * n, encode));
        SatSolver solver(cnf);
        solver.Block(target);
        ++out.sat_calls;
        const SatResult result = solver.Solve({}, &interrupter);
        if (result == SatResult::kUnknown)
          return absl::AbortedError("stopped while growing regions");
        if (result == SatResult::kUnsatisfiable) {
          unique = true;
          break;
        }
        // Moves that put two of the other solution's queens in one region.
        const std::vector<uint8_t> other = solver.Model();
        std::vector<std::pair<int, int>> moves;  // (cell, new region)
        for (int cell = 0; cell < n * n; ++cell) {
          if (!other[cell] || target[cell]) continue;
          if (!ConnectedWithout(n, regions, regions[cell], cell)) continue;
          for (int nb : Neighbours(n, cell)) {
            if (regions[nb] != regions[cell])
              moves.push_back({cell, regions[nb]});
          }
        }
        if (moves.empty()) break;
        const auto [cell, region] = moves[rng.NextBelow(moves.size())];
        regions[cell] = region;
      }
    }
    if (!unique) {
      return absl::InternalError(
          absl::StrCat("no region map with a unique solution after ",
                       kMaxGrowths, " growths"));
    }

    const v1::PuzzleSpec spec = LinkedInSpec(n, regions);
    CluePuzzle clues;
    ASSIGN_OR_RETURN(clues.cnf, EncodeCnf(*encoder, spec, n * n, encode));
    for (int cell = 0; cell < n * n; ++cell) clues.cells.push_back({cell + 1});
    for (int cell : queen_cells) clues.clues.push_back({{cell + 1}, cell});
    clues.solution = target;
    ASSIGN_OR_RETURN(const ClueRemoval removal,
                     RemoveClues(clues, options, rng, interrupter));

    out.puzzle = spec;
    for (int k = 0; k < n; ++k) {
      if (removal.kept[k])
        out.puzzle.mutable_queens()->add_given_queens(queen_cells[k]);
    }
    out.solution = std::move(target);
    out.clues = removal.clues;
    out.clues_at_start = n;
    out.propagation_decided = removal.propagation_decided;
    out.sat_calls += removal.sat_calls;
    return out;
  }
};

}  // namespace

std::unique_ptr<PuzzleGenerator> NewQueensGenerator() {
  return std::make_unique<QueensGenerator>();
}

}  // namespace qs
