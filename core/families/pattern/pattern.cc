// Nonogram compiler (docs/pattern.md): the start-position QUBO of pattern.h
// (one-hot runs, order pairs, row/column agreement per cell, givens), its
// reduction by line solving stage by stage ("clues", "overlap",
// "line_solving"), decoding from the rows' starts, and a validator of the
// game's rules.
#include "core/families/pattern/pattern.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "core/base/status_macros.h"
#include "core/compile/penalties.h"

namespace qs {
namespace {

std::string CellName(int cell, int cols) {
  return absl::StrCat("(", cell / cols + 1, ",", cell % cols + 1, ")");
}

// "runs 3 1" or "no run".
std::string RunsText(const std::vector<int>& runs) {
  return runs.empty() ? std::string("no run")
                      : absl::StrCat("runs ", absl::StrJoin(runs, " "));
}

// Per cell, the start variables of the line's runs that cover it.
std::vector<std::vector<int>> Covering(const PatternGrid& grid, bool rows) {
  std::vector<std::vector<int>> covering(grid.size());
  for (const PatternLine& line : grid.lines) {
    if (line.is_row != rows) continue;
    for (size_t i = 0; i < line.runs.size(); ++i) {
      for (int s = line.lo[i]; s <= line.hi[i]; ++s) {
        const int var = line.Var(static_cast<int>(i), s);
        for (int p = s; p < s + line.runs[i]; ++p)
          covering[line.cells[p]].push_back(var);
      }
    }
  }
  return covering;
}

void AddLineTerms(QuboBuilder& builder, const PatternLine& line) {
  std::vector<int> vars;
  for (size_t i = 0; i < line.runs.size(); ++i) {
    vars.clear();
    for (int s = line.lo[i]; s <= line.hi[i]; ++s) {
      const int var = line.Var(static_cast<int>(i), s);
      vars.push_back(var);
      builder.SetLabel(
          var, absl::StrCat(line.is_row ? "r" : "c", line.index + 1, "k", i + 1,
                            "s", s + 1));
    }
    AddSquaredCount(builder, vars, 1.0);
    if (i + 1 == line.runs.size()) continue;
    // Run i + 1 must start after run i's end and one empty cell.
    for (int s = line.lo[i]; s <= line.hi[i]; ++s) {
      for (int t = line.lo[i + 1]; t < s + line.runs[i] + 1; ++t) {
        if (t > line.hi[i + 1]) break;
        builder.AddQuadratic(line.Var(static_cast<int>(i), s),
                             line.Var(static_cast<int>(i) + 1, t), 1.0);
      }
    }
  }
}

absl::StatusOr<Qubo> BuildFullModel(const PatternGrid& grid) {
  QuboBuilder builder(grid.num_variables);
  for (const PatternLine& line : grid.lines) AddLineTerms(builder, line);
  const auto by_row = Covering(grid, true);
  const auto by_col = Covering(grid, false);
  for (int cell = 0; cell < grid.size(); ++cell) {
    const std::vector<int>& r = by_row[cell];
    const std::vector<int>& c = by_col[cell];
    // (R - C)^2 over binary variables.
    for (size_t a = 0; a < r.size(); ++a) {
      builder.AddLinear(r[a], 1.0);
      for (size_t b = a + 1; b < r.size(); ++b)
        builder.AddQuadratic(r[a], r[b], 2.0);
      for (int v : c) builder.AddQuadratic(r[a], v, -2.0);
    }
    for (size_t a = 0; a < c.size(); ++a) {
      builder.AddLinear(c[a], 1.0);
      for (size_t b = a + 1; b < c.size(); ++b)
        builder.AddQuadratic(c[a], c[b], 2.0);
    }
    if (grid.given[cell] == 1) AddSquaredCount(builder, r, 1.0);
    if (grid.given[cell] == 0) {
      for (int v : r) builder.AddLinear(v, 1.0);
    }
  }
  return std::move(builder).Build();
}

// The assignment knowledge stands for: dropped starts 0, and a run's start 1
// when it has one left.
void AssignFromKnowledge(const PatternGrid& grid,
                         const PatternKnowledge& knowledge,
                         std::vector<int8_t>& assignment) {
  for (const PatternLine& line : grid.lines) {
    for (size_t i = 0; i < line.runs.size(); ++i) {
      int left = 0, last = -1;
      for (int s = line.lo[i]; s <= line.hi[i]; ++s) {
        const int var = line.Var(static_cast<int>(i), s);
        if (knowledge.allowed[var]) {
          ++left;
          last = var;
        } else {
          assignment[var] = 0;
        }
      }
      if (left == 1) assignment[last] = 1;
    }
  }
}

std::vector<std::vector<int32_t>> FullOneHotGroups(const PatternGrid& grid) {
  std::vector<std::vector<int32_t>> groups;
  for (const PatternLine& line : grid.lines) {
    for (size_t i = 0; i < line.runs.size(); ++i) {
      std::vector<int32_t> group;
      for (int s = line.lo[i]; s <= line.hi[i]; ++s)
        group.push_back(line.Var(static_cast<int>(i), s));
      groups.push_back(std::move(group));
    }
  }
  return groups;
}

// The board's filled cells from a solution's cells (1 filled, 0 empty) or,
// without cells, from its rows ('#' or '1' filled; '.', '0', '_', 'x'
// empty).
absl::StatusOr<std::vector<uint8_t>> ReadBoard(
    const PatternGrid& grid, const v1::PuzzleSolution& solution) {
  std::vector<uint8_t> filled;
  if (solution.cells_size() > 0) {
    if (solution.cells_size() != grid.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("solution.cells: expected ", grid.size(),
                       " values, got ", solution.cells_size()));
    }
    for (int k = 0; k < grid.size(); ++k) {
      const int v = solution.cells(k);
      if (v != 0 && v != 1) {
        return absl::InvalidArgumentError(absl::StrCat(
            "solution.cells[", k, "]: value ", v, " is not 0 or 1"));
      }
      filled.push_back(static_cast<uint8_t>(v));
    }
  }
  RETURN_IF_ERROR(CheckSolutionRows(solution, grid.rows, grid.cols));
  if (!filled.empty()) return filled;
  for (int r = 0; r < grid.rows; ++r) {
    const std::string& row = solution.rows(r);
    for (int c = 0; c < grid.cols; ++c) {
      switch (row[c]) {
        case '#':
        case '1':
          filled.push_back(1);
          break;
        case '.':
        case '0':
        case '_':
        case 'x':
          filled.push_back(0);
          break;
        default:
          return absl::InvalidArgumentError(
              absl::StrCat("solution.rows[", r, "][", c, "]: unexpected '",
                           std::string(1, row[c]), "' (one of # . 1 0)"));
      }
    }
  }
  return filled;
}

class PatternCompiler final : public PuzzleCompiler {
 public:
  absl::string_view kind() const override { return "pattern"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kPattern;
  }

