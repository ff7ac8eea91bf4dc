// Sudoku compiler: [Mücke 2024] §2 (the 729-variable QUBO, generalized to any
// side and to the variants' groups and cages) and §2.1 (clamping of clues by
// rules I-IV over every group, then the digits each killer cage allows, with
// exact offset bookkeeping).
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
// Weight of a cage's (sum - S)^2: a wrong sum costs at least this much, as
// every term is an integer.
constexpr double kCageWeight = 1.0;

std::string CellName(int side, int cell) {
  return absl::StrCat("(", cell / side + 1, ",", cell % side + 1, ")");
}

absl::StatusOr<SudokuShape> CheckSpec(const v1::SudokuPuzzle& sudoku) {
  ASSIGN_OR_RETURN(SudokuShape shape, SudokuShapeOf(sudoku));
  const int side = shape.side;
  const int cells = shape.cells();
  for (int k = 0; k < cells; ++k) {
    if (sudoku.cells(k) > static_cast<uint32_t>(side)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "sudoku.cells[", k, "]: digit ", sudoku.cells(k), " out of range 0..",
          side, " at cell ", CellName(side, k)));
    }
  }
  // Clues that contradict each other can never be completed.
  for (int a = 0; a < cells; ++a) {
    if (sudoku.cells(a) == 0) continue;
    for (int b : shape.peers[a]) {
      if (b < a || sudoku.cells(b) != sudoku.cells(a)) continue;
      return absl::InvalidArgumentError(
          absl::StrCat("sudoku.cells: contradictory clues, digit ",
                       sudoku.cells(a), " at ", CellName(side, a), " and ",
                       CellName(side, b), " share a ", shape.SharedUnit(a, b)));
    }
  }
  for (int i = 0; i < static_cast<int>(shape.cages.size()); ++i) {
    if (!SudokuCageDigits(shape, i, sudoku, nullptr)) {
      return absl::InvalidArgumentError(
          absl::StrCat("sudoku.cages[", i,
                       "].sum: no distinct digits complete the cage's "
                       "givens to ",
                       shape.cages[i].sum));
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
  return shape;
}

absl::StatusOr<Qubo> BuildFullModel(const SudokuShape& g, double penalty) {
  const int side = g.side;
  QuboBuilder builder(side * side * side);
  for (int cell = 0; cell < g.cells(); ++cell) {
    for (int d = 0; d < side; ++d) {
      const int v = g.Var(cell, d);
      builder.AddLinear(v, -1.0);
      builder.SetLabel(v, absl::StrCat("r", cell / side + 1, "c",
                                       cell % side + 1, "d", d + 1));
      // (iv) several digits in one cell.
      for (int d2 = d + 1; d2 < side; ++d2)
        builder.AddQuadratic(v, g.Var(cell, d2), penalty);
    }
    // (i)-(iii): same digit in a peer cell (row, column, box or region,
    // diagonal, cage), each pair once however many units it shares.
    for (int other : g.peers[cell]) {
      if (other < cell) continue;
      for (int d = 0; d < side; ++d)
        builder.AddQuadratic(g.Var(cell, d), g.Var(other, d), penalty);
    }
  }
  // Killer cages: kCageWeight * (sum_c sum_d (d + 1) z_cd - S)^2, expanded with
  // z^2 = z.
  for (const SudokuCage& cage : g.cages) {
    const double s = cage.sum;
    builder.AddOffset(kCageWeight * s * s);
    std::vector<std::pair<int, double>> terms;
    for (int cell : cage.cells) {
      for (int d = 0; d < side; ++d) terms.push_back({g.Var(cell, d), d + 1.0});
    }
    for (size_t i = 0; i < terms.size(); ++i) {
      const auto [u, a] = terms[i];
      builder.AddLinear(u, kCageWeight * (a * a - 2 * s * a));
      for (size_t j = i + 1; j < terms.size(); ++j)
        builder.AddQuadratic(u, terms[j].first,
                             kCageWeight * 2 * a * terms[j].second);
    }
  }
  return std::move(builder).Build();
}

// The exactly-one groups of the model over the full variables: each cell's
// digits, and each digit's cells in a row, a column, a box or region and a
// diagonal.
std::vector<std::vector<int32_t>> FullOneHotGroups(const SudokuShape& g) {
  std::vector<std::vector<int32_t>> groups;
  for (int cell = 0; cell < g.cells(); ++cell) {
    std::vector<int32_t> digits;
    for (int d = 0; d < g.side; ++d) digits.push_back(g.Var(cell, d));
    groups.push_back(std::move(digits));
  }
  for (const SudokuGroup& group : g.groups) {
    for (int d = 0; d < g.side; ++d) {
      std::vector<int32_t> cells;
      for (int cell : group.cells) cells.push_back(g.Var(cell, d));
      groups.push_back(std::move(cells));
    }
  }
  return groups;
}

// Side of the grid from the spec's dimensions alone (unchecked).
int64_t SpecSide(const v1::SudokuPuzzle& sudoku) {
  if (sudoku.regions_size() > 0) {
    return std::llround(std::sqrt(static_cast<double>(sudoku.regions_size())));
  }
  if (sudoku.box_rows() != 0 || sudoku.box_cols() != 0) {
    return SaturatingMul(int64_t{sudoku.box_rows()},
                         int64_t{sudoku.box_cols()});
  }
  const int64_t box = sudoku.box_size() == 0 ? 3 : sudoku.box_size();
  return SaturatingMul(box, box);
}

class SudokuCompiler final : public PuzzleCompiler {
 public:
  absl::string_view kind() const override { return "sudoku"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kSudoku;
  }

  int64_t ModelVariables(const v1::PuzzleSpec& spec) const override {
    const int64_t side = SpecSide(spec.sudoku());
    return SaturatingMul(SaturatingMul(side, side), side);
  }

  absl::StatusOr<CompiledProblem> Compile(
      const v1::PuzzleSpec& spec,
      const v1::CompileOptions& options) const override {
    ASSIGN_OR_RETURN(const SudokuShape g, CheckSpec(spec.sudoku()));
    ASSIGN_OR_RETURN(CompiledProblem problem, CompileModel(spec, g, options));
    problem.one_hot_groups =
        ReducedOneHotGroups(problem.variables, FullOneHotGroups(g));
    return problem;
  }

  absl::StatusOr<CompiledProblem> CompileModel(
      const v1::PuzzleSpec& spec, const SudokuShape& g,
      const v1::CompileOptions& options) const {
    const v1::SudokuPuzzle& sudoku = spec.sudoku();
    const double penalty =
        sudoku.penalty() == 0 ? kDefaultPenalty : sudoku.penalty();
    CompiledProblem problem;
    problem.kind = std::string(kind());
    problem.height = problem.width = g.side;
    ASSIGN_OR_RETURN(problem.full_model, BuildFullModel(g, penalty));
    // Every variant: one digit per cell, no pair conflict, cage sums exact.
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
    for (int cell = 0; cell < g.cells(); ++cell) {
      const int clue = static_cast<int>(sudoku.cells(cell));
      if (clue == 0) continue;
      for (int d = 0; d < g.side; ++d)
        assignment[g.Var(cell, d)] = d == clue - 1 ? 1 : 0;
    }
    RETURN_IF_ERROR(ReduceByAssignment(assignment, "clues", problem));
    if (reduction == v1::REDUCTION_CLUES) return problem;
    // (III) the clue's digit elsewhere in its row and column is 0; (IV)
    // likewise in its box or region, and in its diagonal and cage.
    for (int cell = 0; cell < g.cells(); ++cell) {
      const int clue = static_cast<int>(sudoku.cells(cell));
      if (clue == 0) continue;
      // Contradictory clues were rejected, so a peer of a clue is never a
      // clue of the same digit.
      for (int other : g.peers[cell]) assignment[g.Var(other, clue - 1)] = 0;
    }
    RETURN_IF_ERROR(ReduceByAssignment(assignment, "implied", problem));
    if (g.cages.empty()) return problem;
    // A cage's open cells hold only digits of some combination that completes
    // its sum (a 2-cell cage of sum 3: 1 and 2).
    std::vector<int> allowed;
    for (int i = 0; i < static_cast<int>(g.cages.size()); ++i) {
      SudokuCageDigits(g, i, sudoku, &allowed);
      std::vector<bool> ok(g.side, false);
      for (int d : allowed) ok[d - 1] = true;
      for (int cell : g.cages[i].cells) {
        if (sudoku.cells(cell) != 0) continue;
        for (int d = 0; d < g.side; ++d) {
          if (!ok[d]) assignment[g.Var(cell, d)] = 0;
        }
      }
    }
    RETURN_IF_ERROR(ReduceByAssignment(assignment, "cages", problem));
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
    ASSIGN_OR_RETURN(const SudokuShape g, CheckSpec(spec.sudoku()));
    return ValidateOnShape(spec, g, solution);
  }

  // The sampling path validates every distinct read of one spec: its checked
  // shape (groups, peers, cages) stays with the problem instead of being
  // built again per board.
  absl::StatusOr<v1::ValidationReport> ValidateDecoded(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(
        const std::shared_ptr<const SudokuShape> g,
        problem.derived.GetOrTryMake<SudokuShape>(
            "sudoku/shape", [&] { return CheckSpec(spec.sudoku()); }));
    return ValidateOnShape(spec, *g, solution);
  }

 private:
  static absl::StatusOr<v1::ValidationReport> ValidateOnShape(
      const v1::PuzzleSpec& spec, const SudokuShape& g,
      const v1::PuzzleSolution& solution) {
    const int side = g.side;
    if (solution.cells_size() != side * side) {
      return absl::InvalidArgumentError(
          absl::StrCat("solution.cells: expected ", side * side,
                       " values, got ", solution.cells_size()));
    }
    v1::ValidationReport report;
    for (int k = 0; k < g.cells(); ++k) {
      const int v = solution.cells(k);
      const int clue = static_cast<int>(spec.sudoku().cells(k));
      if (v < -1 || v > side) {
        return absl::InvalidArgumentError(absl::StrCat(
            "solution.cells[", k, "]: value ", v, " out of range -1..", side));
      }
      const std::string where = absl::StrCat("cell ", CellName(side, k));
      if (v == 0) {
        *report.add_violations() =
            MakeViolation("empty_cell", where, "cell has no digit");
      } else if (v == -1) {
        *report.add_violations() = MakeViolation("multiple_digits", where,
                                                 "cell holds several digits");
      }
      if (clue != 0 && v != clue) {
        *report.add_violations() =
            MakeViolation("clue_mismatch", where,
                          absl::StrCat("clue is ", clue, ", board has ",
                                       std::string(1, SudokuDigitChar(v))));
      }
    }
    // Groups: rows, columns, boxes or regions, diagonals; a digit seen twice
    // in one group is one violation per extra copy.
    for (const SudokuGroup& group : g.groups) {
      const char* name = SudokuGroupName(group.kind);
      std::vector<int> seen(side + 1, 0);
      for (int k : group.cells) {
        const int v = solution.cells(k);
        if (v > 0 && ++seen[v] == 2) {
          *report.add_violations() = MakeViolation(
              absl::StrCat(name, "_duplicate"),
              absl::StrCat(name, " ", group.index + 1),
              absl::StrCat("digit ", std::string(1, SudokuDigitChar(v)),
                           " appears more than once in ", name, " ",
                           group.index + 1));
        }
      }
    }
    for (int i = 0; i < static_cast<int>(g.cages.size()); ++i) {
      const SudokuCage& cage = g.cages[i];
      const std::string where = absl::StrCat("cage ", i + 1);
      std::vector<int> seen(side + 1, 0);
      int sum = 0;
      bool filled = true;
      for (int k : cage.cells) {
        const int v = solution.cells(k);
        if (v <= 0) {
          filled = false;
          continue;
        }
        sum += v;
        if (++seen[v] == 2) {
          *report.add_violations() = MakeViolation(
              "cage_duplicate", where,
              absl::StrCat("digit ", std::string(1, SudokuDigitChar(v)),
                           " appears more than once in cage ", i + 1));
        }
      }
      // A cage with an empty cell is reported by that cell.
      if (filled && sum != cage.sum) {
        *report.add_violations() = MakeViolation(
            "cage_sum", where,
            absl::StrCat("digits sum to ", sum, ", the cage says ", cage.sum));
      }
    }
    report.set_valid(report.violations_size() == 0);
    return report;
  }

 public:
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
