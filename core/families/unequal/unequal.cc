// Futoshiki / Unequal compiler (docs/unequal.md "Formulation" and
// "Reduction"): the one-hot Latin square with a quadratic penalty per
// forbidden digit pair of two side neighbours, the reduction by the givens,
// the sign chains and propagation to a fixed point, decoding, and a validator
// that names each broken rule.
#include "core/families/unequal/unequal.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/base/saturating.h"
#include "core/base/status_macros.h"
#include "core/compile/penalties.h"
#include "core/families/digit_grid.h"

namespace qs {
namespace {

constexpr int kMinSize = 3;
constexpr int kMaxSize = 9;

absl::Status CheckGivens(const v1::UnequalPuzzle& p, UnequalBoard& b) {
  const int n = b.size;
  if (p.givens_size() != 0 && p.givens_size() != b.cells()) {
    return absl::InvalidArgumentError(
        absl::StrCat("unequal.givens: expected ", b.cells(),
                     " entries (or none), got ", p.givens_size()));
  }
  b.givens.assign(b.cells(), 0);
  for (int k = 0; k < p.givens_size(); ++k) {
    if (p.givens(k) > static_cast<uint32_t>(n)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "unequal.givens[", k, "]: digit ", p.givens(k), " out of range 0..",
          n, " at cell ", UnequalCellName(n, k)));
    }
    b.givens[k] = static_cast<int>(p.givens(k));
  }
  // Two equal givens in a line can never be completed.
  for (int a = 0; a < b.cells(); ++a) {
    for (int other = a + 1; other < b.cells(); ++other) {
      const bool same_line = a / n == other / n || a % n == other % n;
      if (!same_line || b.givens[a] == 0 || b.givens[a] != b.givens[other])
        continue;
      return absl::InvalidArgumentError(absl::StrCat(
          "unequal.givens: contradictory givens, digit ", b.givens[a], " at ",
          UnequalCellName(n, a), " and ", UnequalCellName(n, other),
          " share a ", a / n == other / n ? "row" : "column"));
    }
  }
  return absl::OkStatus();
}

bool SideNeighbours(int n, int a, int b) {
  const int dr = std::abs(a / n - b / n), dc = std::abs(a % n - b % n);
  return dr + dc == 1;
}

// The signs (bars) of the spec, each pair once; in ADJACENT mode the
// unbarred pairs follow.
absl::Status CheckSigns(const v1::UnequalPuzzle& p, UnequalBoard& b) {
  const int n = b.size, cells = b.cells();
  // seen[min * cells + max]: the sign index + 1 of that pair.
  std::vector<int> seen(static_cast<size_t>(cells) * cells, 0);
  for (int k = 0; k < p.signs_size(); ++k) {
    const std::string field = absl::StrCat("unequal.signs[", k, "]");
    const uint32_t a = p.signs(k).first(), c = p.signs(k).second();
    if (a >= static_cast<uint32_t>(cells) ||
        c >= static_cast<uint32_t>(cells)) {
      return absl::InvalidArgumentError(absl::StrCat(
          field, ": cell ", a >= static_cast<uint32_t>(cells) ? a : c,
          " out of range 0..", cells - 1));
    }
    const int x = static_cast<int>(a), y = static_cast<int>(c);
    if (!SideNeighbours(n, x, y)) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": cells ", UnequalCellName(n, x), " and ",
                       UnequalCellName(n, y), " are not side neighbours"));
    }
    int& slot = seen[std::min(x, y) * cells + std::max(x, y)];
    if (slot != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": cells ", UnequalCellName(n, x), " and ",
                       UnequalCellName(n, y), " already have a sign (signs[",
                       slot - 1, "])"));
    }
    slot = k + 1;
    b.constraints.push_back(
        {x, y,
         b.adjacent ? UnequalRelation::kAdjacent : UnequalRelation::kGreater,
         k});
  }
  if (!b.adjacent) return absl::OkStatus();
  for (int cell = 0; cell < cells; ++cell) {
    const int right = cell % n + 1 < n ? cell + 1 : -1;
    const int down = cell / n + 1 < n ? cell + n : -1;
    for (int other : {right, down}) {
      if (other >= 0 && seen[cell * cells + other] == 0)
        b.constraints.push_back(
            {cell, other, UnequalRelation::kNotAdjacent, -1});
    }
  }
  return absl::OkStatus();
}