  int64_t ModelVariables(const v1::PuzzleSpec& spec) const override {
    return PatternModelVariables(spec.pattern());
  }

  absl::StatusOr<CompiledProblem> Compile(
      const v1::PuzzleSpec& spec,
      const v1::CompileOptions& options) const override {
    ASSIGN_OR_RETURN(const PatternGrid grid, PatternGridOf(spec.pattern()));
    ASSIGN_OR_RETURN(CompiledProblem problem, CompileModel(grid, options));
    problem.one_hot_groups =
        ReducedOneHotGroups(problem.variables, FullOneHotGroups(grid));
    return problem;
  }

  v1::PuzzleSolution Decode(const v1::PuzzleSpec& spec,
                            const CompiledProblem& problem,
                            std::span<const uint8_t> bits) const override {
    v1::PuzzleSolution solution;
    solution.set_height(problem.height);
    solution.set_width(problem.width);
    auto grid = PatternGridOf(spec.pattern());
    std::vector<uint8_t> filled(
        static_cast<size_t>(problem.height) * problem.width, 0);
    if (grid.ok()) {
      for (int r = 0; r < grid->rows; ++r) {
        const PatternLine& line = grid->row(r);
        for (size_t i = 0; i < line.runs.size(); ++i) {
          for (int s = line.lo[i]; s <= line.hi[i]; ++s) {
            if (!bits[line.Var(static_cast<int>(i), s)]) continue;
            for (int p = s; p < s + line.runs[i]; ++p)
              filled[line.cells[p]] = 1;
          }
        }
      }
    }
    for (int r = 0; r < problem.height; ++r) {
      std::string row;
      for (int c = 0; c < problem.width; ++c) {
        const uint8_t v = filled[r * problem.width + c];
        solution.add_cells(v);
        row.push_back(v ? '#' : '.');
      }
      solution.add_rows(row);
    }
    return solution;
  }

