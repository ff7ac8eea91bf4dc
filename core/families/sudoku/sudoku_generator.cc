// Sudoku puzzles with proven-unique solutions: [Mücke 2024] §4's sketch, for
// every variant GenerateRequest.sudoku asks for. The solved grid comes from the
// annealer on the partly clamped QUBO: the first row is clamped to a random
// permutation of the digits, which keeps the draw uniform (relabelling the
// digits maps the grids with one first row one-to-one onto those with any
// other, in every variant) and leaves the annealer a smaller model; the clues
// are the grid's cells. A jigsaw's regions are drawn first (the boxes,
// reshaped by random swaps of border cells that keep every region connected)
// and kept only when the exact engine finds them a grid. Where the annealer
// finds no grid (X, jigsaw and the larger sides), and always from 16x16 on,
// CaDiCaL makes one from the clamped first row and a few random clamps. A
// killer's cages are drawn over the solved grid (connected, no digit twice, 2
// to 4 cells where the grid allows), their sums given, and its givens then
// removed like any clue.
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
#include "core/families/sudoku/sudoku.h"
#include "core/generate/clue_removal.h"
#include "core/generate/generator.h"

namespace qs {
namespace {

constexpr int kJigsawAttempts = 50;
// Sides whose grid the exact engine makes without asking the annealer.
constexpr int kExactSide = 16;

// The side a request asks for: box_rows * box_cols, else rows.
int RequestedSide(const GenerateOptions& options) {
  const v1::SudokuVariant& variant = options.sudoku;
  if (variant.box_rows() != 0 && variant.box_cols() != 0)
    return static_cast<int>(variant.box_rows() * variant.box_cols());
  return options.rows;
}

// Boxes of a side: n x n for a square side, else the most even
// rows x cols split with rows <= cols (6 -> 2x3, 8 -> 2x4, 12 -> 3x4).
std::pair<int, int> BoxesOf(int side) {
  int rows = 1;
  for (int r = 1; r * r <= side; ++r) {
    if (side % r == 0) rows = r;
  }
  return {rows, side / rows};
}

bool Connected(const std::vector<int>& region, int side, int id) {
  int start = -1, size = 0;
  for (int cell = 0; cell < side * side; ++cell) {
    if (region[cell] != id) continue;
    ++size;
    if (start < 0) start = cell;
  }
  if (start < 0) return true;
  std::vector<bool> seen(side * side, false);
  std::vector<int> stack = {start};
  seen[start] = true;
  int reached = 0;
  while (!stack.empty()) {
    const int cell = stack.back();
    stack.pop_back();
    ++reached;
    const int r = cell / side, c = cell % side;
    const int next[4][2] = {{r - 1, c}, {r + 1, c}, {r, c - 1}, {r, c + 1}};
    for (const auto& [r2, c2] : next) {
      if (r2 < 0 || c2 < 0 || r2 >= side || c2 >= side) continue;
      const int other = r2 * side + c2;
      if (seen[other] || region[other] != id) continue;
      seen[other] = true;
      stack.push_back(other);
    }
  }
  return reached == size;
}

// Orthogonal neighbours of a cell.
std::vector<int> Neighbours(int cell, int side) {
  std::vector<int> out;
  const int r = cell / side, c = cell % side;
  if (r > 0) out.push_back(cell - side);
  if (r + 1 < side) out.push_back(cell + side);
  if (c > 0) out.push_back(cell - 1);
  if (c + 1 < side) out.push_back(cell + 1);
  return out;
}

// Jigsaw regions: the boxes, then random exchanges of two border cells
// between neighbouring regions, kept when both regions stay connected.
std::vector<int> DrawRegions(int side, Xoshiro256& rng) {
  const auto [box_rows, box_cols] = BoxesOf(side);
  std::vector<int> region(side * side);
  for (int cell = 0; cell < side * side; ++cell) {
    const int r = cell / side, c = cell % side;
    region[cell] = (r / box_rows) * (side / box_cols) + c / box_cols;
  }
  const int swaps = side * side * 4;
  for (int attempt = 0, done = 0; attempt < swaps * 20 && done < swaps;
       ++attempt) {
    // A cell a of region A next to region B, and a cell b of B next to A.
    const int a = static_cast<int>(rng.NextBelow(side * side));
    const std::vector<int> around_a = Neighbours(a, side);
    const int toward = around_a[rng.NextBelow(around_a.size())];
    const int ra = region[a], rb = region[toward];
    if (ra == rb) continue;
    std::vector<int> candidates;
    for (int cell = 0; cell < side * side; ++cell) {
      if (region[cell] != rb || cell == toward) continue;
      for (int n : Neighbours(cell, side)) {
        if (region[n] == ra && n != a) {
          candidates.push_back(cell);
          break;
        }
      }
    }
    if (candidates.empty()) continue;
    const int b = candidates[rng.NextBelow(candidates.size())];
    region[a] = rb;
    region[b] = ra;
    if (Connected(region, side, ra) && Connected(region, side, rb)) {
      ++done;
    } else {
      region[a] = ra;
      region[b] = rb;
    }
  }
  return region;
}

// Killer cages over a solved grid: cells in random order start a cage of a
// random size 2..4 that grows into random neighbours not yet caged whose
// digits it lacks.
void DrawCages(const std::vector<int>& digits, int side, Xoshiro256& rng,
               v1::SudokuPuzzle& puzzle) {
  const int cells = side * side;
  std::vector<int> order(cells);
  std::iota(order.begin(), order.end(), 0);
  for (int i = cells - 1; i > 0; --i)
    std::swap(order[i], order[rng.NextBelow(i + 1)]);
  std::vector<bool> caged(cells, false);
  for (int start : order) {
    if (caged[start]) continue;
    const int size = 2 + static_cast<int>(rng.NextBelow(3));
    std::vector<int> cage = {start};
    std::vector<bool> has(side + 1, false);
    caged[start] = true;
    has[digits[start]] = true;
    while (static_cast<int>(cage.size()) < size) {
      std::vector<int> frontier;
      for (int cell : cage) {
        for (int n : Neighbours(cell, side)) {
          if (!caged[n] && !has[digits[n]] &&
              std::find(frontier.begin(), frontier.end(), n) == frontier.end())
            frontier.push_back(n);
        }
      }
      if (frontier.empty()) break;
      const int next = frontier[rng.NextBelow(frontier.size())];
      caged[next] = true;
      has[digits[next]] = true;
      cage.push_back(next);
    }
    std::sort(cage.begin(), cage.end());
    v1::SudokuCage& out = *puzzle.add_cages();
    int sum = 0;
    for (int cell : cage) {
      out.add_cells(cell);
      sum += digits[cell];
    }
    out.set_sum(sum);
  }
}

// A grid of `spec` from CaDiCaL. Its first row is already a random
// permutation; side more cells are clamped to random digits that no peer
// holds, so that grids differ beyond a relabelling (the draw is not uniform),
// and fewer when those admit no grid.
absl::StatusOr<std::vector<uint8_t>> ExactGrid(const RulesEncoder& encoder,
                                               const v1::PuzzleSpec& spec,
                                               Xoshiro256& rng,
                                               Interrupter& interrupter) {
  ASSIGN_OR_RETURN(const SudokuShape shape, SudokuShapeOf(spec.sudoku()));
  const int side = shape.side;
  for (int extra = side;; extra /= 2) {
    v1::PuzzleSpec clamped = spec;
    v1::SudokuPuzzle& sudoku = *clamped.mutable_sudoku();
    for (int k = 0; k < extra; ++k) {
      const int cell = static_cast<int>(rng.NextBelow(shape.cells()));
      if (sudoku.cells(cell) != 0) continue;
      std::vector<bool> taken(side + 1, false);
      for (int peer : shape.peers[cell]) taken[sudoku.cells(peer)] = true;
      std::vector<int> digits;
      for (int d = 1; d <= side; ++d) {
        if (!taken[d]) digits.push_back(d);
      }
      if (!digits.empty())
        sudoku.set_cells(cell, digits[rng.NextBelow(digits.size())]);
    }
    std::vector<uint8_t> grid;
    ASSIGN_OR_RETURN(
        const ExactSolveResult result,
        SolveRules(
            encoder, clamped, side * side * side, 1,
            [&](std::vector<uint8_t> bits) { grid = std::move(bits); },
            &interrupter));
    if (interrupter.ShouldStop()) return absl::AbortedError("stopped");
    if (result.enumeration.found > 0) return grid;
    if (extra == 0) {
      return absl::InternalError("the exact engine found no grid");
    }
  }
}

class SudokuGenerator final : public PuzzleGenerator {
 public:
  absl::string_view family() const override { return "sudoku"; }

