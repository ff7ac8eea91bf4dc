// Singles (Hitori) compiler: the formulation of docs/singles.md §2 (duplicate,
// adjacency, one-state, pointer and contact terms over the pointer-and-level
// encoding of G' = shaded cells + border node), the reduction stages of §3
// (Hitori's deductions from the numbers, then the auxiliaries they settle),
// decoding, and a validator of the game's three rules.
#include "core/families/singles/singles.h"

#include <algorithm>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "core/base/saturating.h"
#include "core/base/status_macros.h"

namespace qs {

constexpr int kMaxSide = 62;
constexpr int kSide[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
// North-west, north-east, south-west, south-east; the last is the pointer
// direction that raises the level.
constexpr int kDiagonal[4][2] = {{-1, -1}, {-1, 1}, {1, -1}, {1, 1}};

absl::StatusOr<SinglesBoard> CheckSinglesSpec(const v1::SinglesPuzzle& spec) {
  if (spec.rows() < 2 || spec.rows() > kMaxSide) {
    return absl::InvalidArgumentError(absl::StrCat(
        "singles.rows: must be 2..", kMaxSide, ", got ", spec.rows()));
  }
  if (spec.cols() < 2 || spec.cols() > kMaxSide) {
    return absl::InvalidArgumentError(absl::StrCat(
        "singles.cols: must be 2..", kMaxSide, ", got ", spec.cols()));
  }
  SinglesBoard b;
  b.rows = static_cast<int>(spec.rows());
  b.cols = static_cast<int>(spec.cols());
  if (spec.numbers_size() != b.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("singles.numbers: expected ", b.size(), " numbers (",
                     b.rows, "x", b.cols, "), got ", spec.numbers_size()));
  }
  for (int k = 0; k < b.size(); ++k) {
    if (spec.numbers(k) < 1 || spec.numbers(k) > 1000000) {
      return absl::InvalidArgumentError(
          absl::StrCat("singles.numbers[", k, "]: must be 1..1000000, got ",
                       spec.numbers(k)));
    }
    b.numbers.push_back(static_cast<int>(spec.numbers(k)));
  }
  return b;
}

int SinglesLevels(int rows, int cols) {
  return (std::max(rows, cols) + 1) / 2 + 2;
}

namespace {

bool IsBorder(int rows, int cols, int r, int c) {
  return r == 0 || c == 0 || r == rows - 1 || c == cols - 1;
}

// The number of states of an interior cell at (r, c): its root and, per
// diagonal neighbour, one pointer per level the pointer can take.
int64_t InteriorStates(int rows, int cols, int levels, int r, int c) {
  int64_t n = 1;
  for (int d = 0; d < 4; ++d) {
    const int rr = r + kDiagonal[d][0], cc = c + kDiagonal[d][1];
    if (IsBorder(rows, cols, rr, cc)) {
      n += 1;
    } else {
      n += d == 3 ? levels - 1 : levels;
    }
  }
  return n;
}

int64_t LayoutVariables(int64_t rows, int64_t cols) {
  if (rows < 1 || cols < 1 || rows > kMaxSide || cols > kMaxSide)
    return SaturatingMul(rows, cols);
  const int levels =
      SinglesLevels(static_cast<int>(rows), static_cast<int>(cols));
  int64_t n = rows * cols;
  for (int r = 1; r + 1 < rows; ++r) {
    for (int c = 1; c + 1 < cols; ++c)
      n += InteriorStates(static_cast<int>(rows), static_cast<int>(cols),
                          levels, r, c);
  }
  return n;
}

}  // namespace

std::vector<int> SinglesLayout::Diagonal(int cell) const {
  std::vector<int> out;
  const int r = cell / cols, c = cell % cols;
  for (const auto& d : kDiagonal) {
    const int rr = r + d[0], cc = c + d[1];
    if (rr >= 0 && rr < rows && cc >= 0 && cc < cols)
      out.push_back(rr * cols + cc);
  }
  return out;
}

std::vector<std::pair<int, int>> SinglesLayout::DiagonalPairs() const {
  std::vector<std::pair<int, int>> pairs;
  for (int a = 0; a < size(); ++a) {
    for (int b : Diagonal(a)) {
      if (a < b) pairs.push_back({a, b});
    }
  }
  return pairs;
}

SinglesLayout MakeSinglesLayout(int rows, int cols) {
  SinglesLayout layout;
  layout.rows = rows;
  layout.cols = cols;
  layout.levels = SinglesLevels(rows, cols);
  layout.states.resize(rows * cols);
  int next = rows * cols;
  for (int cell = 0; cell < rows * cols; ++cell) {
    const int r = cell / cols, c = cell % cols;
    std::vector<SinglesState>& states = layout.states[cell];
    if (IsBorder(rows, cols, r, c)) {
      states.push_back({cell, 0, kSinglesBorderNode});
      continue;
    }
    states.push_back({next++, 0, -1});
    for (int d = 0; d < 4; ++d) {
      const int rr = r + kDiagonal[d][0], cc = c + kDiagonal[d][1];
      const int target = rr * cols + cc;
      const int raise = d == 3 ? 1 : 0;
      if (IsBorder(rows, cols, rr, cc)) {
        states.push_back({next++, raise, target});
        continue;
      }
      for (int k = raise; k < layout.levels; ++k)
        states.push_back({next++, k, target});
    }
  }
  layout.num_variables = next;
  return layout;
}

std::vector<std::pair<int, int>> SinglesDuplicatePairs(const SinglesBoard& b) {
  std::vector<std::pair<int, int>> pairs;
  for (int a = 0; a < b.size(); ++a) {
    const int r = a / b.cols, c = a % b.cols;
    for (int cc = c + 1; cc < b.cols; ++cc) {
      if (b.numbers[r * b.cols + cc] == b.numbers[a])
        pairs.push_back({a, r * b.cols + cc});
    }
    for (int rr = r + 1; rr < b.rows; ++rr) {
      if (b.numbers[rr * b.cols + c] == b.numbers[a])
        pairs.push_back({a, rr * b.cols + c});
    }
  }
  return pairs;
}

namespace {

// Whether the pointer from `from` to `to` goes south-east (raises the level).
bool RaisesLevel(int cols, int from, int to) { return to == from + cols + 1; }

}  // namespace

std::optional<std::vector<uint8_t>> SinglesAuxiliaries(
    const SinglesLayout& layout, const std::vector<uint8_t>& shaded) {
  const int n = layout.size(), cols = layout.cols;
  for (int a = 0; a < n; ++a) {
    if (!shaded[a]) continue;
    if (a % cols + 1 < cols && shaded[a + 1]) return std::nullopt;
    if (a + cols < n && shaded[a + cols]) return std::nullopt;
  }
  // Parents (kSinglesBorderNode for border cells) by breadth-first search
  // from the border node, then from each floating tree's lowest cell.
  std::vector<int> parent(n, -3), level(n, 0);
  std::deque<int> queue;
  auto grow = [&]() {
    while (!queue.empty()) {
      const int a = queue.front();
      queue.pop_front();
      for (int b : layout.Diagonal(a)) {
        if (!shaded[b] || parent[b] != -3) continue;
        parent[b] = a;
        level[b] = level[a] + (RaisesLevel(cols, b, a) ? 1 : 0);
        queue.push_back(b);
      }
    }
  };
  for (int a = 0; a < n; ++a) {
    if (shaded[a] && layout.states[a][0].target == kSinglesBorderNode) {
      parent[a] = kSinglesBorderNode;
      queue.push_back(a);
    }
  }
  grow();
  for (int a = 0; a < n; ++a) {
    if (!shaded[a] || parent[a] != -3) continue;
    parent[a] = -1;
    queue.push_back(a);
    grow();
  }
  // A forest: every diagonal contact is a parent link.
  for (const auto& [a, b] : layout.DiagonalPairs()) {
    if (shaded[a] && shaded[b] && parent[a] != b && parent[b] != a)
      return std::nullopt;
  }
  std::vector<uint8_t> bits(layout.num_variables, 0);
  for (int a = 0; a < n; ++a) {
    if (!shaded[a]) continue;
    bits[a] = 1;
    if (parent[a] == kSinglesBorderNode) continue;
    bool found = false;
    for (const SinglesState& state : layout.states[a]) {
      if (state.target == parent[a] && state.level == level[a]) {
        bits[state.var] = 1;
        found = true;
      }
    }
    if (!found) return std::nullopt;  // more levels than the layout has
  }
  return bits;
}

namespace {

std::string CellName(int cell, int cols) {
  return absl::StrCat("(", cell / cols + 1, ",", cell % cols + 1, ")");
}

absl::StatusOr<Qubo> BuildFullModel(const SinglesBoard& b,
                                    const SinglesLayout& layout) {
  QuboBuilder builder(layout.num_variables);
  for (int cell = 0; cell < b.size(); ++cell) {
    const std::string name =
        absl::StrCat("r", cell / b.cols + 1, "c", cell % b.cols + 1);
    builder.SetLabel(cell, name);
    for (const SinglesState& state : layout.states[cell]) {
      if (state.var == cell) continue;
      if (state.target < 0) {
        builder.SetLabel(state.var, absl::StrCat(name, "root"));
      } else {
        builder.SetLabel(
            state.var, absl::StrCat(name, "to", CellName(state.target, b.cols),
                                    "l", state.level));
      }
    }
  }
  for (const auto& [a, c] : SinglesDuplicatePairs(b)) {
    builder.AddOffset(1.0);
    builder.AddLinear(a, -1.0);
    builder.AddLinear(c, -1.0);
    builder.AddQuadratic(a, c, 1.0);
  }
  for (int a = 0; a < b.size(); ++a) {
    if (a % b.cols + 1 < b.cols) builder.AddQuadratic(a, a + 1, 1.0);
    if (a + b.cols < b.size()) builder.AddQuadratic(a, a + b.cols, 1.0);
  }
  for (int a = 0; a < b.size(); ++a) {
    const std::vector<SinglesState>& states = layout.states[a];
    if (states[0].target == kSinglesBorderNode) continue;
    // (s_a - sum V_a)^2
    builder.AddLinear(a, 1.0);
    for (size_t i = 0; i < states.size(); ++i) {
      builder.AddLinear(states[i].var, 1.0);
      builder.AddQuadratic(a, states[i].var, -2.0);
      for (size_t j = i + 1; j < states.size(); ++j)
        builder.AddQuadratic(states[i].var, states[j].var, 2.0);
    }
    for (const SinglesState& y : states) {
      if (y.target < 0) continue;
      // The target is shaded, at the level the pointer says.
      builder.AddLinear(y.var, 1.0);
      builder.AddQuadratic(y.var, y.target, -1.0);
      const int want = y.level - (RaisesLevel(b.cols, a, y.target) ? 1 : 0);
      for (const SinglesState& w : layout.states[y.target]) {
        if (w.level != want) builder.AddQuadratic(y.var, w.var, 1.0);
      }
    }
  }
  for (const auto& [a, c] : layout.DiagonalPairs()) {
    for (const SinglesState& v : layout.states[a]) {
      for (const SinglesState& w : layout.states[c]) {
        if ((v.target == c) == (w.target == a))
          builder.AddQuadratic(v.var, w.var, 1.0);
      }
    }
  }
  return std::move(builder).Build();
}

// The reduction's deductions on the shading (-1 open, 0 unshaded, 1 shaded).
// A deduction that contradicts an earlier one (a puzzle without solution) is
// not applied.
class Deductions {
 public:
  explicit Deductions(const SinglesBoard& b) : b_(b), fixed_(b.size(), -1) {
    for (int r = 0; r < b.rows; ++r) {
      std::vector<int> line;
      for (int c = 0; c < b.cols; ++c) line.push_back(r * b.cols + c);
      lines_.push_back(line);
    }
    for (int c = 0; c < b.cols; ++c) {
      std::vector<int> line;
      for (int r = 0; r < b.rows; ++r) line.push_back(r * b.cols + c);
      lines_.push_back(line);
    }
  }
  const std::vector<int8_t>& fixed() const { return fixed_; }

