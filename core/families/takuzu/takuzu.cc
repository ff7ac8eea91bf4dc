// Takuzu / Tango compiler: [Mata Ali & Mencia 2025] §2 (rules, eq. 1-10), §3
// (variable reduction, eq. 11-23) and §4 (eq. 24-28); [Mata Ali & Mencia 2024]
// §3.3 (eq. 51-55, toroidal and cylindrical boards, long-distance signs,
// equality regions).
#include "core/families/takuzu/takuzu.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "core/base/saturating.h"
#include "core/base/status_macros.h"
#include "core/compile/penalties.h"

namespace qs {
namespace {

using v1::TakuzuPuzzle;

// Far above any server limit; keeps cell indices and quadratic term counts
// inside int.
constexpr int64_t kMaxCells = int64_t{1} << 22;
// A row of M cells alone brings M(M - 1)/2 couplers, so the model grows faster
// than the cell count that the caller's variable limit sees; this caps the
// terms built before that limit can act.
constexpr int64_t kMaxQuadraticTerms = int64_t{1} << 25;

// x_a == x_b (parity 0) or x_a != x_b (parity 1): one '=' / 'x' sign, one link
// of an equality-region chain or one different-regions pair.
struct Relation {
  int a = 0;
  int b = 0;
  uint8_t parity = 0;
  std::string origin;  // the spec field it comes from, e.g. "takuzu.signs[3]"
};

// Three cells that must not all hold the same value (eq. 3-4, 53-54).
struct Triple {
  std::array<int, 3> cells;
  // "row_repetition", "column_repetition" or "diagonal_repetition".
  const char* rule;
  const char* line;  // "row", "column", "diagonal"
};

// A set of cells that must hold exactly `target` ones: a row (eq. 13/24), a
// column (eq. 14/25) or a count region (eq. 28).
struct Count {
  std::vector<int> cells;
  int target = 0;
  std::string name;  // "row 3", "column 2", "region 1"
  const char* rule;  // "row_count", "column_count", "region_count"
};

struct Board {
  int rows = 0;
  int cols = 0;
  bool wrap_rows = false;      // left and right edges joined
  bool wrap_cols = false;      // top and bottom edges joined
  std::vector<int8_t> givens;  // -1 blank, else 0 / 1
  std::vector<Relation> relations;
  std::vector<Triple> triples;
  std::vector<Count> counts;
  bool unique_lines = false;

  int size() const { return rows * cols; }
  std::string CellName(int cell) const {
    return absl::StrCat("(", cell / cols + 1, ",", cell % cols + 1, ")");
  }
};

std::string CellList(const Board& b, const std::vector<int>& cells) {
  std::vector<std::string> names;
  for (int c : cells) names.push_back(b.CellName(c));
  return absl::StrJoin(names, " ");
}

absl::StatusOr<int> CheckCell(const v1::TakuzuCellRef& ref,
                              absl::string_view field, int rows, int cols) {
  if (ref.row() >= static_cast<uint32_t>(rows) ||
      ref.col() >= static_cast<uint32_t>(cols)) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": cell (row ", ref.row(), ", col ", ref.col(),
                     ") outside the ", rows, "x", cols, " board (0-based)"));
  }
  return static_cast<int>(ref.row()) * cols + static_cast<int>(ref.col());
}

// Distinct cells of a region, at least one.
absl::StatusOr<std::vector<int>> CheckCells(
    const google::protobuf::RepeatedPtrField<v1::TakuzuCellRef>& refs,
    absl::string_view field, int rows, int cols) {
  if (refs.empty())
    return absl::InvalidArgumentError(absl::StrCat(field, ": no cells"));
  std::vector<int> cells;
  std::vector<bool> seen(static_cast<size_t>(rows) * cols, false);
  for (int k = 0; k < refs.size(); ++k) {
    ASSIGN_OR_RETURN(
        const int cell,
        CheckCell(refs[k], absl::StrCat(field, ".cells[", k, "]"), rows, cols));
    if (seen[cell]) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".cells[", k, "]: cell (", cell / cols + 1, ",",
                       cell % cols + 1, ") listed twice"));
    }
    seen[cell] = true;
    cells.push_back(cell);
  }
  return cells;
}

// Every triple of cells one step (dr, dc) apart, wrapping across joined edges.
void AddTriples(Board& b, int dr, int dc, const char* rule, const char* line) {
  for (int r = 0; r < b.rows; ++r) {
    for (int c = 0; c < b.cols; ++c) {
      Triple t{{0, 0, 0}, rule, line};
      bool inside = true;
      for (int k = 0; k < 3 && inside; ++k) {
        int rr = r + k * dr, cc = c + k * dc;
        if (rr < 0 || rr >= b.rows) {
          if (!b.wrap_cols) inside = false;
          rr = ((rr % b.rows) + b.rows) % b.rows;
        }
        if (cc < 0 || cc >= b.cols) {
          if (!b.wrap_rows) inside = false;
          cc = ((cc % b.cols) + b.cols) % b.cols;
        }
        t.cells[k] = rr * b.cols + cc;
      }
      if (inside) b.triples.push_back(t);
    }
  }
}

