// Helpers shared by the puzzle compilers.
#include "core/compile/compiler.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/base/status_macros.h"

namespace qs {

absl::Status ReduceByAssignment(std::span<const int8_t> assignment,
                                absl::string_view stage,
                                CompiledProblem& problem) {
  ASSIGN_OR_RETURN(problem.variables, VariableMap::FromAssignment(assignment));
  ASSIGN_OR_RETURN(problem.model,
                   ApplyVariableMap(problem.full_model, problem.variables));
  int zero_before = 0, one_before = 0;
  for (const ReductionStage& s : problem.stages) {
    zero_before += s.fixed_zero;
    one_before += s.fixed_one;
  }
  problem.stages.push_back({std::string(stage), problem.variables.num_reduced(),
                            problem.variables.num_fixed_zero() - zero_before,
                            problem.variables.num_fixed_one() - one_before});
  return absl::OkStatus();
}

double FullEnergy(const CompiledProblem& problem,
                  std::span<const uint8_t> full_bits) {
  if (problem.higher_order) return problem.higher_order->Energy(full_bits);
  return problem.full_model.Energy(full_bits);
}

int SampledVariables(const CompiledProblem& problem) {
  if (problem.higher_order) return problem.higher_order->num_variables;
  return problem.model.num_variables();
}

absl::Status CheckSolutionRows(const v1::PuzzleSolution& solution, int rows,
                               int cols) {
  if (solution.rows_size() == 0) {
    return solution.cells_size() == 0
               ? absl::InvalidArgumentError("solution: neither cells nor rows")
               : absl::OkStatus();
  }
  if (solution.rows_size() != rows) {
    return absl::InvalidArgumentError(absl::StrCat(
        "solution.rows: expected ", rows, " rows, got ", solution.rows_size()));
  }
  for (int r = 0; r < rows; ++r) {
    if (static_cast<int>(solution.rows(r).size()) != cols) {
      return absl::InvalidArgumentError(
          absl::StrCat("solution.rows[", r, "]: expected ", cols,
                       " cells, got ", solution.rows(r).size()));
    }
  }
  return absl::OkStatus();
}

v1::Violation MakeViolation(absl::string_view rule, absl::string_view location,
                            absl::string_view message) {
  v1::Violation v;
  v.set_rule(std::string(rule));
  v.set_location(std::string(location));
  v.set_message(std::string(message));
  return v;
}

std::vector<std::vector<int32_t>> ReducedOneHotGroups(
    const VariableMap& map, std::span<const std::vector<int32_t>> full_groups) {
  std::vector<std::vector<int32_t>> groups;
  for (const std::vector<int32_t>& full : full_groups) {
    std::vector<int32_t> group;
    bool usable = true;
    for (int32_t v : full) {
      const VariableMap::Source& source = map.source(v);
      if (source.reduced < 0) {
        usable = usable && source.value == 0;
        continue;
      }
      usable = usable && source.value == 0;  // not a negated literal
      group.push_back(source.reduced);
    }
    std::sort(group.begin(), group.end());
    usable =
        usable && std::adjacent_find(group.begin(), group.end()) == group.end();
    if (usable && group.size() >= 2) groups.push_back(std::move(group));
  }
  return groups;
}

CompiledProblem UnreducedProblem(absl::string_view kind, Qubo model) {
  CompiledProblem problem;
  problem.kind = std::string(kind);
  const int n = model.num_variables();
  problem.model = model;
  problem.full_model = std::move(model);
  problem.variables = VariableMap::Identity(n);
  problem.stages.push_back({"model", n, 0, 0});
  problem.height = 1;
  problem.width = n;
  return problem;
}

v1::PuzzleSolution BinaryRowBoard(std::span<const uint8_t> bits) {
  v1::PuzzleSolution solution;
  solution.set_height(1);
  solution.set_width(static_cast<uint32_t>(bits.size()));
  // Sized once and filled in place: this runs on every sample streamed, and
  // a large model's board is millions of cells.
  std::string row(bits.size(), '0');
  solution.mutable_cells()->Resize(static_cast<int>(bits.size()), 0);
  int32_t* cells = solution.mutable_cells()->mutable_data();
  for (size_t k = 0; k < bits.size(); ++k) {
    cells[k] = bits[k];
    row[k] = static_cast<char>('0' + (bits[k] != 0));
  }
  solution.add_rows(std::move(row));
  return solution;
}

}  // namespace qs