  void Unique() {
    std::vector<int> twins(b_.size(), 0);
    for (const auto& [a, c] : SinglesDuplicatePairs(b_)) {
      ++twins[a];
      ++twins[c];
    }
    for (int a = 0; a < b_.size(); ++a) {
      if (twins[a] == 0) Fix(a, 0);
    }
  }

  void Patterns() {
    for (const std::vector<int>& line : lines_) {
      const int len = static_cast<int>(line.size());
      for (int i = 0; i + 1 < len; ++i) {
        const int x = Num(line[i]);
        if (i + 2 < len && Num(line[i + 2]) == x) {
          Fix(line[i + 1], 0);
          if (Num(line[i + 1]) == x) {
            Fix(line[i], 1);
            Fix(line[i + 2], 1);
          }
        }
        if (Num(line[i + 1]) != x) continue;
        for (int j = 0; j < len; ++j) {
          if (j != i && j != i + 1 && Num(line[j]) == x) Fix(line[j], 1);
        }
      }
    }
  }

  void Propagate() {
    bool changed = true;
    while (changed) {
      changed = false;
      for (int a = 0; a < b_.size(); ++a) {
        if (fixed_[a] == 1) {
          const int r = a / b_.cols, c = a % b_.cols;
          for (const auto& d : kSide) {
            const int rr = r + d[0], cc = c + d[1];
            if (rr >= 0 && rr < b_.rows && cc >= 0 && cc < b_.cols)
              changed |= Fix(rr * b_.cols + cc, 0);
          }
        }
      }
      for (const auto& [a, c] : SinglesDuplicatePairs(b_)) {
        if (fixed_[a] == 0) changed |= Fix(c, 1);
        if (fixed_[c] == 0) changed |= Fix(a, 1);
      }
    }
  }

