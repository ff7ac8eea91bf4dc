// Queens compiler: [Mata Ali & Mencia 2024] §2.1-2.4 (eq. 1-21). The
// model, the reduction stages and the region term left out (eq. 9) are
// described in queens.h.
#include "core/families/queens/queens.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/base/saturating.h"
#include "core/base/status_macros.h"
#include "core/compile/penalties.h"
#include "core/families/queens/queens_binary.h"

namespace qs {
namespace {

// Keeps every index computation in int and the full model within what a request
// can ever be allowed.
constexpr int kMaxSide = 1024;

std::string CellName(int row, int col) {
  return absl::StrCat("(", row + 1, ",", col + 1, ")");
}

enum class UnitKind { kRow, kColumn, kRegion, kExtra };

// One counted unit of eq. 18 (a row, a column, a colour region or an extra
// region), or a pairwise soft region of eq. 21.
struct Unit {
  UnitKind kind = UnitKind::kRow;
  int index = 0;
  // The variables its term sums. Rows and columns run over the whole bounding
  // rectangle (masked cells are variables fixed to 0, as in §2.3); regions hold
  // board cells only.
  std::vector<int> cells;
  int board_cells = 0;
  int count = 1;            // q_u
  bool two_values = false;  // t_u
  bool pairwise = false;    // eq. 21: at most one queen, as pair products
  double weight = 1;
  // Most queens the unit may hold.
  int Capacity() const { return pairwise ? 1 : count + (two_values ? 1 : 0); }
};

std::string UnitName(const Unit& unit) {
  switch (unit.kind) {
    case UnitKind::kRow:
      return absl::StrCat("row ", unit.index + 1);
    case UnitKind::kColumn:
      return absl::StrCat("column ", unit.index + 1);
    case UnitKind::kRegion:
      return absl::StrCat("region ", unit.index);
    case UnitKind::kExtra:
      return absl::StrCat("extra region ", unit.index);
  }
  return "";
}

absl::string_view UnitRule(UnitKind kind) {
  switch (kind) {
    case UnitKind::kRow:
      return "row_count";
    case UnitKind::kColumn:
      return "column_count";
    case UnitKind::kRegion:
      return "region_count";
    case UnitKind::kExtra:
      return "extra_region_count";
  }
  return "";
}

// "1", "1 or 2", "at most 1".
std::string Demand(const Unit& unit) {
  if (unit.pairwise || (unit.two_values && unit.count == 0))
    return absl::StrCat("at most ", unit.Capacity());
  if (unit.two_values) return absl::StrCat(unit.count, " or ", unit.count + 1);
  return absl::StrCat(unit.count);
}

struct Board {
  int rows = 0;
  int cols = 0;
  std::vector<bool> masked;
  // Rows, then columns, then colour regions by id, then extra regions.
  std::vector<Unit> units;
  int first_region = 0;  // index in `units` of colour region 0
  int num_regions = 0;
  v1::QueensRegionRule region_rule = v1::QUEENS_REGIONS_COUNTED;
  bool regions_cover_board = false;
  bool drop_redundant_region_term = false;
  // D''_a for every cell a, sorted.
  std::vector<std::vector<int>> attacks;
  // FULL and ADJACENT diagonals: each attacking pair once (D'_ij of eq. 3 and
  // 7). Otherwise eq. 12: once per cell that reaches the other.
  bool pairs_once = true;
  std::vector<int> givens;

