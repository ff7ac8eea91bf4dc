// Towers (Skyscrapers) compiler, docs/towers.md: the Latin square's one-hot
// terms (§1), one chain of auxiliary states per clue (§2), the reduction that
// clamps givens, the clues n and 1, the classic distance bound, Latin
// propagation and the chains those settle (§3), decoding and a validator that
// names each broken rule.
#include "core/families/towers/towers.h"

#include <algorithm>
#include <bit>
#include <cstdint>
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

std::string CellName(int n, int cell) {
  return absl::StrCat("(", cell / n + 1, ",", cell % n + 1, ")");
}

// "top of column 2", "right of row 4".
std::string ClueName(int side, int index) {
  return absl::StrCat(TowersSideName(side), " of ",
                      side <= kTowersBottom ? "column " : "row ", index + 1);
}

const google::protobuf::RepeatedField<uint32_t>& SideClues(
    const v1::TowersPuzzle& towers, int side) {
  switch (side) {
    case kTowersTop:
      return towers.top();
    case kTowersBottom:
      return towers.bottom();
    case kTowersLeft:
      return towers.left();
    default:
      return towers.right();
  }
}

uint32_t Bit(int h) { return uint32_t{1} << h; }

// Heights h of a candidate set (bit h).
std::vector<int> Heights(uint32_t set) {
  std::vector<int> out;
  for (int h = 1; h < 32; ++h) {
    if (set & Bit(h)) out.push_back(h);
  }
  return out;
}

absl::StatusOr<Qubo> BuildFullModel(const TowersShape& s) {
  const int n = s.n;
  QuboBuilder builder(s.num_variables);
  for (int cell = 0; cell < n * n; ++cell) {
    std::vector<int> heights;
    for (int h = 1; h <= n; ++h) {
      builder.SetLabel(s.Var(cell, h), absl::StrCat("r", cell / n + 1, "c",
                                                    cell % n + 1, "h", h));
      heights.push_back(s.Var(cell, h));
    }
    AddSquaredCount(builder, heights, 1.0);
  }
  for (int line = 0; line < n; ++line) {
    for (int h = 1; h <= n; ++h) {
      std::vector<int> row, col;
      for (int k = 0; k < n; ++k) {
        row.push_back(s.Var(line * n + k, h));
        col.push_back(s.Var(k * n + line, h));
      }
      AddSquaredCount(builder, row, 1.0);
      AddSquaredCount(builder, col, 1.0);
    }
  }
  for (const TowersClue& clue : s.clues) {
    AddTowersClueTerms(builder, n, clue.cells, clue.first_aux, clue.clue);
    for (int k = 1; k + 2 <= n; ++k) {
      for (int h = k + 1; h <= n; ++h) {
        for (bool seen : {true, false}) {
          builder.SetLabel(
              clue.first_aux + TowersChainState(n, k, h, seen),
              absl::StrCat(TowersSideName(clue.side), clue.index + 1, "k",
                           k + 1, "h", h, seen ? "s" : "n"));
        }
      }
    }
  }
  return std::move(builder).Build();
}

// Every exactly-one group of the model over the full variables.
std::vector<std::vector<int32_t>> FullOneHotGroups(const TowersShape& s) {
  std::vector<std::vector<int32_t>> groups = DigitGridOneHotGroups(s.n);
  for (const TowersClue& clue : s.clues) {
    for (const std::vector<int>& g :
         TowersChain(s.n, clue.cells, clue.first_aux).exactly_one)
      groups.emplace_back(g.begin(), g.end());
  }
  return groups;
}

// The candidate heights of every cell (bit h), narrowed stage by stage.
class Candidates {
 public:
  explicit Candidates(int n)
      : n_(n), cand_(n * n, ((uint32_t{1} << (n + 1)) - 2)) {}

  uint32_t at(int cell) const { return cand_[cell]; }
  // Keeps only `allowed` at the cell; false when nothing is left.
  bool Restrict(int cell, uint32_t allowed) {
    cand_[cell] &= allowed;
    return cand_[cell] != 0;
  }