 private:
  int Num(int cell) const { return b_.numbers[cell]; }
  bool Fix(int cell, int8_t value) {
    if (fixed_[cell] != -1) return false;
    fixed_[cell] = value;
    return true;
  }

  const SinglesBoard& b_;
  std::vector<int8_t> fixed_;
  std::vector<std::vector<int>> lines_;
};

// Copies the shading's deductions into the full assignment.
void CopyShading(const std::vector<int8_t>& fixed,
                 std::vector<int8_t>& assignment) {
  for (size_t a = 0; a < fixed.size(); ++a) {
    if (fixed[a] != -1) assignment[a] = fixed[a];
  }
}

// What the fixed shading settles among the auxiliaries: an unshaded cell has
// no state, and nothing points to it.
void SettleAuxiliaries(const SinglesLayout& layout,
                       const std::vector<int8_t>& fixed,
                       std::vector<int8_t>& assignment) {
  for (int a = 0; a < layout.size(); ++a) {
    for (const SinglesState& state : layout.states[a]) {
      if (state.var == a) continue;
      if (fixed[a] == 0 || (state.target >= 0 && fixed[state.target] == 0))
        assignment[state.var] = 0;
    }
  }
}

// A board read from a solution: the shading.
absl::StatusOr<std::vector<uint8_t>> ReadShading(
    const SinglesBoard& b, const v1::PuzzleSolution& solution) {
  std::vector<uint8_t> shaded;
  if (solution.cells_size() > 0) {
    if (solution.cells_size() != b.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("solution.cells: expected ", b.size(), " values, got ",
                       solution.cells_size()));
    }
    for (int k = 0; k < b.size(); ++k) {
      const int v = solution.cells(k);
      if (v != 0 && v != 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("solution.cells[", k, "]: value ", v,
                         " is neither 0 (unshaded) nor 1 (shaded)"));
      }
      shaded.push_back(static_cast<uint8_t>(v));
    }
    return shaded;
  }
  if (solution.rows_size() != b.rows) {
    return absl::InvalidArgumentError(absl::StrCat("solution.rows: expected ",
                                                   b.rows, " rows, got ",
                                                   solution.rows_size()));
  }
  for (int r = 0; r < b.rows; ++r) {
    const std::vector<absl::string_view> tokens = absl::StrSplit(
        solution.rows(r), absl::ByAnyChar(" \t"), absl::SkipEmpty());
    if (static_cast<int>(tokens.size()) != b.cols) {
      return absl::InvalidArgumentError(
          absl::StrCat("solution.rows[", r, "]: expected ", b.cols,
                       " cells, got ", tokens.size()));
    }
    for (int c = 0; c < b.cols; ++c) {
      shaded.push_back(tokens[c] == "#" || tokens[c] == "*" ? 1 : 0);
    }
  }
  return shaded;
}