  int cells() const { return rows * cols; }
  std::string Name(int cell) const {
    return CellName(cell / cols, cell % cols);
  }
};

int Mod(int a, int m) { return ((a % m) + m) % m; }

// The diagonal cells within `distance` steps of (row, col) (distance < 0:
// unlimited), following the topology's wrap-around until a line leaves the
// board or comes back to its start.
std::vector<int> DiagonalReach(const Board& board, v1::QueensTopology topology,
                               int row, int col, int64_t distance) {
  const bool wrap_cols = topology != v1::QUEENS_TOPOLOGY_PLANE;
  const bool wrap_rows = topology == v1::QUEENS_TOPOLOGY_TORUS;
  constexpr int kDirections[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
  std::vector<int> reach;
  for (const auto& direction : kDirections) {
    int r = row, c = col;
    for (int64_t step = 1; distance < 0 || step <= distance; ++step) {
      r += direction[0];
      c += direction[1];
      if (wrap_rows) {
        r = Mod(r, board.rows);
      } else if (r < 0 || r >= board.rows) {
        break;
      }
      if (wrap_cols) {
        c = Mod(c, board.cols);
      } else if (c < 0 || c >= board.cols) {
        break;
      }
      if (r == row && c == col) break;
      reach.push_back(r * board.cols + c);
    }
  }
  std::sort(reach.begin(), reach.end());
  reach.erase(std::unique(reach.begin(), reach.end()), reach.end());
  return reach;
}

absl::Status CheckEnum(bool valid, absl::string_view field, int value) {
  if (valid) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat(field, ": unknown value ", value));
}

// Rows or columns with their counts r_i / c_j (eq. 10-11) and t values.
absl::Status AddLineUnits(
    UnitKind kind, const google::protobuf::RepeatedField<uint32_t>& counts,
    const google::protobuf::RepeatedField<bool>& two_values, Board& board) {
  const bool is_row = kind == UnitKind::kRow;
  const int lines = is_row ? board.rows : board.cols;
  const int length = is_row ? board.cols : board.rows;
  const char* counts_field = is_row ? "queens.row_counts" : "queens.col_counts";
  const char* two_field =
      is_row ? "queens.row_two_values" : "queens.col_two_values";
  const char* noun = is_row ? "rows" : "columns";
  if (!counts.empty() && counts.size() != lines) {
    return absl::InvalidArgumentError(absl::StrCat(
        counts_field, ": ", counts.size(), " entries for ", lines, " ", noun));
  }
  if (!two_values.empty() && two_values.size() != lines) {
    return absl::InvalidArgumentError(absl::StrCat(
        two_field, ": ", two_values.size(), " entries for ", lines, " ", noun));
  }
  for (int line = 0; line < lines; ++line) {
    Unit unit;
    unit.kind = kind;
    unit.index = line;
    for (int k = 0; k < length; ++k) {
      const int cell = is_row ? line * board.cols + k : k * board.cols + line;
      unit.cells.push_back(cell);
      if (!board.masked[cell]) ++unit.board_cells;
    }
    unit.two_values = !two_values.empty() && two_values[line];
    if (!counts.empty()) {
      if (counts[line] > static_cast<uint32_t>(unit.board_cells)) {
        return absl::InvalidArgumentError(
            absl::StrCat(counts_field, "[", line, "]: ", counts[line],
                         " queens do not fit in ", UnitName(unit),
                         ", which has ", unit.board_cells, " board cells"));
      }
      unit.count = static_cast<int>(counts[line]);
    } else if (unit.board_cells < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat(counts_field, ": ", UnitName(unit),
                       " has no board cells, so the default count 1 does not "
                       "fit; give the counts"));
    }
    board.units.push_back(std::move(unit));
  }
  return absl::OkStatus();
}

absl::Status AddRegionUnits(const v1::QueensPuzzle& queens, Board& board) {
  const int n = board.cells();
  board.region_rule = queens.region_rule();
  const bool counted = board.region_rule == v1::QUEENS_REGIONS_COUNTED;
  if (queens.regions().empty()) {
    if (!queens.region_counts().empty()) {
      return absl::InvalidArgumentError(
          "queens.region_counts: given without queens.regions");
    }
    if (!queens.region_two_values().empty()) {
      return absl::InvalidArgumentError(
          "queens.region_two_values: given without queens.regions");
    }
    if (!counted) {
      return absl::InvalidArgumentError(absl::StrCat(
          "queens.region_rule: ", v1::QueensRegionRule_Name(board.region_rule),
          " needs queens.regions"));
    }
  } else if (queens.regions_size() != n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "queens.regions: ", queens.regions_size(), " entries do not cover the ",
        board.rows, "x", board.cols, " board (", n, " cells)"));
  }
  if (!counted && !queens.region_counts().empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("queens.region_counts: not used with ",
                     v1::QueensRegionRule_Name(board.region_rule),
                     " (every soft region holds at most one queen)"));
  }
  if (!counted && !queens.region_two_values().empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("queens.region_two_values: not used with ",
                     v1::QueensRegionRule_Name(board.region_rule)));
  }
  double soft_weight = 1;
  if (queens.soft_region_weight() != 0) {
    if (counted) {
      return absl::InvalidArgumentError(
          "queens.soft_region_weight: only used with QUEENS_REGIONS_SOFT or "
          "QUEENS_REGIONS_SOFT_PAIRWISE");
    }
    soft_weight = queens.soft_region_weight();
    if (!std::isfinite(soft_weight) || soft_weight <= 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "queens.soft_region_weight: must be a positive finite number, got ",
          queens.soft_region_weight()));
    }
  }
  if (queens.regions().empty()) return absl::OkStatus();

  const bool counts_given = !queens.region_counts().empty();
  int num_regions = counts_given ? queens.region_counts_size() : 0;
  for (int cell = 0; cell < n; ++cell) {
    if (board.masked[cell]) continue;
    const int id = queens.regions(cell);
    const int upper = counts_given ? num_regions - 1 : n - 1;
    if (id < -1 || id > upper) {
      return absl::InvalidArgumentError(absl::StrCat(
          "queens.regions[", cell, "]: region id ", id, " out of range 0..",
          upper, " (-1 for no region) at cell ", board.Name(cell)));
    }
    if (!counts_given) num_regions = std::max(num_regions, id + 1);
  }
  if (!queens.region_two_values().empty() &&
      queens.region_two_values_size() != num_regions) {
    return absl::InvalidArgumentError(absl::StrCat(
        "queens.region_two_values: ", queens.region_two_values_size(),
        " entries for ", num_regions, " regions"));
  }
  board.num_regions = num_regions;
  board.first_region = static_cast<int>(board.units.size());
  for (int k = 0; k < num_regions; ++k) {
    Unit unit;
    unit.kind = UnitKind::kRegion;
    unit.index = k;
    board.units.push_back(std::move(unit));
  }
  board.regions_cover_board = true;
  for (int cell = 0; cell < n; ++cell) {
    if (board.masked[cell]) continue;
    const int id = queens.regions(cell);
    if (id < 0) {
      board.regions_cover_board = false;
      continue;
    }
    Unit& unit = board.units[board.first_region + id];
    unit.cells.push_back(cell);
    ++unit.board_cells;
  }
  for (int k = 0; k < num_regions; ++k) {
    Unit& unit = board.units[board.first_region + k];
    switch (board.region_rule) {
      case v1::QUEENS_REGIONS_SOFT:
        unit.count = 0;
        unit.two_values = true;
        unit.weight = soft_weight;
        break;
      case v1::QUEENS_REGIONS_SOFT_PAIRWISE:
        unit.count = 0;
        unit.pairwise = true;
        unit.weight = soft_weight;
        break;
      default:
        unit.count =
            counts_given ? static_cast<int>(queens.region_counts(k)) : 1;
        unit.two_values =
            !queens.region_two_values().empty() && queens.region_two_values(k);
        break;
    }
    if (unit.count > unit.board_cells) {
      if (counts_given) {
        return absl::InvalidArgumentError(
            absl::StrCat("queens.region_counts[", k, "]: ", unit.count,
                         " queens do not fit in region ", k, ", which has ",
                         unit.board_cells, " board cells"));
      }
      return absl::InvalidArgumentError(
          absl::StrCat("queens.regions: region ", k,
                       " has no board cells but needs 1 queen (region ids "
                       "must run 0..",
                       num_regions - 1, " without gaps)"));
    }
  }
  return absl::OkStatus();
}

