// Energy tests of the queens QUBOs of [Mata Ali & Mencia 2024] §2.1-2.4
// (eq. 1-21): the 8-queens model term by term, ground energies of valid boards
// and higher energies for every single change, exact ground states equal to the
// valid boards found from the rules alone (N-queens, LinkedIn Queens with
// regions and givens, torus, cylinder, counts, two-value regions, distances,
// attack sets, masks, overlapping and soft regions), the reduction stages and
// eq. 9's dropped region term, decoding, validation and bad input.
#include "core/families/queens/queens.h"

#include <cstdlib>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "core/base/worker_pool.h"
#include "core/compile/registry.h"
#include "core/families/builtin.h"
#include "core/sample/exact/brute_force_sampler.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::HasSubstr;

using Board = std::vector<uint8_t>;  // row-major 0/1

// Board order written out: GCC 12 warns (falsely) about the memcmp that
// std::less<vector<uint8_t>> inlines.
struct BoardLess {
  bool operator()(const Board& a, const Board& b) const {
    if (a.size() != b.size()) return a.size() < b.size();
    for (size_t k = 0; k < a.size(); ++k) {
      if (a[k] != b[k]) return a[k] < b[k];
    }
    return false;
  }
};
using BoardSet = std::set<Board, BoardLess>;

// The rules of a test board, stated independently of
// core/families/queens/queens.cc.
struct Rules {
  int rows = 0;
  int cols = 0;
  std::vector<bool> masked;
  std::vector<std::pair<int, int>>
      row_range;  // allowed queens per row [low, high]
  std::vector<std::pair<int, int>> col_range;
  std::vector<std::vector<int>> groups;  // regions as cell lists
  std::vector<std::pair<int, int>> group_range;
  // Whether queens on (r1, c1) and (r2, c2) may not both stand.
  std::function<bool(int, int, int, int)> conflict = [](int, int, int, int) {
    return false;
  };
  std::vector<int> givens;
};

bool Valid(const Rules& rules, const Board& board) {
  const int n = rules.rows * rules.cols;
  auto in = [](int k, std::pair<int, int> range) {
    return k >= range.first && k <= range.second;
  };
  for (int cell = 0; cell < n; ++cell) {
    if (!rules.masked.empty() && rules.masked[cell] && board[cell])
      return false;
  }
  for (int cell : rules.givens) {
    if (!board[cell]) return false;
  }
  for (int r = 0; r < rules.rows; ++r) {
    int k = 0;
    for (int c = 0; c < rules.cols; ++c) k += board[r * rules.cols + c];
    if (!in(k, rules.row_range[r])) return false;
  }
  for (int c = 0; c < rules.cols; ++c) {
    int k = 0;
    for (int r = 0; r < rules.rows; ++r) k += board[r * rules.cols + c];
    if (!in(k, rules.col_range[c])) return false;
  }
  for (size_t g = 0; g < rules.groups.size(); ++g) {
    int k = 0;
    for (int cell : rules.groups[g]) k += board[cell];
    if (!in(k, rules.group_range[g])) return false;
  }
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n && board[a]; ++b) {
      if (board[b] && rules.conflict(a / rules.cols, a % rules.cols,
                                     b / rules.cols, b % rules.cols))
        return false;
    }
  }
  return true;
}

// Every valid board: rows filled one at a time with any subset whose size the
// row allows, cutting off partial boards that already overfill a column or hold
// a conflicting pair.
BoardSet ValidBoards(const Rules& rules) {
  BoardSet boards;
  Board board(rules.rows * rules.cols, 0);
  std::vector<int> column_count(rules.cols, 0);
  auto row_fits = [&](int row) {
    for (int c = 0; c < rules.cols; ++c) {
      if (column_count[c] > rules.col_range[c].second) return false;
    }
    for (int c = 0; c < rules.cols; ++c) {
      if (!board[row * rules.cols + c]) continue;
      for (int b = 0; b < row * rules.cols + c; ++b) {
        if (board[b] && rules.conflict(b / rules.cols, b % rules.cols, row, c))
          return false;
      }
    }
    return true;
  };
  auto fill = [&](auto&& self, int row) -> void {
    if (row == rules.rows) {
      if (Valid(rules, board)) boards.insert(board);
      return;
    }
    for (int subset = 0; subset < (1 << rules.cols); ++subset) {
      const int k = __builtin_popcount(subset);
      if (k < rules.row_range[row].first || k > rules.row_range[row].second)
        continue;
      for (int c = 0; c < rules.cols; ++c) {
        board[row * rules.cols + c] = (subset >> c) & 1;
        column_count[c] += (subset >> c) & 1;
      }
      if (row_fits(row)) self(self, row + 1);
      for (int c = 0; c < rules.cols; ++c) {
        column_count[c] -= (subset >> c) & 1;
        board[row * rules.cols + c] = 0;
      }
    }
  };
  fill(fill, 0);
  return boards;
}

bool SameModel(const Qubo& a, const Qubo& b) {
  return a.num_variables() == b.num_variables() && a.offset() == b.offset() &&
         a.linear_terms() == b.linear_terms() &&
         a.QuadraticTerms() == b.QuadraticTerms();
}

Rules SquareRules(int n) {
  Rules rules;
  rules.rows = rules.cols = n;
  rules.row_range.assign(n, {1, 1});
  rules.col_range.assign(n, {1, 1});
  return rules;
}

int Mod(int a, int m) { return ((a % m) + m) % m; }

bool PlaneDiagonal(int r1, int c1, int r2, int c2) {
  return std::abs(r1 - r2) == std::abs(c1 - c2);
}
bool Adjacent(int r1, int c1, int r2, int c2) {
  return std::abs(r1 - r2) == 1 && std::abs(c1 - c2) == 1;
}

v1::PuzzleSpec NQueensSpec(int n) {
  v1::PuzzleSpec spec;
  spec.mutable_queens()->set_rows(n);
  return spec;
}

// Region ids from rows of letters ('A' -> 0), the text format's convention.
void SetRegions(const std::vector<std::string>& rows,
                v1::QueensPuzzle& queens) {
  for (const std::string& row : rows) {
    for (char ch : row) queens.add_regions(ch == '#' ? -1 : ch - 'A');
  }
}

