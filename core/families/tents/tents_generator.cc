// Tents & Trees puzzles ([Mata Ali & Mencia 2024] §2.5) with proven-unique
// solutions. A Tents puzzle gives every tree and every row and column count, so
// there are no clues to remove ([Mücke 2024] §4's step 2): the board itself is
// drawn until its trees and counts admit one arrangement only. A board is built
// directly, not annealed: tents are placed in random order where they touch no
// other tent, each with its own tree on a free orthogonal neighbour (so the
// pairing holds by construction), until about one cell in five holds a tree as
// in Simon Tatham's game. The counts follow from the tents, and CaDiCaL on the
// rules (core/families/tents/tents_rules.cc) keeps the board only when it finds
// no second arrangement. The difficulty knob grades boards by how much of the
// board unit propagation of the rules decides: every open cell
// (DIFFICULTY_EASY), at least half of them (DIFFICULTY_MEDIUM), or not all of
// them, so that the solver must search (DIFFICULTY_HARD); open cells are the
// ones next to a tree.
#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/rng.h"
#include "core/base/status_macros.h"
#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/generate/generator.h"

namespace qs {
namespace {

constexpr int kMinSide = 4;
constexpr int kMaxSide = 20;
// Boards drawn before giving up on one puzzle.
constexpr int kMaxAttempts = 20000;
// One tree per this many cells.
constexpr int kCellsPerTree = 5;

constexpr int kOrthogonal[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};

// A random board: tents (1 per cell) and trees, paired one-to-one.
struct DrawnBoard {
  std::vector<uint8_t> tent;
  std::vector<int> trees;
};

DrawnBoard DrawBoard(int rows, int cols, Xoshiro256& rng) {
  const int n = rows * cols;
  const int target = std::max(1, n / kCellsPerTree);
  DrawnBoard board;
  board.tent.assign(n, 0);
  std::vector<uint8_t> tree(n, 0);
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  for (int i = n - 1; i > 0; --i)
    std::swap(order[i], order[rng.NextBelow(static_cast<uint64_t>(i) + 1)]);
  for (int cell : order) {
    if (static_cast<int>(board.trees.size()) >= target) break;
    if (tree[cell]) continue;
    const int r = cell / cols, c = cell % cols;
    bool touches = false;
    for (int dr = -1; dr <= 1 && !touches; ++dr) {
      for (int dc = -1; dc <= 1; ++dc) {
        const int rr = r + dr, cc = c + dc;
        if (rr >= 0 && rr < rows && cc >= 0 && cc < cols &&
            board.tent[rr * cols + cc]) {
          touches = true;
          break;
        }
      }
    }
    if (touches) continue;
    std::vector<int> free;
    for (const auto& d : kOrthogonal) {
      const int rr = r + d[0], cc = c + d[1];
      if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) continue;
      const int other = rr * cols + cc;
      if (!tree[other] && !board.tent[other]) free.push_back(other);
    }
    if (free.empty()) continue;
    const int at = free[rng.NextBelow(free.size())];
    board.tent[cell] = 1;
    tree[at] = 1;
    board.trees.push_back(at);
  }
  std::sort(board.trees.begin(), board.trees.end());
  return board;
}

class TentsGenerator final : public PuzzleGenerator {
 public:
  absl::string_view family() const override { return "tents"; }

  absl::Status Check(const GenerateOptions& options) const override {
    RETURN_IF_ERROR(CheckGridSides(options, family(), kMinSide, kMaxSide));
    if (options.target_clues != 0) {
      return absl::InvalidArgumentError(
          "target_clues: tents puzzles give every tree and count; there are "
          "no clues to remove");
    }
    return absl::OkStatus();
  }

  absl::StatusOr<GeneratedPuzzle> Generate(
      const GenerateOptions& options, uint64_t seed,
      SolutionSampler& /*sampler*/, Interrupter& interrupter) const override {
    const int rows = options.rows, cols = options.cols, n = rows * cols;
    Xoshiro256 rng(seed);
    ASSIGN_OR_RETURN(const RulesEncoder* encoder, BuiltinEncoders().ForSpec([] {
      v1::PuzzleSpec spec;
      spec.mutable_tents();
      return spec;
    }()));
    const double required = RequiredPropagation(options.difficulty);
    GeneratedPuzzle out;
    out.puzzle_kind = "tents";
    for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
      if (interrupter.reason() != StopReason::kNone)
        return absl::AbortedError("tents generation stopped");
      DrawnBoard board = DrawBoard(rows, cols, rng);
      v1::PuzzleSpec spec;
      v1::TentsPuzzle& tents = *spec.mutable_tents();
      tents.set_rows(rows);
      tents.set_cols(cols);
      for (int tree : board.trees) tents.add_trees(tree);
      for (int r = 0; r < rows; ++r) {
        int count = 0;
        for (int c = 0; c < cols; ++c) count += board.tent[r * cols + c];
        tents.add_row_counts(count);
      }
      for (int c = 0; c < cols; ++c) {
        int count = 0;
        for (int r = 0; r < rows; ++r) count += board.tent[r * cols + c];
        tents.add_col_counts(count);
      }
      ASSIGN_OR_RETURN(const Cnf cnf, EncodeCnf(*encoder, spec, n));
      // Open cells: next to a tree and not one.
      std::vector<uint8_t> open(n, 0);
      for (int tree : board.trees) {
        const int r = tree / cols, c = tree % cols;
        for (const auto& d : kOrthogonal) {
          const int rr = r + d[0], cc = c + d[1];
          if (rr >= 0 && rr < rows && cc >= 0 && cc < cols)
            open[rr * cols + cc] = 1;
        }
      }
      for (int tree : board.trees) open[tree] = 0;
      const std::vector<int8_t> propagated = Propagate(cnf, {});
      int open_cells = 0, decided = 0;
      for (int cell = 0; cell < n; ++cell) {
        if (!open[cell]) continue;
        ++open_cells;
        if (!propagated.empty() && propagated[cell] >= 0) ++decided;
      }
      const double fraction =
          open_cells == 0 ? 1.0 : static_cast<double>(decided) / open_cells;
      if (fraction < required) continue;
      // Hard: propagation alone must leave part of the board open.
      if (options.difficulty == v1::DIFFICULTY_HARD && fraction >= 1.0)
        continue;
      ASSIGN_OR_RETURN(
          const bool unique,
          HasExactlyOneSolution(cnf, "tents", interrupter, &out.sat_calls));
      if (!unique) continue;
      out.puzzle = std::move(spec);
      out.solution = std::move(board.tent);
      out.clues = static_cast<int>(board.trees.size());
      out.clues_at_start = out.clues;
      out.propagation_decided = fraction;
      return out;
    }
    return absl::ResourceExhaustedError(
        absl::StrCat("no ", rows, "x", cols,
                     " tents board with a unique "
                     "solution at this difficulty in ",
                     kMaxAttempts, " draws"));
  }
};

}  // namespace

std::unique_ptr<PuzzleGenerator> NewTentsGenerator() {
  return std::make_unique<TentsGenerator>();
}

}  // namespace qs