  // Naked singles out of their row and column, and a height with one place
  // left in a row or column put there, until nothing changes. The first cell
  // left empty, or -1.
  int Propagate() {
    for (bool changed = true; changed;) {
      changed = false;
      for (int cell = 0; cell < n_ * n_; ++cell) {
        if (std::popcount(cand_[cell]) != 1) continue;
        for (int peer : Peers(cell)) {
          if (!(cand_[peer] & cand_[cell])) continue;
          cand_[peer] &= ~cand_[cell];
          changed = true;
          if (cand_[peer] == 0) return peer;
        }
      }
      for (int line = 0; line < 2 * n_; ++line) {
        for (int h = 1; h <= n_; ++h) {
          int count = 0, at = -1;
          for (int k = 0; k < n_; ++k) {
            const int cell = line < n_ ? line * n_ + k : k * n_ + line - n_;
            if (cand_[cell] & Bit(h)) ++count, at = cell;
          }
          if (count == 0) {
            return line < n_ ? line * n_ : line - n_;
          }
          if (count == 1 && cand_[at] != Bit(h)) {
            cand_[at] = Bit(h);
            changed = true;
          }
        }
      }
    }
    return -1;
  }

  // x fixed where the candidates decide it.
  void Assign(const TowersShape& s, std::vector<int8_t>& assignment) const {
    for (int cell = 0; cell < n_ * n_; ++cell) {
      const bool single = std::popcount(cand_[cell]) == 1;
      for (int h = 1; h <= n_; ++h) {
        if (!(cand_[cell] & Bit(h))) {
          assignment[s.Var(cell, h)] = 0;
        } else if (single) {
          assignment[s.Var(cell, h)] = 1;
        }
      }
    }
  }

 private:
  std::vector<int> Peers(int cell) const {
    std::vector<int> out;
    const int r = cell / n_, c = cell % n_;
    for (int k = 0; k < n_; ++k) {
      if (k != c) out.push_back(r * n_ + k);
      if (k != r) out.push_back(k * n_ + c);
    }
    return out;
  }

  int n_;
  std::vector<uint32_t> cand_;
};

absl::Status Contradiction(int n, int cell, absl::string_view stage) {
  return absl::InvalidArgumentError(
      absl::StrCat("towers: the clues and givens contradict each other: no "
                   "height is left for cell ",
                   CellName(n, cell), " (reduction stage ", stage, ")"));
}

// The states of each clue's chain that the candidates rule out (0), and
// those left alone at their position (1): a state needs a tallest-so-far
// that the candidates of the positions before can reach.
absl::Status AssignChains(const TowersShape& s, const Candidates& cand,
                          std::vector<int8_t>& assignment) {
  const int n = s.n;
  for (const TowersClue& clue : s.clues) {
    uint32_t reach = cand.at(clue.cells[0]);
    for (int k = 1; k + 2 <= n; ++k) {
      const uint32_t here = cand.at(clue.cells[k]);
      std::vector<int> feasible;
      for (int h = k + 1; h <= n; ++h) {
        const uint32_t below = Bit(h) - 1;
        const int seen = clue.first_aux + TowersChainState(n, k, h, true);
        const int hidden = clue.first_aux + TowersChainState(n, k, h, false);
        const bool seen_ok = (here & Bit(h)) && (reach & below);
        const bool hidden_ok = (reach & Bit(h)) && (here & below);
        assignment[seen] = seen_ok ? -1 : 0;
        assignment[hidden] = hidden_ok ? -1 : 0;
        if (seen_ok) feasible.push_back(seen);
        if (hidden_ok) feasible.push_back(hidden);
      }
      if (feasible.empty()) return Contradiction(n, clue.cells[k], "chains");
      if (feasible.size() == 1) assignment[feasible[0]] = 1;
      uint32_t next = 0;
      for (int p : Heights(reach)) {
        for (int h : Heights(here)) next |= Bit(std::max(p, h));
      }
      reach = next;
    }
  }
  return absl::OkStatus();
}