class SinglesCompiler final : public PuzzleCompiler {
 public:
  absl::string_view kind() const override { return "singles"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kSingles;
  }

  int64_t ModelVariables(const v1::PuzzleSpec& spec) const override {
    return LayoutVariables(spec.singles().rows(), spec.singles().cols());
  }

  int64_t ModelCouplersAtLeast(const v1::PuzzleSpec& spec) const override {
    // Each diagonal pair of interior cells couples at least levels^2 pairs of
    // states that point elsewhere.
    const int64_t rows = spec.singles().rows(), cols = spec.singles().cols();
    if (rows < 4 || cols < 4 || rows > kMaxSide || cols > kMaxSide) return 0;
    const int64_t levels =
        SinglesLevels(static_cast<int>(rows), static_cast<int>(cols));
    return 2 * (rows - 3) * (cols - 3) * levels * levels;
  }

  absl::StatusOr<CompiledProblem> Compile(
      const v1::PuzzleSpec& spec,
      const v1::CompileOptions& options) const override {
    ASSIGN_OR_RETURN(const SinglesBoard b, CheckSinglesSpec(spec.singles()));
    const SinglesLayout layout = MakeSinglesLayout(b.rows, b.cols);
    CompiledProblem problem;
    problem.kind = std::string(kind());
    problem.height = b.rows;
    problem.width = b.cols;
    ASSIGN_OR_RETURN(problem.full_model, BuildFullModel(b, layout));
    problem.ground_energy = 0.0;
    const int n = layout.num_variables;
    problem.stages.push_back({"model", n, 0, 0});
    const v1::Reduction reduction = options.reduction() == v1::REDUCTION_DEFAULT
                                        ? v1::REDUCTION_FULL
                                        : options.reduction();
    if (reduction == v1::REDUCTION_NONE) {
      problem.model = problem.full_model;
      problem.variables = VariableMap::Identity(n);
      return problem;
    }
    std::vector<int8_t> assignment(n, -1);
    Deductions deductions(b);
    deductions.Unique();
    CopyShading(deductions.fixed(), assignment);
    RETURN_IF_ERROR(ReduceByAssignment(assignment, "unique", problem));
    if (reduction == v1::REDUCTION_FULL) {
      deductions.Patterns();
      CopyShading(deductions.fixed(), assignment);
      RETURN_IF_ERROR(ReduceByAssignment(assignment, "patterns", problem));
      deductions.Propagate();
      CopyShading(deductions.fixed(), assignment);
      RETURN_IF_ERROR(ReduceByAssignment(assignment, "propagation", problem));
    }
    SettleAuxiliaries(layout, deductions.fixed(), assignment);
    RETURN_IF_ERROR(ReduceByAssignment(assignment, "auxiliaries", problem));
    // A shaded interior cell takes exactly one state.
    std::vector<std::vector<int32_t>> groups;
    for (int a = 0; a < b.size(); ++a) {
      if (deductions.fixed()[a] != 1 || b.Border(a)) continue;
      std::vector<int32_t> group;
      for (const SinglesState& state : layout.states[a])
        group.push_back(state.var);
      groups.push_back(std::move(group));
    }
    problem.one_hot_groups = ReducedOneHotGroups(problem.variables, groups);
    return problem;
  }

