// Sudoku's rules ([Mücke 2024] §1) and its variants' as Boolean constraints
// over the one-hot variables z_ijk of the QUBO (core/families/sudoku/sudoku.h:
// index (i * side + j) * side + k): every cell holds exactly one digit, every
// digit stands exactly once in every row, column, box or jigsaw region and
// (X-Sudoku) long diagonal, at most once in a killer cage, and every clue
// holds. Each exactly-one is [Bryant 2019]'s one-hot UNIQUE chain, so the
// formula has Theta(side^3) clauses where the pairwise one has Theta(side^4).
//
// A cage's sum is a layered decision diagram over "digit d is in the cage"
// (y_d, an auxiliary equal to the OR of the cage's z_cd, which the at-most-one
// keeps a sum): layer d holds the (count, partial sum) states that digits
// 1..d can reach and digits d+1..side can still complete, one auxiliary each;
// a state and y_d imply the next state, and a step to a dead state is a
// clause. A sink without auxiliaries (a BDD count) gets instead one clause per
// shortest prefix of the cage's cells, in order, whose digits no completion
// fits.
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "core/exact/encoder.h"
#include "core/families/sudoku/sudoku.h"

namespace qs {
namespace {

// Whether `count` more distinct digits of [from, side] (1-based) sum to
// `rest`.
bool Completable(int from, int side, int count, int rest) {
  if (count == 0) return rest == 0;
  if (rest <= 0 || from > side) return false;
  const int low = count * (2 * from + count - 1) / 2;
  const int high = count * (2 * side - count + 1) / 2;
  return count <= side - from + 1 && low <= rest && rest <= high;
}

void EncodeCageSumWithStates(const SudokuShape& g, const SudokuCage& cage,
                             int first_auxiliary, ConstraintSink& sink) {
  const int side = g.side;
  const int k = static_cast<int>(cage.cells.size());
  std::vector<int> y(side);
  for (int d = 0; d < side; ++d) {
    y[d] = d == 0 ? first_auxiliary : sink.NewAuxiliary();
    std::vector<int> any = {-y[d]};
    for (int cell : cage.cells) {
      const int z = g.Var(cell, d) + 1;
      any.push_back(z);
      sink.AddClause({-z, y[d]});
    }
    sink.AddClause(any);
  }
  // states[(count, sum)] -> literal of the state in the current layer; 0 is
  // the root, which always holds.
  std::map<std::pair<int, int>, int> states = {{{0, 0}, 0}};
  for (int d = 0; d < side; ++d) {
    const int digit = d + 1;
    std::map<std::pair<int, int>, int> next;
    for (const auto& [state, literal] : states) {
      const auto [count, sum] = state;
      for (int take = 0; take <= 1; ++take) {
        const int count2 = count + take, sum2 = sum + take * digit;
        const int y_literal = take ? y[d] : -y[d];
        // Dead: no digits after this one complete the cage.
        const bool alive =
            count2 <= k &&
            Completable(digit + 1, side, k - count2, cage.sum - sum2);
        if (!alive) {
          if (literal == 0) {
            sink.AddClause({-y_literal});
          } else {
            sink.AddClause({-literal, -y_literal});
          }
          continue;
        }
        if (d == side - 1) continue;  // the final state (k, S) always holds
        auto [it, fresh] = next.try_emplace({count2, sum2}, 0);
        if (fresh) it->second = sink.NewAuxiliary();
        if (literal == 0) {
          sink.AddClause({-y_literal, it->second});
        } else {
          sink.AddClause({-literal, -y_literal, it->second});
        }
      }
    }
    states = std::move(next);
  }
}

// The sum without auxiliaries: walks the cage's cells in order over distinct
// digits and forbids each first prefix that cannot be completed.
void ForbidDeadPrefixes(const SudokuShape& g, const SudokuCage& cage,
                        size_t depth, int sum, std::vector<bool>& used,
                        std::vector<int>& prefix, ConstraintSink& sink) {
  if (depth == cage.cells.size()) return;
  const int side = g.side;
  const int left = static_cast<int>(cage.cells.size() - depth) - 1;
  for (int d = 0; d < side; ++d) {
    if (used[d]) continue;
    prefix.push_back(-(g.Var(cage.cells[depth], d) + 1));
    const int rest = cage.sum - sum - (d + 1);
    // Exact: is there a set of `left` unused digits summing to rest?
    std::vector<int> free;
    for (int e = 0; e < side; ++e) {
      if (!used[e] && e != d) free.push_back(e + 1);
    }
    std::vector<std::vector<char>> can(
        left + 1, std::vector<char>(rest + 1 > 0 ? rest + 1 : 1, 0));
    bool alive = false;
    if (rest >= 0) {
      can[0][0] = 1;
      for (int digit : free) {
        for (int m = left - 1; m >= 0; --m) {
          for (int s = rest - digit; s >= 0; --s) {
            if (can[m][s]) can[m + 1][s + digit] = 1;
          }
        }
      }
      alive = can[left][rest];
    }
    if (!alive) {
      sink.AddClause(prefix);
    } else {
      used[d] = true;
      ForbidDeadPrefixes(g, cage, depth + 1, sum + d + 1, used, prefix, sink);
      used[d] = false;
    }
    prefix.pop_back();
  }
}

class SudokuEncoder final : public RulesEncoder {
 public:
  absl::string_view kind() const override { return "sudoku"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kSudoku;
  }

  absl::Status Encode(const v1::PuzzleSpec& spec, const EncodeOptions& options,
                      ConstraintSink& sink) const override {
    const v1::SudokuPuzzle& sudoku = spec.sudoku();
    absl::StatusOr<SudokuShape> shape = SudokuShapeOf(sudoku);
    if (!shape.ok()) return shape.status();
    const SudokuShape& g = *shape;
    const int side = g.side;
    std::vector<int> unit(side);
    for (int cell = 0; cell < g.cells(); ++cell) {
      for (int d = 0; d < side; ++d) unit[d] = g.Var(cell, d) + 1;
      sink.AddExactlyOne(unit);
    }
    for (const SudokuGroup& group : g.groups) {
      for (int d = 0; d < side; ++d) {
        for (int k = 0; k < side; ++k) unit[k] = g.Var(group.cells[k], d) + 1;
        sink.AddExactlyOne(unit);
      }
    }
    for (const SudokuCage& cage : g.cages) {
      std::vector<int> in_cage;
      for (int d = 0; d < side && cage.cells.size() > 1; ++d) {
        in_cage.clear();
        for (int cell : cage.cells) in_cage.push_back(g.Var(cell, d) + 1);
        sink.AddAtMostOne(in_cage);
      }
      const int auxiliary = sink.NewAuxiliary();
      if (auxiliary != 0) {
        EncodeCageSumWithStates(g, cage, auxiliary, sink);
      } else {
        std::vector<bool> used(side, false);
        std::vector<int> prefix;
        ForbidDeadPrefixes(g, cage, 0, 0, used, prefix, sink);
      }
    }
    if (!options.clues) return absl::OkStatus();
    for (int cell = 0; cell < sudoku.cells_size(); ++cell) {
      const int clue = static_cast<int>(sudoku.cells(cell));
      if (clue > 0) sink.AddUnit(g.Var(cell, clue - 1) + 1);
    }
    return absl::OkStatus();
  }
};

}  // namespace

std::unique_ptr<RulesEncoder> NewSudokuEncoder() {
  return std::make_unique<SudokuEncoder>();
}

}  // namespace qs
