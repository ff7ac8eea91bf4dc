// The rules of Tents & Trees written independently of
// core/families/tents/tents.cc, as the ground truth of the tests: the game's
// rules (with the one-to-one pairing of tents and trees), the subset of them
// the QUBO of [Mata Ali & Mencia 2024] §2.5 expresses, exhaustive enumeration
// of small boards and a backtracking solver.
#ifndef QS_TESTS_TESTING_TENTS_ORACLE_H_
#define QS_TESTS_TESTING_TENTS_ORACLE_H_

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "qs/v1/puzzles.pb.h"

namespace qs::testing {

struct TentsGame {
  int rows = 0;
  int cols = 0;
  std::vector<uint8_t> tree;  // per cell
  std::vector<int> row_counts;
  std::vector<int> col_counts;

  int size() const { return rows * cols; }
  bool Orthogonal(int a, int b) const {
    return std::abs(a / cols - b / cols) + std::abs(a % cols - b % cols) == 1;
  }
  bool Touch(int a, int b) const {
    return a != b && std::abs(a / cols - b / cols) <= 1 &&
           std::abs(a % cols - b % cols) <= 1;
  }
  int NumTrees() const {
    int n = 0;
    for (uint8_t t : tree) n += t;
    return n;
  }
};

// A board as rows separated by '/': 'A' a tree, 'T' a tent, '.' empty. Returns
// the tents per cell.
inline std::vector<uint8_t> ParseTentsBoard(absl::string_view board,
                                            TentsGame* game) {
  std::vector<std::string> rows = absl::StrSplit(board, '/');
  game->rows = static_cast<int>(rows.size());
  game->cols = static_cast<int>(rows[0].size());
  game->tree.clear();
  std::vector<uint8_t> tents;
  for (const std::string& row : rows) {
    for (char ch : row) {
      game->tree.push_back(ch == 'A');
      tents.push_back(ch == 'T');
    }
  }
  return tents;
}

// The game of a solved board: its trees, and the counts its tents give.
inline TentsGame GameFromSolvedBoard(
    absl::string_view board, std::vector<uint8_t>* tents_out = nullptr) {
  TentsGame game;
  std::vector<uint8_t> tents = ParseTentsBoard(board, &game);
  game.row_counts.assign(game.rows, 0);
  game.col_counts.assign(game.cols, 0);
  for (int cell = 0; cell < game.size(); ++cell) {
    game.row_counts[cell / game.cols] += tents[cell];
    game.col_counts[cell % game.cols] += tents[cell];
  }
  if (tents_out != nullptr) *tents_out = tents;
  return game;
}

inline TentsGame GameFromTrees(absl::string_view trees,
                               std::vector<int> row_counts,
                               std::vector<int> col_counts) {
  TentsGame game;
  ParseTentsBoard(trees, &game);
  game.row_counts = std::move(row_counts);
  game.col_counts = std::move(col_counts);
  return game;
}

inline v1::PuzzleSpec TentsSpec(const TentsGame& game) {
  v1::PuzzleSpec spec;
  v1::TentsPuzzle* tents = spec.mutable_tents();
  tents->set_rows(game.rows);
  tents->set_cols(game.cols);
  for (int cell = 0; cell < game.size(); ++cell) {
    if (game.tree[cell]) tents->add_trees(cell);
  }
  for (int n : game.row_counts) tents->add_row_counts(n);
  for (int n : game.col_counts) tents->add_col_counts(n);
  return spec;
}

inline std::string TentsBoardString(const TentsGame& game,
                                    const std::vector<uint8_t>& tents) {
  std::string out;
  for (int cell = 0; cell < game.size(); ++cell) {
    if (cell > 0 && cell % game.cols == 0) out.push_back('/');
    out.push_back(game.tree[cell] ? (tents[cell] ? '*' : 'A')
                                  : (tents[cell] ? 'T' : '.'));
  }
  return out;
}

// Counts right, no tent on a tree, no two tents touching.
inline bool CountsAndSpacingHold(const TentsGame& game,
                                 const std::vector<uint8_t>& tents) {
  std::vector<int> rows(game.rows, 0), cols(game.cols, 0);
  std::vector<int> placed;
  for (int cell = 0; cell < game.size(); ++cell) {
    if (!tents[cell]) continue;
    if (game.tree[cell]) return false;
    ++rows[cell / game.cols];
    ++cols[cell % game.cols];
    placed.push_back(cell);
  }
  if (rows != game.row_counts || cols != game.col_counts) return false;
  for (size_t a = 0; a < placed.size(); ++a) {
    for (size_t b = a + 1; b < placed.size(); ++b) {
      if (game.Touch(placed[a], placed[b])) return false;
    }
  }
  return true;
}

// What the minima of eq. 22 (with the cells next to no tree fixed to 0)
// satisfy: counts and spacing, every tent next to a tree, every tree next to
// one or two tents.
inline bool SatisfiesQuboRules(const TentsGame& game,
                               const std::vector<uint8_t>& tents) {
  if (!CountsAndSpacingHold(game, tents)) return false;
  for (int a = 0; a < game.size(); ++a) {
    if (!tents[a] && !game.tree[a]) continue;
    int partners = 0;
    for (int b = 0; b < game.size(); ++b) {
      if (game.Orthogonal(a, b) && (tents[a] ? game.tree[b] : tents[b]))
        ++partners;
    }
    if (partners == 0 || (game.tree[a] && partners > 2)) return false;
  }
  return true;
}

// The game's rules: counts and spacing, and a one-to-one pairing of tents and
// trees by adjacency.
inline bool IsValidTentsBoard(const TentsGame& game,
                              const std::vector<uint8_t>& tents) {
  if (!CountsAndSpacingHold(game, tents)) return false;
  std::vector<int> tree_cells, tent_cells;
  for (int cell = 0; cell < game.size(); ++cell) {
    if (game.tree[cell]) tree_cells.push_back(cell);
    if (tents[cell]) tent_cells.push_back(cell);
  }
  if (tree_cells.size() != tent_cells.size()) return false;
  std::vector<int> tent_of_tree(tree_cells.size(), -1);
  std::function<bool(size_t, std::vector<uint8_t>&)> try_tent =
      [&](size_t tent, std::vector<uint8_t>& seen) {
        for (size_t t = 0; t < tree_cells.size(); ++t) {
          if (seen[t] || !game.Orthogonal(tent_cells[tent], tree_cells[t]))
            continue;
          seen[t] = 1;
          if (tent_of_tree[t] < 0 || try_tent(tent_of_tree[t], seen)) {
            tent_of_tree[t] = static_cast<int>(tent);
            return true;
          }
        }
        return false;
      };
  for (size_t tent = 0; tent < tent_cells.size(); ++tent) {
    std::vector<uint8_t> seen(tree_cells.size(), 0);
    if (!try_tent(tent, seen)) return false;
  }
  return true;
}

// Every placement of tents on the non-tree cells that satisfies `rule` (small
// boards only).
inline std::vector<std::vector<uint8_t>> AllBoards(
    const TentsGame& game,
    const std::function<bool(const TentsGame&, const std::vector<uint8_t>&)>&
        rule) {
  std::vector<int> free_cells;
  for (int cell = 0; cell < game.size(); ++cell) {
    if (!game.tree[cell]) free_cells.push_back(cell);
  }
  std::vector<std::vector<uint8_t>> out;
  std::vector<uint8_t> tents(game.size(), 0);
  for (uint64_t mask = 0; mask < (uint64_t{1} << free_cells.size()); ++mask) {
    for (size_t k = 0; k < free_cells.size(); ++k)
      tents[free_cells[k]] = (mask >> k) & 1;
    if (rule(game, tents)) out.push_back(tents);
  }
  return out;
}

// Solutions of the game by backtracking over the cells next to a tree in
// row-major order, stopping at max_solutions.
inline std::vector<std::vector<uint8_t>> SolveTents(const TentsGame& game,
                                                    int max_solutions) {
  std::vector<int> candidates;
  for (int cell = 0; cell < game.size(); ++cell) {
    if (game.tree[cell]) continue;
    for (int other = 0; other < game.size(); ++other) {
      if (game.tree[other] && game.Orthogonal(cell, other)) {
        candidates.push_back(cell);
        break;
      }
    }
  }
  const int n = static_cast<int>(candidates.size());
  // Candidates left in each column from position k on.
  std::vector<std::vector<int>> left_in_col(n + 1,
                                            std::vector<int>(game.cols, 0));
  for (int k = n - 1; k >= 0; --k) {
    left_in_col[k] = left_in_col[k + 1];
    ++left_in_col[k][candidates[k] % game.cols];
  }
  // Trees whose last neighbouring candidate is at position k: decided once k
  // is.
  std::vector<std::vector<int>> trees_done_at(n);
  for (int tree = 0; tree < game.size(); ++tree) {
    if (!game.tree[tree]) continue;
    int last = -1;
    for (int k = 0; k < n; ++k) {
      if (game.Orthogonal(tree, candidates[k])) last = k;
    }
    if (last < 0) return {};
    trees_done_at[last].push_back(tree);
  }
  std::vector<std::vector<uint8_t>> solutions;
  std::vector<uint8_t> tents(game.size(), 0);
  std::vector<int> rows(game.rows, 0), cols(game.cols, 0);
  std::function<void(int)> search = [&](int k) {
    if (static_cast<int>(solutions.size()) >= max_solutions) return;
    if (k == n) {
      if (IsValidTentsBoard(game, tents)) solutions.push_back(tents);
      return;
    }
    const int cell = candidates[k], r = cell / game.cols, c = cell % game.cols;
    const int next_row = k + 1 < n ? candidates[k + 1] / game.cols : game.rows;
    for (int put = 1; put >= 0; --put) {
      if (put) {
        if (rows[r] >= game.row_counts[r] || cols[c] >= game.col_counts[c])
          continue;
        bool touches = false;
        for (int other : {cell - 1, cell - game.cols - 1, cell - game.cols,
                          cell - game.cols + 1}) {
          if (other >= 0 && tents[other] && game.Touch(cell, other))
            touches = true;
        }
        if (touches) continue;
      }
      tents[cell] = put;
      rows[r] += put;
      cols[c] += put;
      bool ok = cols[c] + left_in_col[k + 1][c] >= game.col_counts[c];
      for (int row = r; ok && row < next_row; ++row)
        ok = rows[row] == game.row_counts[row];
      for (int tree : trees_done_at[k]) {
        bool has_tent = false;
        for (int d : {tree - game.cols, tree + game.cols, tree - 1, tree + 1}) {
          if (d >= 0 && d < game.size() && game.Orthogonal(tree, d) && tents[d])
            has_tent = true;
        }
        ok = ok && has_tent;
      }
      if (ok) search(k + 1);
      tents[cell] = 0;
      rows[r] -= put;
      cols[c] -= put;
    }
  };
  // Rows before the first candidate must need no tent.
  for (int row = 0; row < (n > 0 ? candidates[0] / game.cols : game.rows);
       ++row) {
    if (game.row_counts[row] != 0) return {};
  }
  search(0);
  return solutions;
}

}  // namespace qs::testing

#endif  // QS_TESTS_TESTING_TENTS_ORACLE_H_
