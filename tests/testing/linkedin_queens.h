// LinkedIn-Queens-style puzzles for the tests ([Mata Ali & Mencia 2024]
// §2.1 rules: one queen per row, column and colour region, no two queens on
// diagonally adjacent cells): a backtracking solution counter written from the
// game rules alone (it shares no code with core/families/queens/queens.cc, so
// it can check the QUBO), a generator of puzzles with a unique solution, and
// the reader of tests/data/queens/*.txt.
//
// Generator: a random valid queen placement (rows in random column order,
// backtracking), one region seeded at each queen and grown cell by cell into
// random orthogonal neighbours, then hill climbing on the region map: a cell
// next to another region moves there (never a queen's cell, never disconnecting
// its region) when the number of solutions does not grow, until the placement
// is the only solution. Deterministic for a seed (std::mt19937_64 is fully
// specified by the standard; no library distributions are used).
#ifndef QS_TESTS_TESTING_LINKEDIN_QUEENS_H_
#define QS_TESTS_TESTING_LINKEDIN_QUEENS_H_

#include <cstdint>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace qs::testing {

struct LinkedInPuzzle {
  std::string name;
  int n = 0;
  std::vector<int> regions;   // n * n region ids 0..n-1, row-major
  std::vector<int> solution;  // column of the queen in each row
};

// Counts the placements that keep every rule, stopping at `limit`. Row by row:
// a column, a region and the two columns next to the previous row's queen are
// closed to the next queen.
inline int64_t CountLinkedInSolutions(
    int n, const std::vector<int>& regions, int64_t limit,
    std::vector<std::vector<int>>* solutions = nullptr) {
  std::vector<int> columns(n, -1);
  std::vector<bool> column_used(n, false), region_used(n, false);
  int64_t count = 0;
  auto place = [&](auto&& self, int row) -> void {
    if (count >= limit) return;
    if (row == n) {
      ++count;
      if (solutions != nullptr) solutions->push_back(columns);
      return;
    }
    for (int c = 0; c < n; ++c) {
      const int region = regions[row * n + c];
      if (column_used[c] || region_used[region]) continue;
      if (row > 0 && (columns[row - 1] == c - 1 || columns[row - 1] == c + 1))
        continue;
      columns[row] = c;
      column_used[c] = region_used[region] = true;
      self(self, row + 1);
      column_used[c] = region_used[region] = false;
    }
  };
  place(place, 0);
  return count;
}

// "ABC/..." rows of region letters (region id k is letter 'A' + k).
inline std::string RegionRows(const LinkedInPuzzle& puzzle) {
  std::string text;
  for (int r = 0; r < puzzle.n; ++r) {
    if (r > 0) text.push_back('/');
    for (int c = 0; c < puzzle.n; ++c)
      text.push_back(static_cast<char>('A' + puzzle.regions[r * puzzle.n + c]));
  }
  return text;
}

// "Q..../..." rows of the solution.
inline std::string SolutionRows(const LinkedInPuzzle& puzzle) {
  std::string text;
  for (int r = 0; r < puzzle.n; ++r) {
    if (r > 0) text.push_back('/');
    for (int c = 0; c < puzzle.n; ++c)
      text.push_back(puzzle.solution[r] == c ? 'Q' : '.');
  }
  return text;
}

namespace linkedin_internal {

// Uniform in [0, bound) for the small bounds used here (modulo bias is
// irrelevant to the tests).
inline int Below(std::mt19937_64& rng, int bound) {
  return static_cast<int>(rng() % static_cast<uint64_t>(bound));
}

inline bool RandomPlacement(int n, std::mt19937_64& rng,
                            std::vector<int>& columns, int row,
                            std::vector<bool>& used) {
  if (row == n) return true;
  std::vector<int> order(n);
  for (int c = 0; c < n; ++c) order[c] = c;
  for (int i = n - 1; i > 0; --i) std::swap(order[i], order[Below(rng, i + 1)]);
  for (int c : order) {
    if (used[c]) continue;
    if (row > 0 && (columns[row - 1] == c - 1 || columns[row - 1] == c + 1))
      continue;
    columns[row] = c;
    used[c] = true;
    if (RandomPlacement(n, rng, columns, row + 1, used)) return true;
    used[c] = false;
  }
  return false;
}

// True when region `id` stays connected without `removed`.
inline bool ConnectedWithout(int n, const std::vector<int>& regions, int id,
                             int removed) {
  std::vector<int> stack;
  std::vector<bool> seen(n * n, false);
  int total = 0;
  for (int cell = 0; cell < n * n; ++cell) {
    if (regions[cell] != id || cell == removed) continue;
    ++total;
    if (stack.empty()) {
      stack.push_back(cell);
      seen[cell] = true;
    }
  }
  int reached = 0;
  while (!stack.empty()) {
    const int cell = stack.back();
    stack.pop_back();
    ++reached;
    const int r = cell / n, c = cell % n;
    const int neighbours[4][2] = {
        {r - 1, c}, {r + 1, c}, {r, c - 1}, {r, c + 1}};
    for (const auto& nb : neighbours) {
      if (nb[0] < 0 || nb[0] >= n || nb[1] < 0 || nb[1] >= n) continue;
      const int next = nb[0] * n + nb[1];
      if (next == removed || seen[next] || regions[next] != id) continue;
      seen[next] = true;
      stack.push_back(next);
    }
  }
  return reached == total;
}

}  // namespace linkedin_internal

