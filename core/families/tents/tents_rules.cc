// The Tents & Trees rules ([Mata Ali & Mencia 2024] §2.5, as the game and
// the validator in core/families/tents/tents.cc have them) as Boolean
// constraints over the QUBO's cell variables x_rc ("a tent on (r, c)", index r
// * cols + c):
// - tree cells and cells next to no tree hold no tent (the paper's reductions,
//   which the compiled QUBO applies by clamping);
// - each row and column holds its clue's number of tents: the sequential
//   counter of [Bryant 2019]'s cardinality chains;
// - no two tents touch, diagonally included: a pairwise clause per touching
//   pair (the 8-neighbourhood is short-ranged, so no chain applies);
// - 1 or 2 tents next to each tree (eq. 15's region term);
// - beyond the QUBO, the one-to-one pairing of tents and trees: an auxiliary
//   p_{t,c} per tree t and orthogonal cell c, with exactly one p per tree, at
//   most one p per cell and x_c -> (some p_{.,c}), p_{t,c} -> x_c. A board
//   with several pairings has several such assignments, which is why solutions
//   are counted as boards: enumeration blocks them over the cell variables
//   only, and the BDD counter, which has no auxiliaries, is not used.
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/exact/encoder.h"

namespace qs {
namespace {

constexpr int kOrthogonal[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
// Right of the cell and on the row below: each touching pair once.
constexpr int kForwardNeighbours[4][2] = {{0, 1}, {1, -1}, {1, 0}, {1, 1}};

class TentsEncoder final : public RulesEncoder {
 public:
  absl::string_view kind() const override { return "tents"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kTents;
  }
  bool needs_auxiliary() const override { return true; }

  absl::Status Encode(const v1::PuzzleSpec& spec, const EncodeOptions& options,
                      ConstraintSink& sink) const override {
    const v1::TentsPuzzle& tents = spec.tents();
    const int rows = static_cast<int>(tents.rows());
    const int cols = tents.cols() == 0 ? rows : static_cast<int>(tents.cols());
    const int n = rows * cols;
    if (tents.row_counts_size() != rows || tents.col_counts_size() != cols) {
      return absl::InvalidArgumentError(
          "tents: row_counts and col_counts must give one count per line");
    }
    std::vector<uint8_t> is_tree(n, 0);
    std::vector<int> trees;
    for (int k = 0; k < tents.trees_size(); ++k) {
      const uint32_t cell = tents.trees(k);
      if (cell >= static_cast<uint32_t>(n) || is_tree[cell]) {
        return absl::InvalidArgumentError(
            absl::StrCat("tents.trees[", k, "]: cell ", cell,
                         " out of range or listed twice"));
      }
      is_tree[cell] = 1;
      trees.push_back(static_cast<int>(cell));
    }
    auto x = [](int cell) { return cell + 1; };
    auto on_board = [&](int r, int c) {
      return r >= 0 && r < rows && c >= 0 && c < cols;
    };
    // The tent cells next to each tree (its region without other trees).
    std::vector<std::vector<int>> region(trees.size());
    std::vector<uint8_t> in_region(n, 0);
    for (size_t t = 0; t < trees.size(); ++t) {
      const int r = trees[t] / cols, c = trees[t] % cols;
      for (const auto& d : kOrthogonal) {
        if (!on_board(r + d[0], c + d[1])) continue;
        const int cell = (r + d[0]) * cols + c + d[1];
        if (is_tree[cell]) continue;
        region[t].push_back(cell);
        in_region[cell] = 1;
      }
    }
    for (int cell = 0; cell < n; ++cell) {
      if (is_tree[cell] || !in_region[cell]) sink.AddUnit(-x(cell));
    }
    std::vector<int> line;
    for (int r = 0; r < rows; ++r) {
      line.clear();
      for (int c = 0; c < cols; ++c) line.push_back(x(r * cols + c));
      const int count = static_cast<int>(tents.row_counts(r));
      sink.AddCardinality(line, count, count);
    }
    for (int c = 0; c < cols; ++c) {
      line.clear();
      for (int r = 0; r < rows; ++r) line.push_back(x(r * cols + c));
      const int count = static_cast<int>(tents.col_counts(c));
      sink.AddCardinality(line, count, count);
    }
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        for (const auto& d : kForwardNeighbours) {
          if (on_board(r + d[0], c + d[1]))
            sink.AddClause(
                {-x(r * cols + c), -x((r + d[0]) * cols + c + d[1])});
        }
      }
    }
    for (const std::vector<int>& cells : region) {
      line.clear();
      for (int cell : cells) line.push_back(x(cell));
      sink.AddCardinality(line, 1, 2);
    }
    if (!options.rules_beyond_qubo) return absl::OkStatus();

    std::vector<std::vector<int>> pairings_of_cell(n);
    for (const std::vector<int>& cells : region) {
      std::vector<int> pairings;
      for (int cell : cells) {
        const int p = sink.NewAuxiliary();
        if (p == 0) {
          return absl::UnimplementedError(
              "tents: the tent-tree pairing needs auxiliary variables, which "
              "this constraint sink does not have");
        }
        sink.AddClause({-p, x(cell)});
        pairings.push_back(p);
        pairings_of_cell[cell].push_back(p);
      }
      sink.AddExactlyOne(pairings);
    }
    for (int cell = 0; cell < n; ++cell) {
      if (pairings_of_cell[cell].empty()) continue;
      sink.AddAtMostOne(pairings_of_cell[cell]);
      line.assign(pairings_of_cell[cell].begin(), pairings_of_cell[cell].end());
      line.push_back(-x(cell));
      sink.AddClause(line);
    }
    return absl::OkStatus();
  }
};

}  // namespace

std::unique_ptr<RulesEncoder> NewTentsEncoder() {
  return std::make_unique<TentsEncoder>();
}

}  // namespace qs