// Per cell, the longest chain of signs below it (the cells it must exceed in
// turn), or -1 on a cycle. `greater` lists, per cell, the cells it exceeds.
int ChainBelow(int cell, const std::vector<std::vector<int>>& greater,
               std::vector<int>& memo, std::vector<uint8_t>& on_path) {
  if (memo[cell] >= 0) return memo[cell];
  if (on_path[cell]) return -1;
  on_path[cell] = 1;
  int longest = 0;
  for (int smaller : greater[cell]) {
    const int below = ChainBelow(smaller, greater, memo, on_path);
    if (below < 0) return -1;
    longest = std::max(longest, below + 1);
  }
  on_path[cell] = 0;
  memo[cell] = longest;
  return longest;
}

// below[c] and above[c]: the longest chains of signs under and over cell c.
struct Chains {
  std::vector<int> below;
  std::vector<int> above;
};

absl::StatusOr<Chains> ChainsOf(const UnequalBoard& b) {
  const int cells = b.cells();
  std::vector<std::vector<int>> greater(cells), smaller(cells);
  for (const UnequalConstraint& k : b.constraints) {
    if (k.relation != UnequalRelation::kGreater) continue;
    greater[k.a].push_back(k.b);
    smaller[k.b].push_back(k.a);
  }
  Chains chains;
  for (auto* out : {&chains.below, &chains.above}) {
    const auto& edges = out == &chains.below ? greater : smaller;
    std::vector<int> memo(cells, -1);
    std::vector<uint8_t> on_path(cells, 0);
    for (int cell = 0; cell < cells; ++cell) {
      const int length = ChainBelow(cell, edges, memo, on_path);
      if (length < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("unequal.signs: the signs form a cycle through ",
                         UnequalCellName(b.size, cell),
                         " (each cell greater than the next)"));
      }
      if (length >= b.size) {
        return absl::InvalidArgumentError(
            absl::StrCat("unequal.signs: a chain of ", length + 1,
                         " cells through ", UnequalCellName(b.size, cell),
                         " needs more than the ", b.size, " digits"));
      }
      out->push_back(length);
    }
  }
  return chains;
}

absl::StatusOr<Qubo> BuildFullModel(const UnequalBoard& b) {
  const int n = b.size;
  QuboBuilder builder(b.cells() * n);
  std::vector<int> group(n);
  for (int cell = 0; cell < b.cells(); ++cell) {
    for (int d = 0; d < n; ++d) {
      group[d] = b.Var(cell, d);
      builder.SetLabel(group[d], absl::StrCat("r", cell / n + 1, "c",
                                              cell % n + 1, "d", d + 1));
    }
    AddSquaredCount(builder, group, 1.0);
  }
  for (int line = 0; line < n; ++line) {
    for (int d = 0; d < n; ++d) {
      for (int k = 0; k < n; ++k) group[k] = b.Var(line * n + k, d);
      AddSquaredCount(builder, group, 1.0);
      for (int k = 0; k < n; ++k) group[k] = b.Var(k * n + line, d);
      AddSquaredCount(builder, group, 1.0);
    }
  }
  // One unit per forbidden digit pair of two neighbours: with one digit per
  // cell exactly one such product can be 1 per pair, so a broken sign costs 1.
  for (const UnequalConstraint& k : b.constraints) {
    for (int d = 0; d < n; ++d) {
      for (int e = 0; e < n; ++e) {
        if (!UnequalAllows(k.relation, d + 1, e + 1))
          builder.AddQuadratic(b.Var(k.a, d), b.Var(k.b, e), 1.0);
      }
    }
  }
  return std::move(builder).Build();
}

// Candidate digits per cell, bit d for digit d + 1; the reduction shrinks
// them and clamps what they exclude (0) or settle (1).
using Domains = std::vector<uint32_t>;

bool Single(uint32_t mask) { return mask != 0 && (mask & (mask - 1)) == 0; }