class TowersCompiler final : public PuzzleCompiler {
 public:
  absl::string_view kind() const override { return "towers"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kTowers;
  }

  int64_t ModelVariables(const v1::PuzzleSpec& spec) const override {
    const v1::TowersPuzzle& towers = spec.towers();
    const int64_t n = towers.size();
    int64_t clues = 0;
    for (int side = 0; side < 4; ++side) {
      for (uint32_t c : SideClues(towers, side)) clues += c != 0;
    }
    const int64_t chain =
        n < 3 ? 0 : SaturatingAdd(SaturatingMul(n, n - 1), -2);
    return SaturatingAdd(SaturatingMul(SaturatingMul(n, n), n),
                         SaturatingMul(clues, chain));
  }

  absl::StatusOr<CompiledProblem> Compile(
      const v1::PuzzleSpec& spec,
      const v1::CompileOptions& options) const override {
    ASSIGN_OR_RETURN(const TowersShape s, TowersShapeOf(spec.towers()));
    CompiledProblem problem;
    problem.kind = std::string(kind());
    problem.height = problem.width = s.n;
    ASSIGN_OR_RETURN(problem.full_model, BuildFullModel(s));
    problem.ground_energy = 0.0;
    problem.stages.push_back({"model", s.num_variables, 0, 0});
    RETURN_IF_ERROR(Reduce(s, options.reduction(), problem));
    problem.one_hot_groups =
        ReducedOneHotGroups(problem.variables, FullOneHotGroups(s));
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
    ASSIGN_OR_RETURN(const TowersShape s, TowersShapeOf(spec.towers()));
    ASSIGN_OR_RETURN(const std::vector<int> cells, ReadCells(s, solution));
    const int n = s.n;
    v1::ValidationReport report;
    auto add = [&](absl::string_view rule, absl::string_view location,
                   absl::string_view message) {
      *report.add_violations() = MakeViolation(rule, location, message);
    };
    for (int k = 0; k < n * n; ++k) {
      const std::string where = absl::StrCat("cell ", CellName(n, k));
      if (cells[k] == 0) add("empty_cell", where, "the cell has no height");
      if (cells[k] < 0)
        add("multiple_heights", where, "the cell holds several heights");
      if (s.givens[k] != 0 && cells[k] != s.givens[k]) {
        add("given_mismatch", where,
            absl::StrCat("the given height is ", s.givens[k]));
      }
    }
    for (int line = 0; line < n; ++line) {
      std::vector<int> row_seen(n + 1, 0), col_seen(n + 1, 0);
      for (int k = 0; k < n; ++k) {
        const int a = cells[line * n + k], b = cells[k * n + line];
        if (a > 0 && ++row_seen[a] == 2) {
          add("row_duplicate", absl::StrCat("row ", line + 1),
              absl::StrCat("height ", a, " appears more than once"));
        }
        if (b > 0 && ++col_seen[b] == 2) {
          add("column_duplicate", absl::StrCat("column ", line + 1),
              absl::StrCat("height ", b, " appears more than once"));
        }
      }
    }
    // A clue is checked on a line whose every cell holds one height.
    for (const TowersClue& clue : s.clues) {
      std::vector<int> heights;
      for (int cell : clue.cells) heights.push_back(cells[cell]);
      if (std::any_of(heights.begin(), heights.end(),
                      [](int h) { return h <= 0; }))
        continue;
      const int visible = TowersVisible(heights);
      if (visible != clue.clue) {
        add("visible_count", ClueName(clue.side, clue.index),
            absl::StrCat(visible, " buildings seen, the clue says ",
                         clue.clue));
      }
    }
    report.set_valid(report.violations_size() == 0);
    return report;
  }

