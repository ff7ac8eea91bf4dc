// Keen compiler (docs/keen.md): the spec's checks and the cages' digit
// tuples, the QUBO of §Formulation (Sudoku's Latin terms without boxes, a
// weighted count per + cage, forbidden pairs per - and / cage, tuple
// selectors per x cage), the clamping of §Reduction stage by stage (givens,
// cage digits, Latin propagation, tuples), decoding and the validator.
#include "core/families/keen/keen.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "core/base/saturating.h"
#include "core/base/status_macros.h"
#include "core/compile/penalties.h"
#include "core/families/digit_grid.h"

namespace qs {
namespace {

// Two digits in one cell, or one digit twice in a line: > 1 so that removing
// a conflicting digit always lowers the energy ([Mücke 2024] §2's argument),
// which makes -n^2 the minimum of the Latin part alone.
constexpr double kLatinPenalty = 2.0;
// Every cage term is an integer that is 0 exactly on the cage's tuples, so a
// wrong cage costs at least this much.
constexpr double kCageWeight = 1.0;
// Whether + cages of three cells or more are stated through tuple selectors
// (as x cages are) instead of the weighted count (docs/keen.md §Results).
constexpr bool kLargeSumsUseSelectors = false;
// Search nodes one cage's tuple enumeration may visit.
constexpr int64_t kMaxTupleNodes = int64_t{1} << 22;

std::string CellName(int size, int cell) {
  return absl::StrCat("(", cell / size + 1, ",", cell % size + 1, ")");
}

bool SameLine(int size, int a, int b) {
  return a / size == b / size || a % size == b % size;
}

// Whether the digits of a complete tuple reach the target.
bool Reaches(v1::KeenCage::Operation op, uint64_t target,
             const std::vector<int>& digits) {
  switch (op) {
    case v1::KeenCage::ADD:
    case v1::KeenCage::GIVEN: {
      uint64_t sum = 0;
      for (int d : digits) sum += d;
      return sum == target;
    }
    case v1::KeenCage::MULTIPLY: {
      // Stops once past the target, so that the product cannot overflow.
      uint64_t product = 1;
      for (int d : digits) {
        product *= d;
        if (product > target) return false;
      }
      return product == target;
    }
    case v1::KeenCage::SUBTRACT:
      return static_cast<uint64_t>(std::abs(digits[0] - digits[1])) == target;
    case v1::KeenCage::DIVIDE: {
      const int lo = std::min(digits[0], digits[1]);
      const int hi = std::max(digits[0], digits[1]);
      return static_cast<uint64_t>(hi) == target * lo;
    }
    default:
      return false;
  }
}

// Depth-first enumeration of a cage's tuples, pruned by what the cells left
// can still reach (sums) and by divisibility (products).
class TupleSearch {
 public:
  TupleSearch(int size, const KeenCageShape& cage) : size_(size), cage_(cage) {}

  absl::StatusOr<std::vector<std::vector<int>>> Run() {
    digits_.assign(cage_.cells.size(), 0);
    Visit(0, 0, 1);
    if (nodes_ > kMaxTupleNodes || tuples_.size() > kKeenMaxTuples) {
      return absl::InvalidArgumentError(
          absl::StrCat("more than ", kKeenMaxTuples,
                       " digit tuples reach the target (too large a cage)"));
    }
    return std::move(tuples_);
  }

 private:
  void Visit(size_t i, uint64_t sum, uint64_t product) {
    if (++nodes_ > kMaxTupleNodes || tuples_.size() > kKeenMaxTuples) return;
    const int k = static_cast<int>(cage_.cells.size());
    if (static_cast<int>(i) == k) {
      if (Reaches(cage_.operation, cage_.target, digits_))
        tuples_.push_back(digits_);
      return;
    }
    const uint64_t left = k - i - 1;
    for (int d = 1; d <= size_; ++d) {
      if (!Fits(i, d)) continue;
      const bool add = cage_.operation == v1::KeenCage::ADD ||
                       cage_.operation == v1::KeenCage::GIVEN;
      if (add && (sum + d + left > cage_.target ||
                  sum + d + left * size_ < cage_.target))
        continue;
      if (cage_.operation == v1::KeenCage::MULTIPLY &&
          cage_.target % (product * d) != 0)
        continue;
      digits_[i] = d;
      Visit(i + 1, sum + d, product * d);
    }
    digits_[i] = 0;
  }