// A puzzle of side n (5..12) with a unique solution, or nullopt when the climb
// gets stuck for this seed.
inline std::optional<LinkedInPuzzle> GenerateLinkedInPuzzle(
    int n, uint64_t seed, int max_moves = 4000) {
  using linkedin_internal::Below;
  std::mt19937_64 rng(seed);
  LinkedInPuzzle puzzle;
  puzzle.n = n;
  puzzle.solution.assign(n, -1);
  std::vector<bool> used(n, false);
  if (!linkedin_internal::RandomPlacement(n, rng, puzzle.solution, 0, used))
    return std::nullopt;
  // Region ids in random order so that letters say nothing about rows.
  std::vector<int> ids(n);
  for (int k = 0; k < n; ++k) ids[k] = k;
  for (int i = n - 1; i > 0; --i) std::swap(ids[i], ids[Below(rng, i + 1)]);
  std::vector<int>& regions = puzzle.regions;
  regions.assign(n * n, -1);
  std::vector<bool> queen_cell(n * n, false);
  for (int r = 0; r < n; ++r) {
    regions[r * n + puzzle.solution[r]] = ids[r];
    queen_cell[r * n + puzzle.solution[r]] = true;
  }
  auto neighbours = [n](int cell) {
    std::vector<int> out;
    const int r = cell / n, c = cell % n;
    if (r > 0) out.push_back(cell - n);
    if (r + 1 < n) out.push_back(cell + n);
    if (c > 0) out.push_back(cell - 1);
    if (c + 1 < n) out.push_back(cell + 1);
    return out;
  };
  // Growth: an unassigned cell next to a region joins it.
  for (int assigned = n; assigned < n * n;) {
    std::vector<std::pair<int, int>> options;  // (cell, region)
    for (int cell = 0; cell < n * n; ++cell) {
      if (regions[cell] >= 0) continue;
      for (int nb : neighbours(cell)) {
        if (regions[nb] >= 0) options.push_back({cell, regions[nb]});
      }
    }
    const auto [cell, region] =
        options[Below(rng, static_cast<int>(options.size()))];
    regions[cell] = region;
    ++assigned;
  }
  constexpr int64_t kCountLimit = 100000;
  int64_t count = CountLinkedInSolutions(n, regions, kCountLimit);
  for (int move = 0; move < max_moves && count > 1; ++move) {
    const int cell = Below(rng, n * n);
    if (queen_cell[cell]) continue;
    const std::vector<int> nbs = neighbours(cell);
    const int target = regions[nbs[Below(rng, static_cast<int>(nbs.size()))]];
    const int source = regions[cell];
    if (target == source ||
        !linkedin_internal::ConnectedWithout(n, regions, source, cell))
      continue;
    regions[cell] = target;
    const int64_t moved = CountLinkedInSolutions(n, regions, kCountLimit);
    if (moved <= count) {
      count = moved;
    } else {
      regions[cell] = source;
    }
  }
  if (count != 1) return std::nullopt;
  return puzzle;
}

// Reads a puzzle file: '#' comments and blank lines skipped, else "name regions
// solution" with rows separated by '/' (regions as letters 'A'.., solution as
// 'Q' and '.'). Returns an empty list and sets `error` when a line does not
// parse.
inline std::vector<LinkedInPuzzle> ReadLinkedInPuzzles(const std::string& path,
                                                       std::string* error) {
  std::vector<LinkedInPuzzle> puzzles;
  std::ifstream in(path);
  if (!in) {
    *error = "cannot open " + path;
    return {};
  }
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    LinkedInPuzzle puzzle;
    std::string regions, solution;
    fields >> puzzle.name >> regions >> solution;
    std::vector<std::string> region_rows, solution_rows;
    std::stringstream rs(regions), ss(solution);
    for (std::string row; std::getline(rs, row, '/');)
      region_rows.push_back(row);
    for (std::string row; std::getline(ss, row, '/');)
      solution_rows.push_back(row);
    const int n = static_cast<int>(region_rows.size());
    bool ok = n > 0 && static_cast<int>(solution_rows.size()) == n;
    puzzle.n = n;
    for (int r = 0; ok && r < n; ++r) {
      ok = static_cast<int>(region_rows[r].size()) == n &&
           static_cast<int>(solution_rows[r].size()) == n;
      for (int c = 0; ok && c < n; ++c) {
        const int id = region_rows[r][c] - 'A';
        ok = id >= 0 && id < n;
        puzzle.regions.push_back(id);
        if (solution_rows[r][c] == 'Q') puzzle.solution.push_back(c);
      }
      ok = ok && static_cast<int>(puzzle.solution.size()) == r + 1;
    }
    if (!ok) {
      *error = path + ":" + std::to_string(line_number) + ": cannot parse '" +
               line + "'";
      return {};
    }
    puzzles.push_back(std::move(puzzle));
  }
  return puzzles;
}

}  // namespace qs::testing

#endif  // QS_TESTS_TESTING_LINKEDIN_QUEENS_H_