absl::Status AddExtraRegionUnits(const v1::QueensPuzzle& queens, Board& board) {
  const int n = board.cells();
  for (int e = 0; e < queens.extra_regions_size(); ++e) {
    const v1::QueensRegion& region = queens.extra_regions(e);
    Unit unit;
    unit.kind = UnitKind::kExtra;
    unit.index = e;
    std::vector<bool> seen(n, false);
    for (int k = 0; k < region.cells_size(); ++k) {
      const std::string field =
          absl::StrCat("queens.extra_regions[", e, "].cells[", k, "]");
      const uint32_t cell = region.cells(k);
      if (cell >= static_cast<uint32_t>(n)) {
        return absl::InvalidArgumentError(
            absl::StrCat(field, ": cell ", cell, " outside the ", board.rows,
                         "x", board.cols, " board"));
      }
      if (board.masked[cell]) {
        return absl::InvalidArgumentError(
            absl::StrCat(field, ": cell ", board.Name(cell), " is masked"));
      }
      if (seen[cell]) {
        return absl::InvalidArgumentError(
            absl::StrCat(field, ": cell ", board.Name(cell), " listed twice"));
      }
      seen[cell] = true;
      unit.cells.push_back(static_cast<int>(cell));
    }
    unit.board_cells = region.cells_size();
    if (region.count() > static_cast<uint32_t>(unit.board_cells)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "queens.extra_regions[", e, "].count: ", region.count(),
          " queens do not fit in its ", unit.board_cells, " cells"));
    }
    unit.count = static_cast<int>(region.count());
    unit.two_values = region.two_values();
    board.units.push_back(std::move(unit));
  }
  return absl::OkStatus();
}

// Every queen sits in exactly one row and one column (and, when the colour
// regions cover the board, one region), so the totals these families allow must
// overlap.
absl::Status CheckTotals(const v1::QueensPuzzle& queens, const Board& board) {
  struct Total {
    int64_t low = 0;
    int64_t high = 0;
  };
  auto total_of = [&](UnitKind kind) {
    Total total;
    for (const Unit& unit : board.units) {
      if (unit.kind != kind) continue;
      total.low += unit.count;
      total.high += unit.Capacity();
    }
    return total;
  };
  auto text = [](const Total& t) {
    return t.low == t.high ? absl::StrCat(t.low)
                           : absl::StrCat(t.low, " to ", t.high);
  };
  const Total rows = total_of(UnitKind::kRow);
  const Total cols = total_of(UnitKind::kColumn);
  if (rows.high < cols.low || cols.high < rows.low) {
    return absl::InvalidArgumentError(
        absl::StrCat("queens.col_counts: the columns hold ", text(cols),
                     " queens in total, the rows ", text(rows)));
  }
  if (board.num_regions > 0 && board.regions_cover_board &&
      board.region_rule == v1::QUEENS_REGIONS_COUNTED) {
    const Total regions = total_of(UnitKind::kRegion);
    if (rows.high < regions.low || regions.high < rows.low) {
      const char* field = queens.region_counts().empty()
                              ? "queens.regions"
                              : "queens.region_counts";
      return absl::InvalidArgumentError(absl::StrCat(
          field, ": the ", board.num_regions, " regions hold ", text(regions),
          " queens in total, the rows ", text(rows)));
    }
  }
  return absl::OkStatus();
}

