// Lattice detection by the index differences of the couplers, and the strip
// and rectangle index arithmetic.
#include "core/sample/lns/lattice.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <vector>

namespace qs {
namespace {

// Whether coupler i < j is a bond of the rows x cols numbering; records the
// wrapping bonds in `shape`.
bool IsBond(int32_t i, int32_t j, LatticeShape& shape) {
  const int32_t cols = shape.cols, n = shape.rows * shape.cols;
  const int32_t d = j - i;
  if (i / cols == j / cols) {
    if (d == 1) return true;
    if (i % cols == 0 && d == cols - 1) return shape.wrap_cols = true;
    return false;
  }
  if (d == cols) return true;
  if (i < cols && d == n - cols) return shape.wrap_rows = true;
  return false;
}

std::optional<LatticeShape> FitColumns(const Qubo& model, int cols) {
  LatticeShape shape;
  shape.cols = cols;
  shape.rows = model.num_variables() / cols;
  for (int32_t i = 0; i < model.num_variables(); ++i) {
    for (const Neighbor& nb : model.neighbors(i))
      if (nb.j > i && !IsBond(i, nb.j, shape)) return std::nullopt;
  }
  return shape;
}

}  // namespace

std::optional<LatticeShape> DetectLattice(const Qubo& model) {
  const int n = model.num_variables();
  if (n < 9 || model.num_couplers() == 0) return std::nullopt;
  // A lattice's couplers span four index differences at most: 1, cols - 1,
  // cols and n - cols.
  std::set<int32_t> spans;
  for (int32_t i = 0; i < n; ++i) {
    for (const Neighbor& nb : model.neighbors(i)) {
      if (nb.j <= i) continue;
      spans.insert(nb.j - i);
      if (spans.size() > 4) return std::nullopt;
    }
  }
  for (int32_t cols : spans) {
    for (int32_t c : {cols, cols + 1}) {  // a span of cols - 1 wraps a row
      if (c < 3 || n % c != 0 || n / c < 3) continue;
      if (std::optional<LatticeShape> shape = FitColumns(model, c))
        return shape;
    }
  }
  return std::nullopt;
}

std::vector<std::vector<int32_t>> StripWindows(const LatticeShape& shape,
                                               bool transposed, int height,
                                               int offset, Xoshiro256& rng) {
  const int rows = transposed ? shape.cols : shape.rows;
  const int cols = transposed ? shape.rows : shape.cols;
  const bool wrap_cols = transposed ? shape.wrap_rows : shape.wrap_cols;
  auto index = [&](int r, int c) -> int32_t {
    r %= rows;
    c %= cols;
    return transposed ? c * shape.cols + r : r * shape.cols + c;
  };
  const int h = std::max(1, std::min(height, rows - 1));
  std::vector<std::vector<int32_t>> windows;
  for (int first = offset + 1; first < offset + rows; first += h + 1) {
    const int strip = std::min(h, offset + rows - first);
    const int fixed_col =
        wrap_cols ? static_cast<int>(rng.NextBelow(cols)) : -1;
    std::vector<int32_t>& window = windows.emplace_back();
    window.reserve(static_cast<size_t>(strip) * cols);
    // Without a wrap fixed_col is -1 and the walk starts at column 0.
    for (int c = fixed_col + 1; c < fixed_col + cols + (wrap_cols ? 0 : 1);
         ++c) {
      for (int r = first; r < first + strip; ++r) window.push_back(index(r, c));
    }
  }
  return windows;
}

std::vector<int32_t> RandomRectangle(const LatticeShape& shape, int max_side,
                                     Xoshiro256& rng) {
  auto side = [&](int extent) {
    const int most = std::max(2, std::min(max_side, extent));
    return 2 + static_cast<int>(rng.NextBelow(most - 1));
  };
  const int height = side(shape.rows), width = side(shape.cols);
  const int top = static_cast<int>(rng.NextBelow(shape.rows));
  const int left = static_cast<int>(rng.NextBelow(shape.cols));
  std::vector<int32_t> cells;
  for (int r = 0; r < std::min(height, shape.rows); ++r) {
    for (int c = 0; c < std::min(width, shape.cols); ++c) {
      cells.push_back(((top + r) % shape.rows) * shape.cols +
                      (left + c) % shape.cols);
    }
  }
  return cells;
}

}  // namespace qs