std::vector<int8_t> AssignmentOf(const UnequalBoard& b, const Domains& dom) {
  std::vector<int8_t> assignment(static_cast<size_t>(b.cells()) * b.size, -1);
  for (int cell = 0; cell < b.cells(); ++cell) {
    for (int d = 0; d < b.size; ++d) {
      const bool in = dom[cell] >> d & 1;
      if (!in) assignment[b.Var(cell, d)] = 0;
      if (in && Single(dom[cell])) assignment[b.Var(cell, d)] = 1;
    }
  }
  return assignment;
}

// The digits of `from` that some digit of `other` may stand next to.
uint32_t Supported(UnequalRelation relation, bool from_is_a, uint32_t from,
                   uint32_t other, int n) {
  uint32_t kept = 0;
  for (int d = 0; d < n; ++d) {
    if (!(from >> d & 1)) continue;
    for (int e = 0; e < n; ++e) {
      if (!(other >> e & 1)) continue;
      const bool ok = from_is_a ? UnequalAllows(relation, d + 1, e + 1)
                                : UnequalAllows(relation, e + 1, d + 1);
      if (ok) {
        kept |= 1u << d;
        break;
      }
    }
  }
  return kept;
}

// Signs or bars to their own fixed point: each cell keeps the digits its
// neighbour can still answer. Whether anything changed.
bool ReviseRelations(const UnequalBoard& b, Domains& dom) {
  bool any = false, changed = true;
  while (changed) {
    changed = false;
    for (const UnequalConstraint& k : b.constraints) {
      const uint32_t a =
          Supported(k.relation, true, dom[k.a], dom[k.b], b.size);
      const uint32_t c = Supported(k.relation, false, dom[k.b], a, b.size);
      if (a != dom[k.a] || c != dom[k.b]) changed = any = true;
      dom[k.a] = a;
      dom[k.b] = c;
    }
  }
  return any;
}

// The cells of row or column `line`.
std::vector<int> LineCells(int n, int line, bool row) {
  std::vector<int> cells;
  for (int k = 0; k < n; ++k)
    cells.push_back(row ? line * n + k : k * n + line);
  return cells;
}

// Latin propagation to its fixed point, as Sudoku's clamping: a settled digit
// leaves its row and column; a digit with one place left in a line takes it.
bool ReviseLatin(const UnequalBoard& b, Domains& dom) {
  const int n = b.size;
  bool any = false, changed = true;
  while (changed) {
    changed = false;
    for (int line = 0; line < n; ++line) {
      for (bool row : {true, false}) {
        const std::vector<int> cells = LineCells(n, line, row);
        for (int cell : cells) {
          if (!Single(dom[cell])) continue;
          for (int other : cells) {
            if (other == cell || !(dom[other] & dom[cell])) continue;
            dom[other] &= ~dom[cell];
            changed = any = true;
          }
        }
        for (int d = 0; d < n; ++d) {
          int places = 0, at = -1;
          for (int cell : cells) {
            if (dom[cell] >> d & 1) ++places, at = cell;
          }
          if (places == 1 && dom[at] != (1u << d)) {
            dom[at] = 1u << d;
            changed = any = true;
          }
        }
      }
    }
  }
  return any;
}

bool Contradiction(const Domains& dom) {
  for (uint32_t mask : dom) {
    if (mask == 0) return true;
  }
  return false;
}

absl::Status ReduceFully(const UnequalBoard& b, Domains& dom,
                         CompiledProblem& problem) {
  const uint32_t all = (1u << b.size) - 1;
  if (!b.adjacent) {
    ASSIGN_OR_RETURN(const Chains chains, ChainsOf(b));
    for (int cell = 0; cell < b.cells(); ++cell) {
      // Greater than `below` chained cells: not 1..below; smaller than
      // `above`: not n-above+1..n.
      const uint32_t low = (1u << chains.below[cell]) - 1;
      const uint32_t high = all & ~(all >> chains.above[cell]);
      const uint32_t kept = dom[cell] & ~low & ~high;
      if (kept != 0) dom[cell] = kept;
    }
    RETURN_IF_ERROR(
        ReduceByAssignment(AssignmentOf(b, dom), "chains", problem));
  }
  const char* relation_stage = b.adjacent ? "bars" : "signs";
  for (int round = 1;; ++round) {
    const std::string suffix = round == 1 ? "" : absl::StrCat("_", round);
    bool changed = false;
    for (bool latin : {false, true}) {
      Domains next = dom;
      const bool step = latin ? ReviseLatin(b, next) : ReviseRelations(b, next);
      // A puzzle without a solution keeps what the last consistent step
      // left; the samplers then show that no board reaches the ground.
      if (Contradiction(next)) return absl::OkStatus();
      if (!step && round > 1) continue;
      changed |= step;
      dom = std::move(next);
      RETURN_IF_ERROR(ReduceByAssignment(
          AssignmentOf(b, dom),
          absl::StrCat(latin ? "latin" : relation_stage, suffix), problem));
    }
    if (!changed) return absl::OkStatus();
  }
}