absl::StatusOr<std::vector<int>> LineTargets(
    const google::protobuf::RepeatedField<uint32_t>& given,
    absl::string_view field, const char* what, int lines, int length) {
  std::vector<int> targets;
  if (given.empty()) {
    if (length % 2 != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": ", what, "s of odd length ", length,
                       " cannot hold as many ones as zeros; give their ",
                       "counts explicitly"));
    }
    targets.assign(lines, length / 2);
    return targets;
  }
  if (given.size() != lines) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": expected 0 or ", lines, " values (one per ",
                     what, "), got ", given.size()));
  }
  for (int k = 0; k < lines; ++k) {
    if (given[k] > static_cast<uint32_t>(length)) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, "[", k, "]: ", given[k], " ones in a ", what,
                       " of ", length, " cells"));
    }
    targets.push_back(static_cast<int>(given[k]));
  }
  return targets;
}

absl::StatusOr<Board> CheckSpec(const TakuzuPuzzle& t) {
  Board b;
  if (t.rows() == 0 || t.cols() == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "takuzu.rows, takuzu.cols: the board must be at least 1x1, got ",
        t.rows(), "x", t.cols()));
  }
  if (static_cast<int64_t>(t.rows()) * t.cols() > kMaxCells) {
    return absl::InvalidArgumentError(
        absl::StrCat("takuzu.rows, takuzu.cols: ", t.rows(), "x", t.cols(),
                     " is more than ", kMaxCells, " cells"));
  }
  b.rows = static_cast<int>(t.rows());
  b.cols = static_cast<int>(t.cols());
  const int n = b.size();
  switch (t.topology()) {
    case TakuzuPuzzle::PLANE:
      break;
    case TakuzuPuzzle::CYLINDER:
      b.wrap_rows = true;
      break;
    case TakuzuPuzzle::TORUS:
      b.wrap_rows = b.wrap_cols = true;
      break;
    case TakuzuPuzzle::CYLINDER_VERTICAL:
      b.wrap_cols = true;
      break;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("takuzu.topology: unknown value ", t.topology()));
  }
  // A wrapped line shorter than 3 would make a triple hold one cell twice.
  if (b.wrap_rows && b.cols < 3) {
    return absl::InvalidArgumentError(absl::StrCat(
        "takuzu.topology: ", TakuzuPuzzle::Topology_Name(t.topology()),
        " wraps rows around, which needs at least 3 columns, got ", b.cols));
  }
  if (b.wrap_cols && b.rows < 3) {
    return absl::InvalidArgumentError(absl::StrCat(
        "takuzu.topology: ", TakuzuPuzzle::Topology_Name(t.topology()),
        " wraps columns around, which needs at least 3 rows, got ", b.rows));
  }

  b.givens.assign(n, -1);
  if (!t.cells().empty()) {
    if (t.cells_size() != n) {
      return absl::InvalidArgumentError(
          absl::StrCat("takuzu.cells: expected 0 or ", n, " values for a ",
                       b.rows, "x", b.cols, " board, got ", t.cells_size()));
    }
    for (int k = 0; k < n; ++k) {
      switch (t.cells(k)) {
        case TakuzuPuzzle::BLANK:
          break;
        case TakuzuPuzzle::ZERO:
          b.givens[k] = 0;
          break;
        case TakuzuPuzzle::ONE:
          b.givens[k] = 1;
          break;
        default:
          return absl::InvalidArgumentError(
              absl::StrCat("takuzu.cells[", k, "]: unknown value ", t.cells(k),
                           " at cell ", b.CellName(k)));
      }
    }
  }

  ASSIGN_OR_RETURN(
      const std::vector<int> row_targets,
      LineTargets(t.row_ones(), "takuzu.row_ones", "row", b.rows, b.cols));
  ASSIGN_OR_RETURN(
      const std::vector<int> col_targets,
      LineTargets(t.col_ones(), "takuzu.col_ones", "column", b.cols, b.rows));
  const int64_t row_total =
      std::accumulate(row_targets.begin(), row_targets.end(), int64_t{0});
  const int64_t col_total =
      std::accumulate(col_targets.begin(), col_targets.end(), int64_t{0});
  if (row_total != col_total) {
    return absl::InvalidArgumentError(absl::StrCat(
        "takuzu.row_ones, takuzu.col_ones: the rows hold ", row_total,
        " ones in all but the columns ", col_total, "; no board has both"));
  }
  for (int r = 0; r < b.rows; ++r) {
    Count count{{}, row_targets[r], absl::StrCat("row ", r + 1), "row_count"};
    for (int c = 0; c < b.cols; ++c) count.cells.push_back(r * b.cols + c);
    b.counts.push_back(std::move(count));
  }
  for (int c = 0; c < b.cols; ++c) {
    Count count{
        {}, col_targets[c], absl::StrCat("column ", c + 1), "column_count"};
    for (int r = 0; r < b.rows; ++r) count.cells.push_back(r * b.cols + c);
    b.counts.push_back(std::move(count));
  }
  for (int k = 0; k < t.regions_size(); ++k) {
    const std::string field = absl::StrCat("takuzu.regions[", k, "]");
    ASSIGN_OR_RETURN(std::vector<int> cells,
                     CheckCells(t.regions(k).cells(), field, b.rows, b.cols));
    if (t.regions(k).ones() > cells.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".ones: ", t.regions(k).ones(),
                       " ones in a region of ", cells.size(), " cells"));
    }
    b.counts.push_back({std::move(cells), static_cast<int>(t.regions(k).ones()),
                        absl::StrCat("region ", k + 1), "region_count"});
  }

  for (int k = 0; k < t.signs_size(); ++k) {
    const v1::TakuzuSign& sign = t.signs(k);
    const std::string field = absl::StrCat("takuzu.signs[", k, "]");
    ASSIGN_OR_RETURN(const int a, CheckCell(sign.a(), absl::StrCat(field, ".a"),
                                            b.rows, b.cols));
    ASSIGN_OR_RETURN(const int c, CheckCell(sign.b(), absl::StrCat(field, ".b"),
                                            b.rows, b.cols));
    if (a == c) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": both ends are cell ", b.CellName(a)));
    }
    if (sign.kind() != v1::TakuzuSign::EQUAL &&
        sign.kind() != v1::TakuzuSign::DIFFERENT) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".kind: must be EQUAL or DIFFERENT, got ",
                       static_cast<int>(sign.kind())));
    }
    b.relations.push_back(
        {a, c, static_cast<uint8_t>(sign.kind() == v1::TakuzuSign::DIFFERENT),
         field});
  }
  std::vector<std::vector<int>> equality_regions;
  for (int k = 0; k < t.equality_regions_size(); ++k) {
    const std::string field = absl::StrCat("takuzu.equality_regions[", k, "]");
    ASSIGN_OR_RETURN(
        std::vector<int> cells,
        CheckCells(t.equality_regions(k).cells(), field, b.rows, b.cols));
    for (size_t i = 1; i < cells.size(); ++i)
      b.relations.push_back({cells[i - 1], cells[i], 0, field});
    equality_regions.push_back(std::move(cells));
  }
  for (int k = 0; k < t.different_regions_size(); ++k) {
    const v1::TakuzuRegionPair& pair = t.different_regions(k);
    const std::string field = absl::StrCat("takuzu.different_regions[", k, "]");
    const uint32_t count = static_cast<uint32_t>(equality_regions.size());
    if (pair.first() >= count || pair.second() >= count) {
      return absl::InvalidArgumentError(absl::StrCat(
          field, ": regions ", pair.first(), " and ", pair.second(),
          ", but there are ", count, " equality regions"));
    }
    if (pair.first() == pair.second()) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": equality region ", pair.first(),
                       " cannot differ from itself"));
    }
    b.relations.push_back({equality_regions[pair.first()][0],
                           equality_regions[pair.second()][0], 1, field});
  }

  AddTriples(b, 0, 1, "row_repetition", "row");
  AddTriples(b, 1, 0, "column_repetition", "column");
  if (t.diagonal()) {
    AddTriples(b, 1, 1, "diagonal_repetition", "diagonal");
    AddTriples(b, 1, -1, "diagonal_repetition", "diagonal");
  }
  b.unique_lines = t.unique_lines();
  return b;
}

