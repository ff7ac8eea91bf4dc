// Light Up compiler (docs/lightup.md §2-§5): the segment, lit-cell, number
// and black-cell terms of lightup.h, the staged reduction of DeduceLightup,
// the exactly-one groups it leaves, decoding and a validator that names each
// broken rule.
#include "core/families/lightup/lightup.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/base/saturating.h"
#include "core/base/status_macros.h"
#include "core/compile/penalties.h"

namespace qs {
namespace {

// Most sides ModelCouplersAtLeast looks at (CheckLightupSpec refuses more).
constexpr uint32_t kMaxSide = 100;

absl::StatusOr<Qubo> BuildFullModel(const LightupBoard& b) {
  QuboBuilder builder(b.size());
  for (int cell = 0; cell < b.size(); ++cell) {
    builder.SetLabel(
        cell, absl::StrCat("r", cell / b.cols + 1, "c", cell % b.cols + 1));
    if (!b.IsWhite(cell)) builder.AddLinear(cell, 1.0);
  }
  // Weight |S| - 1: more than the lit terms of S's other cells can give
  // back when two lights share S (docs/lightup.md §2).
  for (const std::vector<int>& segment : b.segments) {
    const double weight = static_cast<double>(segment.size()) - 1.0;
    for (size_t i = 0; i < segment.size(); ++i) {
      for (size_t j = i + 1; j < segment.size(); ++j)
        builder.AddQuadratic(segment[i], segment[j], weight);
    }
  }
  // (1 - R)(1 - C) = 1 - R - C + RC; the cell itself is in R and C, so RC
  // holds its l_c^2 = l_c.
  for (int cell = 0; cell < b.size(); ++cell) {
    if (!b.IsWhite(cell)) continue;
    const std::vector<int>& row = b.segments[b.row_segment[cell]];
    const std::vector<int>& col = b.segments[b.col_segment[cell]];
    builder.AddOffset(1.0);
    for (int a : row) builder.AddLinear(a, -1.0);
    for (int a : col) builder.AddLinear(a, -1.0);
    for (int a : row) {
      for (int c : col) builder.AddQuadratic(a, c, 1.0);
    }
  }
  for (int clue : b.numbered)
    AddSquaredCount(builder, b.WhiteNeighbours(clue), b.number[clue]);
  return std::move(builder).Build();
}

// A board read from a solution: lights from cells (1 a light) and, where
// rows are given, from them too ('L', '*'); the cells where the rows' black
// cells or numbers differ from the puzzle's.
struct BoardRead {
  std::vector<uint8_t> light;
  std::vector<int> black_mismatches;
};

// Whether row character `ch` agrees with the puzzle's cell, whose number is
// `number` (LightupBoard::kWhite, kPlainBlack or 0..4).
bool RowAgrees(char ch, int number) {
  switch (ch) {
    case 'L':  // a light drawn on a black cell is a light on it
    case '*':
      return true;
    case '.':
      return number == LightupBoard::kWhite;
    case '#':
      return number == LightupBoard::kPlainBlack;
    default:
      return number == ch - '0';
  }
}

absl::StatusOr<BoardRead> ReadBoard(const LightupBoard& b,
                                    const v1::PuzzleSolution& solution) {
  BoardRead board;
  if (solution.cells_size() > 0) {
    if (solution.cells_size() != b.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("solution.cells: expected ", b.size(), " values, got ",
                       solution.cells_size()));
    }
    for (int k = 0; k < b.size(); ++k) {
      const int v = solution.cells(k);
      if (v < 0 || v > 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("solution.cells[", k, "]: value ", v,
                         " out of range 0..1 (no light, light)"));
      }
      board.light.push_back(static_cast<uint8_t>(v));
    }
  }
  RETURN_IF_ERROR(CheckSolutionRows(solution, b.rows, b.cols));
  if (solution.rows_size() == 0) return board;
  const bool lights_from_rows = board.light.empty();
  if (lights_from_rows) board.light.assign(b.size(), 0);
  for (int r = 0; r < b.rows; ++r) {
    const std::string& row = solution.rows(r);
    for (int c = 0; c < b.cols; ++c) {
      const char ch = row[c];
      if (ch != 'L' && ch != '*' && ch != '.' && ch != '#' &&
          (ch < '0' || ch > '4')) {
        return absl::InvalidArgumentError(
            absl::StrCat("solution.rows[", r, "][", c, "]: unexpected '",
                         std::string(1, ch), "' (one of L . # 0-4 *)"));
      }
      const int cell = r * b.cols + c;
      if (ch == '*' || (lights_from_rows && ch == 'L')) board.light[cell] = 1;
      if (!RowAgrees(ch, b.number[cell]))
        board.black_mismatches.push_back(cell);
    }
  }
  return board;
}