std::vector<std::vector<int>> Groups(const std::vector<std::string>& rows) {
  std::vector<std::vector<int>> groups;
  int cell = 0;
  for (const std::string& row : rows) {
    for (char ch : row) {
      if (ch != '#') {
        const int id = ch - 'A';
        if (static_cast<int>(groups.size()) <= id) groups.resize(id + 1);
        groups[id].push_back(cell);
      }
      ++cell;
    }
  }
  return groups;
}

CompiledProblem CompileOrDie(const v1::PuzzleSpec& spec,
                             v1::Reduction reduction) {
  v1::CompileOptions options;
  options.set_reduction(reduction);
  auto problem = NewQueensCompiler()->Compile(spec, options);
  EXPECT_TRUE(problem.ok()) << problem.status();
  return *std::move(problem);
}

WorkerPool& Pool() {
  static WorkerPool* pool = new WorkerPool(2);
  return *pool;
}

BoardSet ExactGroundStates(const CompiledProblem& problem, double* energy) {
  auto ground = FindGroundStates(problem.model, 1 << 20, &Pool());
  EXPECT_TRUE(ground.ok()) << ground.status();
  BoardSet boards;
  if (!ground.ok()) return boards;
  *energy = ground->energy;
  EXPECT_EQ(ground->count, static_cast<int64_t>(ground->states.size()));
  for (const auto& state : ground->states)
    boards.insert(problem.variables.Expand(state));
  return boards;
}

// The paper's claims for one spec against the rules:
//  - every valid board scores the compiled ground energy in the full model and
//  the reduced one;
//  - every single-cell change of a valid board scores higher in the unreduced
//  model;
//  - every valid board passes Validate, every changed one fails;
//  - the exact ground states of every reduction level are exactly the valid
//  boards (givens are not
//    clamped without reduction, so there the boards need not keep them).
void CheckAgainstRules(const v1::PuzzleSpec& spec, const Rules& rules,
                       double ground_energy, int expected_boards) {
  auto compiler = NewQueensCompiler();
  Rules without_givens = rules;
  without_givens.givens.clear();
  const BoardSet valid = ValidBoards(rules);
  const BoardSet valid_without_givens = ValidBoards(without_givens);
  EXPECT_EQ(static_cast<int>(valid.size()), expected_boards);
  const CompiledProblem none = CompileOrDie(spec, v1::REDUCTION_NONE);
  for (const Board& board : valid) {
    EXPECT_EQ(none.full_model.Energy(board), ground_energy);
    for (size_t cell = 0; cell < board.size(); ++cell) {
      Board changed = board;
      changed[cell] ^= 1;
      EXPECT_GT(none.full_model.Energy(changed), ground_energy)
          << "cell " << cell;
      v1::PuzzleSolution solution;
      for (uint8_t bit : changed) solution.add_cells(bit);
      auto report = compiler->Validate(spec, solution);
      ASSERT_OK(report);
      EXPECT_FALSE(report->valid()) << "cell " << cell;
    }
    auto report = compiler->Validate(spec, compiler->Decode(spec, none, board));
    ASSERT_OK(report);
    EXPECT_TRUE(report->valid());
  }
  // Enumerating 2^25 states takes a while: a reduction level whose model is the
  // previous one's (no givens, nothing implied) reuses its ground states.
  Qubo previous_model;
  BoardSet previous_ground;
  double previous_energy = 0;
  for (v1::Reduction reduction :
       {v1::REDUCTION_NONE, v1::REDUCTION_CLUES, v1::REDUCTION_FULL}) {
    const CompiledProblem problem = CompileOrDie(spec, reduction);
    ASSERT_TRUE(problem.ground_energy.has_value());
    EXPECT_EQ(*problem.ground_energy, ground_energy);
    const BoardSet& expected =
        reduction == v1::REDUCTION_NONE ? valid_without_givens : valid;
    for (const Board& board : expected) {
      EXPECT_TRUE(problem.variables.IsConsistent(board))
          << v1::Reduction_Name(reduction);
      EXPECT_EQ(problem.full_model.Energy(board), ground_energy);
      EXPECT_EQ(problem.model.Energy(problem.variables.Restrict(board)),
                ground_energy);
    }
    ASSERT_LE(problem.model.num_variables(), kMaxExactVariables);
    double energy = previous_energy;
    const bool same = reduction != v1::REDUCTION_NONE &&
                      SameModel(problem.model, previous_model);
    const BoardSet ground =
        same ? previous_ground : ExactGroundStates(problem, &energy);
    previous_model = problem.model;
    previous_ground = ground;
    previous_energy = energy;
    if (expected.empty()) {
      EXPECT_GT(energy, ground_energy) << v1::Reduction_Name(reduction);
    } else {
      EXPECT_EQ(energy, ground_energy) << v1::Reduction_Name(reduction);
      EXPECT_EQ(ground, expected) << v1::Reduction_Name(reduction);
    }
  }
}

TEST(QueensCompilerTest, EightQueensModelIsEquation4) {
  const CompiledProblem problem =
      CompileOrDie(NQueensSpec(8), v1::REDUCTION_FULL);
  const Qubo& model = problem.full_model;
  EXPECT_EQ(model.num_variables(), 64);
  // 8 rows + 8 columns of 28 pairs at weight 2, and 280 diagonal pairs at
  // weight 1 (as in
  // tests/data/instances/queens8.qubo: 64 linear terms, 728 couplers,
  // offset 16).
  EXPECT_EQ(model.num_couplers(), 728);
  EXPECT_EQ(model.offset(), 16);
  int weight_two = 0, weight_one = 0;
  for (const QuboTerm& term : model.QuadraticTerms()) {
    weight_two += term.w == 2;
    weight_one += term.w == 1;
  }
  EXPECT_EQ(weight_two, 448);
  EXPECT_EQ(weight_one, 280);
  for (int v = 0; v < 64; ++v) EXPECT_EQ(model.linear(v), -2);
  EXPECT_EQ(model.labels()[3 * 8 + 4], "q(4,5)");
  EXPECT_EQ(problem.ground_energy, 0);
  EXPECT_EQ(problem.model.num_variables(), 64);
  ASSERT_EQ(problem.stages.size(), 4u);
  EXPECT_EQ(problem.stages[0].name, "model");
  EXPECT_EQ(problem.stages[1].name, "mask");
  EXPECT_EQ(problem.stages[2].name, "givens");
  EXPECT_EQ(problem.stages[3].name, "implied");
}