absl::StatusOr<Qubo> BuildFullModel(const Board& b) {
  int64_t terms = 3 * static_cast<int64_t>(b.triples.size()) +
                  static_cast<int64_t>(b.relations.size());
  for (const Count& c : b.counts)
    terms += static_cast<int64_t>(c.cells.size()) * (c.cells.size() - 1) / 2;
  if (terms > kMaxQuadraticTerms) {
    return absl::ResourceExhaustedError(
        absl::StrCat("takuzu: a ", b.rows, "x", b.cols, " board with ",
                     b.counts.size() - b.rows - b.cols, " regions has ", terms,
                     " quadratic terms, more than ", kMaxQuadraticTerms));
  }
  QuboBuilder builder(b.size());
  for (int v = 0; v < b.size(); ++v)
    builder.SetLabel(v, absl::StrCat("r", v / b.cols + 1, "c", v % b.cols + 1));
  for (const Triple& t : b.triples)
    AddSquaredCount(builder, std::span<const int>(t.cells.data(), 3), 1.5);
  for (const Count& c : b.counts) AddSquaredCount(builder, c.cells, c.target);
  for (const Relation& r : b.relations) {
    if (r.parity == 0) {  // x(1 - y) + (1 - x)y = x + y - 2xy   (eq. 15-16)
      builder.AddLinear(r.a, 1);
      builder.AddLinear(r.b, 1);
      builder.AddQuadratic(r.a, r.b, -2);
    } else {  // xy + (1 - x)(1 - y) = 1 - x - y + 2xy   (eq. 17-18)
      builder.AddOffset(1);
      builder.AddLinear(r.a, -1);
      builder.AddLinear(r.b, -1);
      builder.AddQuadratic(r.a, r.b, 2);
    }
  }
  return std::move(builder).Build();
}

// The reduction of [Mata Ali & Mencia 2025] §3: fixing by givens, signs,
// completed lines and pairs to a fixed point, then substitution of the sign
// chains.
class Reducer {
 public:
  explicit Reducer(const Board& b)
      : b_(b),
        value_(b.size(), -1),
        why_(b.size()),
        parent_(b.size()),
        parity_(b.size(), 0) {
    std::iota(parent_.begin(), parent_.end(), 0);
  }