class LightupCompiler final : public PuzzleCompiler {
 public:
  absl::string_view kind() const override { return "lightup"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kLightup;
  }

  int64_t ModelVariables(const v1::PuzzleSpec& spec) const override {
    return SaturatingMul(spec.lightup().rows(), spec.lightup().cols());
  }

  // The segment pairs and half the lit terms' cross pairs (a pair of cells
  // in different rows and columns is a cross pair of at most its two corner
  // cells), from the black cells in range.
  int64_t ModelCouplersAtLeast(const v1::PuzzleSpec& spec) const override {
    const v1::LightupPuzzle& p = spec.lightup();
    if (p.rows() < 1 || p.rows() > kMaxSide || p.cols() < 1 ||
        p.cols() > kMaxSide)
      return 0;
    const int rows = static_cast<int>(p.rows()),
              cols = static_cast<int>(p.cols());
    std::vector<uint8_t> black(static_cast<size_t>(rows) * cols, 0);
    for (const v1::LightupBlack& b : p.blacks()) {
      if (b.cell() < black.size()) black[b.cell()] = 1;
    }
    // Run lengths through each white cell along rows and columns.
    std::vector<int64_t> along_row(black.size(), 0), along_col(black.size(), 0);
    int64_t pairs = 0;
    for (int line = 0; line < rows + cols; ++line) {
      const bool row = line < rows;
      const int length = row ? cols : rows;
      for (int k = 0; k < length;) {
        auto at = [&](int i) {
          return row ? line * cols + i : i * cols + (line - rows);
        };
        if (black[at(k)]) {
          ++k;
          continue;
        }
        int end = k;
        while (end < length && !black[at(end)]) ++end;
        const int64_t m = end - k;
        pairs += m * (m - 1) / 2;
        for (int i = k; i < end; ++i) (row ? along_row : along_col)[at(i)] = m;
        k = end;
      }
    }
    int64_t cross = 0;
    for (size_t cell = 0; cell < black.size(); ++cell)
      cross += (along_row[cell] - 1) * (along_col[cell] - 1);
    return pairs + cross / 2;
  }

  absl::StatusOr<CompiledProblem> Compile(
      const v1::PuzzleSpec& spec,
      const v1::CompileOptions& options) const override {
    ASSIGN_OR_RETURN(const LightupBoard b, CheckLightupSpec(spec.lightup()));
    CompiledProblem problem;
    problem.kind = std::string(kind());
    problem.height = b.rows;
    problem.width = b.cols;
    ASSIGN_OR_RETURN(problem.full_model, BuildFullModel(b));
    problem.ground_energy = 0.0;
    const int n = b.size();
    problem.stages.push_back({"model", n, 0, 0});

    const v1::Reduction reduction = options.reduction() == v1::REDUCTION_DEFAULT
                                        ? v1::REDUCTION_FULL
                                        : options.reduction();
    const LightupDeduction deduction = DeduceLightup(b);
    // The black cells are 0 on every valid board, reduced or not.
    const std::vector<int8_t>& blacks = deduction.steps[0].value;
    if (reduction == v1::REDUCTION_NONE) {
      problem.model = problem.full_model;
      problem.variables = VariableMap::Identity(n);
      problem.one_hot_groups = LightupOneHotGroups(b, blacks);
      return problem;
    }
    const size_t steps =
        reduction == v1::REDUCTION_CLUES ? 1 : deduction.steps.size();
    for (size_t k = 0; k < steps; ++k) {
      RETURN_IF_ERROR(ReduceByAssignment(deduction.steps[k].value,
                                         deduction.steps[k].name, problem));
    }
    problem.one_hot_groups = ReducedOneHotGroups(
        problem.variables,
        LightupOneHotGroups(b, deduction.steps[steps - 1].value));
    return problem;
  }