// Checks the attack fields and fills board.attacks: every set for
// QUEENS_ATTACK_SETS; the diagonal walks for the cells in `needed` only (every
// cell when null), since a board check needs just its queens'.
absl::Status ComputeAttacks(const v1::QueensPuzzle& queens,
                            const std::vector<bool>* needed, Board& board) {
  const int n = board.cells();
  const v1::QueensAttack attack = queens.attack() == v1::QUEENS_ATTACK_DEFAULT
                                      ? v1::QUEENS_ATTACK_FULL_DIAGONALS
                                      : queens.attack();
  if (attack != v1::QUEENS_ATTACK_DIAGONAL_DISTANCE &&
      !queens.diagonal_distance().empty()) {
    return absl::InvalidArgumentError(
        "queens.diagonal_distance: only used with "
        "QUEENS_ATTACK_DIAGONAL_DISTANCE");
  }
  if (attack != v1::QUEENS_ATTACK_SETS && !queens.attack_sets().empty()) {
    return absl::InvalidArgumentError(
        "queens.attack_sets: only used with QUEENS_ATTACK_SETS");
  }
  board.attacks.assign(n, {});
  board.pairs_once = attack == v1::QUEENS_ATTACK_FULL_DIAGONALS ||
                     attack == v1::QUEENS_ATTACK_ADJACENT_DIAGONALS;
  switch (attack) {
    case v1::QUEENS_ATTACK_NONE:
      return absl::OkStatus();
    case v1::QUEENS_ATTACK_SETS: {
      if (queens.attack_sets_size() != n) {
        return absl::InvalidArgumentError(
            absl::StrCat("queens.attack_sets: ", queens.attack_sets_size(),
                         " sets for ", n, " cells (one per cell)"));
      }
      for (int a = 0; a < n; ++a) {
        std::vector<int>& set = board.attacks[a];
        for (int k = 0; k < queens.attack_sets(a).cells_size(); ++k) {
          const uint32_t b = queens.attack_sets(a).cells(k);
          const std::string field =
              absl::StrCat("queens.attack_sets[", a, "].cells[", k, "]");
          if (b >= static_cast<uint32_t>(n)) {
            return absl::InvalidArgumentError(
                absl::StrCat(field, ": cell ", b, " outside the ", board.rows,
                             "x", board.cols, " board"));
          }
          if (static_cast<int>(b) == a) {
            return absl::InvalidArgumentError(absl::StrCat(
                field, ": cell ", board.Name(a), " cannot attack itself"));
          }
          set.push_back(static_cast<int>(b));
        }
        std::sort(set.begin(), set.end());
        if (std::adjacent_find(set.begin(), set.end()) != set.end()) {
          return absl::InvalidArgumentError(absl::StrCat(
              "queens.attack_sets[", a, "]: a cell is listed twice"));
        }
      }
      return absl::OkStatus();
    }
    case v1::QUEENS_ATTACK_DIAGONAL_DISTANCE:
      if (queens.diagonal_distance_size() != 1 &&
          queens.diagonal_distance_size() != n) {
        return absl::InvalidArgumentError(absl::StrCat(
            "queens.diagonal_distance: ", queens.diagonal_distance_size(),
            " entries; give 1 (every cell) or ", n, " (one per cell)"));
      }
      break;
    default:
      break;
  }
  for (int a = 0; a < n; ++a) {
    if (needed != nullptr && !(*needed)[a]) continue;
    int64_t distance = -1;
    if (attack == v1::QUEENS_ATTACK_ADJACENT_DIAGONALS) distance = 1;
    if (attack == v1::QUEENS_ATTACK_DIAGONAL_DISTANCE) {
      distance = queens.diagonal_distance(
          queens.diagonal_distance_size() == 1 ? 0 : a);
    }
    board.attacks[a] = DiagonalReach(board, queens.topology(), a / board.cols,
                                     a % board.cols, distance);
  }
  return absl::OkStatus();
}

bool Attacks(const Board& board, int a, int b) {
  return std::binary_search(board.attacks[a].begin(), board.attacks[a].end(),
                            b);
}

