// The geometry of a Sudoku variant (SudokuShape): its side, its all-different
// groups and its cages, checked once and shared by the compiler, the rules of
// the exact engines, the generator and the drawing.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/families/sudoku/sudoku.h"

namespace qs {

const char* SudokuGroupName(SudokuGroupKind kind) {
  switch (kind) {
    case SudokuGroupKind::kRow:
      return "row";
    case SudokuGroupKind::kColumn:
      return "column";
    case SudokuGroupKind::kBox:
      return "block";
    case SudokuGroupKind::kRegion:
      return "region";
    case SudokuGroupKind::kDiagonal:
      return "diagonal";
  }
  return "group";
}

const char* SudokuShape::SharedUnit(int a, int b) const {
  const int ra = a / side, ca = a % side, rb = b / side, cb = b % side;
  if (ra == rb) return "row";
  if (ca == cb) return "column";
  if (region[a] == region[b]) return jigsaw ? "region" : "block";
  if (diagonals &&
      ((ra == ca && rb == cb) || (ra + ca == side - 1 && rb + cb == side - 1)))
    return "diagonal";
  if (cage_of[a] >= 0 && cage_of[a] == cage_of[b]) return "cage";
  return nullptr;
}

namespace {

absl::Status Invalid(const std::string& message) {
  return absl::InvalidArgumentError(message);
}

}  // namespace

absl::StatusOr<SudokuShape> SudokuShapeOf(const v1::SudokuPuzzle& sudoku) {
  SudokuShape shape;
  const bool rectangular = sudoku.box_rows() != 0 || sudoku.box_cols() != 0;
  if (sudoku.regions_size() > 0) {
    if (rectangular || sudoku.box_size() != 0) {
      return Invalid(
          "sudoku.regions: jigsaw regions replace the boxes; leave box_size, "
          "box_rows and box_cols 0");
    }
    const int n = sudoku.regions_size();
    int side = static_cast<int>(std::lround(std::sqrt(n)));
    if (side * side != n || side < 2 || side > 25) {
      return Invalid(absl::StrCat(
          "sudoku.regions: ", n,
          " entries; expected one per cell of a square grid of side 2..25"));
    }
    shape.side = side;
    shape.box_rows = shape.box_cols = 0;
    shape.jigsaw = true;
    std::map<uint32_t, int> sizes;
    for (uint32_t id : sudoku.regions()) ++sizes[id];
    if (static_cast<int>(sizes.size()) != side) {
      return Invalid(absl::StrCat("sudoku.regions: ", sizes.size(),
                                  " distinct regions; a ", side, "x", side,
                                  " grid needs ", side));
    }
    std::map<uint32_t, int> index;
    for (const auto& [id, size] : sizes) {
      if (size != side) {
        return Invalid(absl::StrCat("sudoku.regions: region ", id, " has ",
                                    size, " cells; each needs ", side));
      }
      const int next = static_cast<int>(index.size());
      index[id] = next;
    }
    for (uint32_t id : sudoku.regions()) shape.region.push_back(index[id]);
  } else {
    if (rectangular) {
      if (sudoku.box_size() != 0) {
        return Invalid(
            "sudoku.box_size: give either box_size or box_rows and box_cols, "
            "not both");
      }
      if (sudoku.box_rows() == 0 || sudoku.box_cols() == 0) {
        return Invalid(absl::StrCat(
            sudoku.box_rows() == 0 ? "sudoku.box_rows" : "sudoku.box_cols",
            ": box_rows and box_cols are set together"));
      }
      if (sudoku.box_rows() > 25 || sudoku.box_cols() > 25 ||
          sudoku.box_rows() * sudoku.box_cols() > 25 ||
          sudoku.box_rows() * sudoku.box_cols() < 2) {
        return Invalid(absl::StrCat("sudoku.box_rows: box_rows x box_cols (",
                                    sudoku.box_rows(), "x", sudoku.box_cols(),
                                    ") must give a side of 2..25"));
      }
      shape.box_rows = static_cast<int>(sudoku.box_rows());
      shape.box_cols = static_cast<int>(sudoku.box_cols());
    } else {
      const int box =
          sudoku.box_size() == 0 ? 3 : static_cast<int>(sudoku.box_size());
      if (box < 2 || box > 5) {
        return Invalid(absl::StrCat(
            "sudoku.box_size: must be 2..5 (4x4 to 25x25 grids), got ",
            sudoku.box_size()));
      }
      shape.box_rows = shape.box_cols = box;
    }
    shape.side = shape.box_rows * shape.box_cols;
    // Boxes are numbered row-major: box_cols boxes per band of box_rows rows.
    const int per_band = shape.side / shape.box_cols;
    for (int cell = 0; cell < shape.cells(); ++cell) {
      const int r = cell / shape.side, c = cell % shape.side;
      shape.region.push_back((r / shape.box_rows) * per_band +
                             c / shape.box_cols);
    }
  }
  const int side = shape.side;
  const int cells = shape.cells();
  if (sudoku.cells_size() != cells) {
    return Invalid(absl::StrCat("sudoku.cells: expected ", cells,
                                " values for a ", side, "x", side,
                                " grid, got ", sudoku.cells_size()));
  }
  shape.diagonals = sudoku.diagonals();

  for (int u = 0; u < side; ++u) {
    SudokuGroup row{SudokuGroupKind::kRow, u, {}};
    SudokuGroup col{SudokuGroupKind::kColumn, u, {}};
    for (int k = 0; k < side; ++k) {
      row.cells.push_back(u * side + k);
      col.cells.push_back(k * side + u);
    }
    shape.groups.push_back(std::move(row));
    shape.groups.push_back(std::move(col));
  }
  const SudokuGroupKind box_kind =
      shape.jigsaw ? SudokuGroupKind::kRegion : SudokuGroupKind::kBox;
  std::vector<SudokuGroup> regions(side);
  for (int u = 0; u < side; ++u) regions[u] = {box_kind, u, {}};
  for (int cell = 0; cell < cells; ++cell)
    regions[shape.region[cell]].cells.push_back(cell);
  for (auto& region : regions) shape.groups.push_back(std::move(region));
  if (shape.diagonals) {
    SudokuGroup main{SudokuGroupKind::kDiagonal, 0, {}};
    SudokuGroup anti{SudokuGroupKind::kDiagonal, 1, {}};
    for (int k = 0; k < side; ++k) {
      main.cells.push_back(k * side + k);
      anti.cells.push_back(k * side + side - 1 - k);
    }
    shape.groups.push_back(std::move(main));
    shape.groups.push_back(std::move(anti));
  }

  shape.cage_of.assign(cells, -1);
  for (int i = 0; i < sudoku.cages_size(); ++i) {
    const v1::SudokuCage& cage = sudoku.cages(i);
    const std::string field = absl::StrCat("sudoku.cages[", i, "]");
    const int k = cage.cells_size();
    if (k == 0) return Invalid(absl::StrCat(field, ".cells: a cage is empty"));
    if (k > side) {
      return Invalid(absl::StrCat(field, ".cells: ", k,
                                  " cells, more than the ", side, " digits"));
    }
    SudokuCage out;
    out.sum = static_cast<int>(std::min<uint32_t>(cage.sum(), 1 << 20));
    for (uint32_t cell : cage.cells()) {
      if (cell >= static_cast<uint32_t>(cells)) {
        return Invalid(absl::StrCat(field, ".cells: cell ", cell,
                                    " out of range 0..", cells - 1));
      }
      const int c = static_cast<int>(cell);
      if (shape.cage_of[c] == i) {
        return Invalid(
            absl::StrCat(field, ".cells: cell ", c, " is listed twice"));
      }
      if (shape.cage_of[c] >= 0) {
        return Invalid(absl::StrCat(field, ".cells: cell ", c,
                                    " is also in sudoku.cages[",
                                    shape.cage_of[c], "]"));
      }
      shape.cage_of[c] = i;
      out.cells.push_back(c);
    }
    const int low = k * (k + 1) / 2, high = k * (2 * side - k + 1) / 2;
    if (out.sum < low || out.sum > high) {
      return Invalid(absl::StrCat(field, ".sum: ", cage.sum(), " for ", k,
                                  " distinct digits of 1..", side,
                                  "; possible sums are ", low, "..", high));
    }
    shape.cages.push_back(std::move(out));
  }

  shape.peers.assign(cells, {});
  std::vector<int> mark(cells, -1);
  for (int cell = 0; cell < cells; ++cell) mark[cell] = -1;
  std::vector<std::vector<int>> groups_of(cells);
  for (int g = 0; g < static_cast<int>(shape.groups.size()); ++g) {
    for (int cell : shape.groups[g].cells) groups_of[cell].push_back(g);
  }
  for (int cell = 0; cell < cells; ++cell) {
    std::vector<int>& peers = shape.peers[cell];
    mark[cell] = cell;
    auto add = [&](int other) {
      if (mark[other] == cell) return;
      mark[other] = cell;
      peers.push_back(other);
    };
    for (int g : groups_of[cell]) {
      for (int other : shape.groups[g].cells) add(other);
    }
    if (shape.cage_of[cell] >= 0) {
      for (int other : shape.cages[shape.cage_of[cell]].cells) add(other);
    }
    std::sort(peers.begin(), peers.end());
  }
  return shape;
}

bool SudokuCageDigits(const SudokuShape& shape, int cage,
                      const v1::SudokuPuzzle& sudoku,
                      std::vector<int>* digits) {
  const SudokuCage& c = shape.cages[cage];
  const int side = shape.side;
  std::vector<bool> given(side + 1, false);
  int open = 0, rest = c.sum;
  for (int cell : c.cells) {
    const int v = static_cast<int>(sudoku.cells(cell));
    if (v == 0) {
      ++open;
    } else {
      given[v] = true;
      rest -= v;
    }
  }
  if (digits != nullptr) digits->clear();
  if (rest < 0) return false;
  std::vector<int> free;
  for (int d = 1; d <= side; ++d) {
    if (!given[d]) free.push_back(d);
  }
  // reach[i][n * (rest + 1) + s]: n of the first i free digits sum to s;
  // back[i][...]: n of the free digits from i on sum to s.
  const int n = static_cast<int>(free.size());
  const int width = rest + 1;
  auto table = [&] {
    return std::vector<std::vector<char>>(
        n + 1, std::vector<char>((open + 1) * width, 0));
  };
  auto reach = table(), back = table();
  reach[0][0] = 1;
  for (int i = 0; i < n; ++i) {
    reach[i + 1] = reach[i];
    for (int m = 0; m < open; ++m) {
      for (int s = 0; s + free[i] <= rest; ++s) {
        if (reach[i][m * width + s])
          reach[i + 1][(m + 1) * width + s + free[i]] = 1;
      }
    }
  }
  back[n][0] = 1;
  for (int i = n - 1; i >= 0; --i) {
    back[i] = back[i + 1];
    for (int m = 0; m < open; ++m) {
      for (int s = 0; s + free[i] <= rest; ++s) {
        if (back[i + 1][m * width + s])
          back[i][(m + 1) * width + s + free[i]] = 1;
      }
    }
  }
  if (!reach[n][open * width + rest]) return false;
  if (digits == nullptr) return true;
  for (int i = 0; i < n; ++i) {
    bool used = false;
    for (int m = 0; m < open && !used; ++m) {
      for (int s = 0; s + free[i] <= rest && !used; ++s) {
        used = reach[i][m * width + s] &&
               back[i + 1][(open - 1 - m) * width + rest - free[i] - s];
      }
    }
    if (used) digits->push_back(free[i]);
  }
  return true;
}

}  // namespace qs
