// FindGroupStructure: primary groups, permutation blocks grown from the later
// groups, and the random starts that keep them (group_structure.h).
#include "core/sample/group_structure.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_join.h"

namespace qs {
namespace {

// The groups with members in range, distinct, and at least two of them.
std::vector<uint8_t> UsableGroups(
    int num_variables, const std::vector<std::vector<int32_t>>& groups) {
  std::vector<uint8_t> usable(groups.size(), 0);
  std::vector<int32_t> sorted;
  for (size_t g = 0; g < groups.size(); ++g) {
    sorted = groups[g];
    std::sort(sorted.begin(), sorted.end());
    usable[g] =
        sorted.size() >= 2 && sorted.front() >= 0 &&
        sorted.back() < num_variables &&
        std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
  }
  return usable;
}

// Kuhn's augmenting path from `row` over the columns its `columns` list
// gives, in that order; true when it matched the row.
bool TryAugment(int row, const std::vector<std::vector<int>>& columns,
                std::vector<int>& row_of_col, std::vector<int>& seen,
                int stamp) {
  for (int col : columns[row]) {
    if (seen[col] == stamp) continue;
    seen[col] = stamp;
    if (row_of_col[col] < 0 ||
        TryAugment(row_of_col[col], columns, row_of_col, seen, stamp)) {
      row_of_col[col] = row;
      return true;
    }
  }
  return false;
}

// A perfect matching of the block's rows to present cells: row_of_col[c]
// takes column c. Rows and each row's columns are tried in a random order
// when `rng` is given. False when none exists.
bool PerfectMatching(const PermutationBlock& block, Xoshiro256* rng,
                     std::vector<int>& row_of_col) {
  const int n = block.size;
  std::vector<std::vector<int>> columns(n);
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      if (block.at(r, c) >= 0) columns[r].push_back(c);
    }
  }
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  if (rng != nullptr) {
    for (int r = n - 1; r > 0; --r)
      std::swap(order[r], order[rng->NextBelow(r + 1)]);
    for (std::vector<int>& cols : columns) {
      for (int k = static_cast<int>(cols.size()) - 1; k > 0; --k)
        std::swap(cols[k], cols[rng->NextBelow(k + 1)]);
    }
  }
  row_of_col.assign(n, -1);
  std::vector<int> seen(n, -1);
  for (int k = 0; k < n; ++k) {
    if (!TryAugment(order[k], columns, row_of_col, seen, k)) return false;
  }
  return true;
}

// Grows the block seeded by later group `seed`: the primaries its members
// lie in become rows, each member of a row is covered by the first eligible
// later group that holds it (a column), and so on to closure. Empty when the
// closure is not a square block whose rows and columns partition the same
// variables, or admits no permutation.
class BlockGrower {
 public:
  BlockGrower(const std::vector<std::vector<int32_t>>& groups,
              const std::vector<int>& owner,
              const std::vector<std::vector<int>>& primaries_members,
              const std::vector<std::vector<int>>& later_of_variable,
              const std::vector<int>& block_of_primary,
              const std::vector<uint8_t>& used_later)
      : groups_(groups),
        owner_(owner),
        primaries_(primaries_members),
        later_of_variable_(later_of_variable),
        block_of_primary_(block_of_primary),
        used_later_(used_later) {}

  bool Grow(int seed, std::vector<int>& rows, std::vector<int>& cols) {
    rows.clear();
    cols.clear();
    cols.push_back(seed);
    size_t next_col = 0, next_row = 0;
    while (next_col < cols.size() || next_row < rows.size()) {
      for (; next_col < cols.size(); ++next_col) {
        for (int32_t v : groups_[cols[next_col]]) {
          const int p = owner_[v];
          if (block_of_primary_[p] >= 0) return false;
          if (std::find(rows.begin(), rows.end(), p) == rows.end())
            rows.push_back(p);
        }
      }
      for (; next_row < rows.size(); ++next_row) {
        for (int32_t v : primaries_[rows[next_row]]) {
          if (later_of_variable_[v].empty()) return false;
          const int cover = later_of_variable_[v].front();
          if (std::find(cols.begin(), cols.end(), cover) != cols.end())
            continue;
          if (used_later_[cover]) return false;
          cols.push_back(cover);
        }
      }
    }
    return rows.size() == cols.size();
  }

 private:
  const std::vector<std::vector<int32_t>>& groups_;
  const std::vector<int>& owner_;
  const std::vector<std::vector<int>>& primaries_;
  const std::vector<std::vector<int>>& later_of_variable_;
  const std::vector<int>& block_of_primary_;
  const std::vector<uint8_t>& used_later_;
};

// The block of rows x cols when every variable of a row lies in exactly one
// of the columns and the cells admit a permutation; size 0 otherwise.
PermutationBlock MakeBlock(const std::vector<std::vector<int32_t>>& groups,
                           const std::vector<std::vector<int>>& primaries,
                           const std::vector<int>& rows,
                           const std::vector<int>& cols,
                           std::vector<int>& row_scratch,
                           std::vector<int>& col_scratch) {
  const int n = static_cast<int>(rows.size());
  PermutationBlock block;
  block.size = n;
  block.cells.assign(static_cast<size_t>(n) * n, -1);
  for (int r = 0; r < n; ++r) {
    for (int v : primaries[rows[r]]) row_scratch[v] = r;
  }
  int covered = 0;
  for (int c = 0; c < n; ++c) {
    for (int32_t v : groups[cols[c]]) {
      if (col_scratch[v] >= 0) return {};  // two columns share a variable
      col_scratch[v] = c;
      int32_t& cell = block.cells[row_scratch[v] * n + c];
      if (cell >= 0) return {};  // a row meets a column twice
      cell = v;
      ++covered;
    }
  }
  int members = 0;
  for (int r = 0; r < n; ++r)
    members += static_cast<int>(primaries[rows[r]].size());
  std::vector<int> matching;
  if (covered != members || !PerfectMatching(block, nullptr, matching))
    return {};
  return block;
}

}  // namespace