  // Joins the cells of every relation; an odd cycle of signs is a
  // contradiction.
  absl::Status LinkSigns() {
    for (const Relation& r : b_.relations) {
      const auto [root_a, parity_a] = Find(r.a);
      const auto [root_b, parity_b] = Find(r.b);
      if (root_a == root_b) {
        if ((parity_a ^ parity_b) != r.parity) {
          return absl::InvalidArgumentError(absl::StrCat(
              r.origin, ": cells ", b_.CellName(r.a), " and ", b_.CellName(r.b),
              " must be ", r.parity ? "different" : "equal",
              ", but the other signs already make them ",
              r.parity ? "equal" : "different"));
        }
        continue;
      }
      parent_[root_b] = root_a;
      parity_[root_b] = static_cast<uint8_t>(parity_a ^ parity_b ^ r.parity);
    }
    return absl::OkStatus();
  }

  void FixGivens() {
    for (int c = 0; c < b_.size(); ++c) {
      if (b_.givens[c] >= 0) Fix(c, b_.givens[c], {Why::kGiven, -1});
    }
  }

  // Every cell tied by signs to a fixed cell takes the value the signs give it.
  absl::Status PropagateSigns() {
    std::vector<int> source(b_.size(),
                            -1);  // per root: the first fixed cell of its class
    for (int c = 0; c < b_.size(); ++c) {
      if (value_[c] < 0) continue;
      const auto [root, parity] = Find(c);
      if (source[root] < 0) {
        source[root] = c;
        continue;
      }
      const int s = source[root];
      const uint8_t relative = parity ^ Find(s).second;
      if ((value_[c] ^ value_[s]) != relative) {
        return absl::InvalidArgumentError(absl::StrCat(
            "takuzu: the signs between cells ", b_.CellName(s), " and ",
            b_.CellName(c), " make them ", relative ? "different" : "equal",
            ", but ", b_.CellName(s), " holds ", int{value_[s]}, " (",
            Describe(s), ") and ", b_.CellName(c), " holds ", int{value_[c]},
            " (", Describe(c), ")"));
      }
    }
    for (int c = 0; c < b_.size(); ++c) {
      if (value_[c] >= 0) continue;
      const auto [root, parity] = Find(c);
      const int s = source[root];
      if (s < 0) continue;
      Fix(c, static_cast<int8_t>(value_[s] ^ Find(s).second ^ parity),
          {Why::kSign, s});
    }
    return absl::OkStatus();
  }

  // A row, column or count region with all its ones (zeros) placed gets zeros
  // (ones) elsewhere.
  absl::Status CompleteLines() {
    for (size_t k = 0; k < b_.counts.size(); ++k) {
      const Count& count = b_.counts[k];
      std::vector<int> ones, zeros;
      for (int c : count.cells) {
        if (value_[c] == 1) ones.push_back(c);
        if (value_[c] == 0) zeros.push_back(c);
      }
      const int want_zeros =
          static_cast<int>(count.cells.size()) - count.target;
      if (static_cast<int>(ones.size()) > count.target ||
          static_cast<int>(zeros.size()) > want_zeros) {
        const bool too_many_ones = static_cast<int>(ones.size()) > count.target;
        const std::vector<int>& cells = too_many_ones ? ones : zeros;
        return absl::InvalidArgumentError(
            absl::StrCat("takuzu: ", count.name, " must hold ",
                         too_many_ones ? count.target : want_zeros,
                         too_many_ones ? " ones" : " zeros", ", but ",
                         cells.size(), " of its cells hold ",
                         too_many_ones ? 1 : 0, ": ", Explain(cells)));
      }
      int fill = -1;
      if (static_cast<int>(ones.size()) == count.target) {
        fill = 0;
      } else if (static_cast<int>(zeros.size()) == want_zeros) {
        fill = 1;
      }
      if (fill < 0) continue;
      for (int c : count.cells) {
        if (value_[c] < 0)
          Fix(c, static_cast<int8_t>(fill), {Why::kLine, static_cast<int>(k)});
      }
    }
    return absl::OkStatus();
  }

  // Two equal fixed cells of a repetition triple force its third cell to the
  // other value.
  absl::Status ForcePairs() {
    for (size_t k = 0; k < b_.triples.size(); ++k) {
      const Triple& t = b_.triples[k];
      int ones = 0, zeros = 0, free_cell = -1;
      for (int c : t.cells) {
        if (value_[c] == 1) ++ones;
        if (value_[c] == 0) ++zeros;
        if (value_[c] < 0) free_cell = c;
      }
      if (ones == 3 || zeros == 3) {
        return absl::InvalidArgumentError(absl::StrCat(
            "takuzu: cells ", CellList(b_, {t.cells.begin(), t.cells.end()}),
            " would all hold ", ones == 3 ? 1 : 0, ", three in a row along a ",
            t.line, ": ", Explain({t.cells.begin(), t.cells.end()})));
      }
      if (free_cell >= 0 && (ones == 2 || zeros == 2)) {
        Fix(free_cell, static_cast<int8_t>(ones == 2 ? 0 : 1),
            {Why::kPair, static_cast<int>(k)});
      }
    }
    return absl::OkStatus();
  }