TEST(QueensCompilerTest,
     AllNinetyTwoEightQueensScoreZeroAndEveryChangeScoresMore) {
  Rules rules = SquareRules(8);
  rules.conflict = PlaneDiagonal;
  // 92 boards x 64 changes; the exact sampler cannot take 64 variables, so this
  // is the energy half only.
  const BoardSet valid = ValidBoards(rules);
  ASSERT_EQ(valid.size(), 92u);
  const CompiledProblem problem =
      CompileOrDie(NQueensSpec(8), v1::REDUCTION_NONE);
  for (const Board& board : valid) {
    EXPECT_EQ(problem.full_model.Energy(board), 0);
    for (int cell = 0; cell < 64; ++cell) {
      Board changed = board;
      changed[cell] ^= 1;
      EXPECT_GT(problem.full_model.Energy(changed), 0);
    }
  }
}

TEST(QueensCompilerTest, NQueensGroundStatesAreTheSolutionsForFourAndFive) {
  const int expected[] = {2, 10};
  for (int n : {4, 5}) {
    Rules rules = SquareRules(n);
    rules.conflict = PlaneDiagonal;
    CheckAgainstRules(NQueensSpec(n), rules, 0, expected[n - 4]);
  }
}

TEST(QueensCompilerTest, SixQueensZeroEnergyBoardsAreTheFourSolutions) {
  // 36 variables are beyond the exact sampler (30). Every term of eq. 4 is a
  // square or a product of binaries with positive weight, so the energy is >= 0
  // and a zero-energy board has zero row terms: one queen per row. Scoring
  // those 6^6 boards finds every zero-energy board.
  Rules rules = SquareRules(6);
  rules.conflict = PlaneDiagonal;
  const CompiledProblem problem =
      CompileOrDie(NQueensSpec(6), v1::REDUCTION_NONE);
  for (const QuboTerm& term : problem.full_model.QuadraticTerms())
    ASSERT_GT(term.w, 0);
  Rules one_per_row = SquareRules(6);
  one_per_row.col_range.assign(6, {0, 6});
  BoardSet zero;
  for (const Board& board : ValidBoards(one_per_row)) {
    if (problem.full_model.Energy(board) == 0) zero.insert(board);
  }
  EXPECT_EQ(zero.size(), 4u);
  EXPECT_EQ(zero, ValidBoards(rules));
}

const std::vector<std::string> kLinkedIn5 = {"AABBB", "AABCC", "DDBCC", "DEEEC",
                                             "DDEEC"};

v1::PuzzleSpec LinkedInSpec(const std::vector<std::string>& rows) {
  v1::PuzzleSpec spec;
  v1::QueensPuzzle& queens = *spec.mutable_queens();
  queens.set_rows(rows.size());
  queens.set_cols(rows[0].size());
  queens.set_attack(v1::QUEENS_ATTACK_ADJACENT_DIAGONALS);
  SetRegions(rows, queens);
  return spec;
}

Rules LinkedInRules(const std::vector<std::string>& rows) {
  Rules rules = SquareRules(rows.size());
  rules.conflict = Adjacent;
  rules.groups = Groups(rows);
  rules.group_range.assign(rules.groups.size(), {1, 1});
  return rules;
}

TEST(QueensCompilerTest, LinkedInFiveByFiveGroundStatesAreTheSolutions) {
  CheckAgainstRules(LinkedInSpec(kLinkedIn5), LinkedInRules(kLinkedIn5), 0, 4);
}

TEST(QueensCompilerTest, LinkedInGivenQueenKeepsOnlyItsSolutions) {
  v1::PuzzleSpec spec = LinkedInSpec(kLinkedIn5);
  spec.mutable_queens()->add_given_queens(1 * 5 + 1);  // (2,2)
  Rules rules = LinkedInRules(kLinkedIn5);
  rules.givens = {1 * 5 + 1};
  CheckAgainstRules(spec, rules, 0, 3);
  // The given queen decides the rest of its row (4 cells) and column (4), of
  // region A ((1,1); (1,2) and (2,1) are in its column and row) and its
  // diagonal neighbours ((1,3), (3,1), (3,3); (1,1) is in A): 25 - 1 - 12 = 12
  // cells stay.
  const CompiledProblem full = CompileOrDie(spec, v1::REDUCTION_FULL);
  ASSERT_EQ(full.stages.size(), 4u);
  EXPECT_EQ(full.stages[2].fixed_one, 1);
  EXPECT_EQ(full.stages[3].fixed_zero, 4 + 4 + 1 + 3);
  EXPECT_EQ(full.model.num_variables(), 12);
}

