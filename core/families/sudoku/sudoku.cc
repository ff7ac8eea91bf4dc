// Sudoku compiler: [Mücke 2024] §2 (the 729-variable QUBO, generalized to n^2 x
// n^2) and §2.1 (clamping of clues by rules I-IV with exact offset
// bookkeeping).
#include "core/families/sudoku/sudoku.h"

#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/base/saturating.h"
#include "core/base/status_macros.h"

namespace qs {
namespace {

constexpr double kDefaultPenalty = 3.0;

struct Grid {
  int box = 3;   // n
  int side = 9;  // n^2
  int Var(int row, int col, int digit) const {
    return (row * side + col) * side + digit;
  }
  int Block(int row, int col) const { return (row / box) * box + col / box; }
  bool SameUnit(int r1, int c1, int r2, int c2) const {
    return r1 == r2 || c1 == c2 || Block(r1, c1) == Block(r2, c2);
  }
};

std::string CellName(int row, int col) {
  return absl::StrCat("(", row + 1, ",", col + 1, ")");
}

absl::StatusOr<Grid> CheckSpec(const v1::SudokuPuzzle& sudoku) {
  Grid grid;
  grid.box = sudoku.box_size() == 0 ? 3 : static_cast<int>(sudoku.box_size());
  if (grid.box < 2 || grid.box > 5) {
    return absl::InvalidArgumentError(
        absl::StrCat("sudoku.box_size: must be 2..5 (4x4 to 25x25 grids), got ",
                     sudoku.box_size()));
  }
  grid.side = grid.box * grid.box;
  const int cells = grid.side * grid.side;
  if (sudoku.cells_size() != cells) {
    return absl::InvalidArgumentError(absl::StrCat(
        "sudoku.cells: expected ", cells, " values for a ", grid.side, "x",
        grid.side, " grid, got ", sudoku.cells_size()));
  }
  for (int k = 0; k < cells; ++k) {
    if (sudoku.cells(k) > static_cast<uint32_t>(grid.side)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "sudoku.cells[", k, "]: digit ", sudoku.cells(k), " out of range 0..",
          grid.side, " at cell ", CellName(k / grid.side, k % grid.side)));
    }
  }
  // Clues that contradict each other can never be completed.
  for (int a = 0; a < cells; ++a) {
    if (sudoku.cells(a) == 0) continue;
    for (int b = a + 1; b < cells; ++b) {
      if (sudoku.cells(b) != sudoku.cells(a)) continue;
      const int ra = a / grid.side, ca = a % grid.side, rb = b / grid.side,
                cb = b % grid.side;
      if (grid.SameUnit(ra, ca, rb, cb)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "sudoku.cells: contradictory clues, digit ", sudoku.cells(a),
            " at ", CellName(ra, ca), " and ", CellName(rb, cb), " share a ",
            ra == rb ? "row" : (ca == cb ? "column" : "block")));
      }
    }
  }
  const double penalty =
      sudoku.penalty() == 0 ? kDefaultPenalty : sudoku.penalty();
  if (!(penalty > 2) || !std::isfinite(penalty)) {
    return absl::InvalidArgumentError(
        absl::StrCat("sudoku.penalty: lambda must be > 2 so that a conflict "
                     "never pays ([Mücke 2024] §2), got ",
                     sudoku.penalty()));
  }
  return grid;
}

absl::StatusOr<Qubo> BuildFullModel(const Grid& g, double penalty) {
  const int side = g.side;
  QuboBuilder builder(side * side * side);
  for (int r = 0; r < side; ++r) {
    for (int c = 0; c < side; ++c) {
      for (int d = 0; d < side; ++d) {
        const int v = g.Var(r, c, d);
        builder.AddLinear(v, -1.0);
        builder.SetLabel(v, absl::StrCat("r", r + 1, "c", c + 1, "d", d + 1));
        // (iv) several digits in one cell.
        for (int d2 = d + 1; d2 < side; ++d2)
          builder.AddQuadratic(v, g.Var(r, c, d2), penalty);
      }
      // (i)-(iii): same digit in a peer cell, each pair once however many units
      // it shares.
      const int cell = r * side + c;
      for (int cell2 = cell + 1; cell2 < side * side; ++cell2) {
        const int r2 = cell2 / side, c2 = cell2 % side;
        if (!g.SameUnit(r, c, r2, c2)) continue;
        for (int d = 0; d < side; ++d)
          builder.AddQuadratic(g.Var(r, c, d), g.Var(r2, c2, d), penalty);
      }
    }
  }
  return std::move(builder).Build();
}