  // The cage's own Latin rule: no digit twice in a row or column.
  bool Fits(size_t i, int d) const {
    for (size_t j = 0; j < i; ++j) {
      if (digits_[j] == d && SameLine(size_, cage_.cells[i], cage_.cells[j]))
        return false;
    }
    return true;
  }

  const int size_;
  const KeenCageShape& cage_;
  std::vector<int> digits_;
  std::vector<std::vector<int>> tuples_;
  int64_t nodes_ = 0;
};

absl::Status CheckCageCells(const v1::KeenPuzzle& keen, int index,
                            std::vector<int>& cage_of, KeenCageShape& out) {
  const int size = static_cast<int>(keen.size());
  const v1::KeenCage& cage = keen.cages(index);
  const std::string field = absl::StrCat("keen.cages[", index, "]");
  if (cage.cells().empty())
    return absl::InvalidArgumentError(absl::StrCat(field, ".cells: empty"));
  for (uint32_t cell : cage.cells()) {
    if (cell >= static_cast<uint32_t>(size * size)) {
      return absl::InvalidArgumentError(absl::StrCat(
          field, ".cells: cell ", cell, " out of range 0..", size * size - 1));
    }
    if (cage_of[cell] == index) {
      return absl::InvalidArgumentError(absl::StrCat(
          field, ".cells: cell ", CellName(size, cell), " listed twice"));
    }
    if (cage_of[cell] >= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".cells: cell ", CellName(size, cell),
                       " is also in keen.cages[", cage_of[cell], "]"));
    }
    cage_of[cell] = index;
    out.cells.push_back(static_cast<int>(cell));
  }
  std::sort(out.cells.begin(), out.cells.end());
  // Connected: a flood from the first cell reaches every cell of the cage.
  std::vector<int> reached = {out.cells[0]};
  std::vector<uint8_t> seen(size * size, 0);
  seen[out.cells[0]] = 1;
  for (size_t k = 0; k < reached.size(); ++k) {
    const int c = reached[k];
    for (int other : out.cells) {
      const bool next = (std::abs(other - c) == size) ||
                        (std::abs(other - c) == 1 && other / size == c / size);
      if (next && !seen[other]) {
        seen[other] = 1;
        reached.push_back(other);
      }
    }
  }
  if (reached.size() != out.cells.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".cells: not orthogonally connected"));
  }
  return absl::OkStatus();
}

absl::Status CheckCage(const v1::KeenPuzzle& keen, int index,
                       std::vector<int>& cage_of, KeenCageShape& out) {
  const v1::KeenCage& cage = keen.cages(index);
  const std::string field = absl::StrCat("keen.cages[", index, "]");
  out.operation = cage.operation();
  out.target = cage.target();
  if (out.operation < v1::KeenCage::ADD ||
      out.operation > v1::KeenCage::GIVEN) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".operation: not set (+, -, x, / or a given)"));
  }
  RETURN_IF_ERROR(CheckCageCells(keen, index, cage_of, out));
  const int k = static_cast<int>(out.cells.size());
  const bool pair = out.operation == v1::KeenCage::SUBTRACT ||
                    out.operation == v1::KeenCage::DIVIDE;
  if ((pair && k != 2) || (out.operation == v1::KeenCage::GIVEN && k != 1)) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".cells: ", k, " cells; a ",
                     pair ? "- or / cage has 2" : "given has 1"));
  }
  if (out.target == 0 || out.target > (uint64_t{1} << 40)) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".target: ", out.target, " out of range"));
  }
  auto tuples = TupleSearch(static_cast<int>(keen.size()), out).Run();
  if (!tuples.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": ", tuples.status().message()));
  }
  out.tuples = *std::move(tuples);
  if (out.tuples.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".target: no digits 1..", keen.size(), " give ",
                     KeenCageLabel(cage), " in ", k, " cells"));
  }
  return absl::OkStatus();
}

std::vector<int> SelectorsOf(const KeenCageShape& cage) {
  std::vector<int> ys;
  for (size_t t = 0; t < cage.tuples.size(); ++t)
    ys.push_back(cage.first_selector + static_cast<int>(t));
  return ys;
}