  absl::StatusOr<v1::ValidationReport> Validate(
      const v1::PuzzleSpec& spec,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(const PatternGrid grid, PatternGridOf(spec.pattern()));
    ASSIGN_OR_RETURN(const std::vector<uint8_t> filled,
                     ReadBoard(grid, solution));
    v1::ValidationReport report;
    for (int cell = 0; cell < grid.size(); ++cell) {
      if (grid.given[cell] < 0 || grid.given[cell] == filled[cell]) continue;
      *report.add_violations() = MakeViolation(
          "given_cell", absl::StrCat("cell ", CellName(cell, grid.cols)),
          grid.given[cell] == 1 ? "the puzzle gives this cell filled"
                                : "the puzzle gives this cell empty");
    }
    std::vector<uint8_t> along;
    for (const PatternLine& line : grid.lines) {
      along.clear();
      for (int cell : line.cells) along.push_back(filled[cell]);
      const std::vector<int> runs = PatternRunsOf(along);
      if (runs == line.runs) continue;
      *report.add_violations() = MakeViolation(
          line.is_row ? "row_runs" : "column_runs",
          absl::StrCat(line.is_row ? "row " : "column ", line.index + 1),
          absl::StrCat(
              RunsText(runs), ", the clue says ",
              line.runs.empty() ? "none" : absl::StrJoin(line.runs, " ")));
    }
    report.set_valid(report.violations_size() == 0);
    return report;
  }

  absl::StatusOr<std::vector<uint8_t>> Encode(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(const PatternGrid grid, PatternGridOf(spec.pattern()));
    ASSIGN_OR_RETURN(const std::vector<uint8_t> filled,
                     ReadBoard(grid, solution));
    return PatternStartsOfBoard(grid, filled);
  }

 private:
  absl::StatusOr<CompiledProblem> CompileModel(
      const PatternGrid& grid, const v1::CompileOptions& options) const {
    CompiledProblem problem;
    problem.kind = std::string(kind());
    problem.height = grid.rows;
    problem.width = grid.cols;
    ASSIGN_OR_RETURN(problem.full_model, BuildFullModel(grid));
    problem.ground_energy = 0.0;
    const int n = grid.num_variables;
    problem.stages.push_back({"model", n, 0, 0});
    const v1::Reduction reduction = options.reduction() == v1::REDUCTION_DEFAULT
                                        ? v1::REDUCTION_FULL
                                        : options.reduction();
    if (reduction == v1::REDUCTION_NONE) {
      problem.model = problem.full_model;
      problem.variables = VariableMap::Identity(n);
      return problem;
    }
    PatternKnowledge knowledge = InitialKnowledge(grid);
    std::vector<int8_t> assignment(n, -1);
    for (const PatternLine& line : grid.lines)
      DropContradictedStarts(line, knowledge);
    AssignFromKnowledge(grid, knowledge, assignment);
    RETURN_IF_ERROR(ReduceByAssignment(assignment, "clues", problem));
    if (reduction == v1::REDUCTION_CLUES) return problem;

    // One pass: every line's overlap from the starts left, then the starts
    // those cells contradict. Contradictory clues stop the reduction where
    // it is; the model then has no ground state, as the puzzle no solution.
    bool consistent = true;
    for (const PatternLine& line : grid.lines) {
      bool ok = true;
      OverlapLine(line, knowledge, &ok);
      consistent &= ok;
    }
    if (consistent) {
      for (const PatternLine& line : grid.lines)
        DropContradictedStarts(line, knowledge);
      AssignFromKnowledge(grid, knowledge, assignment);
    }
    RETURN_IF_ERROR(ReduceByAssignment(assignment, "overlap", problem));
    if (consistent && SolveLinesToFixpoint(grid, knowledge))
      AssignFromKnowledge(grid, knowledge, assignment);
    RETURN_IF_ERROR(ReduceByAssignment(assignment, "line_solving", problem));
    return problem;
  }
};

}  // namespace

std::unique_ptr<PuzzleCompiler> NewPatternCompiler() {
  return std::make_unique<PatternCompiler>();
}

}  // namespace qs