GroupStructure FindGroupStructure(
    int num_variables, const std::vector<std::vector<int32_t>>& groups) {
  GroupStructure out;
  const std::vector<uint8_t> usable = UsableGroups(num_variables, groups);
  // Primaries: disjoint groups in declaration order.
  std::vector<int> owner(num_variables, -1);
  std::vector<std::vector<int>> primaries;
  std::vector<uint8_t> is_primary(groups.size(), 0);
  for (size_t g = 0; g < groups.size(); ++g) {
    if (!usable[g]) continue;
    if (std::any_of(groups[g].begin(), groups[g].end(),
                    [&](int32_t v) { return owner[v] >= 0; }))
      continue;
    is_primary[g] = 1;
    for (int32_t v : groups[g]) owner[v] = static_cast<int>(primaries.size());
    primaries.emplace_back(groups[g].begin(), groups[g].end());
  }
  // Later groups that can be a block's column: every member in a primary,
  // no two in the same one.
  std::vector<std::vector<int>> later_of_variable(num_variables);
  std::vector<int> eligible;
  for (size_t g = 0; g < groups.size(); ++g) {
    if (!usable[g] || is_primary[g]) continue;
    std::vector<int> rows;
    bool ok = true;
    for (int32_t v : groups[g]) {
      ok = ok && owner[v] >= 0;
      if (ok) rows.push_back(owner[v]);
    }
    std::sort(rows.begin(), rows.end());
    ok = ok && std::adjacent_find(rows.begin(), rows.end()) == rows.end();
    if (!ok) continue;
    eligible.push_back(static_cast<int>(g));
    for (int32_t v : groups[g])
      later_of_variable[v].push_back(static_cast<int>(g));
  }
  std::vector<int> block_of_primary(primaries.size(), -1);
  std::vector<uint8_t> used_later(groups.size(), 0);
  std::vector<int> row_scratch(num_variables, -1),
      col_scratch(num_variables, -1);
  BlockGrower grower(groups, owner, primaries, later_of_variable,
                     block_of_primary, used_later);
  std::vector<int> rows, cols;
  for (int seed : eligible) {
    if (used_later[seed] || !grower.Grow(seed, rows, cols)) continue;
    PermutationBlock block =
        MakeBlock(groups, primaries, rows, cols, row_scratch, col_scratch);
    for (int c : cols) {
      for (int32_t v : groups[c]) col_scratch[v] = -1;
    }
    if (block.size == 0) {
      used_later[seed] = 1;  // not a block: later seeds need not retry it
      continue;
    }
    for (int p : rows)
      block_of_primary[p] = static_cast<int>(out.blocks.size());
    for (int c : cols) used_later[c] = 1;
    out.blocks.push_back(std::move(block));
  }
  for (size_t p = 0; p < primaries.size(); ++p) {
    if (block_of_primary[p] < 0)
      out.one_way.emplace_back(primaries[p].begin(), primaries[p].end());
  }
  for (int v = 0; v < num_variables; ++v) {
    if (owner[v] < 0) out.free.push_back(v);
  }
  return out;
}

void GroupRespectingState(const GroupStructure& structure, int num_variables,
                          Xoshiro256& rng, std::vector<uint8_t>& state) {
  state.assign(num_variables, 0);
  std::vector<int> row_of_col;
  for (const PermutationBlock& block : structure.blocks) {
    // Every block admits a permutation (FindGroupStructure checked it).
    PerfectMatching(block, &rng, row_of_col);
    for (int c = 0; c < block.size; ++c) {
      if (row_of_col[c] >= 0) state[block.at(row_of_col[c], c)] = 1;
    }
  }
  for (const std::vector<int32_t>& group : structure.one_way)
    state[group[rng.NextBelow(group.size())]] = 1;
  for (int32_t v : structure.free) state[v] = rng.Next() >> 63;
}

bool KeepsGroups(const GroupStructure& structure,
                 const std::vector<uint8_t>& state) {
  for (const PermutationBlock& block : structure.blocks) {
    for (int r = 0; r < block.size; ++r) {
      int in_row = 0, in_col = 0;
      for (int c = 0; c < block.size; ++c) {
        const int32_t row_cell = block.at(r, c), col_cell = block.at(c, r);
        in_row += row_cell >= 0 && state[row_cell];
        in_col += col_cell >= 0 && state[col_cell];
      }
      if (in_row != 1 || in_col != 1) return false;
    }
  }
  for (const std::vector<int32_t>& group : structure.one_way) {
    int set = 0;
    for (int32_t v : group) set += state[v];
    if (set != 1) return false;
  }
  return true;
}

void MoveIntoGroups(const GroupStructure& structure, Xoshiro256& rng,
                    std::vector<uint8_t>& state) {
  if (KeepsGroups(structure, state)) return;
  std::vector<uint8_t> inside;
  GroupRespectingState(structure, static_cast<int>(state.size()), rng, inside);
  for (int32_t v : structure.free) inside[v] = state[v];
  state = std::move(inside);
}

std::string MoveNames(const GroupStructure& structure) {
  std::vector<std::string> names;
  if (!structure.free.empty()) names.push_back("single-flip");
  if (std::any_of(structure.one_way.begin(), structure.one_way.end(),
                  [](const auto& group) { return group.size() >= 2; }))
    names.push_back("one-hot-swap");
  if (!structure.blocks.empty()) names.push_back("two-way-exchange");
  return absl::StrJoin(names, "+");
}

}  // namespace qs