void AddLatinTerms(const KeenShape& g, QuboBuilder& builder) {
  const int n = g.size;
  for (int cell = 0; cell < g.cells(); ++cell) {
    for (int d = 1; d <= n; ++d) {
      const int v = g.Var(cell, d);
      builder.AddLinear(v, -1.0);
      builder.SetLabel(
          v, absl::StrCat("r", cell / n + 1, "c", cell % n + 1, "d", d));
      for (int d2 = d + 1; d2 <= n; ++d2)
        builder.AddQuadratic(v, g.Var(cell, d2), kLatinPenalty);
    }
    for (int other = cell + 1; other < g.cells(); ++other) {
      if (!SameLine(n, cell, other)) continue;
      for (int d = 1; d <= n; ++d)
        builder.AddQuadratic(g.Var(cell, d), g.Var(other, d), kLatinPenalty);
    }
  }
}

// (sum_c sum_d d x_{c,d} - S)^2, expanded with x^2 = x.
void AddSumTerm(const KeenShape& g, const KeenCageShape& cage,
                QuboBuilder& builder) {
  const double s = static_cast<double>(cage.target);
  builder.AddOffset(kCageWeight * s * s);
  std::vector<std::pair<int, double>> terms;
  for (int cell : cage.cells) {
    for (int d = 1; d <= g.size; ++d) terms.push_back({g.Var(cell, d), d});
  }
  for (size_t i = 0; i < terms.size(); ++i) {
    const auto [u, a] = terms[i];
    builder.AddLinear(u, kCageWeight * (a * a - 2 * s * a));
    for (size_t j = i + 1; j < terms.size(); ++j)
      builder.AddQuadratic(u, terms[j].first,
                           kCageWeight * 2 * a * terms[j].second);
  }
}

// One coupler per digit pair of the two cells that misses the target.
void AddPairTerm(const KeenShape& g, const KeenCageShape& cage,
                 QuboBuilder& builder) {
  const int n = g.size;
  std::vector<uint8_t> allowed(n * n, 0);
  for (const auto& t : cage.tuples) allowed[(t[0] - 1) * n + t[1] - 1] = 1;
  for (int d = 1; d <= n; ++d) {
    for (int e = 1; e <= n; ++e) {
      if (allowed[(d - 1) * n + e - 1]) continue;
      builder.AddQuadratic(g.Var(cage.cells[0], d), g.Var(cage.cells[1], e),
                           kCageWeight);
    }
  }
}

// (1 - sum_t y_t)^2 + sum_{c,d} (x_{c,d} - sum_{t: t_c = d} y_t)^2.
void AddSelectorTerm(const KeenShape& g, int index, const KeenCageShape& cage,
                     QuboBuilder& builder) {
  const std::vector<int> ys = SelectorsOf(cage);
  for (size_t t = 0; t < ys.size(); ++t) {
    builder.SetLabel(ys[t], absl::StrCat("cage", index + 1, "_",
                                         absl::StrJoin(cage.tuples[t], "")));
  }
  AddSquaredCount(builder, ys, 1.0, kCageWeight);
  for (size_t i = 0; i < cage.cells.size(); ++i) {
    for (int d = 1; d <= g.size; ++d) {
      std::vector<int> with;
      for (size_t t = 0; t < ys.size(); ++t) {
        if (cage.tuples[t][i] == d) with.push_back(ys[t]);
      }
      const int x = g.Var(cage.cells[i], d);
      builder.AddLinear(x, kCageWeight);
      for (size_t a = 0; a < with.size(); ++a) {
        builder.AddLinear(with[a], kCageWeight);
        builder.AddQuadratic(x, with[a], -2 * kCageWeight);
        for (size_t b = a + 1; b < with.size(); ++b)
          builder.AddQuadratic(with[a], with[b], 2 * kCageWeight);
      }
    }
  }
}

absl::StatusOr<Qubo> BuildFullModel(const KeenShape& g) {
  QuboBuilder builder(g.num_variables());
  AddLatinTerms(g, builder);
  for (int i = 0; i < static_cast<int>(g.cages.size()); ++i) {
    const KeenCageShape& cage = g.cages[i];
    if (cage.cells.size() == 1) {
      for (int d = 1; d <= g.size; ++d) {
        if (d != cage.tuples[0][0])
          builder.AddLinear(g.Var(cage.cells[0], d), kCageWeight);
      }
    } else if (KeenCageUsesSelectors(cage)) {
      AddSelectorTerm(g, i, cage, builder);
    } else if (cage.operation == v1::KeenCage::ADD) {
      AddSumTerm(g, cage, builder);
    } else {
      AddPairTerm(g, cage, builder);
    }
  }
  return std::move(builder).Build();
}