  absl::StatusOr<std::vector<uint8_t>> Encode(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(const TowersShape s, TowersShapeOf(spec.towers()));
    ASSIGN_OR_RETURN(const std::vector<int> cells, ReadCells(s, solution));
    const int n = s.n;
    std::vector<uint8_t> bits(s.num_variables, 0);
    for (int k = 0; k < n * n; ++k) {
      if (cells[k] < 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "solution.cells[", k, "]: several heights cannot be encoded"));
      }
      if (cells[k] > 0) bits[s.Var(k, cells[k])] = 1;
    }
    for (const TowersClue& clue : s.clues) {
      std::vector<int> heights;
      for (int cell : clue.cells) heights.push_back(cells[cell]);
      for (int state : TowersTrueStates(n, heights)) {
        if (state >= 0) bits[clue.first_aux + state] = 1;
      }
    }
    return bits;
  }

 private:
  // The heights of a board: its cells, or its rows of digits ('.' none, '*'
  // several) when it has no cells.
  static absl::StatusOr<std::vector<int>> ReadCells(
      const TowersShape& s, const v1::PuzzleSolution& solution) {
    const int n = s.n;
    std::vector<int> cells;
    if (solution.cells_size() > 0) {
      if (solution.cells_size() != n * n) {
        return absl::InvalidArgumentError(
            absl::StrCat("solution.cells: expected ", n * n, " values, got ",
                         solution.cells_size()));
      }
      for (int k = 0; k < n * n; ++k) {
        const int v = solution.cells(k);
        if (v < -1 || v > n) {
          return absl::InvalidArgumentError(absl::StrCat(
              "solution.cells[", k, "]: value ", v, " out of range -1..", n));
        }
        cells.push_back(v);
      }
      return cells;
    }
    RETURN_IF_ERROR(CheckSolutionRows(solution, n, n));
    for (int r = 0; r < n; ++r) {
      for (int c = 0; c < n; ++c) {
        const char ch = solution.rows(r)[c];
        if (ch == '.' || ch == '0') {
          cells.push_back(0);
        } else if (ch == '*') {
          cells.push_back(-1);
        } else if (ch >= '1' && ch < '1' + n) {
          cells.push_back(ch - '0');
        } else {
          return absl::InvalidArgumentError(
              absl::StrCat("solution.rows[", r, "][", c, "]: unexpected '",
                           std::string(1, ch), "' (heights 1..", n, ")"));
        }
      }
    }
    return cells;
  }

  // §3: givens (REDUCTION_CLUES), then the clues n and 1, the distance bound,
  // Latin propagation and the chains (REDUCTION_FULL, the default).
  static absl::Status Reduce(const TowersShape& s, v1::Reduction reduction,
                             CompiledProblem& problem) {
    const int n = s.n;
    if (reduction == v1::REDUCTION_DEFAULT) reduction = v1::REDUCTION_FULL;
    if (reduction == v1::REDUCTION_NONE) {
      problem.model = problem.full_model;
      problem.variables = VariableMap::Identity(s.num_variables);
      return absl::OkStatus();
    }
    Candidates cand(n);
    std::vector<int8_t> assignment(s.num_variables, -1);
    auto stage = [&](absl::string_view name) {
      cand.Assign(s, assignment);
      return ReduceByAssignment(assignment, name, problem);
    };
    for (int cell = 0; cell < n * n; ++cell) {
      if (s.givens[cell] != 0) cand.Restrict(cell, Bit(s.givens[cell]));
    }
    RETURN_IF_ERROR(stage("givens"));
    if (reduction == v1::REDUCTION_CLUES) return absl::OkStatus();
    // A clue n sees every building: the line climbs 1..n.
    for (const TowersClue& clue : s.clues) {
      if (clue.clue != n) continue;
      for (int d = 0; d < n; ++d) {
        if (!cand.Restrict(clue.cells[d], Bit(d + 1)))
          return Contradiction(n, clue.cells[d], "clue_n");
      }
    }
    RETURN_IF_ERROR(stage("clue_n"));
    // A clue 1 sees the tallest alone: it stands first.
    for (const TowersClue& clue : s.clues) {
      if (clue.clue == 1 && !cand.Restrict(clue.cells[0], Bit(n)))
        return Contradiction(n, clue.cells[0], "clue_1");
    }
    RETURN_IF_ERROR(stage("clue_1"));
    // At distance d from a clue k a height above n - k + 1 + d would leave
    // too few positions and taller heights for k buildings to be seen.
    for (const TowersClue& clue : s.clues) {
      for (int d = 0; d < n; ++d) {
        const int top = std::min(n, n - clue.clue + 1 + d);
        if (!cand.Restrict(clue.cells[d], (uint32_t{1} << (top + 1)) - 2))
          return Contradiction(n, clue.cells[d], "clue_bounds");
      }
    }
    RETURN_IF_ERROR(stage("clue_bounds"));
    const int empty = cand.Propagate();
    if (empty >= 0) return Contradiction(n, empty, "latin");
    RETURN_IF_ERROR(stage("latin"));
    RETURN_IF_ERROR(AssignChains(s, cand, assignment));
    return ReduceByAssignment(assignment, "chains", problem);
  }
};

}  // namespace