absl::Status CheckGivens(const v1::QueensPuzzle& queens, Board& board) {
  const int n = board.cells();
  std::vector<bool> given(n, false);
  for (int k = 0; k < queens.given_queens_size(); ++k) {
    const uint32_t cell = queens.given_queens(k);
    const std::string field = absl::StrCat("queens.given_queens[", k, "]");
    if (cell >= static_cast<uint32_t>(n)) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": cell ", cell, " outside the ", board.rows, "x",
                       board.cols, " board"));
    }
    if (board.masked[cell]) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": cell ", board.Name(cell),
                       " is masked, a queen cannot stand there"));
    }
    if (given[cell]) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": cell ", board.Name(cell), " given twice"));
    }
    given[cell] = true;
    board.givens.push_back(static_cast<int>(cell));
  }
  std::sort(board.givens.begin(), board.givens.end());
  for (const Unit& unit : board.units) {
    int placed = 0;
    for (int cell : unit.cells) placed += given[cell] ? 1 : 0;
    if (placed > unit.Capacity()) {
      return absl::InvalidArgumentError(
          absl::StrCat("queens.given_queens: ", placed, " queens in ",
                       UnitName(unit), ", which holds ", Demand(unit)));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckGivenAttacks(const Board& board) {
  for (int a : board.givens) {
    for (int b : board.givens) {
      if (a < b && (Attacks(board, a, b) || Attacks(board, b, a))) {
        return absl::InvalidArgumentError(
            absl::StrCat("queens.given_queens: the queens at ", board.Name(a),
                         " and ", board.Name(b), " attack each other"));
      }
    }
  }
  return absl::OkStatus();
}

// Checks the spec and builds the board. The attack sets of the diagonal rules
// are computed for every cell, or, when `queen_cells` is given, for those cells
// and the given queens only.
absl::StatusOr<Board> CheckSpec(const v1::QueensPuzzle& queens,
                                const std::vector<int>* queen_cells = nullptr) {
  Board board;
  if (queens.rows() < 1 || queens.rows() > static_cast<uint32_t>(kMaxSide)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "queens.rows: must be 1..", kMaxSide, ", got ", queens.rows()));
  }
  if (queens.cols() > static_cast<uint32_t>(kMaxSide)) {
    return absl::InvalidArgumentError(
        absl::StrCat("queens.cols: must be 0 (square) or 1..", kMaxSide,
                     ", got ", queens.cols()));
  }
  board.rows = static_cast<int>(queens.rows());
  board.cols =
      queens.cols() == 0 ? board.rows : static_cast<int>(queens.cols());
  board.drop_redundant_region_term = queens.drop_redundant_region_term();
  RETURN_IF_ERROR(CheckEnum(v1::QueensAttack_IsValid(queens.attack()),
                            "queens.attack", queens.attack()));
  RETURN_IF_ERROR(CheckEnum(v1::QueensTopology_IsValid(queens.topology()),
                            "queens.topology", queens.topology()));
  RETURN_IF_ERROR(CheckEnum(v1::QueensRegionRule_IsValid(queens.region_rule()),
                            "queens.region_rule", queens.region_rule()));
  const int n = board.cells();
  if (!queens.masked().empty() && queens.masked_size() != n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "queens.masked: ", queens.masked_size(), " entries for the ",
        board.rows, "x", board.cols, " board (", n, " cells)"));
  }
  board.masked.assign(n, false);
  for (int cell = 0; cell < queens.masked_size(); ++cell)
    board.masked[cell] = queens.masked(cell);
  RETURN_IF_ERROR(AddLineUnits(UnitKind::kRow, queens.row_counts(),
                               queens.row_two_values(), board));
  RETURN_IF_ERROR(AddLineUnits(UnitKind::kColumn, queens.col_counts(),
                               queens.col_two_values(), board));
  RETURN_IF_ERROR(AddRegionUnits(queens, board));
  RETURN_IF_ERROR(AddExtraRegionUnits(queens, board));
  RETURN_IF_ERROR(CheckTotals(queens, board));
  RETURN_IF_ERROR(CheckGivens(queens, board));
  std::vector<bool> needed;
  if (queen_cells != nullptr) {
    needed.assign(n, false);
    for (int cell : board.givens) needed[cell] = true;
    for (int cell : *queen_cells) {
      if (cell >= 0 && cell < n) needed[cell] = true;
    }
  }
  RETURN_IF_ERROR(ComputeAttacks(
      queens, queen_cells != nullptr ? &needed : nullptr, board));
  RETURN_IF_ERROR(CheckGivenAttacks(board));
  return board;
}

// The colour-region term eq. 9 leaves out, as an index into board.units, or -1.
// It applies, when asked for, if the regions partition the board with exact
// counts whose total the rows (or the columns) already fix: then the queens of
// the last region are exactly what the others leave. The region with the most
// free cells goes, since its term has the most couplers.
int DroppableRegionUnit(const Board& board,
                        const std::vector<int8_t>& assignment) {
  if (!board.drop_redundant_region_term || board.num_regions == 0 ||
      !board.regions_cover_board ||
      board.region_rule != v1::QUEENS_REGIONS_COUNTED) {
    return -1;
  }
  int64_t region_total = 0;
  int64_t row_total = 0, col_total = 0;
  bool rows_exact = true, cols_exact = true;
  for (const Unit& unit : board.units) {
    switch (unit.kind) {
      case UnitKind::kRegion:
        if (unit.two_values) return -1;
        region_total += unit.count;
        break;
      case UnitKind::kRow:
        rows_exact = rows_exact && !unit.two_values;
        row_total += unit.count;
        break;
      case UnitKind::kColumn:
        cols_exact = cols_exact && !unit.two_values;
        col_total += unit.count;
        break;
      case UnitKind::kExtra:
        break;
    }
  }
  if (!(rows_exact && row_total == region_total) &&
      !(cols_exact && col_total == region_total))
    return -1;
  int best = -1, best_free = 0;
  for (int k = 0; k < board.num_regions; ++k) {
    const Unit& unit = board.units[board.first_region + k];
    int free_cells = 0;
    for (int cell : unit.cells) free_cells += assignment[cell] < 0 ? 1 : 0;
    if (free_cells > best_free) {
      best = board.first_region + k;
      best_free = free_cells;
    }
  }
  return best;
}