// Exactly-one groups over the full variables: each cell's digits, each
// digit's cells in a row and in a column, each selector cage's tuples.
std::vector<std::vector<int32_t>> FullOneHotGroups(const KeenShape& g) {
  std::vector<std::vector<int32_t>> groups = DigitGridOneHotGroups(g.size);
  for (const KeenCageShape& cage : g.cages) {
    if (!KeenCageUsesSelectors(cage)) continue;
    std::vector<int32_t> ys;
    for (int y : SelectorsOf(cage)) ys.push_back(y);
    groups.push_back(std::move(ys));
  }
  return groups;
}

// Sets a variable unless an earlier stage fixed it (an unsolvable puzzle may
// force a digit twice; its conflict then stays in the model).
void Fix(std::vector<int8_t>& assignment, int v, int8_t value) {
  if (assignment[v] < 0) assignment[v] = value;
}

// One-cell cages: their digit is 1, the cell's others 0.
void ClampGivens(const KeenShape& g, std::vector<int8_t>& assignment) {
  for (const KeenCageShape& cage : g.cages) {
    if (cage.cells.size() != 1) continue;
    for (int d = 1; d <= g.size; ++d)
      Fix(assignment, g.Var(cage.cells[0], d), d == cage.tuples[0][0] ? 1 : 0);
  }
}

// A digit no tuple of its cage gives the cell is 0; a cell left with one
// candidate holds it.
void ClampCageDigits(const KeenShape& g, std::vector<int8_t>& assignment) {
  for (const KeenCageShape& cage : g.cages) {
    for (size_t i = 0; i < cage.cells.size(); ++i) {
      std::vector<uint8_t> used(g.size + 1, 0);
      for (const auto& t : cage.tuples) used[t[i]] = 1;
      int candidates = 0, last = 0;
      for (int d = 1; d <= g.size; ++d) {
        if (!used[d]) Fix(assignment, g.Var(cage.cells[i], d), 0);
        if (assignment[g.Var(cage.cells[i], d)] != 0) ++candidates, last = d;
      }
      if (candidates == 1) Fix(assignment, g.Var(cage.cells[i], last), 1);
    }
  }
}

// A cell's fixed digit leaves its row and column.
void ClampLatin(const KeenShape& g, std::vector<int8_t>& assignment) {
  const int n = g.size;
  for (int cell = 0; cell < g.cells(); ++cell) {
    for (int d = 1; d <= n; ++d) {
      if (assignment[g.Var(cell, d)] != 1) continue;
      for (int k = 0; k < n; ++k) {
        const int in_row = (cell / n) * n + k, in_col = k * n + cell % n;
        if (in_row != cell) Fix(assignment, g.Var(in_row, d), 0);
        if (in_col != cell) Fix(assignment, g.Var(in_col, d), 0);
      }
    }
  }
}

// A tuple that needs a digit fixed to 0 is 0; a cage's only tuple left is 1
// (a cage whose cells are all fixed drops out of the model).
void ClampTuples(const KeenShape& g, std::vector<int8_t>& assignment) {
  for (const KeenCageShape& cage : g.cages) {
    if (!KeenCageUsesSelectors(cage)) continue;
    int left = 0, last = -1;
    for (size_t t = 0; t < cage.tuples.size(); ++t) {
      const int y = cage.first_selector + static_cast<int>(t);
      for (size_t i = 0; i < cage.cells.size(); ++i) {
        if (assignment[g.Var(cage.cells[i], cage.tuples[t][i])] == 0)
          Fix(assignment, y, 0);
      }
      if (assignment[y] != 0) ++left, last = y;
    }
    if (left == 1) Fix(assignment, last, 1);
  }
}

class KeenCompiler final : public PuzzleCompiler {
 public:
  absl::string_view kind() const override { return "keen"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kKeen;
  }

  int64_t ModelVariables(const v1::PuzzleSpec& spec) const override {
    auto g = KeenShapeOf(spec.keen());
    if (g.ok()) return g->num_variables();
    const int64_t n = spec.keen().size();
    return SaturatingMul(SaturatingMul(n, n), n);
  }

  absl::StatusOr<CompiledProblem> Compile(
      const v1::PuzzleSpec& spec,
      const v1::CompileOptions& options) const override {
    ASSIGN_OR_RETURN(const KeenShape g, KeenShapeOf(spec.keen()));
    CompiledProblem problem;
    problem.kind = std::string(kind());
    problem.height = problem.width = g.size;
    ASSIGN_OR_RETURN(problem.full_model, BuildFullModel(g));
    problem.ground_energy = -static_cast<double>(g.cells());
    const int n = g.num_variables();
    problem.stages.push_back({"model", n, 0, 0});
    RETURN_IF_ERROR(Reduce(g, options.reduction(), problem));
    problem.one_hot_groups =
        ReducedOneHotGroups(problem.variables, FullOneHotGroups(g));
    return problem;
  }

