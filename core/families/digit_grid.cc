// The Latin-square families' digit one-hots: their groups and decoding
// (digit_grid.h).
#include "core/families/digit_grid.h"

#include <string>
#include <utility>

namespace qs {

char DigitGridChar(int value) {
  if (value == 0) return '.';
  if (value < 0 || value > 9) return '*';
  return static_cast<char>('0' + value);
}

v1::PuzzleSolution DecodeDigitGrid(int n, std::span<const uint8_t> bits) {
  v1::PuzzleSolution solution;
  solution.set_height(n);
  solution.set_width(n);
  for (int r = 0; r < n; ++r) {
    std::string row;
    for (int c = 0; c < n; ++c) {
      int value = 0;
      for (int d = 0; d < n; ++d) {
        if (bits[(r * n + c) * n + d]) value = value == 0 ? d + 1 : -1;
      }
      solution.add_cells(value);
      row.push_back(DigitGridChar(value));
    }
    solution.add_rows(row);
  }
  return solution;
}

namespace {

// Fills square[cell..] so that no digit repeats in a row or column.
bool FillLatinSquare(int n, int cell, std::vector<int>& square,
                     Xoshiro256& rng) {
  if (cell == n * n) return true;
  const int r = cell / n, c = cell % n;
  std::vector<int> digits(n);
  for (int d = 0; d < n; ++d) digits[d] = d + 1;
  for (int i = n - 1; i > 0; --i)
    std::swap(digits[i], digits[rng.NextBelow(static_cast<uint64_t>(i) + 1)]);
  for (int d : digits) {
    bool used = false;
    for (int k = 0; k < n && !used; ++k)
      used = (k < c && square[r * n + k] == d) ||
             (k < r && square[k * n + c] == d);
    if (used) continue;
    square[cell] = d;
    if (FillLatinSquare(n, cell + 1, square, rng)) return true;
  }
  square[cell] = 0;
  return false;
}

}  // namespace

std::vector<int> DrawLatinSquare(int n, Xoshiro256& rng) {
  std::vector<int> square(n * n, 0);
  FillLatinSquare(n, 0, square, rng);
  return square;
}

std::vector<std::vector<int32_t>> DigitGridOneHotGroups(int n) {
  auto var = [n](int cell, int d) { return cell * n + d; };
  std::vector<std::vector<int32_t>> groups;
  for (int cell = 0; cell < n * n; ++cell) {
    std::vector<int32_t> digits;
    for (int d = 0; d < n; ++d) digits.push_back(var(cell, d));
    groups.push_back(std::move(digits));
  }
  for (int line = 0; line < n; ++line) {
    for (int d = 0; d < n; ++d) {
      std::vector<int32_t> row, col;
      for (int k = 0; k < n; ++k) {
        row.push_back(var(line * n + k, d));
        col.push_back(var(k * n + line, d));
      }
      groups.push_back(std::move(row));
      groups.push_back(std::move(col));
    }
  }
  return groups;
}

}  // namespace qs