TEST(QueensCompilerTest, LinkedInDropsOneRegionTermAsInEquation9) {
  // Every region has its term (eq. 8): offset rows + columns + regions = 15.
  // Asked for, the full reduction leaves one region term out (eq. 9: N - N_I -
  // 1 = 4 region terms).
  v1::PuzzleSpec spec = LinkedInSpec(kLinkedIn5);
  EXPECT_EQ(CompileOrDie(spec, v1::REDUCTION_FULL).full_model.offset(), 15);
  spec.mutable_queens()->set_drop_redundant_region_term(true);
  EXPECT_EQ(CompileOrDie(spec, v1::REDUCTION_NONE).full_model.offset(), 15);
  EXPECT_EQ(CompileOrDie(spec, v1::REDUCTION_CLUES).full_model.offset(), 15);
  EXPECT_EQ(CompileOrDie(spec, v1::REDUCTION_FULL).full_model.offset(), 14);
  CheckAgainstRules(spec, LinkedInRules(kLinkedIn5), 0, 4);

  // With a given queen, its region's term is constant after clamping and one
  // more free region loses its term: a free cell pays -1 for its row, -1 for
  // its column and -1 for a region term it is in, so exactly the cells of the
  // one dropped region show -2.
  v1::PuzzleSpec given = spec;
  given.mutable_queens()->add_given_queens(0 * 5 + 4);  // (1,5), region B
  const CompiledProblem problem = CompileOrDie(given, v1::REDUCTION_FULL);
  const std::vector<std::vector<int>> groups = Groups(kLinkedIn5);
  std::set<int> regions_with_term, regions_without_term;
  for (int v = 0; v < problem.model.num_variables(); ++v) {
    const int cell = problem.variables.representative(v);
    int region = -1;
    for (int k = 0; k < 5; ++k) {
      for (int c : groups[k]) region = c == cell ? k : region;
    }
    ASSERT_NE(region, 1) << "region B is decided by the given queen";
    const double linear = problem.model.linear(v);
    ASSERT_TRUE(linear == -2 || linear == -3) << linear;
    (linear == -3 ? regions_with_term : regions_without_term).insert(region);
  }
  EXPECT_EQ(regions_with_term.size(), 5u - 1 - 1);
  EXPECT_EQ(regions_without_term.size(), 1u);
  // The region left out is the one with the most free cells.
  EXPECT_EQ(*regions_without_term.begin(), 3);  // D
}

TEST(QueensCompilerTest, NQueensWithRegionsIsEquation19) {
  // 5-queens (full diagonals) plus five regions, one queen each.
  const std::vector<std::string> map = {"AABBB", "AABBC", "DDECC", "DDEEC",
                                        "DEEEC"};
  v1::PuzzleSpec spec = NQueensSpec(5);
  SetRegions(map, *spec.mutable_queens());
  Rules rules = SquareRules(5);
  rules.conflict = PlaneDiagonal;
  rules.groups = Groups(map);
  rules.group_range.assign(5, {1, 1});
  const int boards = static_cast<int>(ValidBoards(rules).size());
  ASSERT_GT(boards, 0);
  ASSERT_LT(boards, 10);
  CheckAgainstRules(spec, rules, 0, boards);
  EXPECT_EQ(CompileOrDie(spec, v1::REDUCTION_NONE).full_model.offset(), 15);
}

TEST(QueensCompilerTest, SoftRegionsScoreAQuarterPerRegionEquation20) {
  const std::vector<std::string> map = {"AABBB", "AABBB", "CCDDD", "CCDDD",
                                        "EEEEE"};
  for (double weight : {0.0, 2.0}) {
    v1::PuzzleSpec spec = NQueensSpec(5);
    SetRegions(map, *spec.mutable_queens());
    spec.mutable_queens()->set_region_rule(v1::QUEENS_REGIONS_SOFT);
    spec.mutable_queens()->set_soft_region_weight(weight);
    Rules rules = SquareRules(5);
    rules.conflict = PlaneDiagonal;
    rules.groups = Groups(map);
    rules.group_range.assign(5, {0, 1});
    const int boards = static_cast<int>(ValidBoards(rules).size());
    ASSERT_GT(boards, 0);
    ASSERT_LT(boards, 10);
    CheckAgainstRules(spec, rules, 5 * (weight == 0 ? 1.0 : weight) / 4,
                      boards);
  }
}

TEST(QueensCompilerTest, SoftRegionsPairwiseScoreZeroEquation21) {
  const std::vector<std::string> map = {"AABBB", "AABBB", "CCDDD", "CCDDD",
                                        "EEEEE"};
  v1::PuzzleSpec spec = NQueensSpec(5);
  SetRegions(map, *spec.mutable_queens());
  spec.mutable_queens()->set_region_rule(v1::QUEENS_REGIONS_SOFT_PAIRWISE);
  Rules rules = SquareRules(5);
  rules.conflict = PlaneDiagonal;
  rules.groups = Groups(map);
  rules.group_range.assign(5, {0, 1});
  const int boards = static_cast<int>(ValidBoards(rules).size());
  CheckAgainstRules(spec, rules, 0, boards);
  // eq. 21 sums ordered pairs: weight 2 per pair of a region's cells (here
  // region E, row 5, adds its 2 to the row's 2).
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
  double pair_weight = 0;
  for (const QuboTerm& term : problem.full_model.QuadraticTerms()) {
    if (term.i == 20 && term.j == 21) pair_weight = term.w;
  }
  EXPECT_EQ(pair_weight, 4);
}

TEST(QueensCompilerTest, ToroidalFiveQueensHasTenGroundStates) {
  v1::PuzzleSpec spec = NQueensSpec(5);
  spec.mutable_queens()->set_topology(v1::QUEENS_TOPOLOGY_TORUS);
  Rules rules = SquareRules(5);
  rules.conflict = [](int r1, int c1, int r2, int c2) {
    return Mod((r2 - r1) - (c2 - c1), 5) == 0 ||
           Mod((r2 - r1) + (c2 - c1), 5) == 0;
  };
  CheckAgainstRules(spec, rules, 0, 10);
}

TEST(QueensCompilerTest, ToroidalFourQueensNeverReachesTheGroundEnergy) {
  // 4 has the prime factor 2 < 5 (§2.3.5): nothing special-cases it, the exact
  // minimum is just above 0.
  v1::PuzzleSpec spec = NQueensSpec(4);
  spec.mutable_queens()->set_topology(v1::QUEENS_TOPOLOGY_TORUS);
  Rules rules = SquareRules(4);
  rules.conflict = [](int r1, int c1, int r2, int c2) {
    return Mod((r2 - r1) - (c2 - c1), 4) == 0 ||
           Mod((r2 - r1) + (c2 - c1), 4) == 0;
  };
  CheckAgainstRules(spec, rules, 0, 0);
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_FULL);
  double energy = 0;
  ExactGroundStates(problem, &energy);
  // E.g. three queens that attack nobody: one empty row and one empty column.
  EXPECT_EQ(energy, 2);
}