  int fixed_zero() const { return fixed_zero_; }
  int fixed_one() const { return fixed_one_; }
  int free_cells() const { return b_.size() - fixed_zero_ - fixed_one_; }
  const std::vector<int8_t>& values() const { return value_; }

  // One reduced variable per class of free cells, represented by its left-most,
  // then top-most cell ([Mata Ali & Mencia 2025] §3); reduced variables are
  // numbered in the row-major order of their representatives.
  absl::StatusOr<VariableMap> Substitute() {
    const int n = b_.size();
    std::vector<int> best(n, -1);  // per root: its representative
    auto before = [&](int x, int y) {
      const int cx = x % b_.cols, cy = y % b_.cols;
      return cx != cy ? cx < cy : x < y;
    };
    for (int c = 0; c < n; ++c) {
      if (value_[c] >= 0) continue;
      const int root = Find(c).first;
      if (best[root] < 0 || before(c, best[root])) best[root] = c;
    }
    std::vector<int32_t> representatives;
    for (int root = 0; root < n; ++root) {
      if (best[root] >= 0) representatives.push_back(best[root]);
    }
    std::sort(representatives.begin(), representatives.end());
    std::vector<int> reduced_of_root(n, -1);
    for (size_t r = 0; r < representatives.size(); ++r) {
      reduced_of_root[Find(representatives[r]).first] = static_cast<int>(r);
    }
    std::vector<VariableMap::Source> sources(n);
    for (int c = 0; c < n; ++c) {
      if (value_[c] >= 0) {
        sources[c] = {-1, static_cast<uint8_t>(value_[c])};
        continue;
      }
      const auto [root, parity] = Find(c);
      sources[c] = {reduced_of_root[root],
                    static_cast<uint8_t>(parity ^ Find(best[root]).second)};
    }
    return VariableMap::FromSourcesWithRepresentatives(
        std::move(sources), std::move(representatives));
  }

 private:
  struct Why {
    enum Kind : uint8_t { kNone, kGiven, kSign, kLine, kPair } kind = kNone;
    int ref = -1;  // kSign: the cell it was tied to; kLine: the count; kPair:
                   // the triple
  };

  void Fix(int cell, int8_t v, Why why) {
    value_[cell] = v;
    why_[cell] = why;
    (v ? fixed_one_ : fixed_zero_)++;
  }

  // Where the value of a fixed cell came from, for contradiction messages.
  std::string Describe(int cell) const {
    const Why& why = why_[cell];
    switch (why.kind) {
      case Why::kGiven:
        return "given";
      case Why::kSign:
        return absl::StrCat("tied by signs to ", b_.CellName(why.ref));
      case Why::kLine: {
        const Count& count = b_.counts[why.ref];
        return absl::StrCat(
            count.name, " already holding its ",
            value_[cell] == 0
                ? count.target
                : static_cast<int>(count.cells.size()) - count.target,
            value_[cell] == 0 ? " ones" : " zeros");
      }
      case Why::kPair: {
        std::vector<int> others;
        for (int c : b_.triples[why.ref].cells) {
          if (c != cell) others.push_back(c);
        }
        return absl::StrCat("next to ", CellList(b_, others), " both holding ",
                            1 - value_[cell]);
      }
      case Why::kNone:
        break;
    }
    return "free";
  }

  std::string Explain(const std::vector<int>& cells) const {
    std::vector<std::string> parts;
    for (int c : cells)
      parts.push_back(absl::StrCat(b_.CellName(c), " ", Describe(c)));
    return absl::StrJoin(parts, "; ");
  }

  // Root of a cell's class and the cell's parity relative to it, with path
  // compression.
  std::pair<int, uint8_t> Find(int x) {
    int root = x;
    uint8_t parity = 0;
    while (parent_[root] != root) {
      parity ^= parity_[root];
      root = parent_[root];
    }
    int cur = x;
    uint8_t cur_parity = parity;
    while (cur != root) {
      const int next = parent_[cur];
      const uint8_t next_parity = cur_parity ^ parity_[cur];
      parent_[cur] = root;
      parity_[cur] = cur_parity;
      cur = next;
      cur_parity = next_parity;
    }
    return {root, parity};
  }

  const Board& b_;
  std::vector<int8_t> value_;
  std::vector<Why> why_;
  std::vector<int> parent_;
  std::vector<uint8_t> parity_;  // parity of a cell relative to its parent
  int fixed_zero_ = 0;
  int fixed_one_ = 0;
};