  v1::PuzzleSolution Decode(const v1::PuzzleSpec& spec,
                            const CompiledProblem& problem,
                            std::span<const uint8_t> bits) const override {
    const int rows = problem.height, cols = problem.width;
    v1::PuzzleSolution solution;
    solution.set_height(rows);
    solution.set_width(cols);
    for (int r = 0; r < rows; ++r) {
      std::vector<std::string> row;
      for (int c = 0; c < cols; ++c) {
        const int cell = r * cols + c;
        solution.add_cells(bits[cell] ? 1 : 0);
        if (bits[cell]) {
          row.push_back("#");
        } else if (cell < spec.singles().numbers_size()) {
          row.push_back(absl::StrCat(spec.singles().numbers(cell)));
        } else {
          row.push_back("?");
        }
      }
      solution.add_rows(absl::StrJoin(row, " "));
    }
    return solution;
  }

  absl::StatusOr<v1::ValidationReport> Validate(
      const v1::PuzzleSpec& spec,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(const SinglesBoard b, CheckSinglesSpec(spec.singles()));
    ASSIGN_OR_RETURN(const std::vector<uint8_t> shaded,
                     ReadShading(b, solution));
    v1::ValidationReport report;
    AddDuplicates(b, shaded, report);
    AddAdjacent(b, shaded, report);
    AddDisconnected(b, shaded, report);
    report.set_valid(report.violations_size() == 0);
    return report;
  }

  absl::StatusOr<std::vector<uint8_t>> Encode(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(const SinglesBoard b, CheckSinglesSpec(spec.singles()));
    ASSIGN_OR_RETURN(const std::vector<uint8_t> shaded,
                     ReadShading(b, solution));
    const SinglesLayout layout = MakeSinglesLayout(b.rows, b.cols);
    std::optional<std::vector<uint8_t>> bits =
        SinglesAuxiliaries(layout, shaded);
    if (bits.has_value()) return *std::move(bits);
    std::vector<uint8_t> plain(layout.num_variables, 0);
    std::copy(shaded.begin(), shaded.end(), plain.begin());
    return plain;
  }