absl::StatusOr<Qubo> BuildModel(const Board& board, int dropped_unit) {
  const int n = board.cells();
  QuboBuilder builder(n);
  for (int cell = 0; cell < n; ++cell) {
    builder.SetLabel(cell, absl::StrCat("q", board.Name(cell)));
  }
  for (int u = 0; u < static_cast<int>(board.units.size()); ++u) {
    if (u == dropped_unit) continue;
    const Unit& unit = board.units[u];
    const std::vector<int>& cells = unit.cells;
    const double w = unit.weight;
    if (unit.pairwise) {
      // eq. 21 sums over ordered pairs: each unordered pair twice.
      for (size_t a = 0; a < cells.size(); ++a) {
        for (size_t b = a + 1; b < cells.size(); ++b)
          builder.AddQuadratic(cells[a], cells[b], 2 * w);
      }
      continue;
    }
    // w (tau - sum x)^2 with tau = q + t/2.
    const double tau = unit.count + (unit.two_values ? 0.5 : 0.0);
    AddSquaredCount(builder, cells, tau, w);
  }
  for (int a = 0; a < n; ++a) {
    for (int b : board.attacks[a]) {
      if (board.pairs_once && b < a) continue;
      builder.AddQuadratic(a, b, 1.0);
    }
  }
  return std::move(builder).Build();
}

double GroundEnergy(const Board& board, int dropped_unit) {
  double energy = 0;
  for (int u = 0; u < static_cast<int>(board.units.size()); ++u) {
    const Unit& unit = board.units[u];
    if (u != dropped_unit && unit.two_values && !unit.pairwise)
      energy += unit.weight / 4;
  }
  return energy;
}

// One reduction stage. A stage that fixes nothing beyond the previous ones is
// recorded without rebuilding the model: N-queens without givens has three such
// stages, and a large board has millions of terms.
absl::Status ApplyStage(const std::vector<int8_t>& assignment,
                        absl::string_view name, std::vector<int8_t>& applied,
                        CompiledProblem& problem) {
  const int n = problem.full_model.num_variables();
  if (problem.variables.num_full() == n && assignment == applied) {
    problem.stages.push_back(
        {std::string(name), problem.stages.back().variables, 0, 0});
    return absl::OkStatus();
  }
  applied = assignment;
  if (std::all_of(assignment.begin(), assignment.end(),
                  [](int8_t v) { return v < 0; })) {
    problem.model = problem.full_model;
    problem.variables = VariableMap::Identity(n);
    problem.stages.push_back({std::string(name), n, 0, 0});
    return absl::OkStatus();
  }
  return ReduceByAssignment(assignment, name, problem);
}

class QueensCompiler final : public PuzzleCompiler {
 public:
  absl::string_view kind() const override { return "queens"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kQueens;
  }

  int64_t ModelVariables(const v1::PuzzleSpec& spec) const override {
    const int64_t rows = spec.queens().rows();
    const int64_t cols =
        spec.queens().cols() == 0 ? rows : spec.queens().cols();
    return SaturatingMul(rows, cols);
  }

  // Every pair of open cells of a row, and of a column, shares a count term
  // (eq. 1-2 and their generalizations), whatever else the spec adds.
  int64_t ModelCouplersAtLeast(const v1::PuzzleSpec& spec) const override {
    const v1::QueensPuzzle& q = spec.queens();
    const int64_t rows = q.rows();
    const int64_t cols = q.cols() == 0 ? rows : q.cols();
    if (rows <= 0 || cols <= 0 || rows > (1 << 20) || cols > (1 << 20))
      return 0;
    auto pairs = [](int64_t k) { return k * (k - 1) / 2; };
    if (q.masked_size() != rows * cols)
      return SaturatingAdd(SaturatingMul(rows, pairs(cols)),
                           SaturatingMul(cols, pairs(rows)));
    std::vector<int64_t> open_in_col(cols, 0);
    int64_t total = 0;
    for (int64_t r = 0; r < rows; ++r) {
      int64_t open_in_row = 0;
      for (int64_t c = 0; c < cols; ++c) {
        if (q.masked(static_cast<int>(r * cols + c))) continue;
        ++open_in_row;
        ++open_in_col[c];
      }
      total = SaturatingAdd(total, pairs(open_in_row));
    }
    for (int64_t open : open_in_col) total = SaturatingAdd(total, pairs(open));
    return total;
  }

  absl::StatusOr<CompiledProblem> Compile(
      const v1::PuzzleSpec& spec,
      const v1::CompileOptions& options) const override {
    if (options.encoding() == v1::ENCODING_BINARY)
      return CompileQueensBinary(spec.queens());
    ASSIGN_OR_RETURN(const Board board, CheckSpec(spec.queens()));
    ASSIGN_OR_RETURN(CompiledProblem problem, CompileModel(board, options));
    // Units of exactly one queen: the swap moves of the samplers keep them.
    std::vector<std::vector<int32_t>> groups;
    for (const Unit& unit : board.units) {
      if (unit.count == 1 && !unit.two_values && !unit.pairwise)
        groups.emplace_back(unit.cells.begin(), unit.cells.end());
    }
    problem.one_hot_groups = ReducedOneHotGroups(problem.variables, groups);
    return problem;
  }

