// The exact engines on whole puzzles (core/exact/exact_solver.h): N-queens
// counts against the known sequence (OEIS A000170) with BuDDy and with CaDiCaL
// enumeration, toroidal N-queens counts and the statement of
// [Bryant 2019] / [Mata Ali & Mencia 2024] §2.3.5 that a torus of side N has
// solutions exactly when the smallest prime factor of N is at least 5,
// uniqueness of the NYT Sudoku, and the size of the N-queens encodings against
// [Bryant 2019]'s Table 1 (11 N^2 Boolean operations for the one-hot encoding),
// and Tents, whose pairing of tents and trees needs auxiliary variables: its
// counts are of boards (not of pairings), by CaDiCaL enumeration, against the
// stored sgt-tents puzzles and a backtracking oracle; the Coloured Chess
// Piece Problem with one region per row, which is 8-queens (or 8 rooks).
#include "core/exact/exact_solver.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "core/base/rng.h"
#include "core/compile/registry.h"
#include "core/exact/encoder.h"
#include "core/families/builtin.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/tents_data.h"
#include "tests/testing/tents_oracle.h"

namespace qs {
namespace {

v1::PuzzleSpec NQueens(int n, v1::QueensTopology topology) {
  v1::PuzzleSpec spec;
  spec.mutable_queens()->set_rows(n);
  spec.mutable_queens()->set_topology(topology);
  return spec;
}

v1::PuzzleSpec Sudoku9(const std::string& grid) {
  v1::PuzzleSpec spec;
  spec.mutable_sudoku()->set_box_size(3);
  for (char c : grid) spec.mutable_sudoku()->add_cells(c == '.' ? 0 : c - '0');
  return spec;
}

CountResult Count(const v1::PuzzleSpec& spec, CountMethod method,
                  uint64_t limit = 1 << 20) {
  auto encoder = BuiltinEncoders().ForSpec(spec);
  EXPECT_OK(encoder);
  auto compiler = BuiltinCompilers().ForSpec(spec);
  EXPECT_OK(compiler);
  auto count = CountRuleSolutions(
      **encoder, spec, static_cast<int>((*compiler)->ModelVariables(spec)),
      limit, method, /*interrupter=*/nullptr);
  EXPECT_OK(count);
  return *count;
}

int SmallestPrimeFactor(int n) {
  for (int p = 2; p * p <= n; ++p) {
    if (n % p == 0) return p;
  }
  return n;
}

TEST(ExactSolverTest, NQueensCountsMatchTheKnownSequence) {
  const std::vector<uint64_t> known = {1,  0,  0,   2,   10,   4,
                                       40, 92, 352, 724, 2680, 14200};
  for (int n = 1; n <= 12; ++n) {
    const CountResult bdd =
        Count(NQueens(n, v1::QUEENS_TOPOLOGY_PLANE), CountMethod::kBdd);
    EXPECT_EQ(bdd.method, CountMethod::kBdd);
    EXPECT_TRUE(bdd.complete);
    EXPECT_EQ(bdd.count, known[n - 1]) << "N = " << n;
    EXPECT_EQ(bdd.status, known[n - 1] > 0 ? SatResult::kSatisfiable
                                           : SatResult::kUnsatisfiable);
  }
  // Enumeration with blocking clauses must agree where it is cheap.
  for (int n = 1; n <= 9; ++n) {
    const CountResult sat =
        Count(NQueens(n, v1::QUEENS_TOPOLOGY_PLANE), CountMethod::kSat);
    EXPECT_EQ(sat.method, CountMethod::kSat);
    EXPECT_TRUE(sat.complete);
    EXPECT_EQ(sat.count, known[n - 1]) << "N = " << n;
  }
}

TEST(ExactSolverTest, ToroidalBoardsNeedSmallestPrimeFactorAtLeastFive) {
  EXPECT_EQ(
      Count(NQueens(5, v1::QUEENS_TOPOLOGY_TORUS), CountMethod::kAuto).count,
      10u);
  EXPECT_EQ(
      Count(NQueens(7, v1::QUEENS_TOPOLOGY_TORUS), CountMethod::kAuto).count,
      28u);
  EXPECT_EQ(
      Count(NQueens(11, v1::QUEENS_TOPOLOGY_TORUS), CountMethod::kAuto).count,
      88u);
  for (int n = 2; n <= 12; ++n) {
    const CountResult count =
        Count(NQueens(n, v1::QUEENS_TOPOLOGY_TORUS), CountMethod::kAuto);
    ASSERT_TRUE(count.complete) << "N = " << n;
    std::printf("toroidal N = %2d: %llu solutions (smallest prime factor %d)\n",
                n, static_cast<unsigned long long>(count.count),
                SmallestPrimeFactor(n));
    EXPECT_EQ(count.count > 0, SmallestPrimeFactor(n) >= 5) << "N = " << n;
  }
}

TEST(ExactSolverTest, NytSudokuIsUnique) {
  const v1::PuzzleSpec spec = Sudoku9(
      ".......2.....9..4....3.2..76.51....8...7.51...3.2....5.9..7...3.8....."
      "9...4..65..");
  auto encoder = BuiltinEncoders().ForSpec(spec);
  ASSERT_OK(encoder);
  std::vector<std::vector<uint8_t>> boards;
  auto solved = SolveRules(
      **encoder, spec, 729, /*max_solutions=*/2,
      [&](std::vector<uint8_t> board) { boards.push_back(std::move(board)); });
  ASSERT_OK(solved);
  EXPECT_EQ(solved->enumeration.status, SatResult::kSatisfiable);
  EXPECT_TRUE(solved->enumeration.complete);
  EXPECT_EQ(solved->enumeration.found, 1);
  ASSERT_EQ(boards.size(), 1u);
  // The board is a full-model assignment: one digit per cell.
  int ones = 0;
  for (uint8_t bit : boards[0]) ones += bit;
  EXPECT_EQ(ones, 81);
  // Without one of its clues the puzzle is no longer unique.
  const CountResult count = Count(spec, CountMethod::kSat);
  EXPECT_EQ(count.count, 1u);
  EXPECT_TRUE(count.complete);
}

TEST(ExactSolverTest, ContradictoryCluesAreProvenInfeasible) {
  // Two 5s in the first row.
  const v1::PuzzleSpec spec = Sudoku9(std::string("55") + std::string(79, '.'));
  auto encoder = BuiltinEncoders().ForSpec(spec);
  ASSERT_OK(encoder);
  auto solved = SolveRules(**encoder, spec, 729, 2, [](std::vector<uint8_t>) {
    ADD_FAILURE() << "no board keeps the rules";
  });
  ASSERT_OK(solved);
  EXPECT_EQ(solved->enumeration.status, SatResult::kUnsatisfiable);
  EXPECT_TRUE(solved->enumeration.complete);
}

// Seed 002's Table 1 counts 11 N^2 Boolean operations for the one-hot
// encoding (its terms of order N^2 only). The CNF's clauses stay below 12 N^2
// (about 12 N^2 - 22 N: ladders of 3k - 4 clauses per line) and the BDD
// construction's operations below 14 N^2 (its linear terms included): both
// Theta(N^2), where the pairwise clauses would be Theta(N^3).
TEST(ExactSolverTest, NQueensEncodingsAreQuadratic) {
  std::printf(
      "   N  clauses  clauses/N^2  aux vars  BDD ops  ops/N^2  BDD nodes  "
      "(Table 1: 11 N^2)\n");
  for (int n : {4, 6, 8, 10, 12, 16, 20, 24, 32, 48}) {
    const v1::PuzzleSpec spec = NQueens(n, v1::QUEENS_TOPOLOGY_PLANE);
    auto encoder = BuiltinEncoders().ForSpec(spec);
    ASSERT_OK(encoder);
    auto cnf = EncodeCnf(**encoder, spec, n * n);
    ASSERT_OK(cnf);
    const EncodingStats stats = cnf->Stats();
    const double n2 = static_cast<double>(n) * n;
    std::string bdd = "       -        -          -";
    if (n <= 10) {
      const CountResult counted = Count(spec, CountMethod::kBdd);
      bdd = absl::StrFormat(
          "%8lld %8.2f %10lld",
          static_cast<long long>(counted.encoding.bdd_operations),
          counted.encoding.bdd_operations / n2,
          static_cast<long long>(counted.encoding.bdd_nodes));
      EXPECT_LE(counted.encoding.bdd_operations, 14 * n2) << "N = " << n;
    }
    std::printf("%4d %8lld %12.2f %9d %s\n", n,
                static_cast<long long>(stats.clauses), stats.clauses / n2,
                stats.auxiliary_variables, bdd.c_str());
    EXPECT_LT(stats.clauses, 12 * n2) << "N = " << n;
    EXPECT_LT(stats.auxiliary_variables, 4 * n2) << "N = " << n;
  }
}

TEST(ExactSolverTest, TentsCountsBoardsNotPairings) {
  // Four trees around the centre of a 3x3 board, a tent in each corner: one
  // board, two ways to pair its tents and trees (round either way).
  const testing::TentsGame ring =
      testing::GameFromTrees(".A./A.A/.A.", {2, 0, 2}, {2, 0, 2});
  const CountResult counted =
      Count(testing::TentsSpec(ring), CountMethod::kAuto);
  EXPECT_EQ(counted.method, CountMethod::kSat);
  EXPECT_EQ(counted.count, 1u);
  EXPECT_TRUE(counted.complete);
  // Eight pairing variables beside the nine cells.
  EXPECT_EQ(counted.encoding.primary_variables, 9);
  EXPECT_GE(counted.encoding.auxiliary_variables, 8);

  // A BDD has no auxiliaries: the method is refused.
  auto encoder = BuiltinEncoders().ForSpec(testing::TentsSpec(ring));
  ASSERT_OK(encoder);
  EXPECT_EQ(CountRuleSolutions(**encoder, testing::TentsSpec(ring), 9, 10,
                               CountMethod::kBdd, nullptr)
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(ExactSolverTest, TentsCountsMatchTheOracle) {
  const auto stored = testing::ReadStoredTentsPuzzles();
  ASSERT_EQ(stored.size(), 20u) << testing::TentsDataPath();
  auto encoder = BuiltinEncoders().ForSpec(
      testing::TentsSpec(testing::GameFromSolvedBoard(stored[0].solution)));
  ASSERT_OK(encoder);
  uint64_t several = 0;
  for (const auto& p : stored) {
    SCOPED_TRACE(p.id);
    std::vector<uint8_t> tents;
    const testing::TentsGame game =
        testing::GameFromSolvedBoard(p.solution, &tents);
    const v1::PuzzleSpec spec = testing::TentsSpec(game);
    // The stored puzzle: unique, and CaDiCaL's board is the stored one.
    std::vector<std::vector<uint8_t>> found;
    auto solved = SolveRules(
        **encoder, spec, game.size(), 2,
        [&](std::vector<uint8_t> board) { found.push_back(std::move(board)); });
    ASSERT_OK(solved);
    EXPECT_TRUE(solved->enumeration.complete);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0], tents);
    // The same trees with the first and last rows' counts exchanged, and
    // with the first two columns' counts exchanged: as many boards as the
    // oracle finds (none, one or several).
    testing::TentsGame rows = game;
    std::swap(rows.row_counts.front(), rows.row_counts.back());
    testing::TentsGame cols = game;
    std::swap(cols.col_counts[0], cols.col_counts[1]);
    for (const testing::TentsGame& changed : {rows, cols}) {
      const uint64_t oracle = testing::SolveTents(changed, 1000).size();
      const CountResult counted =
          Count(testing::TentsSpec(changed), CountMethod::kAuto);
      EXPECT_TRUE(counted.complete);
      EXPECT_EQ(counted.count, oracle);
      several += oracle > 1;
    }
  }
  // Random 6x6 boards: tents dropped where they touch no other, each with a
  // tree on a free side, the counts theirs. Most have several solutions.
  Xoshiro256 rng(99);
  uint64_t largest = 0;
  for (int board = 0; board < 200; ++board) {
    testing::TentsGame game;
    game.rows = game.cols = 6;
    game.tree.assign(36, 0);
    std::vector<uint8_t> tents(36, 0);
    for (int tries = 0; tries < 60; ++tries) {
      const int cell = static_cast<int>(rng.NextBelow(36));
      bool free = !game.tree[cell];
      for (int other = 0; other < 36 && free; ++other)
        free = !(tents[other] && (other == cell || game.Touch(cell, other)));
      if (!free) continue;
      std::vector<int> sides;
      for (int other = 0; other < 36; ++other) {
        if (game.Orthogonal(cell, other) && !game.tree[other] && !tents[other])
          sides.push_back(other);
      }
      if (sides.empty()) continue;
      tents[cell] = 1;
      game.tree[sides[rng.NextBelow(sides.size())]] = 1;
    }
    game.row_counts.assign(6, 0);
    game.col_counts.assign(6, 0);
    for (int cell = 0; cell < 36; ++cell) {
      game.row_counts[cell / 6] += tents[cell];
      game.col_counts[cell % 6] += tents[cell];
    }
    const uint64_t oracle = testing::SolveTents(game, 100000).size();
    const CountResult counted =
        Count(testing::TentsSpec(game), CountMethod::kAuto);
    ASSERT_TRUE(counted.complete);
    EXPECT_EQ(counted.count, oracle) << testing::TentsBoardString(game, tents);
    several += oracle > 1;
    largest = std::max(largest, oracle);
  }
  std::printf(
      "tents: %llu boards with several solutions, at most %llu solutions\n",
      static_cast<unsigned long long>(several),
      static_cast<unsigned long long>(largest));
  EXPECT_GT(several, 20u);
}

TEST(ExactSolverTest, ColouredChessWithRowRegionsCountsLikeNQueens) {
  // One region per row: queens give the 8-queens count, rooks the 8!
  // permutations; both engines agree.
  for (const auto& [piece, expected] :
       {std::pair<v1::StandardPiece, uint64_t>{v1::PIECE_QUEEN, 92},
        std::pair<v1::StandardPiece, uint64_t>{v1::PIECE_ROOK, 40320}}) {
    v1::PuzzleSpec spec;
    v1::ChessPuzzle& chess = *spec.mutable_chess();
    chess.set_rows(8);
    chess.set_variant(v1::CHESS_COLOURED);
    chess.add_pieces()->set_standard(piece);
    for (int cell = 0; cell < 64; ++cell) chess.add_regions(cell / 8);
    const CountResult bdd = Count(spec, CountMethod::kAuto);
    EXPECT_EQ(bdd.method, CountMethod::kBdd);
    EXPECT_EQ(bdd.count, expected);
    EXPECT_TRUE(bdd.complete);
    const CountResult sat = Count(spec, CountMethod::kSat);
    EXPECT_EQ(sat.count, expected);
    EXPECT_TRUE(sat.complete);
  }
}

}  // namespace
}  // namespace qs