class UnequalCompiler final : public PuzzleCompiler {
 public:
  absl::string_view kind() const override { return "unequal"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kUnequal;
  }

  int64_t ModelVariables(const v1::PuzzleSpec& spec) const override {
    const int64_t n = spec.unequal().size();
    return SaturatingMul(SaturatingMul(n, n), n);
  }

  absl::StatusOr<CompiledProblem> Compile(
      const v1::PuzzleSpec& spec,
      const v1::CompileOptions& options) const override {
    ASSIGN_OR_RETURN(const UnequalBoard b, UnequalBoardOf(spec.unequal()));
    CompiledProblem problem;
    problem.kind = std::string(kind());
    problem.height = problem.width = b.size;
    ASSIGN_OR_RETURN(problem.full_model, BuildFullModel(b));
    problem.ground_energy = 0.0;
    const int vars = problem.full_model.num_variables();
    problem.stages.push_back({"model", vars, 0, 0});
    const v1::Reduction reduction = options.reduction() == v1::REDUCTION_DEFAULT
                                        ? v1::REDUCTION_FULL
                                        : options.reduction();
    if (reduction == v1::REDUCTION_NONE) {
      problem.model = problem.full_model;
      problem.variables = VariableMap::Identity(vars);
    } else {
      Domains dom(b.cells(), (1u << b.size) - 1);
      for (int cell = 0; cell < b.cells(); ++cell) {
        if (b.givens[cell] != 0) dom[cell] = 1u << (b.givens[cell] - 1);
      }
      RETURN_IF_ERROR(
          ReduceByAssignment(AssignmentOf(b, dom), "clues", problem));
      if (reduction == v1::REDUCTION_FULL)
        RETURN_IF_ERROR(ReduceFully(b, dom, problem));
    }
    problem.one_hot_groups =
        ReducedOneHotGroups(problem.variables, DigitGridOneHotGroups(b.size));
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
    ASSIGN_OR_RETURN(const UnequalBoard b, UnequalBoardOf(spec.unequal()));
    return ValidateOnBoard(b, solution);
  }

  // The sampling path validates every distinct read of one spec: its checked
  // board stays with the problem.
  absl::StatusOr<v1::ValidationReport> ValidateDecoded(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(
        const std::shared_ptr<const UnequalBoard> b,
        problem.derived.GetOrTryMake<UnequalBoard>(
            "unequal/board", [&] { return UnequalBoardOf(spec.unequal()); }));
    return ValidateOnBoard(*b, solution);
  }

  absl::StatusOr<std::vector<uint8_t>> Encode(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::PuzzleSolution& solution) const override {
    const int n = problem.height;
    RETURN_IF_ERROR(CheckCells(solution, n, 0));
    std::vector<uint8_t> bits(static_cast<size_t>(n) * n * n, 0);
    for (int k = 0; k < n * n; ++k) {
      const int v = solution.cells(k);
      if (v > 0) bits[k * n + v - 1] = 1;
    }
    return bits;
  }

 private:
  // One value per cell, each in lowest..n.
  static absl::Status CheckCells(const v1::PuzzleSolution& solution, int n,
                                 int lowest) {
    if (solution.cells_size() != n * n) {
      return absl::InvalidArgumentError(
          absl::StrCat("solution.cells: expected ", n * n, " values, got ",
                       solution.cells_size()));
    }
    for (int k = 0; k < n * n; ++k) {
      const int v = solution.cells(k);
      if (v < lowest || v > n) {
        return absl::InvalidArgumentError(
            absl::StrCat("solution.cells[", k, "]: value ", v, " out of range ",
                         lowest, "..", n));
      }
    }
    return absl::OkStatus();
  }