  absl::StatusOr<CompiledProblem> CompileModel(
      const Board& board, const v1::CompileOptions& options) const {
    const int n = board.cells();
    const v1::Reduction reduction = options.reduction() == v1::REDUCTION_DEFAULT
                                        ? v1::REDUCTION_FULL
                                        : options.reduction();

    std::vector<int8_t> mask_stage(n, -1);
    for (int cell = 0; cell < n; ++cell) {
      if (board.masked[cell]) mask_stage[cell] = 0;
    }
    std::vector<int8_t> givens_stage = mask_stage;
    for (int cell : board.givens) givens_stage[cell] = 1;
    std::vector<int8_t> implied_stage = givens_stage;
    for (const Unit& unit : board.units) {
      int placed = 0;
      for (int cell : unit.cells) placed += givens_stage[cell] == 1 ? 1 : 0;
      if (placed < unit.Capacity()) continue;
      for (int cell : unit.cells) {
        if (implied_stage[cell] != 1) implied_stage[cell] = 0;
      }
    }
    for (int g : board.givens) {
      for (int cell : board.attacks[g]) implied_stage[cell] = 0;
      for (int cell = 0; cell < n; ++cell) {
        if (Attacks(board, cell, g)) implied_stage[cell] = 0;
      }
    }

    const int dropped = reduction == v1::REDUCTION_FULL
                            ? DroppableRegionUnit(board, implied_stage)
                            : -1;
    CompiledProblem problem;
    problem.kind = std::string(kind());
    problem.height = board.rows;
    problem.width = board.cols;
    ASSIGN_OR_RETURN(problem.full_model, BuildModel(board, dropped));
    problem.ground_energy = GroundEnergy(board, dropped);
    problem.stages.push_back({"model", n, 0, 0});
    std::vector<int8_t> applied(n, -1);
    RETURN_IF_ERROR(ApplyStage(mask_stage, "mask", applied, problem));
    if (reduction == v1::REDUCTION_NONE) return problem;
    RETURN_IF_ERROR(ApplyStage(givens_stage, "givens", applied, problem));
    if (reduction == v1::REDUCTION_CLUES) return problem;
    RETURN_IF_ERROR(ApplyStage(implied_stage, "implied", applied, problem));
    return problem;
  }

  v1::PuzzleSolution Decode(const v1::PuzzleSpec& spec,
                            const CompiledProblem& problem,
                            std::span<const uint8_t> bits) const override {
    const int rows = problem.height, cols = problem.width;
    if (problem.higher_order) {
      const std::vector<uint8_t> cells = QueensBinaryToCells(bits, rows, cols);
      return DecodeCells(spec, rows, cols, cells);
    }
    return DecodeCells(spec, rows, cols, bits);
  }

  static v1::PuzzleSolution DecodeCells(const v1::PuzzleSpec& spec, int rows,
                                        int cols,
                                        std::span<const uint8_t> bits) {
    const auto& masked = spec.queens().masked();
    v1::PuzzleSolution solution;
    solution.set_height(rows);
    solution.set_width(cols);
    for (int r = 0; r < rows; ++r) {
      std::string line;
      for (int c = 0; c < cols; ++c) {
        const int cell = r * cols + c;
        const bool queen =
            cell < static_cast<int>(bits.size()) && bits[cell] != 0;
        const bool off_board = masked.size() == rows * cols && masked[cell];
        solution.add_cells(queen ? 1 : 0);
        line.push_back(queen ? 'Q' : (off_board ? '#' : '.'));
      }
      solution.add_rows(line);
    }
    return solution;
  }

  absl::StatusOr<v1::ValidationReport> Validate(
      const v1::PuzzleSpec& spec,
      const v1::PuzzleSolution& solution) const override {
    const std::vector<int> queens_on_board = QueensOn(solution);
    ASSIGN_OR_RETURN(const Board board,
                     CheckSpec(spec.queens(), &queens_on_board));
    return ValidateOnBoard(board, solution, queens_on_board);
  }

  // Boards of up to kMaxKeptBoardCells cells keep their parsed spec (with
  // every cell's attacks) with the problem.
  absl::StatusOr<v1::ValidationReport> ValidateDecoded(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::PuzzleSolution& solution) const override {
    if (ModelVariables(spec) > kMaxKeptBoardCells)
      return Validate(spec, solution);
    ASSIGN_OR_RETURN(const std::shared_ptr<const Board> board,
                     problem.derived.GetOrTryMake<Board>("queens/board", [&] {
                       return CheckSpec(spec.queens());
                     }));
    return ValidateOnBoard(*board, solution, QueensOn(solution));
  }

 private:
  static constexpr int64_t kMaxKeptBoardCells = 1024;

  static std::vector<int> QueensOn(const v1::PuzzleSolution& solution) {
    std::vector<int> queens_on_board;
    for (int cell = 0; cell < solution.cells_size(); ++cell) {
      if (solution.cells(cell) == 1) queens_on_board.push_back(cell);
    }
    return queens_on_board;
  }

