// Sudoku's rules ([Mücke 2024] §1) as Boolean constraints over the one-hot
// variables z_ijk of the QUBO (core/families/sudoku/sudoku.h: index (i * side +
// j) * side + k): every cell holds exactly one digit, every digit stands
// exactly once in every row, column and block, and every clue holds. Each
// exactly-one is [Bryant 2019]'s one-hot UNIQUE chain, so the formula has
// Theta(side^3) clauses where the pairwise one has Theta(side^4).
#include <memory>
#include <vector>

#include "core/exact/encoder.h"

namespace qs {
namespace {

class SudokuEncoder final : public RulesEncoder {
 public:
  absl::string_view kind() const override { return "sudoku"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kSudoku;
  }

  absl::Status Encode(const v1::PuzzleSpec& spec, const EncodeOptions& options,
                      ConstraintSink& sink) const override {
    const v1::SudokuPuzzle& sudoku = spec.sudoku();
    const int box = sudoku.box_size() == 0 ? 3 : sudoku.box_size();
    const int side = box * box;
    auto z = [side](int row, int col, int digit) {
      return (row * side + col) * side + digit + 1;
    };
    std::vector<int> unit(side);
    for (int r = 0; r < side; ++r) {
      for (int c = 0; c < side; ++c) {
        for (int d = 0; d < side; ++d) unit[d] = z(r, c, d);
        sink.AddExactlyOne(unit);
      }
    }
    for (int d = 0; d < side; ++d) {
      for (int u = 0; u < side; ++u) {
        for (int k = 0; k < side; ++k) unit[k] = z(u, k, d);
        sink.AddExactlyOne(unit);
        for (int k = 0; k < side; ++k) unit[k] = z(k, u, d);
        sink.AddExactlyOne(unit);
        for (int k = 0; k < side; ++k) {
          unit[k] = z((u / box) * box + k / box, (u % box) * box + k % box, d);
        }
        sink.AddExactlyOne(unit);
      }
    }
    if (!options.clues) return absl::OkStatus();
    for (int cell = 0; cell < sudoku.cells_size(); ++cell) {
      const int clue = static_cast<int>(sudoku.cells(cell));
      if (clue > 0) sink.AddUnit(z(cell / side, cell % side, clue - 1));
    }
    return absl::OkStatus();
  }
};

}  // namespace

std::unique_ptr<RulesEncoder> NewSudokuEncoder() {
  return std::make_unique<SudokuEncoder>();
}

}  // namespace qs
