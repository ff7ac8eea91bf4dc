// Cross-check of the two formulations of every family that has Boolean rules
// (core/exact): on small generated boards, the ground states of the reduced
// QUBO found by exact enumeration (core/sample/exact/brute_force_sampler.h),
// expanded to full-model assignments, are exactly the solutions of the
// family's CNF ([Bryant 2019]'s encodings, without the rules no QUBO term
// states) enumerated by CaDiCaL; a board with no solution has no ground state
// at the compiled ground energy. With every rule on (Takuzu's unique rows and
// columns), the CNF's solutions are the QUBO's ground states the validator
// accepts (Tents: the ground states of eq. 22 that keep the one-to-one
// pairing of tents and trees). The boards are the generators' puzzles
// (core/generate), then the same puzzles with clues taken away one at a time,
// or regions or counts changed, so that the cases range from one solution to
// many and none; Coloured Chess boards are random 4x4 ones.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "core/base/rng.h"
#include "core/base/worker_pool.h"
#include "core/compile/registry.h"
#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/sample/exact/brute_force_sampler.h"
#include "core/solve/builtin_backends.h"
#include "core/solve/solve_engine.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

// Reduced models up to this size are enumerated (2^22 assignments each).
constexpr int kMaxEnumerated = 22;

using BoardSet = std::set<std::vector<uint8_t>>;

class CrossCheckTest : public ::testing::Test {
 protected:
  CrossCheckTest() : pool_(2) {
    BackendOptions options;
    options.pool = &pool_;
    EXPECT_OK(RegisterBuiltinBackends(samplers_, options));
    engine_ = std::make_unique<SolveEngine>(&BuiltinCompilers(), &samplers_,
                                            SolveLimits());
  }

  std::vector<v1::PuzzleSpec> Generated(const std::string& family, int rows,
                                        int count, uint64_t seed) {
    v1::GenerateRequest request;
    request.set_family(family);
    request.set_rows(rows);
    request.set_count(count);
    request.set_seed(seed);
    std::vector<v1::PuzzleSpec> specs;
    Interrupter interrupter;
    EXPECT_OK(engine_->Generate(
        request, interrupter,
        [&](v1::GeneratedPuzzle&& p) { specs.push_back(p.puzzle()); }));
    EXPECT_EQ(specs.size(), static_cast<size_t>(count));
    return specs;
  }

  // Compares the two sets for `spec`; false when the reduced model is too
  // large to enumerate (nothing compared).
  bool Compare(const v1::PuzzleSpec& spec) {
    auto compiler = BuiltinCompilers().ForSpec(spec);
    EXPECT_OK(compiler);
    v1::CompileOptions options;
    options.set_reduction(v1::REDUCTION_FULL);
    auto problem = (*compiler)->Compile(spec, options);
    EXPECT_OK(problem) << spec.ShortDebugString();
    if (!problem.ok()) return false;
    if (problem->model.num_variables() > kMaxEnumerated) return false;
    EXPECT_TRUE(problem->ground_energy.has_value());

    auto ground = FindGroundStates(problem->model, 1 << 20, &pool_);
    EXPECT_OK(ground);
    BoardSet qubo;
    if (std::abs(ground->energy - *problem->ground_energy) < 1e-6) {
      EXPECT_EQ(ground->count, static_cast<int64_t>(ground->states.size()));
      for (const auto& state : ground->states)
        qubo.insert(problem->variables.Expand(state));
    } else {
      // No assignment reaches the energy of a valid board.
      EXPECT_GT(ground->energy, *problem->ground_energy);
    }

    auto encoder = BuiltinEncoders().ForSpec(spec);
    EXPECT_OK(encoder);
    const int full = problem->variables.num_full();
    EncodeOptions qubo_rules;
    qubo_rules.rules_beyond_qubo = false;
    const BoardSet cnf = Solutions(**encoder, spec, full, qubo_rules);
    EXPECT_EQ(cnf, qubo) << spec.ShortDebugString();

    // Every rule: the ground states the validator accepts.
    const BoardSet strict = Solutions(**encoder, spec, full, EncodeOptions());
    BoardSet accepted;
    for (const auto& board : qubo) {
      auto report = (*compiler)->Validate(
          spec, (*compiler)->Decode(spec, *problem, board));
      EXPECT_OK(report);
      if (report.ok() && report->valid()) accepted.insert(board);
    }
    EXPECT_EQ(strict, accepted) << spec.ShortDebugString();
    rejected_ground_states_ +=
        static_cast<int64_t>(qubo.size() - accepted.size());
    solutions_ += cnf.size();
    ++compared_;
    return true;
  }