const char* TowersSideName(int side) {
  static const char* const kNames[] = {"top", "bottom", "left", "right"};
  return side >= 0 && side < 4 ? kNames[side] : "?";
}

std::vector<int> TowersLineCells(int n, int side, int index) {
  std::vector<int> cells;
  for (int k = 0; k < n; ++k) {
    switch (side) {
      case kTowersTop:
        cells.push_back(k * n + index);
        break;
      case kTowersBottom:
        cells.push_back((n - 1 - k) * n + index);
        break;
      case kTowersLeft:
        cells.push_back(index * n + k);
        break;
      default:
        cells.push_back(index * n + n - 1 - k);
        break;
    }
  }
  return cells;
}

int TowersChainSize(int n) { return n < 3 ? 0 : n * (n - 1) - 2; }

int TowersChainState(int n, int k, int h, bool seen) {
  // Positions 1..k-1 hold 2(n-j) states each.
  int offset = 0;
  for (int j = 1; j < k; ++j) offset += 2 * (n - j);
  return offset + (seen ? 0 : n - k) + (h - k - 1);
}

TowersChainRules TowersChain(int n, std::span<const int> line_cells,
                             int first_aux) {
  TowersChainRules rules;
  auto x = [&](int k, int h) { return line_cells[k] * n + h - 1; };
  auto u = [&](int k, int h, bool seen) {
    return first_aux + TowersChainState(n, k, h, seen);
  };
  // The variables saying "the tallest of positions 0..k-1 is h".
  auto before = [&](int k, int h) -> std::vector<int> {
    if (k == 1) return {x(0, h)};
    if (h < k) return {};
    return {u(k - 1, h, true), u(k - 1, h, false)};
  };
  for (int k = 1; k + 2 <= n; ++k) {
    std::vector<int> states;
    for (int h = k + 1; h <= n; ++h) {
      const int seen = u(k, h, true), hidden = u(k, h, false);
      states.push_back(seen);
      states.push_back(hidden);
      rules.seen.push_back(seen);
      // Seen at height h: the cell holds h and everything before is lower.
      rules.implies.push_back({seen, x(k, h)});
      for (int t = h; t <= n; ++t) {
        for (int v : before(k, t)) rules.exclusive.push_back({seen, v});
      }
      // Hidden behind h: the tallest before is h and the cell is lower.
      for (int t = 1; t <= n; ++t) {
        if (t == h) continue;
        for (int v : before(k, t)) rules.exclusive.push_back({hidden, v});
      }
      for (int t = h; t <= n; ++t) rules.exclusive.push_back({hidden, x(k, t)});
    }
    std::sort(states.begin(), states.end());
    rules.exactly_one.push_back(std::move(states));
  }
  rules.seen.push_back(x(n - 1, n));
  return rules;
}

