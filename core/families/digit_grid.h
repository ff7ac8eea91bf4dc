// What the Latin-square families (keen, unequal, towers) share: an n x n
// square of digit one-hots, variable (r * n + c) * n + d - 1 set when cell
// (r, c) holds digit d, its exactly-one groups, decoded into a board; and
// random Latin squares for the generators.
#ifndef QS_CORE_FAMILIES_DIGIT_GRID_H_
#define QS_CORE_FAMILIES_DIGIT_GRID_H_

#include <cstdint>
#include <span>
#include <vector>

#include "core/base/rng.h"
#include "qs/v1/puzzles.pb.h"

namespace qs {

// The character of a decoded cell: its digit, '.' for none, '*' for several
// (or one out of 1..9).
char DigitGridChar(int value);

// The board of an n x n digit square: cells[i] the digit of cell i, 0 when
// none of its variables is set, -1 when several are; rows in DigitGridChar.
v1::PuzzleSolution DecodeDigitGrid(int n, std::span<const uint8_t> bits);

// The square's exactly-one groups: each cell's digits, then per row and
// digit the row's cells and the column's (rows and columns in turn), so a
// digit's row and column groups form a permutation block.
std::vector<std::vector<int32_t>> DigitGridOneHotGroups(int n);

// A random Latin square of order n, digits 1..n row-major: filled cell by
// cell by backtracking, the digits tried in random order, so that every
// Latin square can come out (n up to about 12 fills at once).
std::vector<int> DrawLatinSquare(int n, Xoshiro256& rng);

}  // namespace qs

#endif  // QS_CORE_FAMILIES_DIGIT_GRID_H_