  static BoardSet Solutions(const RulesEncoder& encoder,
                            const v1::PuzzleSpec& spec, int full,
                            const EncodeOptions& options) {
    auto cnf = EncodeCnf(encoder, spec, full, options);
    EXPECT_OK(cnf);
    BoardSet boards;
    const Enumeration all = EnumerateSolutions(
        *cnf, 1 << 20,
        [&](std::vector<uint8_t> board) { boards.insert(std::move(board)); });
    EXPECT_TRUE(all.complete);
    return boards;
  }

  // The puzzle, then the puzzle with `clues` taken away one at a time in a
  // random order (each step passes its spec to Compare).
  void CompareWhileRemoving(
      v1::PuzzleSpec spec, int clues, uint64_t seed,
      const std::function<void(v1::PuzzleSpec&, int)>& remove) {
    Compare(spec);
    std::vector<int> order(clues);
    for (int i = 0; i < clues; ++i) order[i] = i;
    Xoshiro256 rng(seed);
    for (int i = clues - 1; i > 0; --i)
      std::swap(order[i], order[rng.NextBelow(i + 1)]);
    for (int clue : order) {
      remove(spec, clue);
      Compare(spec);
    }
  }

  void Report(const char* family) {
    std::printf("%s: %d boards compared, %lld solutions in all\n", family,
                compared_, static_cast<long long>(solutions_));
  }

  WorkerPool pool_;
  BackendRegistry samplers_;
  std::unique_ptr<SolveEngine> engine_;
  int compared_ = 0;
  int64_t solutions_ = 0;
  // Ground states the validator rejects (rules no QUBO term states).
  int64_t rejected_ground_states_ = 0;
};

TEST_F(CrossCheckTest, Sudoku) {
  uint64_t seed = 1;
  for (const v1::PuzzleSpec& generated : Generated("sudoku", 4, 3, 11)) {
    // The full grid first: the generated puzzle's solution as givens.
    v1::PuzzleSpec grid = generated;
    const BoardSet one =
        Solutions(**BuiltinEncoders().ForSpec(grid), grid, 64, EncodeOptions());
    ASSERT_EQ(one.size(), 1u);
    for (int cell = 0; cell < 16; ++cell) {
      for (int d = 0; d < 4; ++d) {
        if ((*one.begin())[cell * 4 + d])
          grid.mutable_sudoku()->set_cells(cell, d + 1);
      }
    }
    CompareWhileRemoving(grid, 16, ++seed, [](v1::PuzzleSpec& s, int cell) {
      s.mutable_sudoku()->set_cells(cell, 0);
    });
  }
  // Givens that share no unit but leave cell (1,3) no digit: no ground
  // state at the valid energy, no solution.
  v1::PuzzleSpec clash;
  clash.mutable_sudoku()->set_box_size(2);
  for (int d : {1, 2, 0, 0, 3, 4, 0, 0, 4, 0, 3, 0, 2, 0, 4, 0})
    clash.mutable_sudoku()->add_cells(d);
  ASSERT_TRUE(Compare(clash));
  Report("sudoku 4x4");
  EXPECT_GE(compared_, 20);
}

TEST_F(CrossCheckTest, Queens) {
  // Plain N-queens on the plane and on a torus (unreduced: N^2 variables).
  for (int n = 1; n <= 4; ++n) {
    v1::PuzzleSpec spec;
    spec.mutable_queens()->set_rows(n);
    EXPECT_TRUE(Compare(spec));
    spec.mutable_queens()->set_topology(v1::QUEENS_TOPOLOGY_TORUS);
    EXPECT_TRUE(Compare(spec));
    spec.mutable_queens()->set_topology(v1::QUEENS_TOPOLOGY_CYLINDER);
    EXPECT_TRUE(Compare(spec));
  }
  // LinkedIn Queens (adjacent-diagonal attacks and colour regions), then the
  // same with one cell moved to its neighbour's region, then without regions.
  uint64_t seed = 5;
  for (const v1::PuzzleSpec& generated : Generated("queens", 4, 4, 21)) {
    ASSERT_TRUE(Compare(generated));
    Xoshiro256 rng(++seed);
    for (int change = 0; change < 6; ++change) {
      v1::PuzzleSpec moved = generated;
      const int cell = static_cast<int>(rng.NextBelow(16));
      const int neighbour = cell % 4 < 3 ? cell + 1 : cell - 1;
      moved.mutable_queens()->set_regions(
          cell, generated.queens().regions(neighbour));
      Compare(moved);
    }
    v1::PuzzleSpec no_regions = generated;
    no_regions.mutable_queens()->clear_regions();
    EXPECT_TRUE(Compare(no_regions));
  }
  Report("queens");
  EXPECT_GE(compared_, 20);
}