  absl::Status Check(const GenerateOptions& options) const override {
    const v1::SudokuVariant& variant = options.sudoku;
    const bool boxes = variant.box_rows() != 0 || variant.box_cols() != 0;
    if (boxes) {
      if (variant.box_rows() == 0 || variant.box_cols() == 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            variant.box_rows() == 0 ? "sudoku.box_rows" : "sudoku.box_cols",
            ": box_rows and box_cols are set together"));
      }
      if (variant.jigsaw()) {
        return absl::InvalidArgumentError(
            "sudoku.jigsaw: jigsaw regions replace the boxes; leave box_rows "
            "and box_cols 0");
      }
      const uint64_t side =
          uint64_t{variant.box_rows()} * uint64_t{variant.box_cols()};
      if (side < 4 || side > 16) {
        return absl::InvalidArgumentError(absl::StrCat(
            "sudoku.box_rows: box_rows x box_cols must give a side of 4..16, "
            "got ",
            side));
      }
      if (options.rows != 0 && options.rows != static_cast<int>(side)) {
        return absl::InvalidArgumentError(
            absl::StrCat("rows: boxes of ", variant.box_rows(), "x",
                         variant.box_cols(), " make a side of ", side,
                         "; give 0 or ", side, ", got ", options.rows));
      }
    } else if (variant.jigsaw()) {
      if (options.rows < 4 || options.rows > 16) {
        return absl::InvalidArgumentError(absl::StrCat(
            "rows: a jigsaw Sudoku side is 4..16, got ", options.rows));
      }
    } else if (options.rows != 4 && options.rows != 9 && options.rows != 16 &&
               options.rows != 25) {
      return absl::InvalidArgumentError(absl::StrCat(
          "rows: a Sudoku side is 4, 9, 16 or 25 (or set sudoku.box_rows and "
          "box_cols, or sudoku.jigsaw), got ",
          options.rows));
    }
    const int side = RequestedSide(options);
    if (options.cols != 0 && options.cols != side) {
      return absl::InvalidArgumentError(
          absl::StrCat("cols: a Sudoku grid is square; give 0 or ", side,
                       ", got ", options.cols));
    }
    if (variant.killer() && side > 16) {
      return absl::InvalidArgumentError(absl::StrCat(
          "sudoku.killer: killer grids go up to 16x16, got ", side));
    }
    return absl::OkStatus();
  }

