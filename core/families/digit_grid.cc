// Decoding of the Latin-square families' digit one-hots (digit_grid.h).
#include "core/families/digit_grid.h"

#include <string>

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

}  // namespace qs
