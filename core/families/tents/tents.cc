// Tents & Trees compiler: [Mata Ali & Mencia 2024] §2.5 (eq. 22, built from the
// count terms eq. 10-11, the attack term eq. 12 over the 8 neighbours and the
// fractional region term eq. 15 with v_k = 1), the paper's reductions (tree
// cells and cells next to no tree fixed to 0), and a validator of the game's
// rules including the one-to-one pairing of tents and trees.
#include "core/families/tents/tents.h"

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/base/saturating.h"
#include "core/base/status_macros.h"
#include "core/compile/penalties.h"

namespace qs {
namespace {

constexpr uint32_t kMaxSide = 1000;

constexpr int kOrthogonal[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
// The neighbours of D'_ij (eq. 22): right of the cell and on the row below, so
// each touching pair is counted once.
constexpr int kForwardNeighbours[4][2] = {{0, 1}, {1, -1}, {1, 0}, {1, 1}};

struct Board {
  int rows = 0;
  int cols = 0;
  std::vector<uint8_t> is_tree;  // per cell
  std::vector<int> trees;        // cell indices, in the spec's order
  std::vector<int> row_counts;
  std::vector<int> col_counts;

  int size() const { return rows * cols; }
  bool OnBoard(int r, int c) const {
    return r >= 0 && r < rows && c >= 0 && c < cols;
  }
  // Cells orthogonally next to `cell` (the region R_k of a tree there).
  std::vector<int> Orthogonal(int cell) const {
    std::vector<int> out;
    const int r = cell / cols, c = cell % cols;
    for (const auto& d : kOrthogonal) {
      if (OnBoard(r + d[0], c + d[1]))
        out.push_back((r + d[0]) * cols + c + d[1]);
    }
    return out;
  }
};

std::string CellName(int cell, int cols) {
  return absl::StrCat("(", cell / cols + 1, ",", cell % cols + 1, ")");
}

// Most tents a line of n cells can hold: tents never touch, so at most every
// other cell.
int MaxTentsInLine(int n) { return (n + 1) / 2; }

absl::Status CheckCounts(
    const google::protobuf::RepeatedField<uint32_t>& counts,
    absl::string_view field, absl::string_view line, int expected,
    int line_length) {
  if (counts.size() != expected) {
    return absl::InvalidArgumentError(
        absl::StrCat("tents.", field, ": expected ", expected,
                     " values (one per ", line, "), got ", counts.size()));
  }
  for (int k = 0; k < counts.size(); ++k) {
    if (counts[k] > static_cast<uint32_t>(MaxTentsInLine(line_length))) {
      return absl::InvalidArgumentError(absl::StrCat(
          "tents.", field, "[", k, "]: ", counts[k], " tents do not fit in a ",
          line, " of ", line_length, " cells (at most ",
          MaxTentsInLine(line_length), ": tents never touch)"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Board> CheckSpec(const v1::TentsPuzzle& tents) {
  if (tents.rows() < 1 || tents.rows() > kMaxSide) {
    return absl::InvalidArgumentError(absl::StrCat(
        "tents.rows: must be 1..", kMaxSide, ", got ", tents.rows()));
  }
  if (tents.cols() > kMaxSide) {
    return absl::InvalidArgumentError(
        absl::StrCat("tents.cols: must be 0 (square) or 1..", kMaxSide,
                     ", got ", tents.cols()));
  }
  Board b;
  b.rows = static_cast<int>(tents.rows());
  b.cols = tents.cols() == 0 ? b.rows : static_cast<int>(tents.cols());
  b.is_tree.assign(b.size(), 0);
  for (int k = 0; k < tents.trees_size(); ++k) {
    const uint32_t cell = tents.trees(k);
    if (cell >= static_cast<uint32_t>(b.size())) {
      return absl::InvalidArgumentError(
          absl::StrCat("tents.trees[", k, "]: cell ", cell, " out of range 0..",
                       b.size() - 1));
    }
    if (b.is_tree[cell]) {
      return absl::InvalidArgumentError(
          absl::StrCat("tents.trees[", k, "]: cell ", cell, " ",
                       CellName(cell, b.cols), " listed twice"));
    }
    b.is_tree[cell] = 1;
    b.trees.push_back(static_cast<int>(cell));
  }
  RETURN_IF_ERROR(
      CheckCounts(tents.row_counts(), "row_counts", "row", b.rows, b.cols));
  RETURN_IF_ERROR(
      CheckCounts(tents.col_counts(), "col_counts", "column", b.cols, b.rows));
  int row_total = 0, col_total = 0;
  for (uint32_t n : tents.row_counts()) {
    b.row_counts.push_back(static_cast<int>(n));
    row_total += static_cast<int>(n);
  }
  for (uint32_t n : tents.col_counts()) {
    b.col_counts.push_back(static_cast<int>(n));
    col_total += static_cast<int>(n);
  }
  if (row_total != col_total) {
    return absl::InvalidArgumentError(
        absl::StrCat("tents.col_counts: total ", col_total,
                     " differs from the row counts' total ", row_total));
  }
  if (row_total != static_cast<int>(b.trees.size())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "tents.row_counts: total ", row_total, " tents for ", b.trees.size(),
        " trees (the game pairs every tent with its own tree)"));
  }
  return b;
}

absl::StatusOr<Qubo> BuildFullModel(const Board& b) {
  QuboBuilder builder(b.size());
  for (int cell = 0; cell < b.size(); ++cell) {
    builder.SetLabel(
        cell, absl::StrCat("r", cell / b.cols + 1, "c", cell % b.cols + 1));
  }
  for (int r = 0; r < b.rows; ++r) {
    std::vector<int> row;
    for (int c = 0; c < b.cols; ++c) row.push_back(r * b.cols + c);
    AddSquaredCount(builder, row, b.row_counts[r]);
  }
  for (int c = 0; c < b.cols; ++c) {
    std::vector<int> col;
    for (int r = 0; r < b.rows; ++r) col.push_back(r * b.cols + c);
    AddSquaredCount(builder, col, b.col_counts[c]);
  }
  for (int r = 0; r < b.rows; ++r) {
    for (int c = 0; c < b.cols; ++c) {
      for (const auto& d : kForwardNeighbours) {
        if (b.OnBoard(r + d[0], c + d[1]))
          builder.AddQuadratic(r * b.cols + c, (r + d[0]) * b.cols + c + d[1],
                               1.0);
      }
    }
  }
  // q_k = 1 with t_k = 1: the minimum 1/4 is reached by 1 or 2 tents; 3 or 4
  // tents around a tree would touch each other anyway.
  for (int tree : b.trees) AddSquaredCount(builder, b.Orthogonal(tree), 1.5);
  return std::move(builder).Build();
}

// Exactly-one groups over the reduced variables (CompiledProblem::
// one_hot_groups), each holding one tent on every board of the ground energy
// N_T / 4, where every term of eq. 22 is at its minimum:
// - per tree, the cells of its region R_k that the reduction leaves open when
//   no two of them face each other across the tree: any two of them are then
//   diagonal neighbours, so at most one holds a tent (eq. 12), and eq. 15 wants
//   one or two;
// - then each row and each column whose count is 1 (eq. 10-11).
// The trees' groups come first: the samplers take disjoint groups greedily in
// declaration order.
std::vector<std::vector<int32_t>> OneHotGroups(const Board& b,
                                               const VariableMap& map) {
  auto open = [&](int r, int c) {
    if (!b.OnBoard(r, c)) return false;
    const VariableMap::Source& source = map.source(r * b.cols + c);
    return source.reduced >= 0 || source.value != 0;
  };
  std::vector<std::vector<int32_t>> groups;
  for (int tree : b.trees) {
    const int r = tree / b.cols, c = tree % b.cols;
    if ((open(r - 1, c) && open(r + 1, c)) ||
        (open(r, c - 1) && open(r, c + 1)))
      continue;
    std::vector<int32_t> group;
    for (int cell : b.Orthogonal(tree)) {
      if (open(cell / b.cols, cell % b.cols)) group.push_back(cell);
    }
    groups.push_back(std::move(group));
  }
  for (int r = 0; r < b.rows; ++r) {
    if (b.row_counts[r] != 1) continue;
    std::vector<int32_t> row;
    for (int c = 0; c < b.cols; ++c) row.push_back(r * b.cols + c);
    groups.push_back(std::move(row));
  }
  for (int c = 0; c < b.cols; ++c) {
    if (b.col_counts[c] != 1) continue;
    std::vector<int32_t> col;
    for (int r = 0; r < b.rows; ++r) col.push_back(r * b.cols + c);
    groups.push_back(std::move(col));
  }
  // Each once: a tree's group may be a line's again.
  std::vector<std::vector<int32_t>> reduced;
  std::set<std::vector<int32_t>> seen;
  for (std::vector<int32_t>& group : ReducedOneHotGroups(map, groups)) {
    if (seen.insert(group).second) reduced.push_back(std::move(group));
  }
  return reduced;
}

// A board read from a solution: the tents, from its cells (1 tent, 0 none, -1 a
// tent on a tree) or, when there are none, from its rows; and the cells where
// the rows' trees differ from the puzzle's.
struct BoardRead {
  std::vector<uint8_t> tent;
  std::vector<int> tree_mismatches;
};

absl::StatusOr<BoardRead> ReadBoard(const Board& b,
                                    const v1::PuzzleSolution& solution) {
  BoardRead board;
  if (solution.cells_size() > 0) {
    if (solution.cells_size() != b.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("solution.cells: expected ", b.size(), " values, got ",
                       solution.cells_size()));
    }
    for (int k = 0; k < b.size(); ++k) {
      const int v = solution.cells(k);
      if (v < -1 || v > 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("solution.cells[", k, "]: value ", v,
                         " out of range -1..1 (tent on a tree, none, tent)"));
      }
      board.tent.push_back(v != 0);
      if (v == -1 && !b.is_tree[k]) board.tree_mismatches.push_back(k);
    }
  }
  RETURN_IF_ERROR(CheckSolutionRows(solution, b.rows, b.cols));
  if (solution.rows_size() == 0) return board;
  const bool tents_from_rows = board.tent.empty();
  for (int r = 0; r < b.rows; ++r) {
    const std::string& row = solution.rows(r);
    for (int c = 0; c < b.cols; ++c) {
      bool tent = false, tree = false;
      switch (row[c]) {
        case '.':
        case '0':
        case '_':
        case '#':
          break;
        case 'T':
        case '1':
          tent = true;
          break;
        case 'A':
          tree = true;
          break;
        case '*':
          tent = tree = true;
          break;
        default:
          return absl::InvalidArgumentError(
              absl::StrCat("solution.rows[", r, "][", c, "]: unexpected '",
                           std::string(1, row[c]), "' (one of T A . *)"));
      }
      const int cell = r * b.cols + c;
      if (tents_from_rows) board.tent.push_back(tent);
      // A tent drawn on a tree cell without the tree is still a tent on the
      // puzzle's tree.
      if (tree != static_cast<bool>(b.is_tree[cell]) &&
          !(tent && b.is_tree[cell])) {
        board.tree_mismatches.push_back(cell);
      }
    }
  }
  return board;
}

// Kuhn's augmenting paths: tries to give `tree` a tent, moving other trees to
// other tents if need be.
bool Augment(int tree, const std::vector<std::vector<int>>& tents_of_tree,
             std::vector<int>& tree_of_tent, std::vector<uint8_t>& visited) {
  for (int tent : tents_of_tree[tree]) {
    if (visited[tent]) continue;
    visited[tent] = 1;
    if (tree_of_tent[tent] < 0 ||
        Augment(tree_of_tent[tent], tents_of_tree, tree_of_tent, visited)) {
      tree_of_tent[tent] = tree;
      return true;
    }
  }
  return false;
}

class TentsCompiler final : public PuzzleCompiler {
 public:
  // pt answered before sat on the measured puzzles (docs/auto.md).
  KindPolicy Policy() const override { return {.sat_leads = false}; }

  absl::string_view kind() const override { return "tents"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kTents;
  }

  int64_t ModelVariables(const v1::PuzzleSpec& spec) const override {
    const int64_t rows = spec.tents().rows();
    const int64_t cols = spec.tents().cols() == 0 ? rows : spec.tents().cols();
    return SaturatingMul(rows, cols);
  }

  absl::StatusOr<CompiledProblem> Compile(
      const v1::PuzzleSpec& spec,
      const v1::CompileOptions& options) const override {
    ASSIGN_OR_RETURN(const Board b, CheckSpec(spec.tents()));
    CompiledProblem problem;
    problem.kind = std::string(kind());
    problem.height = b.rows;
    problem.width = b.cols;
    ASSIGN_OR_RETURN(problem.full_model, BuildFullModel(b));
    problem.ground_energy = static_cast<double>(b.trees.size()) / 4.0;
    const int n = b.size();
    problem.stages.push_back({"model", n, 0, 0});

    const v1::Reduction reduction = options.reduction() == v1::REDUCTION_DEFAULT
                                        ? v1::REDUCTION_FULL
                                        : options.reduction();
    if (reduction == v1::REDUCTION_NONE) {
      problem.model = problem.full_model;
      problem.variables = VariableMap::Identity(n);
      problem.one_hot_groups = OneHotGroups(b, problem.variables);
      return problem;
    }
    std::vector<int8_t> assignment(n, -1);
    for (int tree : b.trees) assignment[tree] = 0;
    RETURN_IF_ERROR(ReduceByAssignment(assignment, "trees", problem));
    if (reduction == v1::REDUCTION_CLUES) {
      problem.one_hot_groups = OneHotGroups(b, problem.variables);
      return problem;
    }
    std::vector<uint8_t> in_region(n, 0);
    for (int tree : b.trees) {
      for (int cell : b.Orthogonal(tree)) in_region[cell] = 1;
    }
    for (int cell = 0; cell < n; ++cell) {
      if (!in_region[cell]) assignment[cell] = 0;
    }
    RETURN_IF_ERROR(ReduceByAssignment(assignment, "outside_regions", problem));
    // A row or column with count 0 holds no tent on any board of the ground
    // energy N_T/4.
    for (int cell = 0; cell < n; ++cell) {
      if (b.row_counts[cell / b.cols] == 0 || b.col_counts[cell % b.cols] == 0)
        assignment[cell] = 0;
    }
    RETURN_IF_ERROR(ReduceByAssignment(assignment, "zero_lines", problem));
    problem.one_hot_groups = OneHotGroups(b, problem.variables);
    return problem;
  }

  v1::PuzzleSolution Decode(const v1::PuzzleSpec& spec,
                            const CompiledProblem& problem,
                            std::span<const uint8_t> bits) const override {
    const int rows = problem.height, cols = problem.width;
    std::vector<uint8_t> is_tree(static_cast<size_t>(rows) * cols, 0);
    for (uint32_t cell : spec.tents().trees()) {
      if (cell < is_tree.size()) is_tree[cell] = 1;
    }
    v1::PuzzleSolution solution;
    solution.set_height(rows);
    solution.set_width(cols);
    for (int r = 0; r < rows; ++r) {
      std::string row;
      for (int c = 0; c < cols; ++c) {
        const int cell = r * cols + c;
        if (is_tree[cell]) {
          solution.add_cells(bits[cell] ? -1 : 0);
          row.push_back(bits[cell] ? '*' : 'A');
        } else {
          solution.add_cells(bits[cell] ? 1 : 0);
          row.push_back(bits[cell] ? 'T' : '.');
        }
      }
      solution.add_rows(row);
    }
    return solution;
  }

  absl::StatusOr<v1::ValidationReport> Validate(
      const v1::PuzzleSpec& spec,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(const Board b, CheckSpec(spec.tents()));
    ASSIGN_OR_RETURN(const BoardRead board, ReadBoard(b, solution));
    const std::vector<uint8_t>& tent = board.tent;
    v1::ValidationReport report;
    auto add = [&](absl::string_view rule, absl::string_view location,
                   absl::string_view message) {
      *report.add_violations() = MakeViolation(rule, location, message);
    };
    auto cell_location = [&](int cell) {
      return absl::StrCat("cell ", CellName(cell, b.cols));
    };

    for (int cell : board.tree_mismatches) {
      add("tree_mismatch", cell_location(cell),
          b.is_tree[cell] ? "the puzzle's tree is missing from the board"
                          : "a tree where the puzzle has none");
    }
    for (int tree : b.trees) {
      if (tent[tree])
        add("tent_on_tree", cell_location(tree), "a tent stands on a tree");
    }
    for (int r = 0; r < b.rows; ++r) {
      int n = 0;
      for (int c = 0; c < b.cols; ++c) n += tent[r * b.cols + c];
      if (n != b.row_counts[r]) {
        add("row_count", absl::StrCat("row ", r + 1),
            absl::StrCat(n, " tents, the clue says ", b.row_counts[r]));
      }
    }
    for (int c = 0; c < b.cols; ++c) {
      int n = 0;
      for (int r = 0; r < b.rows; ++r) n += tent[r * b.cols + c];
      if (n != b.col_counts[c]) {
        add("column_count", absl::StrCat("column ", c + 1),
            absl::StrCat(n, " tents, the clue says ", b.col_counts[c]));
      }
    }
    for (int r = 0; r < b.rows; ++r) {
      for (int c = 0; c < b.cols; ++c) {
        if (!tent[r * b.cols + c]) continue;
        for (const auto& d : kForwardNeighbours) {
          if (b.OnBoard(r + d[0], c + d[1]) &&
              tent[(r + d[0]) * b.cols + c + d[1]]) {
            add("tents_touch",
                absl::StrCat("cells ", CellName(r * b.cols + c, b.cols),
                             " and ",
                             CellName((r + d[0]) * b.cols + c + d[1], b.cols)),
                "two tents touch");
          }
        }
      }
    }
    // Pairing: a bipartite matching between the puzzle's trees and the board's
    // tents by orthogonal adjacency. Trees or tents with no partner at all are
    // named as such; the others left over by a maximum matching break the
    // one-to-one rule.
    std::vector<std::vector<int>> tents_of_tree(b.trees.size());
    std::vector<int> tree_count_of_tent(b.size(), 0);
    for (size_t t = 0; t < b.trees.size(); ++t) {
      for (int cell : b.Orthogonal(b.trees[t])) {
        if (tent[cell]) {
          tents_of_tree[t].push_back(cell);
          ++tree_count_of_tent[cell];
        }
      }
    }
    std::vector<int> tree_of_tent(b.size(), -1);
    std::vector<uint8_t> matched_tree(b.trees.size(), 0);
    for (size_t t = 0; t < b.trees.size(); ++t) {
      std::vector<uint8_t> visited(b.size(), 0);
      matched_tree[t] =
          Augment(static_cast<int>(t), tents_of_tree, tree_of_tent, visited);
    }
    for (size_t t = 0; t < b.trees.size(); ++t) {
      if (tents_of_tree[t].empty()) {
        add("tree_without_tent", cell_location(b.trees[t]),
            "no tent next to this tree");
      } else if (!matched_tree[t]) {
        add("tent_tree_pairing", cell_location(b.trees[t]),
            "every tent next to this tree is needed by another tree: tents and "
            "trees do not pair one-to-one");
      }
    }
    for (int cell = 0; cell < b.size(); ++cell) {
      if (!tent[cell]) continue;
      if (tree_count_of_tent[cell] == 0) {
        add("tent_without_tree", cell_location(cell),
            "no tree next to this tent");
      } else if (tree_of_tent[cell] < 0) {
        add("tent_tree_pairing", cell_location(cell),
            "every tree next to this tent is taken by another tent: tents and "
            "trees do not pair one-to-one");
      }
    }
    report.set_valid(report.violations_size() == 0);
    return report;
  }

  absl::StatusOr<std::vector<uint8_t>> Encode(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(const Board b, CheckSpec(spec.tents()));
    ASSIGN_OR_RETURN(BoardRead board, ReadBoard(b, solution));
    return std::move(board.tent);
  }
};

}  // namespace

std::unique_ptr<PuzzleCompiler> NewTentsCompiler() {
  return std::make_unique<TentsCompiler>();
}

}  // namespace qs