TEST(QueensCompilerTest, CylinderWrapsColumnsOnly) {
  v1::PuzzleSpec spec = NQueensSpec(5);
  spec.mutable_queens()->set_topology(v1::QUEENS_TOPOLOGY_CYLINDER);
  Rules rules = SquareRules(5);
  rules.conflict = [](int r1, int c1, int r2, int c2) {
    const int dr = std::abs(r2 - r1);
    return dr > 0 && (Mod(c2 - c1 - dr, 5) == 0 || Mod(c2 - c1 + dr, 5) == 0);
  };
  // On a 5-wide cylinder the diagonals of the 5x5 board are the torus's, so the
  // same 10 boards.
  CheckAgainstRules(spec, rules, 0, 10);
  // Adjacent diagonals across the seam: (1,1) and (2,5) touch on a cylinder,
  // not on the plane.
  v1::QueensPuzzle adjacent;
  adjacent.set_rows(5);
  adjacent.set_attack(v1::QUEENS_ATTACK_ADJACENT_DIAGONALS);
  adjacent.set_topology(v1::QUEENS_TOPOLOGY_CYLINDER);
  auto sets = QueensAttackSets(adjacent);
  ASSERT_OK(sets);
  EXPECT_THAT((*sets)[0], ::testing::ElementsAre(6, 9));
  adjacent.set_topology(v1::QUEENS_TOPOLOGY_PLANE);
  EXPECT_THAT((*QueensAttackSets(adjacent))[0], ::testing::ElementsAre(6));
}

TEST(QueensCompilerTest, RowAndColumnCountsOnARectangle) {
  // 4x6 board, rows need 1, 2, 1, 2 queens, columns one each, queens attack
  // adjacent diagonals.
  v1::PuzzleSpec spec;
  v1::QueensPuzzle& queens = *spec.mutable_queens();
  queens.set_rows(4);
  queens.set_cols(6);
  queens.set_attack(v1::QUEENS_ATTACK_ADJACENT_DIAGONALS);
  for (int count : {1, 2, 1, 2}) queens.add_row_counts(count);
  for (int c = 0; c < 6; ++c) queens.add_col_counts(1);
  Rules rules;
  rules.rows = 4;
  rules.cols = 6;
  rules.row_range = {{1, 1}, {2, 2}, {1, 1}, {2, 2}};
  rules.col_range.assign(6, {1, 1});
  rules.conflict = Adjacent;
  const int boards = static_cast<int>(ValidBoards(rules).size());
  ASSERT_GT(boards, 0);
  CheckAgainstRules(spec, rules, 0, boards);
  // eq. 10 with r = 2: offset 4, linear 1 - 2r = -3 for the row's cells (plus
  // -1 from the column).
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
  EXPECT_EQ(problem.full_model.offset(), 1 + 4 + 1 + 4 + 6);
  EXPECT_EQ(problem.full_model.linear(6), -4);
  EXPECT_EQ(problem.full_model.linear(0), -2);
}

TEST(QueensCompilerTest, TwoValueCountsUseTheFractionalTerm) {
  // 4x6, one queen per row; columns hold 0 or 1 (t = 1, eq. 15-17), so the
  // ground energy is 6/4; full diagonals. Plus an extra region (the centre 2x2)
  // that holds 1 or 2 queens: another 1/4.
  v1::PuzzleSpec spec;
  v1::QueensPuzzle& queens = *spec.mutable_queens();
  queens.set_rows(4);
  queens.set_cols(6);
  for (int c = 0; c < 6; ++c) {
    queens.add_col_counts(0);
    queens.add_col_two_values(true);
  }
  v1::QueensRegion& centre = *queens.add_extra_regions();
  for (int cell : {1 * 6 + 2, 1 * 6 + 3, 2 * 6 + 2, 2 * 6 + 3})
    centre.add_cells(cell);
  centre.set_count(1);
  centre.set_two_values(true);
  Rules rules;
  rules.rows = 4;
  rules.cols = 6;
  rules.row_range.assign(4, {1, 1});
  rules.col_range.assign(6, {0, 1});
  rules.groups = {{8, 9, 14, 15}};
  rules.group_range = {{1, 2}};
  rules.conflict = PlaneDiagonal;
  const int boards = static_cast<int>(ValidBoards(rules).size());
  ASSERT_GT(boards, 0);
  CheckAgainstRules(spec, rules, 7.0 / 4, boards);
}

TEST(QueensCompilerTest, RegionCountsWithTwoValuesAndOverlaps) {
  // 5x5 rook-like placement (no attack) with three colour regions needing 2, 1
  // or 2, and 1 queens, and an extra region (the main diagonal) overlapping
  // them with exactly 1 queen.
  const std::vector<std::string> map = {"AAABB", "AAABB", "CCCBB", "CCCBB",
                                        "CCCCC"};
  v1::PuzzleSpec spec = NQueensSpec(5);
  v1::QueensPuzzle& queens = *spec.mutable_queens();
  queens.set_attack(v1::QUEENS_ATTACK_NONE);
  SetRegions(map, queens);
  for (int count : {2, 1, 1}) queens.add_region_counts(count);
  for (bool two : {false, true, false}) queens.add_region_two_values(two);
  v1::QueensRegion& diagonal = *queens.add_extra_regions();
  for (int k = 0; k < 5; ++k) diagonal.add_cells(k * 6);
  diagonal.set_count(1);
  Rules rules = SquareRules(5);
  rules.groups = Groups(map);
  rules.group_range = {{2, 2}, {1, 2}, {1, 1}};
  rules.groups.push_back({0, 6, 12, 18, 24});
  rules.group_range.push_back({1, 1});
  const int boards = static_cast<int>(ValidBoards(rules).size());
  ASSERT_GT(boards, 0);
  CheckAgainstRules(spec, rules, 0.25, boards);
}

