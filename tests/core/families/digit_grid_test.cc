// The Latin-square families' shared digit grid (core/families/digit_grid.h):
// its exactly-one groups hold exactly the one-hots of a Latin square, and a
// board decodes into digits, '.' and '*'.
#include "core/families/digit_grid.h"

#include <cstdint>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace qs {
namespace {

using ::testing::ElementsAre;

// The cyclic Latin square of order n, digit (r + c) % n + 1 at (r, c).
std::vector<uint8_t> CyclicSquare(int n) {
  std::vector<uint8_t> bits(n * n * n, 0);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) bits[(r * n + c) * n + (r + c) % n] = 1;
  return bits;
}

int SetCount(const std::vector<int32_t>& group,
             const std::vector<uint8_t>& bits) {
  int set = 0;
  for (int32_t v : group) set += bits[v];
  return set;
}

TEST(DigitGridTest, EveryGroupHoldsOneDigitOfALatinSquare) {
  for (int n : {1, 2, 4, 5}) {
    SCOPED_TRACE(n);
    const std::vector<std::vector<int32_t>> groups = DigitGridOneHotGroups(n);
    ASSERT_EQ(groups.size(), 3u * n * n);
    std::vector<int> memberships(n * n * n, 0);
    for (const std::vector<int32_t>& group : groups) {
      EXPECT_EQ(group.size(), static_cast<size_t>(n));
      for (int32_t v : group) ++memberships[v];
    }
    // Each variable is in its cell's group, its row's and its column's.
    for (int count : memberships) EXPECT_EQ(count, 3);
    const std::vector<uint8_t> square = CyclicSquare(n);
    for (const std::vector<int32_t>& group : groups)
      EXPECT_EQ(SetCount(group, square), 1);
  }
}

TEST(DigitGridTest, ABrokenSquareBreaksItsGroups) {
  const int n = 4;
  std::vector<uint8_t> bits = CyclicSquare(n);
  // Cell (0, 0) takes digit 2 as well as 1: its cell group, and digit 2's
  // row 0 and column 0 now hold two.
  bits[1] = 1;
  int broken = 0;
  for (const std::vector<int32_t>& group : DigitGridOneHotGroups(n))
    broken += SetCount(group, bits) != 1;
  EXPECT_EQ(broken, 3);
}

TEST(DigitGridTest, DecodesDigitsEmptyAndClashingCells) {
  std::vector<uint8_t> bits = CyclicSquare(3);
  bits[(0 * 3 + 1) * 3 + 1] = 0;  // (0, 1) loses its digit 2
  bits[(2 * 3 + 2) * 3 + 0] = 1;  // (2, 2) holds 2 and 1
  const v1::PuzzleSolution board = DecodeDigitGrid(3, bits);
  EXPECT_THAT(board.rows(), ElementsAre("1.3", "231", "31*"));
  EXPECT_EQ(board.cells(1), 0);
  EXPECT_EQ(board.cells(8), -1);
}

}  // namespace
}  // namespace qs