// Runs the full reduction and fills problem.variables, problem.model and the
// stages after "model".
absl::Status ReduceFully(const Board& b, CompiledProblem& problem) {
  Reducer reducer(b);
  RETURN_IF_ERROR(reducer.LinkSigns());
  int zero = 0, one = 0;
  // Appends a stage counting what was fixed since the previous one.
  auto stage = [&](std::vector<ReductionStage>& out, std::string name) {
    out.push_back({std::move(name), reducer.free_cells(),
                   reducer.fixed_zero() - zero, reducer.fixed_one() - one});
    zero = reducer.fixed_zero();
    one = reducer.fixed_one();
  };
  reducer.FixGivens();
  stage(problem.stages, "givens");
  for (int round = 1;; ++round) {
    const int fixed_before = reducer.fixed_zero() + reducer.fixed_one();
    const std::string suffix = round == 1 ? "" : absl::StrCat(".", round);
    std::vector<ReductionStage> stages;
    RETURN_IF_ERROR(reducer.PropagateSigns());
    stage(stages, "signs" + suffix);
    RETURN_IF_ERROR(reducer.CompleteLines());
    stage(stages, "lines" + suffix);
    RETURN_IF_ERROR(reducer.ForcePairs());
    stage(stages, "pairs" + suffix);
    const bool changed =
        reducer.fixed_zero() + reducer.fixed_one() > fixed_before;
    if (round == 1 || changed)
      problem.stages.insert(problem.stages.end(), stages.begin(), stages.end());
    if (!changed) break;
  }
  ASSIGN_OR_RETURN(problem.variables, reducer.Substitute());
  ASSIGN_OR_RETURN(problem.model,
                   ApplyVariableMap(problem.full_model, problem.variables));
  problem.stages.push_back(
      {"substitution", problem.variables.num_reduced(), 0, 0});
  return absl::OkStatus();
}

// Exactly-one groups over the full model's cells (CompiledProblem::
// one_hot_groups): the rows, columns and count regions that must hold exactly
// one 1 (eq. 13-14, 24-25, 28 with target 1), in that order. A line or region
// of k > 1 ones is no group, nor is one of a single 0 (a swap moves a 1, and
// the negated cells are no variables). The reduction drops the settled ones
// and those with cells the substitution writes as another's negation or as the
// same variable.
std::vector<std::vector<int32_t>> FullOneHotGroups(const Board& b) {
  std::vector<std::vector<int32_t>> groups;
  for (const Count& count : b.counts) {
    if (count.target == 1)
      groups.emplace_back(count.cells.begin(), count.cells.end());
  }
  return groups;
}

// A board's cells (-1 empty, 0, 1) from a solution's cells, or else its rows.
absl::StatusOr<std::vector<int>> BoardCells(
    const Board& b, const v1::PuzzleSolution& solution) {
  const int n = b.size();
  std::vector<int> cells;
  if (solution.cells_size() > 0) {
    if (solution.cells_size() != n) {
      return absl::InvalidArgumentError(
          absl::StrCat("solution.cells: expected ", n, " values for a ", b.rows,
                       "x", b.cols, " board, got ", solution.cells_size()));
    }
    for (int k = 0; k < n; ++k) {
      const int v = solution.cells(k);
      if (v < -1 || v > 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("solution.cells[", k, "]: value ", v,
                         " is not 0, 1 or -1 (empty)"));
      }
      cells.push_back(v);
    }
    return cells;
  }
  RETURN_IF_ERROR(CheckSolutionRows(solution, b.rows, b.cols));
  for (int r = 0; r < b.rows; ++r) {
    const std::string& row = solution.rows(r);
    for (int c = 0; c < b.cols; ++c) {
      const char ch = row[c];
      if (ch != '0' && ch != '1' && ch != '.') {
        return absl::InvalidArgumentError(
            absl::StrCat("solution.rows[", r, "][", c, "]: '",
                         std::string(1, ch), "' is not '0', '1' or '.'"));
      }
      cells.push_back(ch == '.' ? -1 : ch - '0');
    }
  }
  return cells;
}

class TakuzuCompiler final : public PuzzleCompiler {
 public:
  // pt answered before sat on the measured puzzles (docs/auto.md).
  KindPolicy Policy() const override { return {.sat_leads = false}; }

  absl::string_view kind() const override { return "takuzu"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kTakuzu;
  }

  int64_t ModelVariables(const v1::PuzzleSpec& spec) const override {
    return SaturatingMul(spec.takuzu().rows(), spec.takuzu().cols());
  }

  absl::StatusOr<CompiledProblem> Compile(
      const v1::PuzzleSpec& spec,
      const v1::CompileOptions& options) const override {
    ASSIGN_OR_RETURN(const Board b, CheckSpec(spec.takuzu()));
    CompiledProblem problem;
    problem.kind = std::string(kind());
    problem.height = b.rows;
    problem.width = b.cols;
    ASSIGN_OR_RETURN(problem.full_model, BuildFullModel(b));
    problem.ground_energy = 0.25 * static_cast<double>(b.triples.size());
    const int n = b.size();
    problem.stages.push_back({"model", n, 0, 0});

    const v1::Reduction reduction = options.reduction() == v1::REDUCTION_DEFAULT
                                        ? v1::REDUCTION_FULL
                                        : options.reduction();
    if (reduction == v1::REDUCTION_NONE) {
      problem.model = problem.full_model;
      problem.variables = VariableMap::Identity(n);
    } else if (reduction == v1::REDUCTION_CLUES) {
      RETURN_IF_ERROR(ReduceByAssignment(b.givens, "givens", problem));
    } else {
      RETURN_IF_ERROR(ReduceFully(b, problem));
    }
    problem.one_hot_groups =
        ReducedOneHotGroups(problem.variables, FullOneHotGroups(b));
    return problem;
  }