// The exactly-one groups of the model over the full variables: each cell's
// digits, and each digit's cells in a row, a column and a block.
std::vector<std::vector<int32_t>> FullOneHotGroups(const Grid& g) {
  std::vector<std::vector<int32_t>> groups;
  for (int a = 0; a < g.side; ++a) {
    for (int b = 0; b < g.side; ++b) {
      std::vector<int32_t> cell, row, col, block;
      for (int k = 0; k < g.side; ++k) {
        cell.push_back(g.Var(a, b, k));  // cell (a, b)
        row.push_back(g.Var(a, k, b));   // digit b in row a
        col.push_back(g.Var(k, a, b));   // digit b in column a
        const int r = (a / g.box) * g.box + k / g.box;
        const int c = (a % g.box) * g.box + k % g.box;
        block.push_back(g.Var(r, c, b));  // digit b in block a
      }
      for (auto* group : {&cell, &row, &col, &block})
        groups.push_back(std::move(*group));
    }
  }
  return groups;
}

class SudokuCompiler final : public PuzzleCompiler {
 public:
  absl::string_view kind() const override { return "sudoku"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kSudoku;
  }

  int64_t ModelVariables(const v1::PuzzleSpec& spec) const override {
    const int64_t box =
        spec.sudoku().box_size() == 0 ? 3 : spec.sudoku().box_size();
    const int64_t side = SaturatingMul(box, box);
    return SaturatingMul(SaturatingMul(side, side), side);
  }

  absl::StatusOr<CompiledProblem> Compile(
      const v1::PuzzleSpec& spec,
      const v1::CompileOptions& options) const override {
    ASSIGN_OR_RETURN(CompiledProblem problem, CompileModel(spec, options));
    ASSIGN_OR_RETURN(const Grid g, CheckSpec(spec.sudoku()));
    problem.one_hot_groups =
        ReducedOneHotGroups(problem.variables, FullOneHotGroups(g));
    return problem;
  }

  absl::StatusOr<CompiledProblem> CompileModel(
      const v1::PuzzleSpec& spec, const v1::CompileOptions& options) const {
    const v1::SudokuPuzzle& sudoku = spec.sudoku();
    ASSIGN_OR_RETURN(const Grid g, CheckSpec(sudoku));
    const double penalty =
        sudoku.penalty() == 0 ? kDefaultPenalty : sudoku.penalty();
    CompiledProblem problem;
    problem.kind = std::string(kind());
    problem.height = problem.width = g.side;
    ASSIGN_OR_RETURN(problem.full_model, BuildFullModel(g, penalty));
    problem.ground_energy = -static_cast<double>(g.side * g.side);
    const int n = problem.full_model.num_variables();
    problem.stages.push_back({"model", n, 0, 0});

    const v1::Reduction reduction = options.reduction() == v1::REDUCTION_DEFAULT
                                        ? v1::REDUCTION_FULL
                                        : options.reduction();
    std::vector<int8_t> assignment(n, -1);
    if (reduction == v1::REDUCTION_NONE) {
      problem.model = problem.full_model;
      problem.variables = VariableMap::Identity(n);
      return problem;
    }
    // (I) the clue's variable is 1; (II) the cell's other digits are 0.
    for (int r = 0; r < g.side; ++r) {
      for (int c = 0; c < g.side; ++c) {
        const int clue = static_cast<int>(sudoku.cells(r * g.side + c));
        if (clue == 0) continue;
        for (int d = 0; d < g.side; ++d)
          assignment[g.Var(r, c, d)] = d == clue - 1 ? 1 : 0;
      }
    }
    RETURN_IF_ERROR(ReduceByAssignment(assignment, "clues", problem));
    if (reduction == v1::REDUCTION_CLUES) return problem;
    // (III) the clue's digit elsewhere in its row and column is 0; (IV)
    // likewise in its block.
    for (int r = 0; r < g.side; ++r) {
      for (int c = 0; c < g.side; ++c) {
        const int clue = static_cast<int>(sudoku.cells(r * g.side + c));
        if (clue == 0) continue;
        for (int r2 = 0; r2 < g.side; ++r2) {
          for (int c2 = 0; c2 < g.side; ++c2) {
            if ((r2 == r && c2 == c) || !g.SameUnit(r, c, r2, c2)) continue;
            // Contradictory clues were rejected, so a peer of a clue is never a
            // clue of the same digit.
            assignment[g.Var(r2, c2, clue - 1)] = 0;
          }
        }
      }
    }
    RETURN_IF_ERROR(ReduceByAssignment(assignment, "implied", problem));
    return problem;
  }