void AddTowersClueTerms(QuboBuilder& builder, int n,
                        std::span<const int> line_cells, int first_aux,
                        int clue) {
  const TowersChainRules rules = TowersChain(n, line_cells, first_aux);
  for (const std::vector<int>& group : rules.exactly_one)
    AddSquaredCount(builder, group, 1.0);
  for (const auto& [a, b] : rules.exclusive) builder.AddQuadratic(a, b, 1.0);
  for (const auto& [a, b] : rules.implies) {
    builder.AddLinear(a, 1.0);
    builder.AddQuadratic(a, b, -1.0);
  }
  // The first building is always seen.
  AddSquaredCount(builder, rules.seen, clue - 1.0);
}

std::vector<int> TowersTrueStates(int n, std::span<const int> heights) {
  std::vector<int> states;
  int tallest = heights.empty() ? 0 : heights[0];
  for (int k = 1; k + 2 <= n && k < static_cast<int>(heights.size()); ++k) {
    const bool seen = heights[k] > tallest;
    tallest = std::max(tallest, heights[k]);
    states.push_back(tallest >= k + 1 && tallest <= n
                         ? TowersChainState(n, k, tallest, seen)
                         : -1);
  }
  return states;
}

int TowersVisible(std::span<const int> heights) {
  int tallest = 0, seen = 0;
  for (int h : heights) {
    if (h > tallest) {
      tallest = h;
      ++seen;
    }
  }
  return seen;
}

absl::StatusOr<TowersShape> TowersShapeOf(const v1::TowersPuzzle& towers) {
  if (towers.size() < kMinSize || towers.size() > kMaxSize) {
    return absl::InvalidArgumentError(absl::StrCat("towers.size: must be ",
                                                   kMinSize, "..", kMaxSize,
                                                   ", got ", towers.size()));
  }
  TowersShape s;
  const int n = s.n = static_cast<int>(towers.size());
  s.num_variables = n * n * n;
  for (int side = 0; side < 4; ++side) {
    const auto& clues = SideClues(towers, side);
    if (clues.empty()) continue;
    if (clues.size() != n) {
      return absl::InvalidArgumentError(
          absl::StrCat("towers.", TowersSideName(side), ": expected ", n,
                       " clues (0: none) or none, got ", clues.size()));
    }
    for (int i = 0; i < n; ++i) {
      if (clues[i] > static_cast<uint32_t>(n)) {
        return absl::InvalidArgumentError(
            absl::StrCat("towers.", TowersSideName(side), "[", i, "]: clue ",
                         clues[i], " out of range 0..", n));
      }
      if (clues[i] == 0) continue;
      s.clues.push_back({side, i, static_cast<int>(clues[i]),
                         TowersLineCells(n, side, i), s.num_variables});
      s.num_variables += TowersChainSize(n);
    }
  }
  s.givens.assign(n * n, 0);
  if (!towers.givens().empty()) {
    if (towers.givens_size() != n * n) {
      return absl::InvalidArgumentError(absl::StrCat(
          "towers.givens: expected ", n * n, " values (0: none) or none, got ",
          towers.givens_size()));
    }
    for (int k = 0; k < n * n; ++k) {
      if (towers.givens(k) > static_cast<uint32_t>(n)) {
        return absl::InvalidArgumentError(
            absl::StrCat("towers.givens[", k, "]: height ", towers.givens(k),
                         " out of range 0..", n));
      }
      s.givens[k] = static_cast<int>(towers.givens(k));
    }
  }
  for (int a = 0; a < n * n; ++a) {
    if (s.givens[a] == 0) continue;
    for (int b = a + 1; b < n * n; ++b) {
      if (s.givens[b] != s.givens[a]) continue;
      if (a / n == b / n || a % n == b % n) {
        return absl::InvalidArgumentError(absl::StrCat(
            "towers.givens: height ", s.givens[a], " given twice in ",
            a / n == b / n ? "row " : "column ",
            a / n == b / n ? a / n + 1 : a % n + 1, ", at ", CellName(n, a),
            " and ", CellName(n, b)));
      }
    }
  }
  return s;
}

std::unique_ptr<PuzzleCompiler> NewTowersCompiler() {
  return std::make_unique<TowersCompiler>();
}

}  // namespace qs