  absl::StatusOr<GeneratedPuzzle> Generate(
      const GenerateOptions& options, uint64_t seed, SolutionSampler& sampler,
      Interrupter& interrupter) const override {
    const v1::SudokuVariant& variant = options.sudoku;
    const int side = RequestedSide(options);
    Xoshiro256 rng(seed);
    GeneratedPuzzle out;
    out.puzzle_kind = "sudoku";
    // The variant's empty board: its shape and rules, no clue.
    v1::PuzzleSpec empty;
    v1::SudokuPuzzle& board = *empty.mutable_sudoku();
    if (variant.box_rows() != 0) {
      board.set_box_rows(variant.box_rows());
      board.set_box_cols(variant.box_cols());
    } else if (!variant.jigsaw()) {
      int box = 2;
      while (box * box < side) ++box;
      board.set_box_size(box);
    }
    board.set_diagonals(variant.diagonals());
    board.mutable_cells()->Resize(side * side, 0);
    ASSIGN_OR_RETURN(const RulesEncoder* encoder,
                     BuiltinEncoders().ForSpec(empty));
    if (variant.jigsaw()) {
      // Regions that admit no grid at all are drawn again.
      bool found = false;
      for (int attempt = 0; attempt < kJigsawAttempts && !found; ++attempt) {
        board.clear_regions();
        for (int id : DrawRegions(side, rng)) board.add_regions(id);
        ASSIGN_OR_RETURN(const ExactSolveResult result,
                         SolveRules(
                             *encoder, empty, side * side * side, 1,
                             [](std::vector<uint8_t>) {}, &interrupter));
        if (interrupter.ShouldStop()) return absl::AbortedError("stopped");
        found = result.enumeration.found > 0;
      }
      if (!found) {
        return absl::InternalError(absl::StrCat(
            "no jigsaw regions with a grid in ", kJigsawAttempts, " draws"));
      }
    }

    v1::PuzzleSpec grid_spec = empty;
    std::vector<uint32_t> first_row(side);
    std::iota(first_row.begin(), first_row.end(), 1u);
    for (int i = side - 1; i > 0; --i)
      std::swap(first_row[i], first_row[rng.NextBelow(i + 1)]);
    for (int cell = 0; cell < side; ++cell)
      grid_spec.mutable_sudoku()->set_cells(cell, first_row[cell]);
    // From 16x16 on, the annealer's reads (16 of 1000 sweeps by default)
    // reach a valid grid too rarely to be worth their minutes.
    absl::StatusOr<std::vector<uint8_t>> sampled =
        side >= kExactSide
            ? absl::NotFoundError("large grid")
            : sampler.SampleValidBoard(grid_spec, rng.Next(), interrupter,
                                       &out.sample_reads);
    // Where the annealer finds no grid in its reads (X, jigsaw and the larger
    // sides are harder than the classic 9x9), the exact engine makes one.
    if (absl::IsNotFound(sampled.status())) {
      sampled = ExactGrid(*encoder, grid_spec, rng, interrupter);
    }
    RETURN_IF_ERROR(sampled.status());
    std::vector<uint8_t> solution = *std::move(sampled);
    std::vector<int> digits(side * side, 0);
    for (int cell = 0; cell < side * side; ++cell) {
      for (int d = 0; d < side; ++d) {
        if (solution[cell * side + d]) digits[cell] = d + 1;
      }
    }
    if (variant.killer()) DrawCages(digits, side, rng, board);

    EncodeOptions encode;
    encode.clues = false;
    CluePuzzle clues;
    ASSIGN_OR_RETURN(clues.cnf,
                     EncodeCnf(*encoder, empty, side * side * side, encode));
    for (int cell = 0; cell < side * side; ++cell) {
      std::vector<int> vars;
      for (int d = 0; d < side; ++d) vars.push_back(cell * side + d + 1);
      clues.cells.push_back(std::move(vars));
      clues.clues.push_back({{cell * side + digits[cell]}, cell});
    }
    clues.solution = std::move(solution);
    ASSIGN_OR_RETURN(const ClueRemoval removal,
                     RemoveClues(clues, options, rng, interrupter));

    out.puzzle = empty;
    v1::SudokuPuzzle& puzzle = *out.puzzle.mutable_sudoku();
    for (int cell = 0; cell < side * side; ++cell)
      puzzle.set_cells(cell, removal.kept[cell] ? digits[cell] : 0);
    out.solution = std::move(clues.solution);
    out.clues = removal.clues;
    out.clues_at_start = side * side;
    out.propagation_decided = removal.propagation_decided;
    out.sat_calls = removal.sat_calls;
    return out;
  }
};

}  // namespace

std::unique_ptr<PuzzleGenerator> NewSudokuGenerator() {
  return std::make_unique<SudokuGenerator>();
}

}  // namespace qs