TEST(QueensCompilerTest, PerCellDiagonalDistanceFollowsEquation12) {
  // 5x5, one queen per row and column; queens in the left two columns attack
  // diagonals up to 2 cells, the others only the adjacent ones. The pair term
  // counts each direction (D''): weight 2 when both queens reach each other, 1
  // when only one does.
  v1::PuzzleSpec spec = NQueensSpec(5);
  v1::QueensPuzzle& queens = *spec.mutable_queens();
  queens.set_attack(v1::QUEENS_ATTACK_DIAGONAL_DISTANCE);
  auto distance = [](int r, int c) { return c < 2 ? 2 : 1; };
  for (int cell = 0; cell < 25; ++cell)
    queens.add_diagonal_distance(distance(cell / 5, cell % 5));
  Rules rules = SquareRules(5);
  rules.conflict = [&](int r1, int c1, int r2, int c2) {
    const int d = std::abs(r1 - r2);
    return d == std::abs(c1 - c2) &&
           (d <= distance(r1, c1) || d <= distance(r2, c2));
  };
  const int boards = static_cast<int>(ValidBoards(rules).size());
  ASSERT_GT(boards, 10);  // more than 5-queens, fewer than LinkedIn's 14
  ASSERT_LT(boards, 14);
  CheckAgainstRules(spec, rules, 0, boards);
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
  double both = 0, one_way = 0, beyond = 0;
  for (const QuboTerm& term : problem.full_model.QuadraticTerms()) {
    if (term.i == 0 && term.j == 6) both = term.w;  // (1,1)-(2,2): both reach
    if (term.i == 0 && term.j == 12)
      one_way = term.w;  // (1,1)-(3,3): only (1,1) reaches 2 cells
    if (term.i == 0 && term.j == 18) beyond = term.w;  // (1,1)-(4,4): nobody
  }
  EXPECT_EQ(both, 2);
  EXPECT_EQ(one_way, 1);
  EXPECT_EQ(beyond, 0);
  // One distance for every cell.
  v1::PuzzleSpec uniform = NQueensSpec(5);
  uniform.mutable_queens()->set_attack(v1::QUEENS_ATTACK_DIAGONAL_DISTANCE);
  uniform.mutable_queens()->add_diagonal_distance(1);
  Rules adjacent = SquareRules(5);
  adjacent.conflict = Adjacent;
  CheckAgainstRules(uniform, adjacent, 0, 14);
}

TEST(QueensCompilerTest, FreeAttackSetsKnightsMoves) {
  // "Queens" that attack like knights, one per row and column on 5x5.
  v1::PuzzleSpec spec = NQueensSpec(5);
  v1::QueensPuzzle& queens = *spec.mutable_queens();
  queens.set_attack(v1::QUEENS_ATTACK_SETS);
  auto knight = [](int r1, int c1, int r2, int c2) {
    const int dr = std::abs(r1 - r2), dc = std::abs(c1 - c2);
    return (dr == 1 && dc == 2) || (dr == 2 && dc == 1);
  };
  for (int a = 0; a < 25; ++a) {
    v1::QueensCells& set = *queens.add_attack_sets();
    for (int b = 0; b < 25; ++b) {
      if (knight(a / 5, a % 5, b / 5, b % 5)) set.add_cells(b);
    }
  }
  Rules rules = SquareRules(5);
  rules.conflict = knight;
  const int boards = static_cast<int>(ValidBoards(rules).size());
  ASSERT_GT(boards, 0);
  CheckAgainstRules(spec, rules, 0, boards);
}

TEST(QueensCompilerTest, IrregularBoardWithMask) {
  // A 5x5 frame with the centre and two corners cut out: rows and columns of
  // the remaining cells hold given counts, LinkedIn diagonals.
  const std::string shape =
      "#...."
      "....."
      "..#.."
      "....."
      "....#";
  v1::PuzzleSpec spec;
  v1::QueensPuzzle& queens = *spec.mutable_queens();
  queens.set_rows(5);
  queens.set_attack(v1::QUEENS_ATTACK_ADJACENT_DIAGONALS);
  Rules rules = SquareRules(5);
  rules.conflict = Adjacent;
  rules.masked.assign(25, false);
  for (int cell = 0; cell < 25; ++cell) {
    queens.add_masked(shape[cell] == '#');
    rules.masked[cell] = shape[cell] == '#';
  }
  const int boards = static_cast<int>(ValidBoards(rules).size());
  ASSERT_GT(boards, 0);
  CheckAgainstRules(spec, rules, 0, boards);
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
  ASSERT_EQ(problem.stages.size(), 2u);
  EXPECT_EQ(problem.stages[1].name, "mask");
  EXPECT_EQ(problem.stages[1].fixed_zero, 3);
  EXPECT_EQ(problem.model.num_variables(), 22);
  Board board(25, 0);
  const v1::PuzzleSolution decoded =
      NewQueensCompiler()->Decode(spec, problem, board);
  EXPECT_EQ(decoded.rows(0), "#....");
  EXPECT_EQ(decoded.rows(2), "..#..");
}

TEST(QueensCompilerTest, GivenQueenOnIrregularBoardReducesCounts) {
  // §2.3 Fig. 3 b: a given queen on the board is the board without it with
  // reduced counts. Row 1 holds two queens, one given at (1,1).
  v1::PuzzleSpec spec;
  v1::QueensPuzzle& queens = *spec.mutable_queens();
  queens.set_rows(4);
  queens.set_cols(5);
  queens.set_attack(v1::QUEENS_ATTACK_ADJACENT_DIAGONALS);
  for (int count : {2, 1, 1, 1}) queens.add_row_counts(count);
  for (int count : {1, 1, 1, 1, 1}) queens.add_col_counts(count);
  for (int cell = 0; cell < 20; ++cell) queens.add_masked(cell == 19);
  queens.add_given_queens(0);
  Rules rules;
  rules.rows = 4;
  rules.cols = 5;
  rules.row_range = {{2, 2}, {1, 1}, {1, 1}, {1, 1}};
  rules.col_range.assign(5, {1, 1});
  rules.masked.assign(20, false);
  rules.masked[19] = true;
  rules.conflict = Adjacent;
  rules.givens = {0};
  const int boards = static_cast<int>(ValidBoards(rules).size());
  ASSERT_GT(boards, 0);
  CheckAgainstRules(spec, rules, 0, boards);
  // Row 1 still needs one queen, so only the given's column and diagonal
  // neighbour are decided.
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_FULL);
  EXPECT_EQ(problem.stages[3].fixed_zero, 3 + 1);
  EXPECT_EQ(problem.model.num_variables(), 20 - 1 - 1 - 4);
}

