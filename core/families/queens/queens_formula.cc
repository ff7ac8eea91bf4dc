// BuildQueensFormula: [Bryant 2019]'s recurrences as a BoolCircuit.
#include "core/families/queens/queens_formula.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "core/base/status_macros.h"
#include "core/families/queens/queens_binary.h"

namespace qs {
namespace {

// Units [begin, end) of rules.counts each hold at most one queen, partition
// the board cells and are as many as the rows: with one queen per row each
// then holds exactly one, and no "at least one" needs stating.
bool ImpliedExactlyOne(const QueensRules& rules, size_t begin, size_t end) {
  if (static_cast<int>(end - begin) != rules.rows) return false;
  std::vector<int> covered(rules.masked.size(), 0);
  for (size_t u = begin; u < end; ++u) {
    if (rules.counts[u].max != 1) return false;
    for (int cell : rules.counts[u].cells) ++covered[cell];
  }
  for (size_t cell = 0; cell < covered.size(); ++cell) {
    if (covered[cell] != (rules.masked[cell] ? 0 : 1)) return false;
  }
  return true;
}

class FormulaBuilder {
 public:
  FormulaBuilder(const QueensRules& rules, bool binary, QueensFormula& f)
      : rules_(rules),
        binary_(binary),
        bits_(QueensCodeBits(rules.cols)),
        c_(f.circuit),
        select_(rules.rows * rules.cols, BoolCircuit::kFalse),
        tails_(select_.size()),
        extras_(rules.rows) {}

  void Select() {
    for (size_t cell = 0; cell < select_.size(); ++cell) {
      if (rules_.masked[cell]) continue;
      const int r = static_cast<int>(cell) / rules_.cols;
      const int col = static_cast<int>(cell) % rules_.cols;
      if (!binary_) {
        select_[cell] = c_.Var(static_cast<int>(cell) + 1);
        continue;
      }
      int s = BoolCircuit::kTrue;
      for (int i = 0; i < bits_; ++i) {
        const int x = c_.Var(r * bits_ + i + 1);
        s = c_.And(s, (col >> i & 1) ? x : -x);
      }
      select_[cell] = s;
    }
  }

  // H_r per row, and the "at least one" of units whose count is not implied.
  void Unique() {
    for (int r = 0; r < rules_.rows; ++r) {
      const std::vector<int>& cells = rules_.counts[r].cells;
      if (binary_) {
        int h = BoolCircuit::kFalse;
        for (int cell : cells) h = c_.Or(select_[cell], h);
        rows_.push_back(h);
        continue;
      }
      int e = BoolCircuit::kTrue, h = BoolCircuit::kFalse;
      for (size_t j = 0; j < cells.size(); ++j) {
        const int s = select_[cells[j]];
        const int next_h = c_.Or(c_.And(s, e), c_.And(-s, h));
        if (j + 1 < cells.size()) e = c_.And(e, -s);
        h = next_h;
      }
      rows_.push_back(h);
    }
    const size_t columns = rules_.rows + rules_.cols;
    const bool columns_implied =
        ImpliedExactlyOne(rules_, rules_.rows, columns);
    const bool regions_implied =
        ImpliedExactlyOne(rules_, columns, rules_.counts.size());
    for (size_t u = rules_.rows; u < rules_.counts.size(); ++u) {
      const QueensRules::Count& count = rules_.counts[u];
      if (count.min < 1 || (u < columns ? columns_implied : regions_implied))
        continue;
      int any = BoolCircuit::kFalse;
      for (int cell : count.cells) any = c_.Or(select_[cell], any);
      extras_[FirstRow(count.cells)].push_back(any);
    }
  }

  // The chains of every at-most-one line, and the pairs of short attacks.
  void Conflict() {
    for (size_t u = rules_.rows; u < rules_.counts.size(); ++u) {
      const QueensRules::Count& count = rules_.counts[u];
      if (count.max == 1) Chain(count.cells);
      if (count.max != 0) continue;
      for (int cell : count.cells)
        extras_[cell / rules_.cols].push_back(-select_[cell]);
    }
    if (rules_.full_diagonals) {
      for (std::vector<int>& line :
           QueensDiagonalLines(rules_.rows, rules_.cols, rules_.topology)) {
        std::erase_if(line, [&](int cell) { return rules_.masked[cell]; });
        Chain(std::move(line));
      }
      return;
    }
    for (size_t a = 0; a < select_.size(); ++a) {
      for (int b : rules_.attacks[a]) {
        const bool mutual = std::binary_search(rules_.attacks[b].begin(),
                                               rules_.attacks[b].end(), a);
        if ((b < static_cast<int>(a) && mutual) || rules_.masked[a] ||
            rules_.masked[b])
          continue;
        if (static_cast<int>(a) / rules_.cols == b / rules_.cols) continue;
        const int first = std::min<int>(a, b), second = std::max<int>(a, b);
        tails_[first].push_back(-select_[second]);
      }
    }
  }