 private:
  static void AddDuplicates(const SinglesBoard& b,
                            const std::vector<uint8_t>& shaded,
                            v1::ValidationReport& report) {
    auto check_line = [&](const std::vector<int>& line,
                          const std::string& where) {
      std::vector<std::pair<int, int>> seen;  // number, count
      for (int cell : line) {
        if (shaded[cell]) continue;
        auto it = std::find_if(seen.begin(), seen.end(), [&](const auto& p) {
          return p.first == b.numbers[cell];
        });
        if (it == seen.end()) {
          seen.push_back({b.numbers[cell], 1});
        } else {
          ++it->second;
        }
      }
      for (const auto& [number, count] : seen) {
        if (count < 2) continue;
        *report.add_violations() = MakeViolation(
            "duplicate", where,
            absl::StrCat("number ", number, " unshaded ", count, " times"));
      }
    };
    for (int r = 0; r < b.rows; ++r) {
      std::vector<int> line;
      for (int c = 0; c < b.cols; ++c) line.push_back(r * b.cols + c);
      check_line(line, absl::StrCat("row ", r + 1));
    }
    for (int c = 0; c < b.cols; ++c) {
      std::vector<int> line;
      for (int r = 0; r < b.rows; ++r) line.push_back(r * b.cols + c);
      check_line(line, absl::StrCat("column ", c + 1));
    }
  }

  static void AddAdjacent(const SinglesBoard& b,
                          const std::vector<uint8_t>& shaded,
                          v1::ValidationReport& report) {
    for (int a = 0; a < b.size(); ++a) {
      if (!shaded[a]) continue;
      for (int next : {a % b.cols + 1 < b.cols ? a + 1 : -1,
                       a + b.cols < b.size() ? a + b.cols : -1}) {
        if (next < 0 || !shaded[next]) continue;
        *report.add_violations() =
            MakeViolation("adjacent_shaded",
                          absl::StrCat("cells ", CellName(a, b.cols), " and ",
                                       CellName(next, b.cols)),
                          "two shaded cells share a side");
      }
    }
  }

  // One violation per unshaded region beyond the largest (ties: the one with
  // the lowest cell).
  static void AddDisconnected(const SinglesBoard& b,
                              const std::vector<uint8_t>& shaded,
                              v1::ValidationReport& report) {
    std::vector<int> region(b.size(), -1);
    std::vector<std::pair<int, int>> regions;  // first cell, size
    for (int start = 0; start < b.size(); ++start) {
      if (shaded[start] || region[start] >= 0) continue;
      const int id = static_cast<int>(regions.size());
      int count = 0;
      std::vector<int> stack = {start};
      region[start] = id;
      while (!stack.empty()) {
        const int a = stack.back();
        stack.pop_back();
        ++count;
        const int r = a / b.cols, c = a % b.cols;
        for (const auto& d : kSide) {
          const int rr = r + d[0], cc = c + d[1];
          if (rr < 0 || rr >= b.rows || cc < 0 || cc >= b.cols) continue;
          const int next = rr * b.cols + cc;
          if (shaded[next] || region[next] >= 0) continue;
          region[next] = id;
          stack.push_back(next);
        }
      }
      regions.push_back({start, count});
    }
    if (regions.empty()) {
      *report.add_violations() = MakeViolation(
          "disconnected", "board", "every cell is shaded: no unshaded region");
      return;
    }
    size_t largest = 0;
    for (size_t k = 1; k < regions.size(); ++k) {
      if (regions[k].second > regions[largest].second) largest = k;
    }
    for (size_t k = 0; k < regions.size(); ++k) {
      if (k == largest) continue;
      *report.add_violations() = MakeViolation(
          "disconnected",
          absl::StrCat("cell ", CellName(regions[k].first, b.cols)),
          absl::StrCat("an unshaded region of ", regions[k].second,
                       " cells cut off from the other unshaded cells"));
    }
  }
};

}  // namespace

std::vector<int8_t> SinglesDeducedShading(const SinglesBoard& b) {
  Deductions deductions(b);
  deductions.Unique();
  deductions.Patterns();
  deductions.Propagate();
  return deductions.fixed();
}

std::unique_ptr<PuzzleCompiler> NewSinglesCompiler() {
  return std::make_unique<SinglesCompiler>();
}

}  // namespace qs