TEST(QueensCompilerTest, ValidatorNamesRuleAndPlace) {
  v1::PuzzleSpec spec = LinkedInSpec(kLinkedIn5);
  spec.mutable_queens()->add_given_queens(4);  // (1,5)
  for (int cell = 0; cell < 25; ++cell)
    spec.mutable_queens()->add_masked(cell == 12);
  // Not a solution: queens at (1,1), (2,2), (3,3) (masked), none in rows 4-5.
  v1::PuzzleSolution board;
  for (int cell = 0; cell < 25; ++cell)
    board.add_cells(cell == 0 || cell == 6 || cell == 12);
  auto report = NewQueensCompiler()->Validate(spec, board);
  ASSERT_OK(report);
  EXPECT_FALSE(report->valid());
  std::vector<std::string> found;
  for (const v1::Violation& v : report->violations())
    found.push_back(v.rule() + "@" + v.location());
  EXPECT_THAT(
      found,
      ::testing::IsSupersetOf(
          {"masked_cell@cell (3,3)", "given_queen_missing@cell (1,5)",
           "row_count@row 4", "column_count@column 5", "region_count@region 0",
           "region_count@region 1", "attack@cells (1,1) and (2,2)"}));
  // The masked queen counts in no row, column or region, and attacks nobody.
  EXPECT_THAT(found, ::testing::Not(
                         ::testing::Contains("attack@cells (2,2) and (3,3)")));
  EXPECT_THAT(found, ::testing::Contains("row_count@row 3"));

  v1::PuzzleSolution short_board;
  short_board.add_cells(1);
  EXPECT_THAT(NewQueensCompiler()->Validate(spec, short_board),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.cells")));
  board.set_cells(3, 2);
  EXPECT_THAT(NewQueensCompiler()->Validate(spec, board),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.cells[3]")));
}

void ExpectInvalid(const v1::PuzzleSpec& spec, const std::string& field) {
  EXPECT_THAT(NewQueensCompiler()->Compile(spec, v1::CompileOptions()),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(field)))
      << spec.DebugString();
}

TEST(QueensCompilerTest, RejectsBadInputNamingTheField) {
  ExpectInvalid(NQueensSpec(0), "queens.rows");
  v1::PuzzleSpec wide = NQueensSpec(4);
  wide.mutable_queens()->set_cols(5000);
  ExpectInvalid(wide, "queens.cols");
  // A rectangle with the default one queen per row and column cannot be filled.
  v1::PuzzleSpec rectangle = NQueensSpec(4);
  rectangle.mutable_queens()->set_cols(5);
  ExpectInvalid(
      rectangle,
      "queens.col_counts: the columns hold 5 queens in total, the rows 4");

  v1::PuzzleSpec short_map = LinkedInSpec(kLinkedIn5);
  short_map.mutable_queens()->mutable_regions()->RemoveLast();
  ExpectInvalid(
      short_map,
      "queens.regions: 24 entries do not cover the 5x5 board (25 cells)");
  v1::PuzzleSpec bad_id = LinkedInSpec(kLinkedIn5);
  for (int k = 0; k < 5; ++k) bad_id.mutable_queens()->add_region_counts(1);
  bad_id.mutable_queens()->set_regions(12, 9);
  ExpectInvalid(bad_id, "queens.regions[12]: region id 9 out of range 0..4");
  v1::PuzzleSpec negative_id = LinkedInSpec(kLinkedIn5);
  negative_id.mutable_queens()->set_regions(3, -2);
  ExpectInvalid(negative_id, "queens.regions[3]");
  v1::PuzzleSpec six_regions =
      LinkedInSpec({"AABBB", "AABCC", "DDBCC", "DEEEC", "DDEEF"});
  ExpectInvalid(
      six_regions,
      "queens.regions: the 6 regions hold 6 queens in total, the rows 5");
  v1::PuzzleSpec gap =
      LinkedInSpec({"AABBB", "AABDD", "AABDD", "EEEEE", "EEEEE"});
  ExpectInvalid(gap, "queens.regions: region 2 has no board cells");

  v1::PuzzleSpec big_row = NQueensSpec(4);
  for (int count : {1, 5, 1, 1})
    big_row.mutable_queens()->add_row_counts(count);
  ExpectInvalid(big_row, "queens.row_counts[1]: 5 queens do not fit in row 2");
  v1::PuzzleSpec big_col = NQueensSpec(4);
  for (int count : {1, 1, 1, 7})
    big_col.mutable_queens()->add_col_counts(count);
  ExpectInvalid(big_col, "queens.col_counts[3]");
  v1::PuzzleSpec few_counts = NQueensSpec(4);
  few_counts.mutable_queens()->add_row_counts(1);
  ExpectInvalid(few_counts, "queens.row_counts: 1 entries for 4 rows");
  v1::PuzzleSpec big_region = LinkedInSpec(kLinkedIn5);
  for (int count : {1, 1, 1, 1, 9})
    big_region.mutable_queens()->add_region_counts(count);
  ExpectInvalid(big_region,
                "queens.region_counts[4]: 9 queens do not fit in region 4");
  v1::PuzzleSpec empty_row = NQueensSpec(3);
  for (int cell = 0; cell < 9; ++cell)
    empty_row.mutable_queens()->add_masked(cell < 3);
  ExpectInvalid(empty_row, "queens.row_counts: row 1 has no board cells");

  v1::PuzzleSpec masked_given = NQueensSpec(4);
  for (int cell = 0; cell < 16; ++cell)
    masked_given.mutable_queens()->add_masked(cell == 5);
  masked_given.mutable_queens()->add_given_queens(5);
  ExpectInvalid(masked_given, "queens.given_queens[0]: cell (2,2) is masked");
  v1::PuzzleSpec outside_given = NQueensSpec(4);
  outside_given.mutable_queens()->add_given_queens(16);
  ExpectInvalid(outside_given,
                "queens.given_queens[0]: cell 16 outside the 4x4 board");
  v1::PuzzleSpec twice = NQueensSpec(4);
  twice.mutable_queens()->add_given_queens(1);
  twice.mutable_queens()->add_given_queens(1);
  ExpectInvalid(twice, "queens.given_queens[1]: cell (1,2) given twice");
  v1::PuzzleSpec same_row = NQueensSpec(4);
  same_row.mutable_queens()->add_given_queens(0);
  same_row.mutable_queens()->add_given_queens(3);
  ExpectInvalid(same_row,
                "queens.given_queens: 2 queens in row 1, which holds 1");
  v1::PuzzleSpec attacking = NQueensSpec(8);
  attacking.mutable_queens()->add_given_queens(0);
  attacking.mutable_queens()->add_given_queens(7 * 8 + 7);
  ExpectInvalid(
      attacking,
      "queens.given_queens: the queens at (1,1) and (8,8) attack each other");
  v1::PuzzleSpec same_region = LinkedInSpec(kLinkedIn5);
  same_region.mutable_queens()->add_given_queens(4);  // (1,5) B
  same_region.mutable_queens()->add_given_queens(7);  // (2,3) B
  ExpectInvalid(same_region, "queens.given_queens: 2 queens in region 1");

  v1::PuzzleSpec short_mask = NQueensSpec(4);
  short_mask.mutable_queens()->add_masked(true);
  ExpectInvalid(short_mask, "queens.masked");
  v1::PuzzleSpec unknown_attack = NQueensSpec(4);
  unknown_attack.mutable_queens()->set_attack(
      static_cast<v1::QueensAttack>(42));
  ExpectInvalid(unknown_attack, "queens.attack: unknown value 42");
  v1::PuzzleSpec unused_distance = NQueensSpec(4);
  unused_distance.mutable_queens()->add_diagonal_distance(2);
  ExpectInvalid(unused_distance, "queens.diagonal_distance: only used with");
  v1::PuzzleSpec distance_count = NQueensSpec(4);
  distance_count.mutable_queens()->set_attack(
      v1::QUEENS_ATTACK_DIAGONAL_DISTANCE);
  ExpectInvalid(distance_count, "queens.diagonal_distance: 0 entries");
  v1::PuzzleSpec missing_sets = NQueensSpec(4);
  missing_sets.mutable_queens()->set_attack(v1::QUEENS_ATTACK_SETS);
  ExpectInvalid(missing_sets, "queens.attack_sets: 0 sets for 16 cells");
  v1::PuzzleSpec self_attack = NQueensSpec(2);
  self_attack.mutable_queens()->set_attack(v1::QUEENS_ATTACK_SETS);
  for (int a = 0; a < 4; ++a)
    self_attack.mutable_queens()->add_attack_sets()->add_cells(a == 2 ? 2 : 0);
  ExpectInvalid(
      self_attack,
      "queens.attack_sets[0].cells[0]: cell (1,1) cannot attack itself");

  v1::PuzzleSpec orphan_counts = NQueensSpec(4);
  orphan_counts.mutable_queens()->add_region_counts(1);
  ExpectInvalid(orphan_counts,
                "queens.region_counts: given without queens.regions");
  v1::PuzzleSpec soft_counts = LinkedInSpec(kLinkedIn5);
  soft_counts.mutable_queens()->set_region_rule(v1::QUEENS_REGIONS_SOFT);
  for (int k = 0; k < 5; ++k)
    soft_counts.mutable_queens()->add_region_counts(1);
  ExpectInvalid(soft_counts,
                "queens.region_counts: not used with QUEENS_REGIONS_SOFT");
  v1::PuzzleSpec bad_weight = LinkedInSpec(kLinkedIn5);
  bad_weight.mutable_queens()->set_region_rule(v1::QUEENS_REGIONS_SOFT);
  bad_weight.mutable_queens()->set_soft_region_weight(-1);
  ExpectInvalid(bad_weight, "queens.soft_region_weight");
  v1::PuzzleSpec extra_outside = NQueensSpec(4);
  extra_outside.mutable_queens()->add_extra_regions()->add_cells(99);
  ExpectInvalid(extra_outside,
                "queens.extra_regions[0].cells[0]: cell 99 outside");
  v1::PuzzleSpec extra_count = NQueensSpec(4);
  extra_count.mutable_queens()->add_extra_regions()->set_count(2);
  ExpectInvalid(extra_count,
                "queens.extra_regions[0].count: 2 queens do not fit");
}

TEST(QueensCompilerTest, EncodeDecodeRoundTrip) {
  const v1::PuzzleSpec spec = NQueensSpec(4);
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_FULL);
  v1::PuzzleSolution board;
  for (int cell : {0, 1, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0})
    board.add_cells(cell);
  auto compiler = NewQueensCompiler();
  auto bits = compiler->Encode(spec, problem, board);
  ASSERT_OK(bits);
  EXPECT_EQ(problem.full_model.Energy(*bits), 0);
  const v1::PuzzleSolution decoded = compiler->Decode(spec, problem, *bits);
  EXPECT_THAT(decoded.rows(),
              ::testing::ElementsAre(".Q..", "...Q", "Q...", "..Q."));
  EXPECT_EQ(decoded.height(), 4u);
  EXPECT_EQ(decoded.width(), 4u);
  board.set_cells(0, 3);
  EXPECT_THAT(compiler->Encode(spec, problem, board),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.cells[0]")));
}

TEST(QueensCompilerTest, RegisteredAsBuiltin) {
  auto compiler = BuiltinCompilers().ForKind("queens");
  ASSERT_OK(compiler);
  EXPECT_EQ((*compiler)->puzzle_case(), v1::PuzzleSpec::kQueens);
  EXPECT_EQ((*compiler)->ModelVariables(NQueensSpec(8)), 64);
  v1::PuzzleSpec rectangle = NQueensSpec(8);
  rectangle.mutable_queens()->set_cols(10);
  EXPECT_EQ((*compiler)->ModelVariables(rectangle), 80);
}

}  // namespace
}  // namespace qs
