// FindGroupStructure (core/sample/group_structure.h): permutation blocks of a
// Sudoku's rows and a TSP's cities x positions, one-way groups and free
// variables, blocks with reduced cells, and random starts that keep them.
#include "core/sample/group_structure.h"

#include <cstdint>
#include <vector>

#include "core/base/rng.h"
#include "gtest/gtest.h"

namespace qs {
namespace {

using Groups = std::vector<std::vector<int32_t>>;

// A side x side Latin square with boxes of box x box (a Sudoku of side 4 for
// box 2), variable (cell * side + digit), groups declared as the Sudoku
// family does: cells first, then each row's, column's and box's digits.
Groups SudokuGroups(int box) {
  const int side = box * box;
  auto var = [&](int r, int c, int d) { return (r * side + c) * side + d; };
  Groups groups;
  for (int r = 0; r < side; ++r) {
    for (int c = 0; c < side; ++c) {
      groups.emplace_back();
      for (int d = 0; d < side; ++d) groups.back().push_back(var(r, c, d));
    }
  }
  for (int unit = 0; unit < 3; ++unit) {
    for (int k = 0; k < side; ++k) {
      for (int d = 0; d < side; ++d) {
        groups.emplace_back();
        for (int m = 0; m < side; ++m) {
          const int r = unit == 0   ? k
                        : unit == 1 ? m
                                    : (k / box) * box + m / box;
          const int c = unit == 0   ? m
                        : unit == 1 ? k
                                    : (k % box) * box + m % box;
          groups.back().push_back(var(r, c, d));
        }
      }
    }
  }
  return groups;
}

// n cities x n positions, variable city * n + position: rows, then columns.
Groups AssignmentGroups(int n) {
  Groups groups;
  for (int city = 0; city < n; ++city) {
    groups.emplace_back();
    for (int t = 0; t < n; ++t) groups.back().push_back(city * n + t);
  }
  for (int t = 0; t < n; ++t) {
    groups.emplace_back();
    for (int city = 0; city < n; ++city) groups.back().push_back(city * n + t);
  }
  return groups;
}

TEST(GroupStructureTest, SudokuRowsAreBlocksOfCellsByDigits) {
  const GroupStructure s = FindGroupStructure(4 * 4 * 4, SudokuGroups(2));
  ASSERT_EQ(s.blocks.size(), 4u);
  EXPECT_TRUE(s.one_way.empty());
  EXPECT_TRUE(s.free.empty());
  for (int row = 0; row < 4; ++row) {
    const PermutationBlock& block = s.blocks[row];
    ASSERT_EQ(block.size, 4);
    // Block rows are the row's cells, columns its digits.
    for (int c = 0; c < 4; ++c) {
      for (int d = 0; d < 4; ++d)
        EXPECT_EQ(block.at(c, d), (row * 4 + c) * 4 + d);
    }
  }
}

TEST(GroupStructureTest, AnAssignmentIsOneBlockAndExtraVariablesAreFree) {
  const int n = 5;
  const GroupStructure s = FindGroupStructure(n * n + 3, AssignmentGroups(n));
  ASSERT_EQ(s.blocks.size(), 1u);
  EXPECT_EQ(s.blocks[0].size, n);
  EXPECT_TRUE(s.one_way.empty());
  EXPECT_EQ(s.free, (std::vector<int32_t>{25, 26, 27}));
}

TEST(GroupStructureTest, ReducedCellsStayHolesWhileAPermutationRemains) {
  const int n = 4;
  Groups groups = AssignmentGroups(n);
  // City 0 may not take position 0, nor city 1 position 1.
  for (std::vector<int32_t>& g : groups) {
    std::erase(g, 0);
    std::erase(g, 5);
  }
  const GroupStructure s = FindGroupStructure(n * n, groups);
  ASSERT_EQ(s.blocks.size(), 1u);
  const PermutationBlock& block = s.blocks[0];
  ASSERT_EQ(block.size, n);
  int present = 0;
  for (int32_t v : block.cells) {
    present += v >= 0;
    EXPECT_NE(v, 0);
    EXPECT_NE(v, 5);
  }
  EXPECT_EQ(present, n * n - 2);
  // Variables 0 and 5 are in no group left: free.
  EXPECT_EQ(s.free, (std::vector<int32_t>{0, 5}));
}

TEST(GroupStructureTest, ARowThatNoColumnCoversIsNoBlock) {
  // Row {6, 7, 8}'s 8 lies in no usable column ({8} is too short).
  const Groups groups = {{0, 1},    {3, 4},    {6, 7, 8},  // rows
                         {0, 3, 6}, {1, 4, 7}, {8}};       // columns
  const GroupStructure s = FindGroupStructure(9, groups);
  EXPECT_TRUE(s.blocks.empty());
  EXPECT_EQ(s.one_way.size(), 3u);
  EXPECT_EQ(s.free, (std::vector<int32_t>{2, 5}));
}

TEST(GroupStructureTest, ABlockWithoutAPermutationFallsBackToOneWayRows) {
  // 5 x 5, variable r * 5 + c: rows 0-2 hold columns 0 and 1 only, so
  // columns 2-4 have rows 3 and 4 alone (Hall's condition fails).
  auto v = [](int r, int c) { return r * 5 + c; };
  Groups groups;
  for (int r = 0; r < 5; ++r) {
    groups.emplace_back();
    for (int c = 0; c < (r < 3 ? 2 : 5); ++c) groups.back().push_back(v(r, c));
  }
  for (int c = 0; c < 5; ++c) {
    groups.emplace_back();
    for (int r = c < 2 ? 0 : 3; r < 5; ++r) groups.back().push_back(v(r, c));
  }
  const GroupStructure s = FindGroupStructure(25, groups);
  EXPECT_TRUE(s.blocks.empty());
  EXPECT_EQ(s.one_way.size(), 5u);
  EXPECT_EQ(s.free.size(), 9u);  // rows 0-2's columns 2-4: in no group
}

TEST(GroupStructureTest, GroupsOutOfRangeOrRepeatedAreNotUsed) {
  const GroupStructure s = FindGroupStructure(4, {{0, 1}, {2, 9}, {3, 3}, {2}});
  ASSERT_EQ(s.one_way.size(), 1u);
  EXPECT_EQ(s.one_way[0], (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(s.free, (std::vector<int32_t>{2, 3}));
}

TEST(GroupStructureTest, RandomStartsKeepEveryBlockAndGroup) {
  Groups groups = SudokuGroups(3);
  // A hole: cell 0's first digit reduced away from every group.
  for (std::vector<int32_t>& g : groups) std::erase(g, 0);
  const int n = 9 * 9 * 9 + 4;
  groups.push_back({n - 4, n - 3});  // a group apart: one-way
  const GroupStructure s = FindGroupStructure(n, groups);
  EXPECT_EQ(s.blocks.size(), 9u);
  ASSERT_EQ(s.one_way.size(), 1u);
  // Variable 0 is in no group any more: free, like the two apart.
  EXPECT_EQ(s.free, (std::vector<int32_t>{0, n - 2, n - 1}));
  Xoshiro256 rng(7);
  std::vector<uint8_t> state;
  std::vector<uint8_t> first;
  for (int k = 0; k < 50; ++k) {
    GroupRespectingState(s, n, rng, state);
    ASSERT_TRUE(KeepsGroups(s, state));
    if (k == 0) first = state;
  }
  EXPECT_NE(state, first);  // random, not one fixed permutation
  state[s.blocks[0].at(0, 1)] ^= 1;
  EXPECT_FALSE(KeepsGroups(s, state));
}

}  // namespace
}  // namespace qs