void RemoveTakuzuClue(v1::PuzzleSpec& spec, int clue) {
  v1::TakuzuPuzzle& t = *spec.mutable_takuzu();
  if (clue < t.cells_size()) {
    t.set_cells(clue, v1::TakuzuPuzzle::BLANK);
    return;
  }
  // Clue numbers past the cells stand for the signs, taken from the end.
  if (!t.signs().empty()) t.mutable_signs()->RemoveLast();
}

TEST_F(CrossCheckTest, Takuzu) {
  // The empty boards: every ground state of the QUBO is a balanced,
  // triple-free board; unique lines cut some of them.
  for (int n : {2, 4}) {
    v1::PuzzleSpec empty;
    empty.mutable_takuzu()->set_rows(n);
    empty.mutable_takuzu()->set_cols(n);
    empty.mutable_takuzu()->mutable_cells()->Resize(n * n, 0);
    EXPECT_TRUE(Compare(empty));
  }
  uint64_t seed = 9;
  for (const std::string family : {"takuzu", "tango"}) {
    for (int rows : {4, 6}) {
      for (const v1::PuzzleSpec& generated :
           Generated(family, rows, 2, 31 + rows)) {
        const int cells = generated.takuzu().cells_size();
        const int signs = generated.takuzu().signs_size();
        // Cells in a random order first, then the signs from the last one.
        v1::PuzzleSpec spec = generated;
        CompareWhileRemoving(spec, cells, ++seed, RemoveTakuzuClue);
        v1::PuzzleSpec blank = generated;
        for (int cell = 0; cell < cells; ++cell)
          blank.mutable_takuzu()->set_cells(cell, v1::TakuzuPuzzle::BLANK);
        for (int s = 0; s < signs; ++s) {
          RemoveTakuzuClue(blank, cells);
          Compare(blank);
        }
      }
    }
  }
  Report("takuzu / tango");
  EXPECT_GE(compared_, 40);
}

TEST_F(CrossCheckTest, Tents) {
  // Generated 4x4 and 5x5 boards (one arrangement each), then the same trees
  // with two rows' or two columns' counts swapped, and with one tree moved to
  // a free cell: boards with none, one or several arrangements, and ground
  // states of eq. 22 that break the one-to-one pairing of tents and trees.
  uint64_t seed = 13;
  for (int rows : {4, 5}) {
    for (const v1::PuzzleSpec& generated : Generated("tents", rows, 6, 41)) {
      ASSERT_TRUE(Compare(generated));
      const v1::TentsPuzzle& t = generated.tents();
      const int n = rows * rows;
      Xoshiro256 rng(++seed);
      for (int change = 0; change < 6; ++change) {
        v1::PuzzleSpec changed = generated;
        v1::TentsPuzzle& c = *changed.mutable_tents();
        const int a = static_cast<int>(rng.NextBelow(rows));
        const int b = static_cast<int>(rng.NextBelow(rows));
        if (change % 2 == 0) {
          c.set_row_counts(a, t.row_counts(b));
          c.set_row_counts(b, t.row_counts(a));
        } else {
          c.set_col_counts(a, t.col_counts(b));
          c.set_col_counts(b, t.col_counts(a));
        }
        Compare(changed);
        v1::PuzzleSpec moved = generated;
        const int tree = static_cast<int>(rng.NextBelow(t.trees_size()));
        int to = static_cast<int>(rng.NextBelow(n));
        while (std::find(t.trees().begin(), t.trees().end(), to) !=
               t.trees().end())
          to = (to + 1) % n;
        moved.mutable_tents()->set_trees(tree, to);
        Compare(moved);
      }
    }
  }
  // Three trees on the middle row of a 3x5 board, A.A.A: eq. 22 is at its
  // minimum with one tent between the first two trees and two around the
  // third, the only board its counts allow, which the validator rejects and
  // the pairing rule excludes.
  v1::PuzzleSpec shared;
  v1::TentsPuzzle& s = *shared.mutable_tents();
  s.set_rows(3);
  s.set_cols(5);
  for (int tree : {5, 7, 9}) s.add_trees(tree);
  for (int count : {1, 1, 1}) s.add_row_counts(count);
  for (int count : {0, 1, 0, 0, 2}) s.add_col_counts(count);
  ASSERT_TRUE(Compare(shared));
  Report("tents");
  std::printf("tents: %lld ground states of eq. 22 break the pairing\n",
              static_cast<long long>(rejected_ground_states_));
  EXPECT_GE(compared_, 40);
  EXPECT_GT(rejected_ground_states_, 0);
}