  // The rules on a parsed board whose attacks cover at least the queens'
  // cells.
  static absl::StatusOr<v1::ValidationReport> ValidateOnBoard(
      const Board& board, const v1::PuzzleSolution& solution,
      const std::vector<int>& queens_on_board) {
    RETURN_IF_ERROR(CheckBoard(board, solution));
    const int n = board.cells();
    auto queen = [&](int cell) { return solution.cells(cell) == 1; };
    v1::ValidationReport report;
    for (int cell = 0; cell < n; ++cell) {
      if (board.masked[cell] && queen(cell)) {
        *report.add_violations() = MakeViolation(
            "masked_cell", absl::StrCat("cell ", board.Name(cell)),
            "a queen stands on a cell that is not on the board");
      }
    }
    for (int cell : board.givens) {
      if (!queen(cell)) {
        *report.add_violations() = MakeViolation(
            "given_queen_missing", absl::StrCat("cell ", board.Name(cell)),
            "the pre-placed queen is not on the board");
      }
    }
    for (const Unit& unit : board.units) {
      int placed = 0;
      for (int cell : unit.cells)
        placed += !board.masked[cell] && queen(cell) ? 1 : 0;
      if (placed >= unit.count && placed <= unit.Capacity()) continue;
      *report.add_violations() =
          MakeViolation(UnitRule(unit.kind), UnitName(unit),
                        absl::StrCat(UnitName(unit), " has ", placed,
                                     " queens, needs ", Demand(unit)));
    }
    for (size_t i = 0; i < queens_on_board.size(); ++i) {
      const int a = queens_on_board[i];
      if (board.masked[a]) continue;
      for (size_t j = i + 1; j < queens_on_board.size(); ++j) {
        const int b = queens_on_board[j];
        if (board.masked[b]) continue;
        if (!Attacks(board, a, b) && !Attacks(board, b, a)) continue;
        *report.add_violations() = MakeViolation(
            "attack",
            absl::StrCat("cells ", board.Name(a), " and ", board.Name(b)),
            absl::StrCat("the queens at ", board.Name(a), " and ",
                         board.Name(b), " attack each other"));
      }
    }
    report.set_valid(report.violations_size() == 0);
    return report;
  }

 public:
  absl::StatusOr<std::vector<uint8_t>> Encode(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::PuzzleSolution& solution) const override {
    const int n = problem.height * problem.width;
    if (solution.cells_size() != n) {
      return absl::InvalidArgumentError(absl::StrCat(
          "solution.cells: expected ", n, " values for the ", problem.height,
          "x", problem.width, " board, got ", solution.cells_size()));
    }
    std::vector<uint8_t> bits(n, 0);
    for (int cell = 0; cell < n; ++cell) {
      const int v = solution.cells(cell);
      if (v != 0 && v != 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("solution.cells[", cell, "]: value ", v,
                         " cannot be encoded (0 or 1)"));
      }
      bits[cell] = static_cast<uint8_t>(v);
    }
    if (problem.higher_order)
      return QueensCellsToBinary(bits, problem.height, problem.width);
    return bits;
  }

 private:
  static absl::Status CheckBoard(const Board& board,
                                 const v1::PuzzleSolution& solution) {
    const int n = board.cells();
    if (solution.cells_size() != n) {
      return absl::InvalidArgumentError(absl::StrCat(
          "solution.cells: expected ", n, " values for the ", board.rows, "x",
          board.cols, " board, got ", solution.cells_size()));
    }
    for (int cell = 0; cell < n; ++cell) {
      const int v = solution.cells(cell);
      if (v != 0 && v != 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("solution.cells[", cell, "]: value ", v, " at cell ",
                         board.Name(cell), " is not 0 or 1"));
      }
    }
    return absl::OkStatus();
  }
};

}  // namespace

absl::StatusOr<std::vector<std::vector<int>>> QueensAttackSets(
    const v1::QueensPuzzle& queens) {
  ASSIGN_OR_RETURN(Board board, CheckSpec(queens));
  return std::move(board.attacks);
}

absl::StatusOr<QueensRules> QueensRulesOf(const v1::QueensPuzzle& queens) {
  ASSIGN_OR_RETURN(Board board, CheckSpec(queens));
  QueensRules rules;
  rules.rows = board.rows;
  rules.cols = board.cols;
  rules.masked = board.masked;
  rules.topology = queens.topology();
  for (const Unit& unit : board.units) {
    QueensRules::Count count;
    for (int cell : unit.cells) {
      if (!board.masked[cell]) count.cells.push_back(cell);
    }
    count.min = unit.pairwise ? 0 : unit.count;
    count.max = unit.Capacity();
    rules.counts.push_back(std::move(count));
  }
  rules.givens = board.givens;
  rules.full_diagonals = queens.attack() == v1::QUEENS_ATTACK_DEFAULT ||
                         queens.attack() == v1::QUEENS_ATTACK_FULL_DIAGONALS;
  rules.attacks = std::move(board.attacks);
  return rules;
}

std::unique_ptr<PuzzleCompiler> NewQueensCompiler() {
  return std::make_unique<QueensCompiler>();
}

}  // namespace qs
