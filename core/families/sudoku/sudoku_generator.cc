// Sudoku puzzles with proven-unique solutions: [Mücke 2024] §4's sketch. The
// solved grid comes from the annealer on the partly clamped QUBO: the first row
// is clamped to a random permutation of the digits, which keeps the draw
// uniform (relabelling the digits maps the grids with one first row one-to-one
// onto those with any other) and leaves the annealer a smaller model; the clues
// are the grid's cells.
#include <memory>
#include <numeric>
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

class SudokuGenerator final : public PuzzleGenerator {
 public:
  absl::string_view family() const override { return "sudoku"; }

  absl::Status Check(const GenerateOptions& options) const override {
    if (options.rows != 4 && options.rows != 9 && options.rows != 16) {
      return absl::InvalidArgumentError(absl::StrCat(
          "rows: a Sudoku side is 4, 9 or 16, got ", options.rows));
    }
    if (options.cols != options.rows) {
      return absl::InvalidArgumentError(
          absl::StrCat("cols: a Sudoku grid is square; give 0 or ",
                       options.rows, ", got ", options.cols));
    }
    return absl::OkStatus();
  }

  absl::StatusOr<GeneratedPuzzle> Generate(
      const GenerateOptions& options, uint64_t seed, SolutionSampler& sampler,
      Interrupter& interrupter) const override {
    const int side = options.rows;
    const int box = side == 4 ? 2 : (side == 9 ? 3 : 4);
    Xoshiro256 rng(seed);
    GeneratedPuzzle out;
    out.puzzle_kind = "sudoku";

    v1::PuzzleSpec grid_spec;
    v1::SudokuPuzzle& grid = *grid_spec.mutable_sudoku();
    grid.set_box_size(box);
    std::vector<uint32_t> first_row(side);
    std::iota(first_row.begin(), first_row.end(), 1u);
    for (int i = side - 1; i > 0; --i)
      std::swap(first_row[i], first_row[rng.NextBelow(i + 1)]);
    for (int cell = 0; cell < side * side; ++cell)
      grid.add_cells(cell < side ? first_row[cell] : 0);
    ASSIGN_OR_RETURN(std::vector<uint8_t> solution,
                     sampler.SampleValidBoard(grid_spec, rng.Next(),
                                              interrupter, &out.sample_reads));

    v1::PuzzleSpec empty;
    empty.mutable_sudoku()->set_box_size(box);
    empty.mutable_sudoku()->mutable_cells()->Resize(side * side, 0);
    ASSIGN_OR_RETURN(const RulesEncoder* encoder,
                     BuiltinEncoders().ForSpec(empty));
    EncodeOptions encode;
    encode.clues = false;
    CluePuzzle clues;
    ASSIGN_OR_RETURN(clues.cnf,
                     EncodeCnf(*encoder, empty, side * side * side, encode));
    std::vector<int> digits(side * side, 0);
    for (int cell = 0; cell < side * side; ++cell) {
      std::vector<int> vars;
      for (int d = 0; d < side; ++d) {
        const int v = cell * side + d;
        vars.push_back(v + 1);
        if (solution[v]) digits[cell] = d + 1;
      }
      clues.cells.push_back(std::move(vars));
      clues.clues.push_back({{cell * side + digits[cell]}, cell});
    }
    clues.solution = std::move(solution);
    ASSIGN_OR_RETURN(const ClueRemoval removal,
                     RemoveClues(clues, options, rng, interrupter));

    v1::SudokuPuzzle& puzzle = *out.puzzle.mutable_sudoku();
    puzzle.set_box_size(box);
    for (int cell = 0; cell < side * side; ++cell)
      puzzle.add_cells(removal.kept[cell] ? digits[cell] : 0);
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