// A random Coloured Chess Piece Problem on a 4x4 board: every cell takes a
// piece of one of `types` standard types (or one type everywhere), and
// `regions` regions grown from random seeds cover the board.
v1::PuzzleSpec RandomColouredChess(Xoshiro256& rng, int types, int regions) {
  constexpr int kSide = 4, kCells = kSide * kSide;
  v1::PuzzleSpec spec;
  v1::ChessPuzzle& chess = *spec.mutable_chess();
  chess.set_rows(kSide);
  chess.set_variant(v1::CHESS_COLOURED);
  for (int t = 0; t < types; ++t) {
    chess.add_pieces()->set_standard(
        static_cast<v1::StandardPiece>(1 + (t + rng.NextBelow(5)) % 5));
  }
  if (types > 1) {
    for (int cell = 0; cell < kCells; ++cell)
      chess.add_cell_pieces(1 + static_cast<uint32_t>(rng.NextBelow(types)));
  }
  std::vector<int> region(kCells, -1);
  for (int id = 0; id < regions; ++id) {
    int cell = static_cast<int>(rng.NextBelow(kCells));
    while (region[cell] >= 0) cell = (cell + 1) % kCells;
    region[cell] = id;
  }
  // Each open cell joins the region of a random side neighbour that has one.
  for (int filled = regions; filled < kCells;) {
    const int cell = static_cast<int>(rng.NextBelow(kCells));
    if (region[cell] >= 0) continue;
    std::vector<int> sides;
    const int r = cell / kSide, c = cell % kSide;
    if (r > 0 && region[cell - kSide] >= 0) sides.push_back(cell - kSide);
    if (r + 1 < kSide && region[cell + kSide] >= 0)
      sides.push_back(cell + kSide);
    if (c > 0 && region[cell - 1] >= 0) sides.push_back(cell - 1);
    if (c + 1 < kSide && region[cell + 1] >= 0) sides.push_back(cell + 1);
    if (sides.empty()) continue;
    region[cell] = region[sides[rng.NextBelow(sides.size())]];
    ++filled;
  }
  for (int id : region) chess.add_regions(static_cast<uint32_t>(id));
  return spec;
}

TEST_F(CrossCheckTest, ColouredChess) {
  // Queens, rooks, knights, kings or bishops everywhere, then mixed piece
  // types; 3 to 5 regions; then the same boards with one piece placed.
  Xoshiro256 rng(17);
  int with_solutions = 0, placed = 0;
  for (int board = 0; board < 60; ++board) {
    const int types = board < 20 ? 1 : 1 + board % 3;
    const v1::PuzzleSpec spec = RandomColouredChess(rng, types, 3 + board % 3);
    const int64_t before = solutions_;
    ASSERT_TRUE(Compare(spec)) << spec.ShortDebugString();
    if (solutions_ == before) continue;
    ++with_solutions;
    // A piece placed on the first solution's cell in region 0 keeps at least
    // that solution.
    const BoardSet all =
        Solutions(**BuiltinEncoders().ForSpec(spec), spec, 16, EncodeOptions());
    const std::vector<uint8_t>& first = *all.begin();
    for (int cell = 0; cell < 16; ++cell) {
      if (first[cell] && spec.chess().regions(cell) == 0) {
        v1::PuzzleSpec with_piece = spec;
        with_piece.mutable_chess()->add_placed(cell);
        ASSERT_TRUE(Compare(with_piece));
        ++placed;
      }
    }
  }
  Report("coloured chess 4x4");
  std::printf(
      "coloured chess: %d boards with solutions, %d with a placed piece\n",
      with_solutions, placed);
  EXPECT_GE(with_solutions, 10);
  EXPECT_EQ(placed, with_solutions);

  // The Max problem asks for an optimum: no rules to encode.
  v1::PuzzleSpec max;
  max.mutable_chess()->set_rows(4);
  max.mutable_chess()->set_variant(v1::CHESS_MAX);
  max.mutable_chess()->add_pieces()->set_standard(v1::PIECE_QUEEN);
  auto encoder = BuiltinEncoders().ForSpec(max);
  ASSERT_OK(encoder);
  EXPECT_EQ(EncodeCnf(**encoder, max, 16).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace qs