  v1::PuzzleSolution Decode(const v1::PuzzleSpec& spec,
                            const CompiledProblem& problem,
                            std::span<const uint8_t> bits) const override {
    return DecodeDigitGrid(problem.height, bits);
  }

  absl::StatusOr<v1::ValidationReport> Validate(
      const v1::PuzzleSpec& spec,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(const KeenShape g, KeenShapeOf(spec.keen()));
    return ValidateOnShape(spec, g, solution);
  }

  absl::StatusOr<v1::ValidationReport> ValidateDecoded(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(const std::shared_ptr<const KeenShape> g,
                     problem.derived.GetOrTryMake<KeenShape>("keen/shape", [&] {
                       return KeenShapeOf(spec.keen());
                     }));
    return ValidateOnShape(spec, *g, solution);
  }

  absl::StatusOr<std::vector<uint8_t>> Encode(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(const KeenShape g, KeenShapeOf(spec.keen()));
    RETURN_IF_ERROR(CheckCells(g, solution));
    std::vector<uint8_t> bits(g.num_variables(), 0);
    for (int k = 0; k < g.cells(); ++k) {
      const int v = solution.cells(k);
      if (v < 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "solution.cells[", k, "]: value ", v, " cannot be encoded"));
      }
      if (v > 0) bits[g.Var(k, v)] = 1;
    }
    // The selector of the tuple the cells hold, when they hold one.
    for (const KeenCageShape& cage : g.cages) {
      if (!KeenCageUsesSelectors(cage)) continue;
      for (size_t t = 0; t < cage.tuples.size(); ++t) {
        bool match = true;
        for (size_t i = 0; i < cage.cells.size(); ++i)
          match = match && solution.cells(cage.cells[i]) == cage.tuples[t][i];
        if (match) bits[cage.first_selector + t] = 1;
      }
    }
    return bits;
  }

 private:
  static absl::Status Reduce(const KeenShape& g, v1::Reduction reduction,
                             CompiledProblem& problem) {
    if (reduction == v1::REDUCTION_DEFAULT) reduction = v1::REDUCTION_FULL;
    const int n = g.num_variables();
    if (reduction == v1::REDUCTION_NONE) {
      problem.model = problem.full_model;
      problem.variables = VariableMap::Identity(n);
      return absl::OkStatus();
    }
    std::vector<int8_t> assignment(n, -1);
    ClampGivens(g, assignment);
    RETURN_IF_ERROR(ReduceByAssignment(assignment, "givens", problem));
    if (reduction == v1::REDUCTION_CLUES) return absl::OkStatus();
    ClampCageDigits(g, assignment);
    RETURN_IF_ERROR(ReduceByAssignment(assignment, "cage_digits", problem));
    ClampLatin(g, assignment);
    RETURN_IF_ERROR(ReduceByAssignment(assignment, "latin", problem));
    ClampTuples(g, assignment);
    return ReduceByAssignment(assignment, "tuples", problem);
  }

  static absl::Status CheckCells(const KeenShape& g,
                                 const v1::PuzzleSolution& solution) {
    if (solution.cells_size() != g.cells()) {
      return absl::InvalidArgumentError(
          absl::StrCat("solution.cells: expected ", g.cells(), " values, got ",
                       solution.cells_size()));
    }
    for (int k = 0; k < g.cells(); ++k) {
      const int v = solution.cells(k);
      if (v < -1 || v > g.size) {
        return absl::InvalidArgumentError(
            absl::StrCat("solution.cells[", k, "]: value ", v,
                         " out of range -1..", g.size));
      }
    }
    return absl::OkStatus();
  }

  static void CheckLines(const KeenShape& g, const v1::PuzzleSolution& solution,
                         v1::ValidationReport& report) {
    const int n = g.size;
    for (int line = 0; line < n; ++line) {
      std::vector<int> in_row(n + 1, 0), in_col(n + 1, 0);
      for (int k = 0; k < n; ++k) {
        const int r = solution.cells(line * n + k);
        const int c = solution.cells(k * n + line);
        if (r > 0 && ++in_row[r] == 2) {
          *report.add_violations() = MakeViolation(
              "row_duplicate", absl::StrCat("row ", line + 1),
              absl::StrCat("digit ", r, " appears more than once in row ",
                           line + 1));
        }
        if (c > 0 && ++in_col[c] == 2) {
          *report.add_violations() = MakeViolation(
              "column_duplicate", absl::StrCat("column ", line + 1),
              absl::StrCat("digit ", c, " appears more than once in column ",
                           line + 1));
        }
      }
    }
  }

  static void CheckCages(const v1::PuzzleSpec& spec, const KeenShape& g,
                         const v1::PuzzleSolution& solution,
                         v1::ValidationReport& report) {
    for (int i = 0; i < static_cast<int>(g.cages.size()); ++i) {
      const KeenCageShape& cage = g.cages[i];
      std::vector<int> digits;
      for (int cell : cage.cells) digits.push_back(solution.cells(cell));
      // A cage with an empty or multi-valued cell is reported by that cell.
      if (std::any_of(digits.begin(), digits.end(),
                      [](int d) { return d <= 0; }))
        continue;
      if (Reaches(cage.operation, cage.target, digits)) continue;
      *report.add_violations() = MakeViolation(
          "cage_result", absl::StrCat("cage ", i + 1),
          absl::StrCat("digits ", absl::StrJoin(digits, ","), " at ",
                       CellName(g.size, cage.cells[0]), " do not make ",
                       KeenCageLabel(spec.keen().cages(i))));
    }
  }

  static absl::StatusOr<v1::ValidationReport> ValidateOnShape(
      const v1::PuzzleSpec& spec, const KeenShape& g,
      const v1::PuzzleSolution& solution) {
    RETURN_IF_ERROR(CheckCells(g, solution));
    v1::ValidationReport report;
    for (int k = 0; k < g.cells(); ++k) {
      const std::string where = absl::StrCat("cell ", CellName(g.size, k));
      if (solution.cells(k) == 0) {
        *report.add_violations() =
            MakeViolation("empty_cell", where, "cell has no digit");
      } else if (solution.cells(k) == -1) {
        *report.add_violations() = MakeViolation("multiple_digits", where,
                                                 "cell holds several digits");
      }
    }
    CheckLines(g, solution, report);
    CheckCages(spec, g, solution, report);
    report.set_valid(report.violations_size() == 0);
    return report;
  }
};

}  // namespace