  v1::PuzzleSolution Decode(const v1::PuzzleSpec& spec,
                            const CompiledProblem& problem,
                            std::span<const uint8_t> bits) const override {
    v1::PuzzleSolution solution;
    solution.set_height(problem.height);
    solution.set_width(problem.width);
    for (int r = 0; r < problem.height; ++r) {
      std::string row;
      for (int c = 0; c < problem.width; ++c) {
        const int v = bits[r * problem.width + c] ? 1 : 0;
        solution.add_cells(v);
        row.push_back(static_cast<char>('0' + v));
      }
      solution.add_rows(row);
    }
    return solution;
  }

  absl::StatusOr<v1::ValidationReport> Validate(
      const v1::PuzzleSpec& spec,
      const v1::PuzzleSolution& solution) const override {
    const TakuzuPuzzle& t = spec.takuzu();
    ASSIGN_OR_RETURN(const Board b, CheckSpec(t));
    ASSIGN_OR_RETURN(const std::vector<int> cells, BoardCells(b, solution));
    v1::ValidationReport report;
    auto add = [&](absl::string_view rule, absl::string_view location,
                   absl::string_view message) {
      *report.add_violations() = MakeViolation(rule, location, message);
    };
    for (int k = 0; k < b.size(); ++k) {
      const std::string where = absl::StrCat("cell ", b.CellName(k));
      if (cells[k] < 0) add("empty_cell", where, "cell has no value");
      if (b.givens[k] >= 0 && cells[k] >= 0 && cells[k] != b.givens[k]) {
        add("clue_mismatch", where,
            absl::StrCat("given is ", int{b.givens[k]}, ", board has ",
                         cells[k]));
      }
    }
    for (const Triple& tr : b.triples) {
      const int v = cells[tr.cells[0]];
      if (v >= 0 && cells[tr.cells[1]] == v && cells[tr.cells[2]] == v) {
        add(tr.rule,
            absl::StrCat("cells ",
                         CellList(b, {tr.cells.begin(), tr.cells.end()})),
            absl::StrCat("three ", v, "s in a row along a ", tr.line));
      }
    }
    for (const Count& count : b.counts) {
      int ones = 0, empty = 0;
      for (int c : count.cells) {
        ones += cells[c] == 1;
        empty += cells[c] < 0;
      }
      const int zeros = static_cast<int>(count.cells.size()) - ones - empty;
      // A complete line with the wrong count has too many of one value, so this
      // covers it.
      if (ones > count.target ||
          zeros > static_cast<int>(count.cells.size()) - count.target) {
        add(count.rule, count.name,
            absl::StrCat(count.name, " holds ", ones, " ones and ", zeros,
                         " zeros, needs ", count.target, " ones and ",
                         count.cells.size() - count.target, " zeros"));
      }
    }
    for (int k = 0; k < t.signs_size(); ++k) {
      const v1::TakuzuSign& sign = t.signs(k);
      const int a = static_cast<int>(sign.a().row()) * b.cols +
                    static_cast<int>(sign.a().col());
      const int c = static_cast<int>(sign.b().row()) * b.cols +
                    static_cast<int>(sign.b().col());
      if (cells[a] < 0 || cells[c] < 0) continue;
      const bool equal = sign.kind() == v1::TakuzuSign::EQUAL;
      if ((cells[a] == cells[c]) != equal) {
        add(equal ? "sign_equal" : "sign_different",
            absl::StrCat("cells ", b.CellName(a), " and ", b.CellName(c)),
            absl::StrCat("takuzu.signs[", k, "] needs them ",
                         equal ? "equal" : "different"));
      }
    }
    auto first_cell = [&](int region) {
      const v1::TakuzuCellRef& ref = t.equality_regions(region).cells(0);
      return static_cast<int>(ref.row()) * b.cols + static_cast<int>(ref.col());
    };
    for (int k = 0; k < t.equality_regions_size(); ++k) {
      const int first = first_cell(k);
      for (const v1::TakuzuCellRef& ref : t.equality_regions(k).cells()) {
        const int c =
            static_cast<int>(ref.row()) * b.cols + static_cast<int>(ref.col());
        if (cells[first] >= 0 && cells[c] >= 0 && cells[c] != cells[first]) {
          add("equality_region", absl::StrCat("equality region ", k + 1),
              absl::StrCat("cells ", b.CellName(first), " and ", b.CellName(c),
                           " differ"));
          break;
        }
      }
    }
    for (int k = 0; k < t.different_regions_size(); ++k) {
      const v1::TakuzuRegionPair& pair = t.different_regions(k);
      const int a = first_cell(static_cast<int>(pair.first()));
      const int c = first_cell(static_cast<int>(pair.second()));
      if (cells[a] >= 0 && cells[a] == cells[c]) {
        add("different_regions",
            absl::StrCat("equality regions ", pair.first() + 1, " and ",
                         pair.second() + 1),
            absl::StrCat("both hold ", cells[a], " (cells ", b.CellName(a),
                         " and ", b.CellName(c), ")"));
      }
    }
    if (b.unique_lines) {
      // Complete lines only: an empty cell is reported already.
      auto line = [&](bool is_row, int index) {
        std::vector<int> values;
        const int length = is_row ? b.cols : b.rows;
        for (int k = 0; k < length; ++k)
          values.push_back(
              cells[is_row ? index * b.cols + k : k * b.cols + index]);
        return values;
      };
      for (const bool is_row : {true, false}) {
        const int lines = is_row ? b.rows : b.cols;
        std::vector<std::vector<int>> values;
        for (int i = 0; i < lines; ++i) values.push_back(line(is_row, i));
        for (int i = 0; i < lines; ++i) {
          if (std::count(values[i].begin(), values[i].end(), -1) > 0) continue;
          for (int j = i + 1; j < lines; ++j) {
            if (values[i] != values[j]) continue;
            const char* what = is_row ? "rows" : "columns";
            add(is_row ? "duplicate_rows" : "duplicate_columns",
                absl::StrCat(what, " ", i + 1, " and ", j + 1),
                absl::StrCat(what, " ", i + 1, " and ", j + 1,
                             " are equal; the puzzle asks for unique lines"));
          }
        }
      }
    }
    report.set_valid(report.violations_size() == 0);
    return report;
  }