  static absl::StatusOr<v1::ValidationReport> ValidateOnBoard(
      const UnequalBoard& b, const v1::PuzzleSolution& solution) {
    const int n = b.size;
    RETURN_IF_ERROR(CheckCells(solution, n, -1));
    v1::ValidationReport report;
    auto add = [&](absl::string_view rule, absl::string_view location,
                   absl::string_view message) {
      *report.add_violations() = MakeViolation(rule, location, message);
    };
    for (int k = 0; k < b.cells(); ++k) {
      const int v = solution.cells(k);
      const std::string where = absl::StrCat("cell ", UnequalCellName(n, k));
      if (v == 0) add("empty_cell", where, "cell has no digit");
      if (v == -1) add("multiple_digits", where, "cell holds several digits");
      if (b.givens[k] != 0 && v != b.givens[k]) {
        add("given_mismatch", where,
            absl::StrCat("the given is ", b.givens[k], ", the board has ",
                         std::string(1, DigitGridChar(v))));
      }
    }
    for (int line = 0; line < n; ++line) {
      for (bool row : {true, false}) {
        std::vector<int> seen(n + 1, 0);
        const char* name = row ? "row" : "column";
        for (int cell : LineCells(n, line, row)) {
          const int v = solution.cells(cell);
          if (v > 0 && ++seen[v] == 2) {
            add(absl::StrCat(name, "_duplicate"),
                absl::StrCat(name, " ", line + 1),
                absl::StrCat("digit ", v, " appears more than once in ", name,
                             " ", line + 1));
          }
        }
      }
    }
    for (const UnequalConstraint& k : b.constraints) {
      const int da = solution.cells(k.a), db = solution.cells(k.b);
      if (da <= 0 || db <= 0 || UnequalAllows(k.relation, da, db)) continue;
      const std::string where = absl::StrCat("cells ", UnequalCellName(n, k.a),
                                             " and ", UnequalCellName(n, k.b));
      switch (k.relation) {
        case UnequalRelation::kGreater:
          add("inequality", where,
              absl::StrCat("the sign says ", da, " > ", db,
                           ", which is false"));
          break;
        case UnequalRelation::kAdjacent:
          add("bar", where,
              absl::StrCat("a bar joins ", da, " and ", db,
                           ", which do not differ by one"));
          break;
        case UnequalRelation::kNotAdjacent:
          add("missing_bar", where,
              absl::StrCat(da, " and ", db,
                           " differ by one, but no bar joins them"));
          break;
      }
    }
    report.set_valid(report.violations_size() == 0);
    return report;
  }
};

}  // namespace

bool UnequalAllows(UnequalRelation relation, int da, int db) {
  switch (relation) {
    case UnequalRelation::kGreater:
      return da > db;
    case UnequalRelation::kAdjacent:
      return std::abs(da - db) == 1;
    case UnequalRelation::kNotAdjacent:
      return std::abs(da - db) != 1;
  }
  return false;
}

std::string UnequalCellName(int size, int cell) {
  return absl::StrCat("(", cell / size + 1, ",", cell % size + 1, ")");
}

absl::StatusOr<UnequalBoard> UnequalBoardOf(const v1::UnequalPuzzle& puzzle) {
  if (puzzle.size() < kMinSize || puzzle.size() > kMaxSize) {
    return absl::InvalidArgumentError(absl::StrCat("unequal.size: must be ",
                                                   kMinSize, "..", kMaxSize,
                                                   ", got ", puzzle.size()));
  }
  UnequalBoard b;
  b.size = static_cast<int>(puzzle.size());
  b.adjacent = puzzle.mode() == v1::UnequalPuzzle::ADJACENT;
  if (!b.adjacent && puzzle.mode() != v1::UnequalPuzzle::INEQUALITY) {
    return absl::InvalidArgumentError(
        absl::StrCat("unequal.mode: unknown mode ", puzzle.mode()));
  }
  RETURN_IF_ERROR(CheckGivens(puzzle, b));
  RETURN_IF_ERROR(CheckSigns(puzzle, b));
  if (!b.adjacent) RETURN_IF_ERROR(ChainsOf(b).status());
  return b;
}

std::unique_ptr<PuzzleCompiler> NewUnequalCompiler() {
  return std::make_unique<UnequalCompiler>();
}

}  // namespace qs