bool KeenCageUsesSelectors(const KeenCageShape& cage) {
  if (cage.cells.size() < 2) return false;
  return cage.operation == v1::KeenCage::MULTIPLY ||
         (kLargeSumsUseSelectors && cage.operation == v1::KeenCage::ADD &&
          cage.cells.size() >= 3);
}

absl::StatusOr<KeenShape> KeenShapeOf(const v1::KeenPuzzle& keen) {
  if (keen.size() < kKeenMinSize || keen.size() > kKeenMaxSize) {
    return absl::InvalidArgumentError(
        absl::StrCat("keen.size: must be ", kKeenMinSize, "..", kKeenMaxSize,
                     ", got ", keen.size()));
  }
  KeenShape g;
  g.size = static_cast<int>(keen.size());
  g.cage_of.assign(g.cells(), -1);
  int next_selector = g.size * g.size * g.size;
  for (int i = 0; i < keen.cages_size(); ++i) {
    KeenCageShape cage;
    RETURN_IF_ERROR(CheckCage(keen, i, g.cage_of, cage));
    if (KeenCageUsesSelectors(cage)) {
      cage.first_selector = next_selector;
      next_selector += static_cast<int>(cage.tuples.size());
    }
    g.cages.push_back(std::move(cage));
  }
  for (int cell = 0; cell < g.cells(); ++cell) {
    if (g.cage_of[cell] < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "keen.cages: cell ", CellName(g.size, cell), " is in no cage"));
    }
  }
  g.num_selectors = next_selector - g.size * g.size * g.size;
  return g;
}

std::string KeenCageLabel(const v1::KeenCage& cage) {
  switch (cage.operation()) {
    case v1::KeenCage::ADD:
      return absl::StrCat(cage.target(), "+");
    case v1::KeenCage::SUBTRACT:
      return absl::StrCat(cage.target(), "-");
    case v1::KeenCage::MULTIPLY:
      return absl::StrCat(cage.target(), "x");
    case v1::KeenCage::DIVIDE:
      return absl::StrCat(cage.target(), "/");
    default:
      return absl::StrCat(cage.target());
  }
}

std::unique_ptr<PuzzleCompiler> NewKeenCompiler() {
  return std::make_unique<KeenCompiler>();
}

}  // namespace qs