  // V_r from the bottom row up, with the givens when clues are on.
  void Rows(bool clues) {
    if (clues) {
      for (int g : rules_.givens)
        extras_[g / rules_.cols].push_back(select_[g]);
    }
    for (int r = rules_.rows - 1; r >= 0; --r) {
      int v = rows_[r];
      for (int cell : rules_.counts[r].cells) {
        if (tails_[cell].empty()) continue;
        int free = tails_[cell][0];
        for (size_t t = 1; t < tails_[cell].size(); ++t)
          free = c_.And(free, tails_[cell][t]);
        v = c_.And(v, c_.Or(-select_[cell], free));
      }
      for (int extra : extras_[r]) v = c_.And(v, extra);
      rows_[r] = v;
    }
  }

  void Overall() {
    int all = BoolCircuit::kTrue;
    for (int r = rules_.rows - 1; r >= 0; --r) all = c_.And(all, rows_[r]);
    c_.Assert(all);
  }

 private:
  int FirstRow(const std::vector<int>& cells) const {
    return cells.empty()
               ? 0
               : *std::min_element(cells.begin(), cells.end()) / rules_.cols;
  }

  // At most one of the cells: from the last cell up, U = "none from here on"
  // (U_j = U_{j+1} AND NOT S_j); each cell but the last takes the U after it.
  void Chain(std::vector<int> cells) {
    std::sort(cells.begin(), cells.end());
    int none_after = BoolCircuit::kTrue;
    for (size_t j = cells.size(); j-- > 0;) {
      if (j + 1 < cells.size()) tails_[cells[j]].push_back(none_after);
      if (j > 0) none_after = c_.And(none_after, -select_[cells[j]]);
    }
  }

  const QueensRules& rules_;
  const bool binary_;
  const int bits_;
  BoolCircuit& c_;
  std::vector<int> select_;
  std::vector<std::vector<int>> tails_;   // per cell: chains and attacks below
  std::vector<std::vector<int>> extras_;  // per row: further conjuncts
  std::vector<int> rows_;                 // H_r, then V_r
};

}  // namespace

absl::StatusOr<QueensFormula> BuildQueensFormula(const QueensRules& rules,
                                                 bool binary, bool clues) {
  RETURN_IF_ERROR(CheckBinaryRules(rules));
  QueensFormula f;
  const int per_row = binary ? QueensCodeBits(rules.cols) : rules.cols;
  f.circuit = BoolCircuit(rules.rows * per_row);
  FormulaBuilder builder(rules, binary, f);
  // Each phase's gates are those it adds.
  auto gates = [&] { return static_cast<int64_t>(f.circuit.gates().size()); };
  builder.Select();
  f.ops.select = gates();
  builder.Unique();
  f.ops.unique = gates() - f.ops.select;
  builder.Conflict();
  f.ops.conflict = gates() - f.ops.select - f.ops.unique;
  builder.Rows(clues);
  f.ops.row = gates() - f.ops.select - f.ops.unique - f.ops.conflict;
  builder.Overall();
  f.ops.overall =
      gates() - f.ops.select - f.ops.unique - f.ops.conflict - f.ops.row;
  return f;
}

namespace {

absl::StatusOr<QueensFormula> BinaryFormula(const v1::PuzzleSpec& spec) {
  ASSIGN_OR_RETURN(const QueensRules rules, QueensRulesOf(spec.queens()));
  return BuildQueensFormula(rules, /*binary=*/true, /*clues=*/true);
}

}  // namespace

absl::StatusOr<ExactSolveResult> SolveQueensBinary(
    const v1::PuzzleSpec& spec, int64_t max_solutions,
    const std::function<void(std::vector<uint8_t>)>& on_solution,
    Interrupter* interrupter) {
  ASSIGN_OR_RETURN(const QueensFormula formula, BinaryFormula(spec));
  return SolveCircuit(formula.circuit, max_solutions, on_solution, interrupter);
}

absl::StatusOr<CountResult> CountQueensBinary(const v1::PuzzleSpec& spec,
                                              uint64_t limit,
                                              CountMethod method,
                                              Interrupter* interrupter) {
  ASSIGN_OR_RETURN(const QueensFormula formula, BinaryFormula(spec));
  return CountCircuitSolutions(formula.circuit, limit, method, interrupter);
}

}  // namespace qs