  v1::PuzzleSolution Decode(const v1::PuzzleSpec& spec,
                            const CompiledProblem& problem,
                            std::span<const uint8_t> bits) const override {
    const int side = problem.height;
    v1::PuzzleSolution solution;
    solution.set_height(side);
    solution.set_width(side);
    for (int r = 0; r < side; ++r) {
      std::string row;
      for (int c = 0; c < side; ++c) {
        int value = 0;
        for (int d = 0; d < side; ++d) {
          if (!bits[(r * side + c) * side + d]) continue;
          value = value == 0 ? d + 1 : -1;
        }
        solution.add_cells(value);
        row.push_back(SudokuDigitChar(value));
      }
      solution.add_rows(row);
    }
    return solution;
  }

  absl::StatusOr<v1::ValidationReport> Validate(
      const v1::PuzzleSpec& spec,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(const Grid g, CheckSpec(spec.sudoku()));
    const int side = g.side;
    if (solution.cells_size() != side * side) {
      return absl::InvalidArgumentError(
          absl::StrCat("solution.cells: expected ", side * side,
                       " values, got ", solution.cells_size()));
    }
    v1::ValidationReport report;
    auto cell = [&](int r, int c) { return solution.cells(r * side + c); };
    for (int r = 0; r < side; ++r) {
      for (int c = 0; c < side; ++c) {
        const int v = cell(r, c);
        const int clue = static_cast<int>(spec.sudoku().cells(r * side + c));
        if (v < -1 || v > side) {
          return absl::InvalidArgumentError(
              absl::StrCat("solution.cells[", r * side + c, "]: value ", v,
                           " out of range -1..", side));
        }
        if (v == 0) {
          *report.add_violations() =
              MakeViolation("empty_cell", absl::StrCat("cell ", CellName(r, c)),
                            "cell has no digit");
        } else if (v == -1) {
          *report.add_violations() = MakeViolation(
              "multiple_digits", absl::StrCat("cell ", CellName(r, c)),
              "cell holds several digits");
        }
        if (clue != 0 && v != clue) {
          *report.add_violations() = MakeViolation(
              "clue_mismatch", absl::StrCat("cell ", CellName(r, c)),
              absl::StrCat("clue is ", clue, ", board has ",
                           std::string(1, SudokuDigitChar(v))));
        }
      }
    }
    // Units: rows, columns, blocks; a digit seen twice in one unit is one
    // violation per extra copy.
    struct UnitKind {
      const char* rule;
      const char* name;
    };
    const UnitKind kinds[3] = {{"row_duplicate", "row"},
                               {"column_duplicate", "column"},
                               {"block_duplicate", "block"}};
    for (int kind = 0; kind < 3; ++kind) {
      for (int u = 0; u < side; ++u) {
        std::vector<int> seen(side + 1, 0);
        for (int k = 0; k < side; ++k) {
          int r, c;
          if (kind == 0) {
            r = u, c = k;
          } else if (kind == 1) {
            r = k, c = u;
          } else {
            r = (u / g.box) * g.box + k / g.box;
            c = (u % g.box) * g.box + k % g.box;
          }
          const int v = cell(r, c);
          if (v > 0 && ++seen[v] == 2) {
            *report.add_violations() = MakeViolation(
                kinds[kind].rule, absl::StrCat(kinds[kind].name, " ", u + 1),
                absl::StrCat("digit ", std::string(1, SudokuDigitChar(v)),
                             " appears more than once in ", kinds[kind].name,
                             " ", u + 1));
          }
        }
      }
    }
    report.set_valid(report.violations_size() == 0);
    return report;
  }

  absl::StatusOr<std::vector<uint8_t>> Encode(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::PuzzleSolution& solution) const override {
    const int side = problem.height;
    if (solution.cells_size() != side * side) {
      return absl::InvalidArgumentError(
          absl::StrCat("solution.cells: expected ", side * side,
                       " values, got ", solution.cells_size()));
    }
    std::vector<uint8_t> bits(static_cast<size_t>(side) * side * side, 0);
    for (int k = 0; k < side * side; ++k) {
      const int v = solution.cells(k);
      if (v < 0 || v > side) {
        return absl::InvalidArgumentError(
            absl::StrCat("solution.cells[", k, "]: value ", v,
                         " cannot be encoded (0..", side, ")"));
      }
      if (v > 0) bits[k * side + v - 1] = 1;
    }
    return bits;
  }
};

}  // namespace

char SudokuDigitChar(int value) {
  if (value == 0) return '.';
  if (value < 0) return '*';
  if (value <= 9) return static_cast<char>('0' + value);
  return static_cast<char>('A' + value - 10);
}

std::unique_ptr<PuzzleCompiler> NewSudokuCompiler() {
  return std::make_unique<SudokuCompiler>();
}

}  // namespace qs