  v1::PuzzleSolution Decode(const v1::PuzzleSpec& spec,
                            const CompiledProblem& problem,
                            std::span<const uint8_t> bits) const override {
    const int rows = problem.height, cols = problem.width;
    std::vector<int> number(static_cast<size_t>(rows) * cols,
                            LightupBoard::kWhite);
    for (const v1::LightupBlack& black : spec.lightup().blacks()) {
      if (black.cell() < number.size()) {
        number[black.cell()] = black.has_lights()
                                   ? static_cast<int>(black.lights())
                                   : LightupBoard::kPlainBlack;
      }
    }
    v1::PuzzleSolution solution;
    solution.set_height(rows);
    solution.set_width(cols);
    for (int r = 0; r < rows; ++r) {
      std::string row;
      for (int c = 0; c < cols; ++c) {
        const int cell = r * cols + c;
        const bool white = number[cell] == LightupBoard::kWhite;
        solution.add_cells(white && bits[cell] ? 1 : 0);
        if (white) {
          row.push_back(bits[cell] ? 'L' : '.');
        } else if (bits[cell]) {
          row.push_back('*');
        } else {
          row.push_back(
              number[cell] >= 0 ? static_cast<char>('0' + number[cell]) : '#');
        }
      }
      solution.add_rows(row);
    }
    return solution;
  }

  absl::StatusOr<v1::ValidationReport> Validate(
      const v1::PuzzleSpec& spec,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(const LightupBoard b, CheckLightupSpec(spec.lightup()));
    ASSIGN_OR_RETURN(const BoardRead board, ReadBoard(b, solution));
    v1::ValidationReport report;
    auto add = [&](absl::string_view rule, absl::string_view location,
                   absl::string_view message) {
      *report.add_violations() = MakeViolation(rule, location, message);
    };
    auto at = [&](int cell) {
      return absl::StrCat("cell ", LightupCellName(cell, b.cols));
    };
    for (int cell : board.black_mismatches) {
      add("black_mismatch", at(cell),
          "the board's black cell or number differs from the puzzle's");
    }
    const std::vector<uint8_t>& light = board.light;
    for (int cell = 0; cell < b.size(); ++cell) {
      if (light[cell] && !b.IsWhite(cell))
        add("light_on_black", at(cell), "a light stands on a black cell");
    }
    for (const std::vector<int>& segment : b.segments) {
      for (size_t i = 0; i < segment.size(); ++i) {
        for (size_t j = i + 1; j < segment.size(); ++j) {
          if (!light[segment[i]] || !light[segment[j]]) continue;
          add("lights_see_each_other",
              absl::StrCat("cells ", LightupCellName(segment[i], b.cols),
                           " and ", LightupCellName(segment[j], b.cols)),
              "two lights light each other");
        }
      }
    }
    for (int cell = 0; cell < b.size(); ++cell) {
      if (!b.IsWhite(cell)) continue;
      bool lit = false;
      for (int l : b.Lighters(cell)) lit = lit || light[l];
      if (!lit) add("unlit_cell", at(cell), "no light lights this cell");
    }
    for (int clue : b.numbered) {
      int n = 0;
      for (int c : b.WhiteNeighbours(clue)) n += light[c];
      if (n != b.number[clue]) {
        add("number_mismatch", at(clue),
            absl::StrCat(n, " lights next to this ", b.number[clue]));
      }
    }
    report.set_valid(report.violations_size() == 0);
    return report;
  }

  absl::StatusOr<std::vector<uint8_t>> Encode(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(const LightupBoard b, CheckLightupSpec(spec.lightup()));
    ASSIGN_OR_RETURN(BoardRead board, ReadBoard(b, solution));
    return std::move(board.light);
  }
};

}  // namespace

std::unique_ptr<PuzzleCompiler> NewLightupCompiler() {
  return std::make_unique<LightupCompiler>();
}

}  // namespace qs
