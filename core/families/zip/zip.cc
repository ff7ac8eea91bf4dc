// Zip compiler: the position encoding of a Hamiltonian path ([Lucas 2014]
// §7.1) with the start, end and order of the waypoints, its reduction by step
// parity, path distances and forced moves, and a validator of the game's rules.
#include "core/families/zip/zip.h"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "core/base/saturating.h"
#include "core/base/status_macros.h"
#include "core/compile/penalties.h"
#include "core/qubo/variable_map.h"

namespace qs {
namespace {

constexpr uint32_t kMinSide = 2;
constexpr uint32_t kMaxSide = 16;
// Farther than any path distance on a board of at most 16 x 16 cells.
constexpr int kUnreachable = 1 << 20;

constexpr int kOrthogonal[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
// Weight of a move between cells the path cannot join, against 1 for the
// other terms: any positive weight keeps the ground states, and with 2 the QUBO
// samplers alone solved 9 of 10 generated 8x8 levels within 20 s, against 5
// with 1 and 6 with 4 (tests/tools/zip_solve_stats, docs/zip.md).
constexpr double kMoveWeight = 2.0;

bool SidesInRange(const v1::ZipPuzzle& zip) {
  return zip.rows() >= kMinSide && zip.rows() <= kMaxSide &&
         zip.cols() >= kMinSide && zip.cols() <= kMaxSide;
}

std::string CellName(int cell, int cols) {
  return absl::StrCat("(", cell / cols + 1, ",", cell % cols + 1, ")");
}

bool Orthogonal(int a, int b, int cols) {
  const int ra = a / cols, ca = a % cols, rb = b / cols, cb = b % cols;
  return std::abs(ra - rb) + std::abs(ca - cb) == 1;
}

// Path distances from `from` through moves no wall blocks.
std::vector<int> Distances(const ZipBoard& b, int from) {
  std::vector<int> dist(b.size(), kUnreachable);
  std::deque<int> queue = {from};
  dist[from] = 0;
  while (!queue.empty()) {
    const int cell = queue.front();
    queue.pop_front();
    for (int next : b.joined[cell]) {
      if (dist[next] != kUnreachable) continue;
      dist[next] = dist[cell] + 1;
      queue.push_back(next);
    }
  }
  return dist;
}

using Domains = std::vector<std::vector<uint8_t>>;

// Whether every cell and every step keeps a candidate.
bool Feasible(const Domains& d) {
  const int n = static_cast<int>(d.size());
  std::vector<uint8_t> step_used(n, 0);
  for (const auto& cell : d) {
    bool any = false;
    for (int s = 0; s < n; ++s) {
      if (!cell[s]) continue;
      any = true;
      step_used[s] = 1;
    }
    if (!any) return false;
  }
  return std::all_of(step_used.begin(), step_used.end(),
                     [](uint8_t u) { return u != 0; });
}

// Applies `prune` to a copy of `d` and keeps the result when it leaves every
// cell and step a candidate.
template <typename Prune>
void PruneIfFeasible(Domains& d, Prune prune) {
  Domains next = d;
  prune(next);
  if (Feasible(next)) d = std::move(next);
}

void PruneParity(const ZipBoard& b, Domains& d) {
  const int n = b.size();
  const int start = b.waypoints.front();
  const int start_colour = (start / b.cols + start % b.cols) % 2;
  for (int cell = 0; cell < n; ++cell) {
    const int colour = (cell / b.cols + cell % b.cols) % 2;
    // Step 1 is on waypoint 1's colour; each move changes colour.
    const int odd_offset = colour == start_colour ? 0 : 1;
    for (int s = 1; s <= n; ++s) {
      if ((s - 1) % 2 != odd_offset) d[cell][s - 1] = 0;
    }
  }
}

void PruneDistance(const ZipBoard& b, Domains& d) {
  const int n = b.size();
  const int k = static_cast<int>(b.waypoints.size());
  std::vector<std::vector<int>> dist;
  for (int w : b.waypoints) dist.push_back(Distances(b, w));
  // Earliest and latest steps of each waypoint: waypoint j comes at least
  // dist(w_{j-1}, w_j) steps after waypoint j-1.
  std::vector<int> lo(k), hi(k);
  lo[0] = 1;
  for (int j = 1; j < k; ++j)
    lo[j] = std::min(kUnreachable, lo[j - 1] + dist[j - 1][b.waypoints[j]]);
  hi[k - 1] = n;
  for (int j = k - 2; j >= 0; --j)
    hi[j] = std::max(-kUnreachable, hi[j + 1] - dist[j + 1][b.waypoints[j]]);
  std::vector<int> waypoint_index(n, -1);
  for (int j = 0; j < k; ++j) waypoint_index[b.waypoints[j]] = j;
  for (int cell = 0; cell < n; ++cell) {
    std::vector<uint8_t> keep(n, 0);
    const int j = waypoint_index[cell];
    if (j >= 0) {
      for (int s = std::max(1, lo[j]); s <= std::min(n, hi[j]); ++s)
        keep[s - 1] = 1;
    } else {
      // Between waypoints j and j + 1: at least dist(w_j, cell) after the
      // first and dist(cell, w_{j+1}) before the second.
      for (int seg = 0; seg + 1 < k; ++seg) {
        const int from = lo[seg] + dist[seg][cell];
        const int to = hi[seg + 1] - dist[seg + 1][cell];
        for (int s = std::max(1, from); s <= std::min(n, to); ++s)
          keep[s - 1] = 1;
      }
    }
    for (int s = 0; s < n; ++s) d[cell][s] = d[cell][s] && keep[s];
  }
}

// Steps without a neighbour to come from and a different one to go to; the
// neighbours of a cell that has only two (one for the path's ends), which must
// be next to it on the path; a step only one cell can take; to a fixpoint.
void PruneForced(const ZipBoard& b, Domains& d) {
  const int n = b.size();
  const int first = b.waypoints.front(), last = b.waypoints.back();
  // forced[c]: the neighbours the path must join c to.
  std::vector<std::vector<int>> forced(n);
  for (int cell = 0; cell < n; ++cell) {
    const int ends = (cell == first) + (cell == last);
    if (static_cast<int>(b.joined[cell].size()) == 2 - ends)
      forced[cell] = b.joined[cell];
  }
  // The cells forced to be next to each cell on the path.
  std::vector<std::vector<int>> forced_to(n);
  for (int cell = 0; cell < n; ++cell) {
    for (int other : forced[cell]) forced_to[other].push_back(cell);
  }
  auto has = [&](int cell, int s) {
    return s >= 1 && s <= n && d[cell][s - 1] != 0;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (int cell = 0; cell < n; ++cell) {
      for (int s = 1; s <= n; ++s) {
        if (!has(cell, s)) continue;
        const bool need_prev = s > 1, need_next = s < n;
        bool ok = true;
        if (need_prev && need_next) {
          ok = false;
          for (int p : b.joined[cell]) {
            if (!has(p, s - 1)) continue;
            for (int q : b.joined[cell]) {
              if (q != p && has(q, s + 1)) ok = true;
            }
          }
        } else {
          const int t = need_prev ? s - 1 : s + 1;
          ok = std::any_of(b.joined[cell].begin(), b.joined[cell].end(),
                           [&](int q) { return has(q, t); });
        }
        // Forced neighbours sit on the steps just before and after.
        for (int f : forced[cell]) {
          if (!(need_prev && has(f, s - 1)) && !(need_next && has(f, s + 1)))
            ok = false;
        }
        if (forced[cell].size() == 2 && need_prev && need_next) {
          const int a = forced[cell][0], c = forced[cell][1];
          if (!(has(a, s - 1) && has(c, s + 1)) &&
              !(has(c, s - 1) && has(a, s + 1)))
            ok = false;
        }
        // A cell forced next to others is one step from each of them.
        for (int f : forced_to[cell]) {
          if (!has(f, s - 1) && !has(f, s + 1)) ok = false;
        }
        if (!ok) {
          d[cell][s - 1] = 0;
          changed = true;
        }
      }
    }
    // A cell with one step left takes it from every other cell; a step left to
    // one cell is that cell's.
    for (int cell = 0; cell < n; ++cell) {
      int only = -1, count = 0;
      for (int s = 1; s <= n; ++s) {
        if (has(cell, s)) {
          only = s;
          ++count;
        }
      }
      if (count != 1) continue;
      for (int other = 0; other < n; ++other) {
        if (other != cell && has(other, only)) {
          d[other][only - 1] = 0;
          changed = true;
        }
      }
    }
    for (int s = 1; s <= n; ++s) {
      int only = -1, count = 0;
      for (int cell = 0; cell < n; ++cell) {
        if (has(cell, s)) {
          only = cell;
          ++count;
        }
      }
      if (count != 1) continue;
      for (int t = 1; t <= n; ++t) {
        if (t != s && has(only, t)) {
          d[only][t - 1] = 0;
          changed = true;
        }
      }
    }
  }
}

absl::StatusOr<Qubo> BuildFullModel(const ZipBoard& b) {
  const int n = b.size();
  QuboBuilder builder(n * n);
  for (int cell = 0; cell < n; ++cell) {
    for (int s = 1; s <= n; ++s) {
      builder.SetLabel(b.Var(cell, s), absl::StrCat("r", cell / b.cols + 1, "c",
                                                    cell % b.cols + 1, "s", s));
    }
  }
  std::vector<int> group;
  for (int cell = 0; cell < n; ++cell) {
    group.clear();
    for (int s = 1; s <= n; ++s) group.push_back(b.Var(cell, s));
    AddSquaredCount(builder, group, 1);
  }
  for (int s = 1; s <= n; ++s) {
    group.clear();
    for (int cell = 0; cell < n; ++cell) group.push_back(b.Var(cell, s));
    AddSquaredCount(builder, group, 1);
  }
  // Consecutive steps in cells the path cannot join (the same cell twice is
  // the cell's one-hot term already).
  for (int c = 0; c < n; ++c) {
    for (int e = 0; e < n; ++e) {
      if (e == c || b.Joined(c, e)) continue;
      for (int s = 1; s < n; ++s)
        builder.AddQuadratic(b.Var(c, s), b.Var(e, s + 1), kMoveWeight);
    }
  }
  const int first = b.waypoints.front(), last = b.waypoints.back();
  builder.AddOffset(2.0);
  builder.AddLinear(b.Var(first, 1), -1.0);
  builder.AddLinear(b.Var(last, n), -1.0);
  // Waypoint k+1 entered before waypoint k (the same step is the step's
  // one-hot term already).
  for (size_t k = 0; k + 1 < b.waypoints.size(); ++k) {
    for (int s = 1; s <= n; ++s) {
      for (int t = 1; t < s; ++t)
        builder.AddQuadratic(b.Var(b.waypoints[k], s),
                             b.Var(b.waypoints[k + 1], t), 1.0);
    }
  }
  return std::move(builder).Build();
}

std::vector<std::vector<int32_t>> FullOneHotGroups(const ZipBoard& b) {
  const int n = b.size();
  std::vector<std::vector<int32_t>> groups;
  for (int cell = 0; cell < n; ++cell) {
    std::vector<int32_t> group;
    for (int s = 1; s <= n; ++s) group.push_back(b.Var(cell, s));
    groups.push_back(std::move(group));
  }
  for (int s = 1; s <= n; ++s) {
    std::vector<int32_t> group;
    for (int cell = 0; cell < n; ++cell) group.push_back(b.Var(cell, s));
    groups.push_back(std::move(group));
  }
  return groups;
}

// The step of each cell (0: none, -1: several) from a solution's cells or,
// when it has none, from its rows of steps.
absl::StatusOr<std::vector<int>> ReadSteps(const ZipBoard& b,
                                           const v1::PuzzleSolution& solution) {
  const int n = b.size();
  std::vector<int> steps;
  if (solution.cells_size() > 0) {
    if (solution.cells_size() != n) {
      return absl::InvalidArgumentError(
          absl::StrCat("solution.cells: expected ", n, " values, got ",
                       solution.cells_size()));
    }
    for (int k = 0; k < n; ++k) {
      const int v = solution.cells(k);
      if (v < -1 || v > n) {
        return absl::InvalidArgumentError(absl::StrCat(
            "solution.cells[", k, "]: step ", v, " out of range -1..", n,
            " (0: not entered, -1: entered at several steps)"));
      }
      steps.push_back(v);
    }
    return steps;
  }
  if (solution.rows_size() == 0)
    return absl::InvalidArgumentError("solution: neither cells nor rows");
  if (solution.rows_size() != b.rows) {
    return absl::InvalidArgumentError(absl::StrCat("solution.rows: expected ",
                                                   b.rows, " rows, got ",
                                                   solution.rows_size()));
  }
  for (int r = 0; r < b.rows; ++r) {
    std::vector<absl::string_view> fields = absl::StrSplit(
        solution.rows(r), absl::ByAnyChar(" \t"), absl::SkipEmpty());
    if (static_cast<int>(fields.size()) != b.cols) {
      return absl::InvalidArgumentError(
          absl::StrCat("solution.rows[", r, "]: expected ", b.cols,
                       " steps, got ", fields.size()));
    }
    for (int c = 0; c < b.cols; ++c) {
      int v = 0;
      if (!absl::SimpleAtoi(fields[c], &v) || v < -1 || v > n) {
        return absl::InvalidArgumentError(
            absl::StrCat("solution.rows[", r, "][", c, "]: '", fields[c],
                         "' is not a step -1..", n));
      }
      steps.push_back(v);
    }
  }
  return steps;
}

// Records the stage of `assignment`'s variable map as ReduceByAssignment
// does, but leaves the reduced model to the caller: each stage's assignment
// extends the previous one, so only the last stage's model is ever used, and
// building the model of every stage took most of the compile (an 11x12 grid
// reduced through four stages, the first of them still 4 million couplers).
absl::Status AddStage(std::span<const int8_t> assignment, const char* name,
                      CompiledProblem& problem) {
  ASSIGN_OR_RETURN(problem.variables, VariableMap::FromAssignment(assignment));
  int zero_before = 0, one_before = 0;
  for (const ReductionStage& s : problem.stages) {
    zero_before += s.fixed_zero;
    one_before += s.fixed_one;
  }
  problem.stages.push_back({name, problem.variables.num_reduced(),
                            problem.variables.num_fixed_zero() - zero_before,
                            problem.variables.num_fixed_one() - one_before});
  return absl::OkStatus();
}

class ZipCompiler final : public PuzzleCompiler {
 public:
  absl::string_view kind() const override { return "zip"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kZip;
  }

  // 0 for sides out of range: Compile refuses them naming the field, where a
  // size refusal would name a server limit that no value lets through.
  int64_t ModelVariables(const v1::PuzzleSpec& spec) const override {
    if (!SidesInRange(spec.zip())) return 0;
    const int64_t cells = SaturatingMul(spec.zip().rows(), spec.zip().cols());
    return SaturatingMul(cells, cells);
  }

  // The one-hot terms of cells and steps (N^2 (N - 1) couplers) and the
  // moves between cells that are not neighbours, counted as if no wall split
  // any (N - 1 steps of N (N - 1) - 2E pairs for a grid of E edges).
  int64_t ModelCouplersAtLeast(const v1::PuzzleSpec& spec) const override {
    if (!SidesInRange(spec.zip())) return 0;
    const int64_t rows = spec.zip().rows(), cols = spec.zip().cols();
    const int64_t n = rows * cols;
    const int64_t edges = rows * (cols - 1) + cols * (rows - 1);
    return n * n * (n - 1) + (n - 1) * (n * (n - 1) - 2 * edges);
  }

  absl::StatusOr<CompiledProblem> Compile(
      const v1::PuzzleSpec& spec,
      const v1::CompileOptions& options) const override {
    ASSIGN_OR_RETURN(const ZipBoard b, CheckZipSpec(spec.zip()));
    CompiledProblem problem;
    problem.kind = std::string(kind());
    problem.height = b.rows;
    problem.width = b.cols;
    ASSIGN_OR_RETURN(problem.full_model, BuildFullModel(b));
    problem.ground_energy = 0.0;
    const int vars = problem.full_model.num_variables();
    problem.stages.push_back({"model", vars, 0, 0});
    const std::vector<std::vector<int32_t>> groups = FullOneHotGroups(b);

    const v1::Reduction reduction = options.reduction() == v1::REDUCTION_DEFAULT
                                        ? v1::REDUCTION_FULL
                                        : options.reduction();
    if (reduction == v1::REDUCTION_NONE) {
      problem.model = problem.full_model;
      problem.variables = VariableMap::Identity(vars);
      problem.one_hot_groups = ReducedOneHotGroups(problem.variables, groups);
      return problem;
    }
    std::vector<std::pair<ZipPruning, const char*>> levels = {
        {ZipPruning::kEndpoints, "endpoints"}};
    if (reduction == v1::REDUCTION_FULL) {
      levels.push_back({ZipPruning::kParity, "parity"});
      levels.push_back({ZipPruning::kDistance, "distance"});
      levels.push_back({ZipPruning::kForced, "forced"});
    }
    const int n = b.size();
    for (const auto& [level, name] : levels) {
      const std::vector<std::vector<uint8_t>> domains =
          ZipStepDomains(b, level);
      std::vector<int8_t> assignment(vars, -1);
      for (int cell = 0; cell < n; ++cell) {
        const int left = static_cast<int>(
            std::count(domains[cell].begin(), domains[cell].end(), 1));
        for (int s = 1; s <= n; ++s) {
          if (!domains[cell][s - 1]) {
            assignment[b.Var(cell, s)] = 0;
          } else if (left == 1) {
            assignment[b.Var(cell, s)] = 1;
          }
        }
      }
      RETURN_IF_ERROR(AddStage(assignment, name, problem));
    }
    ASSIGN_OR_RETURN(problem.model,
                     ApplyVariableMap(problem.full_model, problem.variables));
    problem.one_hot_groups = ReducedOneHotGroups(problem.variables, groups);
    return problem;
  }

  v1::PuzzleSolution Decode(const v1::PuzzleSpec& spec,
                            const CompiledProblem& problem,
                            std::span<const uint8_t> bits) const override {
    const int rows = problem.height, cols = problem.width, n = rows * cols;
    v1::PuzzleSolution solution;
    solution.set_height(rows);
    solution.set_width(cols);
    const int width = static_cast<int>(absl::StrCat(n).size());
    for (int r = 0; r < rows; ++r) {
      std::string row;
      for (int c = 0; c < cols; ++c) {
        const int cell = r * cols + c;
        int step = 0;
        for (int s = 1; s <= n; ++s) {
          if (!bits[static_cast<size_t>(cell) * n + s - 1]) continue;
          step = step == 0 ? s : -1;
        }
        solution.add_cells(step);
        std::string text = absl::StrCat(step);
        if (c > 0) row.push_back(' ');
        row.append(width - std::min<int>(width, text.size()), ' ');
        row.append(text);
      }
      solution.add_rows(row);
    }
    return solution;
  }

  absl::StatusOr<v1::ValidationReport> Validate(
      const v1::PuzzleSpec& spec,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(const ZipBoard b, CheckZipSpec(spec.zip()));
    ASSIGN_OR_RETURN(const std::vector<int> steps, ReadSteps(b, solution));
    const int n = b.size();
    v1::ValidationReport report;
    auto add = [&](absl::string_view rule, absl::string_view location,
                   absl::string_view message) {
      *report.add_violations() = MakeViolation(rule, location, message);
    };
    auto cell_location = [&](int cell) {
      return absl::StrCat("cell ", CellName(cell, b.cols));
    };
    // cell_at[s]: the one cell entered at step s, -1 none, -2 several.
    std::vector<int> cell_at(n + 1, -1);
    std::vector<std::vector<int>> cells_at(n + 1);
    for (int cell = 0; cell < n; ++cell) {
      if (steps[cell] == 0) {
        add("cell_unvisited", cell_location(cell),
            "the path never enters this cell");
      } else if (steps[cell] < 0) {
        add("cell_revisited", cell_location(cell),
            "the path enters this cell more than once");
      } else {
        cells_at[steps[cell]].push_back(cell);
      }
    }
    for (int s = 1; s <= n; ++s) {
      if (cells_at[s].size() == 1) {
        cell_at[s] = cells_at[s][0];
      } else if (cells_at[s].size() > 1) {
        cell_at[s] = -2;
        std::string names;
        for (int cell : cells_at[s])
          absl::StrAppend(&names, names.empty() ? "" : ", ",
                          CellName(cell, b.cols));
        add("step_repeated", absl::StrCat("step ", s),
            absl::StrCat("cells ", names, " are all entered at this step"));
      }
    }
    for (int s = 1; s < n; ++s) {
      const int from = cell_at[s], to = cell_at[s + 1];
      if (from < 0 || to < 0) continue;
      const std::string location = absl::StrCat("steps ", s, " and ", s + 1);
      if (!Orthogonal(from, to, b.cols)) {
        add("path_break", location,
            absl::StrCat("the path jumps from ", CellName(from, b.cols), " to ",
                         CellName(to, b.cols), ", which are not neighbours"));
      } else if (!b.Joined(from, to)) {
        add("wall_crossed", location,
            absl::StrCat("the path crosses the wall between ",
                         CellName(from, b.cols), " and ",
                         CellName(to, b.cols)));
      }
    }
    const int first = b.waypoints.front(), last = b.waypoints.back();
    if (steps[first] != 1) {
      add("start", cell_location(first),
          absl::StrCat("the path starts elsewhere: waypoint 1 is entered at ",
                       "step ", steps[first]));
    }
    if (steps[last] != n) {
      add("end", cell_location(last),
          absl::StrCat("the path ends elsewhere: waypoint ", b.waypoints.size(),
                       " is entered at step ", steps[last], " of ", n));
    }
    for (size_t k = 0; k + 1 < b.waypoints.size(); ++k) {
      const int a = steps[b.waypoints[k]], c = steps[b.waypoints[k + 1]];
      if (a <= 0 || c <= 0 || a < c) continue;
      add("waypoint_order", absl::StrCat("waypoints ", k + 1, " and ", k + 2),
          absl::StrCat("waypoint ", k + 2, " (step ", c,
                       ") comes before waypoint ", k + 1, " (step ", a, ")"));
    }
    report.set_valid(report.violations_size() == 0);
    return report;
  }

  absl::StatusOr<std::vector<uint8_t>> Encode(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(const ZipBoard b, CheckZipSpec(spec.zip()));
    ASSIGN_OR_RETURN(const std::vector<int> steps, ReadSteps(b, solution));
    std::vector<uint8_t> bits(static_cast<size_t>(b.size()) * b.size(), 0);
    for (int cell = 0; cell < b.size(); ++cell) {
      if (steps[cell] > 0) bits[b.Var(cell, steps[cell])] = 1;
    }
    return bits;
  }
};

}  // namespace

bool ZipBoard::Joined(int a, int b) const {
  return std::find(joined[a].begin(), joined[a].end(), b) != joined[a].end();
}

absl::StatusOr<ZipBoard> CheckZipSpec(const v1::ZipPuzzle& zip) {
  for (const auto& [field, side] :
       {std::pair<const char*, uint32_t>{"rows", zip.rows()},
        std::pair<const char*, uint32_t>{"cols", zip.cols()}}) {
    if (side < kMinSide || side > kMaxSide) {
      // The sides' range is not all that bounds a grid: the model's
      // (rows * cols)^2 variables and about 2 (rows * cols)^3 couplers must
      // fit the server's model limits too, which under their defaults take
      // about 130 cells (12x12 is refused, 11x12 and 16x8 pass).
      return absl::InvalidArgumentError(absl::StrCat(
          "zip.", field, ": must be ", kMinSide, "..", kMaxSide, ", got ", side,
          " (the grid's cells are bounded too, by the server's model limits: "
          "about 130 cells under qs_server's default --max_model_mb)"));
    }
  }
  ZipBoard b;
  b.rows = static_cast<int>(zip.rows());
  b.cols = static_cast<int>(zip.cols());
  const int n = b.size();
  if (zip.waypoints_size() < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("zip.waypoints: at least two (the path's start and end), "
                     "got ",
                     zip.waypoints_size()));
  }
  std::vector<int> waypoint_of(n, -1);
  for (int k = 0; k < zip.waypoints_size(); ++k) {
    const uint32_t cell = zip.waypoints(k);
    if (cell >= static_cast<uint32_t>(n)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "zip.waypoints[", k, "]: cell ", cell, " out of range 0..", n - 1));
    }
    if (waypoint_of[cell] >= 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "zip.waypoints[", k, "]: cell ", cell, " ", CellName(cell, b.cols),
          " is already waypoint ", waypoint_of[cell] + 1));
    }
    waypoint_of[cell] = k;
    b.waypoints.push_back(static_cast<int>(cell));
  }
  std::set<std::pair<int, int>> walls;
  for (int k = 0; k < zip.walls_size(); ++k) {
    const uint32_t a = zip.walls(k).a(), c = zip.walls(k).b();
    if (a >= static_cast<uint32_t>(n) || c >= static_cast<uint32_t>(n)) {
      return absl::InvalidArgumentError(
          absl::StrCat("zip.walls[", k, "]: cells ", a, " and ", c,
                       " must be in range 0..", n - 1));
    }
    const int x = static_cast<int>(a), y = static_cast<int>(c);
    if (!Orthogonal(x, y, b.cols)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "zip.walls[", k, "]: cells ", a, " ", CellName(x, b.cols), " and ", c,
          " ", CellName(y, b.cols), " are not orthogonal neighbours"));
    }
    walls.insert({std::min(x, y), std::max(x, y)});
  }
  b.joined.resize(n);
  for (int cell = 0; cell < n; ++cell) {
    const int r = cell / b.cols, c = cell % b.cols;
    for (const auto& dir : kOrthogonal) {
      const int rr = r + dir[0], cc = c + dir[1];
      if (rr < 0 || rr >= b.rows || cc < 0 || cc >= b.cols) continue;
      const int other = rr * b.cols + cc;
      if (walls.count({std::min(cell, other), std::max(cell, other)})) continue;
      b.joined[cell].push_back(other);
    }
  }
  return b;
}

std::vector<std::vector<uint8_t>> ZipStepDomains(const ZipBoard& b,
                                                 ZipPruning level) {
  const int n = b.size();
  const int first = b.waypoints.front(), last = b.waypoints.back();
  Domains d(n, std::vector<uint8_t>(n, 1));
  for (int cell = 0; cell < n; ++cell) {
    for (int s = 1; s <= n; ++s) {
      const bool start = s == 1 || cell == first;
      const bool end = s == n || cell == last;
      if (start && !(s == 1 && cell == first)) d[cell][s - 1] = 0;
      if (end && !(s == n && cell == last)) d[cell][s - 1] = 0;
    }
  }
  if (level == ZipPruning::kEndpoints) return d;
  PruneIfFeasible(d, [&](Domains& next) { PruneParity(b, next); });
  if (level == ZipPruning::kParity) return d;
  PruneIfFeasible(d, [&](Domains& next) { PruneDistance(b, next); });
  if (level == ZipPruning::kDistance) return d;
  PruneIfFeasible(d, [&](Domains& next) { PruneForced(b, next); });
  return d;
}

std::unique_ptr<PuzzleCompiler> NewZipCompiler() {
  return std::make_unique<ZipCompiler>();
}

}  // namespace qs