  absl::StatusOr<std::vector<uint8_t>> Encode(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(const Board b, CheckSpec(spec.takuzu()));
    ASSIGN_OR_RETURN(const std::vector<int> cells, BoardCells(b, solution));
    std::vector<uint8_t> bits(cells.size());
    for (size_t k = 0; k < cells.size(); ++k) {
      if (cells[k] < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("solution: cell ", b.CellName(static_cast<int>(k)),
                         " is empty and cannot be encoded"));
      }
      bits[k] = static_cast<uint8_t>(cells[k]);
    }
    return bits;
  }
};

// Cells, givens and relations of a spec as far as they are well-formed;
// malformed entries are skipped.
struct SignGraph {
  int cells = 0;
  int givens = 0;
  std::vector<std::pair<int, int>> links;
};

SignGraph GraphOf(const TakuzuPuzzle& t) {
  SignGraph g;
  const int64_t n = static_cast<int64_t>(t.rows()) * t.cols();
  if (n <= 0 || n > kMaxCells) return g;
  g.cells = static_cast<int>(n);
  const int cols = static_cast<int>(t.cols());
  auto cell = [&](const v1::TakuzuCellRef& ref) {
    return ref.row() < t.rows() && ref.col() < t.cols()
               ? static_cast<int>(ref.row()) * cols +
                     static_cast<int>(ref.col())
               : -1;
  };
  if (t.cells_size() == g.cells) {
    for (int k = 0; k < g.cells; ++k) {
      if (t.cells(k) == TakuzuPuzzle::ZERO || t.cells(k) == TakuzuPuzzle::ONE) {
        ++g.givens;
        g.links.push_back({k, g.cells});  // the node g.cells stands for "fixed"
      }
    }
  }
  for (const v1::TakuzuSign& sign : t.signs())
    g.links.push_back({cell(sign.a()), cell(sign.b())});
  for (const v1::TakuzuEqualityRegion& region : t.equality_regions()) {
    for (int k = 1; k < region.cells_size(); ++k)
      g.links.push_back({cell(region.cells(k - 1)), cell(region.cells(k))});
  }
  for (const v1::TakuzuRegionPair& pair : t.different_regions()) {
    auto first = [&](uint32_t region) {
      return region < static_cast<uint32_t>(t.equality_regions_size()) &&
                     t.equality_regions(static_cast<int>(region)).cells_size() >
                         0
                 ? cell(t.equality_regions(static_cast<int>(region)).cells(0))
                 : -1;
    };
    g.links.push_back({first(pair.first()), first(pair.second())});
  }
  return g;
}

}  // namespace

int64_t TakuzuPaperVariableBound(const v1::TakuzuPuzzle& puzzle) {
  const SignGraph g = GraphOf(puzzle);
  return static_cast<int64_t>(g.cells) - static_cast<int64_t>(g.links.size());
}

int64_t TakuzuIndependentVariableBound(const v1::TakuzuPuzzle& puzzle) {
  const SignGraph g = GraphOf(puzzle);
  std::vector<int> parent(g.cells + 1);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  int64_t rank = 0;
  for (const auto& [a, c] : g.links) {
    if (a < 0 || c < 0) continue;
    const int ra = find(a), rc = find(c);
    if (ra == rc) continue;
    parent[ra] = rc;
    ++rank;
  }
  return g.cells - rank;
}

absl::StatusOr<TakuzuRules> TakuzuRulesOf(const v1::TakuzuPuzzle& puzzle) {
  ASSIGN_OR_RETURN(const Board b, CheckSpec(puzzle));
  TakuzuRules rules;
  rules.rows = b.rows;
  rules.cols = b.cols;
  rules.givens = b.givens;
  for (const Triple& triple : b.triples) rules.triples.push_back(triple.cells);
  for (const Count& count : b.counts)
    rules.counts.push_back({count.cells, count.target});
  for (const Relation& relation : b.relations)
    rules.relations.push_back(
        {relation.a, relation.b, relation.parity == 1,
         absl::StartsWith(relation.origin, "takuzu.signs[")});
  rules.unique_lines = b.unique_lines;
  return rules;
}

std::unique_ptr<PuzzleCompiler> NewTakuzuCompiler() {
  return std::make_unique<TakuzuCompiler>();
}

}  // namespace qs
