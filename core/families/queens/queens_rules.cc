// The queens family's rules ([Mata Ali & Mencia 2024] §2.1-2.4) as Boolean
// constraints over the QUBO's cell variables x_rc (index r * cols + c), in the
// form of [Bryant 2019] for N-queens:
// - each row, column, colour region and extra region holds between its min
//   and max queens: exactly-one is the paper's UNIQUE chain (E, H), at-most-one
//   the conflict chain, other counts a sequential counter;
// - with whole-diagonal attacks, at most one queen per diagonal line: the
//   seed's L and R chains. A line is an orbit of the step (1, 1) or (1, -1),
//   cut at the edges that are not joined (plane: the ordinary diagonals;
//   cylinder: lines that wrap left to right; torus: closed cycles of length
//   lcm(N, M)). Two cells attack each other exactly when they share a line;
//   the cross-check against the QUBO's attack sets confirms it;
// - other attack rules (adjacent diagonals, distances, free sets) are pairwise
//   clauses, one per attacking pair: they are short-ranged or arbitrary, so no
//   chain applies;
// - masked cells hold no queen, given queens stand.
#include <algorithm>
#include <memory>
#include <vector>

#include "core/base/status_macros.h"
#include "core/exact/encoder.h"
#include "core/families/queens/queens.h"
#include "core/families/queens/queens_formula.h"

namespace qs {

std::vector<std::vector<int>> QueensDiagonalLines(int rows, int cols,
                                                  v1::QueensTopology topology) {
  const bool wrap_cols = topology != v1::QUEENS_TOPOLOGY_PLANE;
  const bool wrap_rows = topology == v1::QUEENS_TOPOLOGY_TORUS;
  // One step from (r, c) by (dr, dc); false when it leaves the board.
  auto step = [&](int& r, int& c, int dr, int dc) {
    r += dr;
    c += dc;
    if (r < 0 || r >= rows) {
      if (!wrap_rows) return false;
      r = (r + rows) % rows;
    }
    if (c < 0 || c >= cols) {
      if (!wrap_cols) return false;
      c = (c + cols) % cols;
    }
    return true;
  };
  std::vector<std::vector<int>> lines;
  for (int dc : {1, -1}) {
    std::vector<bool> seen(static_cast<size_t>(rows) * cols, false);
    for (int cell = 0; cell < rows * cols; ++cell) {
      if (seen[cell]) continue;
      // Back to the line's first cell: an edge, or all the way round.
      int r = cell / cols, c = cell % cols;
      for (int br = r, bc = c; step(br, bc, -1, -dc);) {
        if (br * cols + bc == cell) break;
        r = br, c = bc;
      }
      std::vector<int> line;
      const int first = r * cols + c;
      do {
        line.push_back(r * cols + c);
        seen[r * cols + c] = true;
      } while (step(r, c, 1, dc) && r * cols + c != first);
      lines.push_back(std::move(line));
    }
  }
  return lines;
}

namespace {

class QueensEncoder final : public RulesEncoder {
 public:
  absl::string_view kind() const override { return "queens"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kQueens;
  }

  absl::Status Encode(const v1::PuzzleSpec& spec, const EncodeOptions& options,
                      ConstraintSink& sink) const override {
    ASSIGN_OR_RETURN(const QueensRules rules, QueensRulesOf(spec.queens()));
    const int n = rules.rows * rules.cols;
    auto x = [](int cell) { return cell + 1; };
    for (int cell = 0; cell < n; ++cell) {
      if (rules.masked[cell]) sink.AddUnit(-x(cell));
    }
    std::vector<int> literals;
    for (const QueensRules::Count& count : rules.counts) {
      literals.clear();
      for (int cell : count.cells) literals.push_back(x(cell));
      if (count.min == 1 && count.max == 1) {
        sink.AddExactlyOne(literals);
      } else if (count.min == 0 && count.max == 1) {
        sink.AddAtMostOne(literals);
      } else {
        sink.AddCardinality(literals, count.min, count.max);
      }
    }
    if (rules.full_diagonals) {
      for (const std::vector<int>& line :
           QueensDiagonalLines(rules.rows, rules.cols, rules.topology)) {
        literals.clear();
        for (int cell : line) {
          if (!rules.masked[cell]) literals.push_back(x(cell));
        }
        sink.AddAtMostOne(literals);
      }
    } else {
      for (int a = 0; a < n; ++a) {
        for (int b : rules.attacks[a]) {
          // Each attacking pair once, whichever side reaches the other.
          const bool mutual = std::binary_search(rules.attacks[b].begin(),
                                                 rules.attacks[b].end(), a);
          if (b < a && mutual) continue;
          if (rules.masked[a] || rules.masked[b]) continue;
          sink.AddClause({-x(a), -x(b)});
        }
      }
    }
    if (options.clues) {
      for (int cell : rules.givens) sink.AddUnit(x(cell));
    }
    return absl::OkStatus();
  }
};

}  // namespace

std::unique_ptr<RulesEncoder> NewQueensEncoder() {
  return std::make_unique<QueensEncoder>();
}

}  // namespace qs
