// Tests of the Takuzu / Tango compiler ([Mata Ali & Mencia 2025] §2-4, [Mata
// Ali & Mencia 2024] §3): the model against the reference instances, the ground
// energy (NM - N - M)/2 and its variants, exact ground states against every
// board the rules allow (4x4, 4x6, 6x6 Tango) for the plain, diagonal,
// toroidal, cylindrical, region, count, sign and equality-region variants, the
// reduction stages and the paper's bound on the stored Unruly and Tango puzzles
// (tests/data/takuzu), contradictions, validation (unique lines) and annealing
// the stored puzzles to their solutions.
#include "core/families/takuzu/takuzu.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "core/base/worker_pool.h"
#include "core/compile/registry.h"
#include "core/families/builtin.h"
#include "core/sample/cpu_sa/cpu_sa_sampler.h"
#include "core/sample/exact/brute_force_sampler.h"
#include "core/solve/builtin_backends.h"
#include "core/solve/solve_engine.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/one_hot_groups.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::HasSubstr;
using Board = std::vector<uint8_t>;
// Boards as strings of '0' and '1', row-major: readable in failure messages.
using BoardSet = std::set<std::string>;

std::string Key(const Board& board) {
  std::string key;
  for (uint8_t v : board) key.push_back(static_cast<char>('0' + v));
  return key;
}

Board FromKey(const std::string& key) {
  Board board;
  for (char ch : key) board.push_back(static_cast<uint8_t>(ch - '0'));
  return board;
}

std::string SourceDir() {
  const char* dir = std::getenv("QS_SOURCE_DIR");
  return dir != nullptr ? dir : ".";
}

// ---------------------------------------------------------------------------------------------------
// The rules, stated independently of the compiler, and an exhaustive search
// over them.

struct Rules {
  int rows = 0;
  int cols = 0;
  v1::TakuzuPuzzle::Topology topology = v1::TakuzuPuzzle::PLANE;
  bool diagonal = false;
  bool unique = false;
  std::vector<int> givens;    // -1 blank; empty: none
  std::vector<int> row_ones;  // empty: cols / 2
  std::vector<int> col_ones;  // empty: rows / 2
  struct Region {
    std::vector<int> cells;
    int ones;
  };
  std::vector<Region> regions;
  struct Sign {
    int a, b;
    bool equal;
  };
  std::vector<Sign> signs;
  std::vector<std::vector<int>> equality_regions;
  std::vector<std::pair<int, int>> different_regions;

  int Cell(int r, int c) const { return r * cols + c; }
};

v1::TakuzuCellRef Ref(const Rules& rules, int cell) {
  v1::TakuzuCellRef ref;
  ref.set_row(cell / rules.cols);
  ref.set_col(cell % rules.cols);
  return ref;
}

v1::PuzzleSpec ToSpec(const Rules& rules) {
  v1::PuzzleSpec spec;
  v1::TakuzuPuzzle* t = spec.mutable_takuzu();
  t->set_rows(rules.rows);
  t->set_cols(rules.cols);
  t->set_topology(rules.topology);
  t->set_diagonal(rules.diagonal);
  t->set_unique_lines(rules.unique);
  for (int g : rules.givens) {
    t->add_cells(
        g < 0 ? v1::TakuzuPuzzle::BLANK
              : (g == 0 ? v1::TakuzuPuzzle::ZERO : v1::TakuzuPuzzle::ONE));
  }
  for (int k : rules.row_ones) t->add_row_ones(k);
  for (int k : rules.col_ones) t->add_col_ones(k);
  for (const Rules::Region& region : rules.regions) {
    v1::TakuzuCountRegion* r = t->add_regions();
    for (int c : region.cells) *r->add_cells() = Ref(rules, c);
    r->set_ones(region.ones);
  }
  for (const Rules::Sign& sign : rules.signs) {
    v1::TakuzuSign* s = t->add_signs();
    *s->mutable_a() = Ref(rules, sign.a);
    *s->mutable_b() = Ref(rules, sign.b);
    s->set_kind(sign.equal ? v1::TakuzuSign::EQUAL : v1::TakuzuSign::DIFFERENT);
  }
  for (const auto& region : rules.equality_regions) {
    v1::TakuzuEqualityRegion* r = t->add_equality_regions();
    for (int c : region) *r->add_cells() = Ref(rules, c);
  }
  for (const auto& [a, b] : rules.different_regions) {
    v1::TakuzuRegionPair* p = t->add_different_regions();
    p->set_first(a);
    p->set_second(b);
  }
  return spec;
}

// One rule over some cells.
struct Constraint {
  std::vector<int> cells;
  std::function<bool(const Board&)> holds;
};

std::vector<Constraint> RuleConstraints(const Rules& rules) {
  std::vector<Constraint> out;
  const bool wrap_rows = rules.topology == v1::TakuzuPuzzle::CYLINDER ||
                         rules.topology == v1::TakuzuPuzzle::TORUS;
  const bool wrap_cols =
      rules.topology == v1::TakuzuPuzzle::CYLINDER_VERTICAL ||
      rules.topology == v1::TakuzuPuzzle::TORUS;
  // No three equal cells one step apart along each direction, across joined
  // edges.
  std::vector<std::pair<int, int>> steps = {{0, 1}, {1, 0}};
  if (rules.diagonal) steps.insert(steps.end(), {{1, 1}, {1, -1}});
  for (const auto& [dr, dc] : steps) {
    for (int r = 0; r < rules.rows; ++r) {
      for (int c = 0; c < rules.cols; ++c) {
        std::vector<int> cells;
        for (int k = 0; k < 3; ++k) {
          int rr = r + k * dr, cc = c + k * dc;
          if (wrap_cols) rr = (rr + rules.rows) % rules.rows;
          if (wrap_rows) cc = (cc + rules.cols) % rules.cols;
          if (rr < 0 || rr >= rules.rows || cc < 0 || cc >= rules.cols) break;
          cells.push_back(rules.Cell(rr, cc));
        }
        if (cells.size() < 3) continue;
        out.push_back({cells, [cells](const Board& b) {
                         return !(b[cells[0]] == b[cells[1]] &&
                                  b[cells[1]] == b[cells[2]]);
                       }});
      }
    }
  }
  auto exactly = [&](std::vector<int> cells, int ones) {
    out.push_back({cells, [cells, ones](const Board& b) {
                     int sum = 0;
                     for (int c : cells) sum += b[c];
                     return sum == ones;
                   }});
  };
  for (int r = 0; r < rules.rows; ++r) {
    std::vector<int> cells;
    for (int c = 0; c < rules.cols; ++c) cells.push_back(rules.Cell(r, c));
    exactly(cells, rules.row_ones.empty() ? rules.cols / 2 : rules.row_ones[r]);
  }
  for (int c = 0; c < rules.cols; ++c) {
    std::vector<int> cells;
    for (int r = 0; r < rules.rows; ++r) cells.push_back(rules.Cell(r, c));
    exactly(cells, rules.col_ones.empty() ? rules.rows / 2 : rules.col_ones[c]);
  }
  for (const Rules::Region& region : rules.regions)
    exactly(region.cells, region.ones);
  for (size_t k = 0; k < rules.givens.size(); ++k) {
    const int cell = static_cast<int>(k), value = rules.givens[k];
    if (value >= 0)
      out.push_back(
          {{cell}, [cell, value](const Board& b) { return b[cell] == value; }});
  }
  for (const Rules::Sign& s : rules.signs) {
    out.push_back({{s.a, s.b}, [s](const Board& b) {
                     return (b[s.a] == b[s.b]) == s.equal;
                   }});
  }
  for (const auto& region : rules.equality_regions) {
    out.push_back({region, [region](const Board& b) {
                     for (int c : region) {
                       if (b[c] != b[region[0]]) return false;
                     }
                     return true;
                   }});
  }
  for (const auto& [x, y] : rules.different_regions) {
    const int a = rules.equality_regions[x][0],
              c = rules.equality_regions[y][0];
    out.push_back({{a, c}, [a, c](const Board& b) { return b[a] != b[c]; }});
  }
  if (rules.unique) {
    for (int i = 0; i < rules.rows; ++i) {
      for (int j = i + 1; j < rules.rows; ++j) {
        std::vector<int> cells;
        for (int c = 0; c < rules.cols; ++c)
          cells.insert(cells.end(), {rules.Cell(i, c), rules.Cell(j, c)});
        out.push_back({cells, [cells](const Board& b) {
                         for (size_t k = 0; k < cells.size(); k += 2) {
                           if (b[cells[k]] != b[cells[k + 1]]) return true;
                         }
                         return false;
                       }});
      }
    }
    for (int i = 0; i < rules.cols; ++i) {
      for (int j = i + 1; j < rules.cols; ++j) {
        std::vector<int> cells;
        for (int r = 0; r < rules.rows; ++r)
          cells.insert(cells.end(), {rules.Cell(r, i), rules.Cell(r, j)});
        out.push_back({cells, [cells](const Board& b) {
                         for (size_t k = 0; k < cells.size(); k += 2) {
                           if (b[cells[k]] != b[cells[k + 1]]) return true;
                         }
                         return false;
                       }});
      }
    }
  }
  return out;
}

// Every board of 2^(NM) that keeps every rule. The search assigns cells in
// order and checks each rule as soon as its last cell is set, which skips only
// boards that already broke a rule.
BoardSet AllValidBoards(const Rules& rules) {
  const std::vector<Constraint> constraints = RuleConstraints(rules);
  const int n = rules.rows * rules.cols;
  std::vector<std::vector<const Constraint*>> due(n);
  for (const Constraint& c : constraints)
    due[*std::max_element(c.cells.begin(), c.cells.end())].push_back(&c);
  BoardSet boards;
  Board board(n, 0);
  std::function<void(int)> search = [&](int cell) {
    if (cell == n) {
      boards.insert(Key(board));
      return;
    }
    for (uint8_t v : {0, 1}) {
      board[cell] = v;
      bool ok = true;
      for (const Constraint* c : due[cell]) {
        if (!c->holds(board)) {
          ok = false;
          break;
        }
      }
      if (ok) search(cell + 1);
    }
  };
  search(0);
  return boards;
}

CompiledProblem CompileOrDie(const v1::PuzzleSpec& spec,
                             v1::Reduction reduction = v1::REDUCTION_FULL) {
  v1::CompileOptions options;
  options.set_reduction(reduction);
  auto problem = NewTakuzuCompiler()->Compile(spec, options);
  EXPECT_OK(problem);
  return problem.ok() ? *std::move(problem) : CompiledProblem{};
}

WorkerPool& Pool() {
  static WorkerPool* pool = new WorkerPool(2);
  return *pool;
}

// The boards of the model's ground states, checked to sit at the compiled
// ground energy.
BoardSet GroundBoards(const CompiledProblem& problem) {
  auto ground = FindGroundStates(problem.model, 1 << 20, &Pool());
  EXPECT_OK(ground);
  if (!ground.ok()) return {};
  EXPECT_EQ(ground->count, static_cast<int64_t>(ground->states.size()));
  EXPECT_DOUBLE_EQ(ground->energy, *problem.ground_energy);
  BoardSet boards;
  for (const auto& state : ground->states)
    boards.insert(Key(problem.variables.Expand(state)));
  return boards;
}

bool IsValid(const v1::PuzzleSpec& spec, const CompiledProblem& problem,
             const Board& board) {
  auto compiler = NewTakuzuCompiler();
  auto report =
      compiler->Validate(spec, compiler->Decode(spec, problem, board));
  EXPECT_OK(report);
  return report.ok() && report->valid();
}

// Number of groups of `problem.one_hot_groups` that do not hold exactly one 1
// in the reduced state of the full board `board`.
int GroupsBrokenBy(const CompiledProblem& problem, const Board& board) {
  return testing::GroupsBroken(problem.one_hot_groups,
                               problem.variables.Restrict(board));
}

// The exact ground states of the full and of the reduced model are the boards
// the rules allow (for unique lines: those of them the validator accepts), and
// sit at the compiled ground energy.
void ExpectGroundStatesAreValidBoards(const Rules& rules) {
  const v1::PuzzleSpec spec = ToSpec(rules);
  Rules without_uniqueness = rules;
  without_uniqueness.unique = false;
  const BoardSet valid = AllValidBoards(rules);
  const BoardSet qubo_valid = AllValidBoards(without_uniqueness);
  ASSERT_FALSE(valid.empty()) << "the test puzzle must have a solution";
  for (v1::Reduction reduction :
       {v1::REDUCTION_FULL, v1::REDUCTION_CLUES, v1::REDUCTION_NONE}) {
    SCOPED_TRACE(v1::Reduction_Name(reduction));
    const CompiledProblem problem = CompileOrDie(spec, reduction);
    ASSERT_LE(problem.model.num_variables(), kMaxExactVariables);
    const BoardSet ground = GroundBoards(problem);
    // The exactly-one groups hold in every ground state.
    for (const std::string& board : ground)
      EXPECT_EQ(GroupsBrokenBy(problem, FromKey(board)), 0) << board;
    if (reduction == v1::REDUCTION_NONE && !rules.givens.empty()) {
      // The full model has no term for the givens (they enter by clamping), so
      // its ground states are the boards of the same rules without them.
      Rules free_rules = without_uniqueness;
      free_rules.givens.clear();
      EXPECT_EQ(ground, AllValidBoards(free_rules));
      continue;
    }
    EXPECT_EQ(ground, qubo_valid);
    BoardSet accepted;
    for (const std::string& board : ground) {
      if (IsValid(spec, problem, FromKey(board))) accepted.insert(board);
    }
    EXPECT_EQ(accepted, valid);
  }
}

// A board of the plain N x M rules, picked by `index` among all of them.
Board SomeBoard(int rows, int cols, size_t index) {
  Rules plain;
  plain.rows = rows;
  plain.cols = cols;
  const BoardSet boards = AllValidBoards(plain);
  auto it = boards.begin();
  std::advance(it, index % boards.size());
  return FromKey(*it);
}

// ---------------------------------------------------------------------------------------------------
// The model.

struct ReferenceQubo {
  int n = 0;
  double offset = 0;
  std::map<std::pair<int, int>, double> terms;
};

ReferenceQubo ReadReference(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  ReferenceQubo ref;
  int m = 0;
  in >> ref.n >> m >> ref.offset;
  for (int k = 0; k < m; ++k) {
    int i, j;
    double w;
    in >> i >> j >> w;
    ref.terms[{i, j}] = w;
  }
  return ref;
}

TEST(TakuzuModelTest, EmptyBoardsReproduceTheReferenceInstances) {
  for (int side : {6, 10, 14}) {
    SCOPED_TRACE(side);
    const ReferenceQubo ref = ReadReference(absl::StrCat(
        SourceDir(), "/tests/data/takuzu/reference/takuzu", side, ".qubo"));
    Rules rules;
    rules.rows = rules.cols = side;
    for (v1::Reduction reduction : {v1::REDUCTION_NONE, v1::REDUCTION_FULL}) {
      const CompiledProblem problem = CompileOrDie(ToSpec(rules), reduction);
      // Nothing is given, so the reduced model is the full one, variable for
      // variable.
      const Qubo& model = problem.model;
      ASSERT_EQ(model.num_variables(), ref.n);
      EXPECT_EQ(model.offset(), ref.offset);
      std::map<std::pair<int, int>, double> terms;
      for (int i = 0; i < model.num_variables(); ++i) {
        if (model.linear(i) != 0) terms[{i, i}] = model.linear(i);
      }
      for (const QuboTerm& t : model.QuadraticTerms()) terms[{t.i, t.j}] = t.w;
      EXPECT_EQ(terms, ref.terms);
      EXPECT_EQ(problem.ground_energy, (side * side - 2 * side) / 2.0);
    }
  }
}

TEST(TakuzuModelTest, ValidBoardScoresHalfOfNmMinusNMinusMAndEveryFlipMore) {
  for (const auto& [rows, cols] :
       std::vector<std::pair<int, int>>{{6, 6}, {4, 6}, {6, 8}}) {
    SCOPED_TRACE(absl::StrCat(rows, "x", cols));
    Rules rules;
    rules.rows = rows;
    rules.cols = cols;
    const CompiledProblem problem =
        CompileOrDie(ToSpec(rules), v1::REDUCTION_NONE);
    const double expected = (rows * cols - rows - cols) / 2.0;
    EXPECT_EQ(problem.ground_energy, expected);
    const Board board = SomeBoard(rows, cols, 7);
    EXPECT_EQ(problem.full_model.Energy(board), expected);
    for (size_t k = 0; k < board.size(); ++k) {
      Board flipped = board;
      flipped[k] ^= 1;
      EXPECT_GT(problem.full_model.Energy(flipped), expected) << "cell " << k;
    }
  }
}

TEST(TakuzuModelTest, LabelsAndSizes) {
  Rules rules;
  rules.rows = 4;
  rules.cols = 6;
  const CompiledProblem problem =
      CompileOrDie(ToSpec(rules), v1::REDUCTION_NONE);
  EXPECT_EQ(problem.full_model.num_variables(), 24);
  EXPECT_EQ(problem.full_model.labels()[1 * 6 + 4], "r2c5");
  EXPECT_EQ(problem.height, 4);
  EXPECT_EQ(problem.width, 6);
  v1::PuzzleSpec spec = ToSpec(rules);
  EXPECT_EQ(NewTakuzuCompiler()->ModelVariables(spec), 24);
}

TEST(TakuzuModelTest, GroundEnergyOfEveryVariantIsOneQuarterPerTriple) {
  Rules rules;
  rules.rows = 6;
  rules.cols = 8;
  const int n = 6, m = 8;
  struct Case {
    v1::TakuzuPuzzle::Topology topology;
    bool diagonal;
    double triples;
  };
  const Case cases[] = {
      {v1::TakuzuPuzzle::PLANE, false, n * (m - 2) + m * (n - 2)},
      {v1::TakuzuPuzzle::CYLINDER, false, n * m + m * (n - 2)},
      {v1::TakuzuPuzzle::CYLINDER_VERTICAL, false, n * (m - 2) + m * n},
      {v1::TakuzuPuzzle::TORUS, false, 2 * n * m},
      {v1::TakuzuPuzzle::PLANE, true,
       n * (m - 2) + m * (n - 2) + 2 * (n - 2) * (m - 2)},
      {v1::TakuzuPuzzle::TORUS, true, 4 * n * m},
      {v1::TakuzuPuzzle::CYLINDER, true, n * m + m * (n - 2) + 2 * (n - 2) * m},
  };
  for (const Case& c : cases) {
    rules.topology = c.topology;
    rules.diagonal = c.diagonal;
    const CompiledProblem problem =
        CompileOrDie(ToSpec(rules), v1::REDUCTION_NONE);
    EXPECT_EQ(problem.ground_energy, c.triples / 4)
        << v1::TakuzuPuzzle::Topology_Name(c.topology) << c.diagonal;
  }
}

// ---------------------------------------------------------------------------------------------------
// Exact ground states against every valid board.

class GroundStatesTest : public ::testing::TestWithParam<std::pair<int, int>> {
 protected:
  Rules Base() const {
    Rules rules;
    rules.rows = GetParam().first;
    rules.cols = GetParam().second;
    return rules;
  }
};

TEST_P(GroundStatesTest, Plain) { ExpectGroundStatesAreValidBoards(Base()); }

TEST_P(GroundStatesTest, Diagonal) {
  Rules rules = Base();
  rules.diagonal = true;
  ExpectGroundStatesAreValidBoards(rules);
}

TEST_P(GroundStatesTest, Torus) {
  Rules rules = Base();
  rules.topology = v1::TakuzuPuzzle::TORUS;
  ExpectGroundStatesAreValidBoards(rules);
}

TEST_P(GroundStatesTest, Cylinders) {
  Rules rules = Base();
  rules.topology = v1::TakuzuPuzzle::CYLINDER;
  ExpectGroundStatesAreValidBoards(rules);
  rules.topology = v1::TakuzuPuzzle::CYLINDER_VERTICAL;
  ExpectGroundStatesAreValidBoards(rules);
}

TEST_P(GroundStatesTest, DiagonalTorus) {
  Rules rules = Base();
  rules.topology = v1::TakuzuPuzzle::TORUS;
  rules.diagonal = true;
  ExpectGroundStatesAreValidBoards(rules);
}

TEST_P(GroundStatesTest, CountRegions) {
  // Two-by-two blocks with the number of ones of a valid board, plus one
  // L-shaped region.
  Rules rules = Base();
  const Board board = SomeBoard(rules.rows, rules.cols, 5);
  for (int r = 0; r < rules.rows; r += 2) {
    for (int c = 0; c < rules.cols; c += 2) {
      Rules::Region region{{rules.Cell(r, c), rules.Cell(r, c + 1),
                            rules.Cell(r + 1, c), rules.Cell(r + 1, c + 1)},
                           0};
      for (int cell : region.cells) region.ones += board[cell];
      rules.regions.push_back(region);
    }
  }
  Rules::Region l_shape{
      {rules.Cell(0, 1), rules.Cell(1, 1), rules.Cell(2, 1), rules.Cell(2, 2)},
      0};
  for (int cell : l_shape.cells) l_shape.ones += board[cell];
  rules.regions.push_back(l_shape);
  ExpectGroundStatesAreValidBoards(rules);
}

TEST_P(GroundStatesTest, UnbalancedCounts) {
  // Counts read off a board that only keeps the no-three rule.
  Rules rules = Base();
  Board board(rules.rows * rules.cols);
  for (int r = 0; r < rules.rows; ++r) {
    for (int c = 0; c < rules.cols; ++c)
      board[rules.Cell(r, c)] = ((r * 7 + c * 3) % 5) < 2;
  }
  for (int r = 0; r < rules.rows; ++r) {
    int ones = 0;
    for (int c = 0; c < rules.cols; ++c) ones += board[rules.Cell(r, c)];
    rules.row_ones.push_back(ones);
  }
  for (int c = 0; c < rules.cols; ++c) {
    int ones = 0;
    for (int r = 0; r < rules.rows; ++r) ones += board[rules.Cell(r, c)];
    rules.col_ones.push_back(ones);
  }
  ExpectGroundStatesAreValidBoards(rules);
}

TEST_P(GroundStatesTest, GivensAndSignsNearAndFar) {
  Rules rules = Base();
  const Board board = SomeBoard(rules.rows, rules.cols, 11);
  rules.givens.assign(rules.rows * rules.cols, -1);
  rules.givens[rules.Cell(0, 0)] = board[rules.Cell(0, 0)];
  rules.givens[rules.Cell(3, 2)] = board[rules.Cell(3, 2)];
  auto sign = [&](int a, int b) {
    rules.signs.push_back({a, b, board[a] == board[b]});
  };
  sign(rules.Cell(0, 2), rules.Cell(0, 3));  // horizontal
  sign(rules.Cell(1, 1), rules.Cell(2, 1));  // vertical
  sign(rules.Cell(1, 3), rules.Cell(3, 0));  // long distance
  sign(rules.Cell(2, 1), rules.Cell(2, 2));  // a chain with the vertical one
  ExpectGroundStatesAreValidBoards(rules);
}

TEST_P(GroundStatesTest, EqualityRegionsAndDifferentPairs) {
  Rules rules = Base();
  const Board board = SomeBoard(rules.rows, rules.cols, 3);
  // Two classes of cells holding one value each in the chosen board.
  std::vector<int> zeros, ones;
  for (int cell = 0; cell < rules.rows * rules.cols; ++cell)
    (board[cell] ? ones : zeros).push_back(cell);
  rules.equality_regions = {
      {zeros[0], zeros[3], zeros[5]}, {ones[1], ones[4]}, {zeros[6], zeros[7]}};
  rules.different_regions = {{0, 1}, {1, 2}};
  ExpectGroundStatesAreValidBoards(rules);
}

TEST_P(GroundStatesTest, UniqueLinesAreLeftToTheValidator) {
  Rules rules = Base();
  rules.unique = true;
  ExpectGroundStatesAreValidBoards(rules);
}

INSTANTIATE_TEST_SUITE_P(Boards, GroundStatesTest,
                         ::testing::Values(std::make_pair(4, 4),
                                           std::make_pair(4, 6)),
                         [](const auto& info) {
                           return absl::StrCat(info.param.first, "x",
                                               info.param.second);
                         });

TEST(TakuzuGroundStatesTest, SixBySixTangoWithSigns) {
  // A 6x6 Tango in the style of the papers' example: givens, '=' and 'x'
  // between neighbours.
  // In the Tango text format (cell rows and sign rows):
  //   1 . . .=1 .
  //   . . . . . .
  //   . . .=. . 0
  //   . . . . . .
  //   0 . . . . .
  //   . x . . . .
  //   . . . . . .
  //   . . . . . .
  //   0 . . .x. .
  //   . . . . . .
  //   . . . 0 . 1
  Rules rules;
  rules.rows = rules.cols = 6;
  rules.givens.assign(36, -1);
  for (const auto& [r, c, v] : std::vector<std::array<int, 3>>{{0, 0, 1},
                                                               {0, 4, 1},
                                                               {1, 5, 0},
                                                               {2, 0, 0},
                                                               {4, 0, 0},
                                                               {5, 3, 0},
                                                               {5, 5, 1}}) {
    rules.givens[rules.Cell(r, c)] = v;
  }
  rules.signs = {{rules.Cell(1, 2), rules.Cell(1, 3), true},
                 {rules.Cell(2, 1), rules.Cell(3, 1), false},
                 {rules.Cell(4, 3), rules.Cell(4, 4), false},
                 {rules.Cell(0, 3), rules.Cell(0, 4), true}};
  const v1::PuzzleSpec spec = ToSpec(rules);
  const CompiledProblem problem = CompileOrDie(spec);
  EXPECT_EQ(problem.ground_energy, 12);
  EXPECT_LE(problem.model.num_variables(),
            TakuzuPaperVariableBound(spec.takuzu()));
  ASSERT_LE(problem.model.num_variables(), 24);
  const BoardSet valid = AllValidBoards(rules);
  EXPECT_EQ(valid.size(), 7u);
  EXPECT_EQ(GroundBoards(problem), valid);
}

// ---------------------------------------------------------------------------------------------------
// Reduction.

TEST(TakuzuReductionTest, StagesInThePapersOrder) {
  // Row 1 gets its three ones: 1 1 . 1 . . -> the rest are 0; the pair 1 1
  // forces (1,3) = 0 as well.
  Rules rules;
  rules.rows = rules.cols = 6;
  rules.givens.assign(36, -1);
  rules.givens[rules.Cell(0, 0)] = 1;
  rules.givens[rules.Cell(0, 1)] = 1;
  rules.givens[rules.Cell(0, 3)] = 1;
  rules.givens[rules.Cell(3, 3)] = 0;
  rules.signs = {
      {rules.Cell(3, 3), rules.Cell(3, 4), false},  // from a given: (4,5) = 1
      {rules.Cell(4, 1), rules.Cell(5, 1), true},   // substituted
      {rules.Cell(4, 0), rules.Cell(5, 1),
       false}};  // a chain of three cells, one variable
  const CompiledProblem problem = CompileOrDie(ToSpec(rules));
  std::vector<std::string> names;
  for (const ReductionStage& s : problem.stages) names.push_back(s.name);
  ASSERT_GE(names.size(), 6u);
  EXPECT_EQ(names[0], "model");
  EXPECT_EQ(names[1], "givens");
  EXPECT_EQ(names[2], "signs");
  EXPECT_EQ(names[3], "lines");
  EXPECT_EQ(names[4], "pairs");
  EXPECT_EQ(names.back(), "substitution");
  EXPECT_EQ(problem.stages[1].fixed_one, 3);
  EXPECT_EQ(problem.stages[1].fixed_zero, 1);
  EXPECT_EQ(problem.stages[2].fixed_one, 1);  // (4,5)
  EXPECT_EQ(problem.stages[3].fixed_zero,
            3);  // rest of row 1: (1,3), (1,5), (1,6)
  // Each stage's count of free cells follows from the ones before it.
  int free_cells = 36;
  for (size_t k = 1; k + 1 < problem.stages.size(); ++k) {
    free_cells -= problem.stages[k].fixed_zero + problem.stages[k].fixed_one;
    EXPECT_EQ(problem.stages[k].variables, free_cells)
        << problem.stages[k].name;
  }
  // Substitution removes one variable per remaining sign (two signs, no cycle).
  EXPECT_EQ(problem.stages.back().variables, free_cells - 2);
  EXPECT_EQ(problem.model.num_variables(), free_cells - 2);
  EXPECT_LE(problem.model.num_variables(),
            TakuzuPaperVariableBound(ToSpec(rules).takuzu()));
}

TEST(TakuzuReductionTest, RepresentativeIsLeftMostThenTopMost) {
  // A chain (1,3) = (2,3) x (2,2) = (3,2) x (3,1) and a long sign (1,6) =
  // (4,5): the first class is represented by (3,1) (left-most), the second by
  // (4,5).
  Rules rules;
  rules.rows = rules.cols = 6;
  rules.signs = {{rules.Cell(0, 2), rules.Cell(1, 2), true},
                 {rules.Cell(1, 2), rules.Cell(1, 1), false},
                 {rules.Cell(1, 1), rules.Cell(2, 1), true},
                 {rules.Cell(2, 1), rules.Cell(2, 0), false},
                 {rules.Cell(0, 5), rules.Cell(3, 4), true}};
  // Two cells in one column: the top one represents.
  rules.signs.push_back({rules.Cell(5, 3), rules.Cell(4, 3), false});
  const CompiledProblem problem = CompileOrDie(ToSpec(rules));
  const VariableMap& map = problem.variables;
  EXPECT_EQ(map.num_reduced(), 36 - 6);
  auto reduced_of = [&](int cell) { return map.source(cell).reduced; };
  EXPECT_EQ(map.representative(reduced_of(rules.Cell(0, 2))), rules.Cell(2, 0));
  EXPECT_EQ(map.representative(reduced_of(rules.Cell(0, 5))), rules.Cell(3, 4));
  EXPECT_EQ(map.representative(reduced_of(rules.Cell(5, 3))), rules.Cell(4, 3));
  // Literals: (3,1) itself; (3,2) = not (3,1); (2,2) = not; (2,3) = (3,1);
  // (1,3) = (3,1).
  EXPECT_EQ(map.source(rules.Cell(2, 0)).value, 0);
  EXPECT_EQ(map.source(rules.Cell(2, 1)).value, 1);
  EXPECT_EQ(map.source(rules.Cell(1, 1)).value, 1);
  EXPECT_EQ(map.source(rules.Cell(1, 2)).value, 0);
  EXPECT_EQ(map.source(rules.Cell(0, 2)).value, 0);
  EXPECT_EQ(map.source(rules.Cell(5, 3)).value, 1);
  // The substitution keeps energies: the reduced model scores a state as the
  // full model scores its expansion (checked on a valid board).
  const Board board = SomeBoard(6, 6, 0);
  const Board restricted = map.Expand(map.Restrict(board));
  EXPECT_EQ(problem.model.Energy(map.Restrict(board)),
            problem.full_model.Energy(restricted));
}

TEST(TakuzuReductionTest, EqualityRegionsCollapseToOneVariable) {
  Rules rules;
  rules.rows = rules.cols = 6;
  rules.equality_regions = {
      {rules.Cell(0, 4), rules.Cell(2, 2), rules.Cell(5, 5), rules.Cell(1, 3)},
      {rules.Cell(4, 1), rules.Cell(3, 3)}};
  rules.different_regions = {{0, 1}};
  const v1::PuzzleSpec spec = ToSpec(rules);
  const CompiledProblem problem = CompileOrDie(spec);
  // 3 + 1 chain links and one 'x': five signs, one class of six cells.
  EXPECT_EQ(problem.model.num_variables(), 36 - 5);
  EXPECT_EQ(TakuzuPaperVariableBound(spec.takuzu()), 36 - 5);
  const VariableMap& map = problem.variables;
  const int reduced = map.source(rules.Cell(0, 4)).reduced;
  EXPECT_EQ(map.representative(reduced),
            rules.Cell(4, 1));  // column 2 is the left-most
  for (int cell : rules.equality_regions[0])
    EXPECT_EQ(map.source(cell).value, 1) << cell;
  for (int cell : rules.equality_regions[1])
    EXPECT_EQ(map.source(cell).value, 0) << cell;
}

TEST(TakuzuReductionTest, PairsForceAcrossWrappedEdgesAndDiagonals) {
  auto fixed = [](const Rules& rules, const CompiledProblem& problem, int r,
                  int c) {
    const auto& s = problem.variables.source(rules.Cell(r, c));
    return s.reduced < 0 ? s.value : -1;
  };
  Rules torus;
  torus.rows = torus.cols = 6;
  torus.topology = v1::TakuzuPuzzle::TORUS;
  torus.givens.assign(36, -1);
  torus.givens[torus.Cell(0, 5)] =
      1;  // (1,6), (1,1) -> (1,2) = 0 and (1,5) = 0 across the edge
  torus.givens[torus.Cell(0, 0)] = 1;
  const CompiledProblem on_torus = CompileOrDie(ToSpec(torus));
  ASSERT_EQ(on_torus.variables.num_full(), 36);
  EXPECT_EQ(fixed(torus, on_torus, 0, 1), 0);
  EXPECT_EQ(fixed(torus, on_torus, 0, 4), 0);
  // On a plane the two givens are far apart and force nothing.
  Rules plane = torus;
  plane.topology = v1::TakuzuPuzzle::PLANE;
  const CompiledProblem on_plane = CompileOrDie(ToSpec(plane));
  ASSERT_EQ(on_plane.variables.num_full(), 36);
  EXPECT_EQ(fixed(plane, on_plane, 0, 1), -1);
  EXPECT_EQ(fixed(plane, on_plane, 0, 4), -1);

  Rules diagonal;
  diagonal.rows = diagonal.cols = 6;
  diagonal.diagonal = true;
  diagonal.givens.assign(36, -1);
  diagonal.givens[diagonal.Cell(2, 2)] =
      0;  // (3,3), (4,4) -> (2,2) = 1 and (5,5) = 1
  diagonal.givens[diagonal.Cell(3, 3)] = 0;
  diagonal.givens[diagonal.Cell(0, 5)] =
      1;  // (1,6), (3,4) gap on the anti-diagonal -> (2,5) = 0
  diagonal.givens[diagonal.Cell(2, 3)] = 1;
  const CompiledProblem with_diagonals = CompileOrDie(ToSpec(diagonal));
  ASSERT_EQ(with_diagonals.variables.num_full(), 36);
  EXPECT_EQ(fixed(diagonal, with_diagonals, 1, 1), 1);
  EXPECT_EQ(fixed(diagonal, with_diagonals, 4, 4), 1);
  EXPECT_EQ(fixed(diagonal, with_diagonals, 1, 4), 0);
}

TEST(TakuzuReductionTest, ReductionLevels) {
  Rules rules;
  rules.rows = rules.cols = 6;
  rules.givens.assign(36, -1);
  rules.givens[0] = rules.givens[1] = 1;
  rules.signs = {{rules.Cell(3, 3), rules.Cell(3, 4), true}};
  const v1::PuzzleSpec spec = ToSpec(rules);
  EXPECT_EQ(CompileOrDie(spec, v1::REDUCTION_NONE).model.num_variables(), 36);
  const CompiledProblem clues = CompileOrDie(spec, v1::REDUCTION_CLUES);
  EXPECT_EQ(clues.model.num_variables(), 34);
  ASSERT_EQ(clues.stages.size(), 2u);
  EXPECT_EQ(clues.stages[1].name, "givens");
  EXPECT_EQ(clues.stages[1].fixed_one, 2);
  // (1,3) = 0 by the pair, one sign substituted.
  EXPECT_EQ(CompileOrDie(spec, v1::REDUCTION_FULL).model.num_variables(), 32);
  EXPECT_EQ(CompileOrDie(spec, v1::REDUCTION_DEFAULT).model.num_variables(),
            32);
}

TEST(TakuzuReductionTest,
     RedundantSignsExceedThePaperCountButNotTheIndependentBound) {
  // Two givens tied by a sign: the sign removes nothing, so the paper's count
  // (which assumes every sign removes a variable) is one below what is left;
  // the independent bound is exact.
  Rules rules;
  rules.rows = rules.cols = 6;
  rules.givens.assign(36, -1);
  rules.givens[rules.Cell(0, 0)] = 0;
  rules.givens[rules.Cell(3, 3)] = 1;
  rules.signs = {{rules.Cell(0, 0), rules.Cell(3, 3), false}};
  const v1::PuzzleSpec spec = ToSpec(rules);
  const CompiledProblem problem = CompileOrDie(spec);
  EXPECT_EQ(problem.model.num_variables(), 34);
  EXPECT_EQ(TakuzuPaperVariableBound(spec.takuzu()), 33);
  EXPECT_EQ(TakuzuIndependentVariableBound(spec.takuzu()), 34);
}

TEST(TakuzuReductionTest, ContradictionsNameTheCells) {
  auto compile = [](const Rules& rules) {
    v1::CompileOptions options;
    return NewTakuzuCompiler()->Compile(ToSpec(rules), options);
  };
  Rules base;
  base.rows = base.cols = 6;
  base.givens.assign(36, -1);
  {
    // An odd cycle of signs.
    Rules rules = base;
    rules.signs = {{rules.Cell(0, 0), rules.Cell(0, 1), true},
                   {rules.Cell(0, 1), rules.Cell(1, 1), true},
                   {rules.Cell(1, 1), rules.Cell(0, 0), false}};
    EXPECT_THAT(
        compile(rules),
        StatusIs(
            absl::StatusCode::kInvalidArgument,
            HasSubstr(
                "takuzu.signs[2]: cells (2,2) and (1,1) must be different")));
  }
  {
    // A sign chain between two givens that it contradicts.
    Rules rules = base;
    rules.givens[rules.Cell(2, 0)] = 0;
    rules.givens[rules.Cell(2, 4)] = 1;
    rules.signs = {{rules.Cell(2, 0), rules.Cell(4, 2), true},
                   {rules.Cell(4, 2), rules.Cell(2, 4), true}};
    EXPECT_THAT(
        compile(rules),
        StatusIs(absl::StatusCode::kInvalidArgument,
                 ::testing::AllOf(HasSubstr("(3,1)"), HasSubstr("(3,5)"),
                                  HasSubstr("make them equal"))));
  }
  {
    // A row with four ones given.
    Rules rules = base;
    for (int c : {0, 2, 3, 5}) rules.givens[rules.Cell(1, c)] = 1;
    EXPECT_THAT(compile(rules),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         ::testing::AllOf(HasSubstr("row 2 must hold 3 ones"),
                                          HasSubstr("(2,1) given"),
                                          HasSubstr("(2,6) given"))));
  }
  {
    // Three zeros in a column.
    Rules rules = base;
    for (int r : {1, 2, 3}) rules.givens[rules.Cell(r, 4)] = 0;
    EXPECT_THAT(
        compile(rules),
        StatusIs(absl::StatusCode::kInvalidArgument,
                 ::testing::AllOf(HasSubstr("(2,5) (3,5) (4,5)"),
                                  HasSubstr("three in a row along a column"))));
  }
  {
    // A contradiction that only propagation finds: 0 0 . forces a 1 that a sign
    // makes 0 at a given 1.
    Rules rules = base;
    rules.givens[rules.Cell(0, 0)] = 0;
    rules.givens[rules.Cell(0, 1)] = 0;
    rules.givens[rules.Cell(5, 5)] = 1;
    rules.signs = {{rules.Cell(0, 2), rules.Cell(5, 5), false}};
    EXPECT_THAT(compile(rules), StatusIs(absl::StatusCode::kInvalidArgument,
                                         ::testing::AllOf(HasSubstr("(1,3)"),
                                                          HasSubstr("(6,6)"))));
  }
}

TEST(TakuzuSpecTest, RejectsBadInputNamingTheField) {
  auto compile = [](const v1::PuzzleSpec& spec) {
    v1::CompileOptions options;
    return NewTakuzuCompiler()->Compile(spec, options);
  };
  Rules rules;
  rules.rows = rules.cols = 6;
  {
    v1::PuzzleSpec spec = ToSpec(rules);
    spec.mutable_takuzu()->add_cells(v1::TakuzuPuzzle::ONE);
    EXPECT_THAT(compile(spec),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("takuzu.cells: expected 0 or 36")));
  }
  {
    Rules odd = rules;
    odd.cols = 5;
    EXPECT_THAT(compile(ToSpec(odd)),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("takuzu.row_ones")));
  }
  {
    Rules sign = rules;
    sign.signs = {{0, 0, true}};
    EXPECT_THAT(compile(ToSpec(sign)),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("takuzu.signs[0]")));
    v1::PuzzleSpec spec = ToSpec(rules);
    v1::TakuzuSign* s = spec.mutable_takuzu()->add_signs();
    s->mutable_a()->set_row(6);
    s->set_kind(v1::TakuzuSign::EQUAL);
    EXPECT_THAT(compile(spec), StatusIs(absl::StatusCode::kInvalidArgument,
                                        HasSubstr("takuzu.signs[0].a")));
    spec.mutable_takuzu()->mutable_signs(0)->mutable_a()->set_row(1);
    spec.mutable_takuzu()->mutable_signs(0)->set_kind(
        v1::TakuzuSign::KIND_UNSPECIFIED);
    EXPECT_THAT(compile(spec), StatusIs(absl::StatusCode::kInvalidArgument,
                                        HasSubstr("takuzu.signs[0].kind")));
  }
  {
    Rules counts = rules;
    counts.row_ones = {3, 3, 3, 3, 3, 4};
    EXPECT_THAT(compile(ToSpec(counts)),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("no board has both")));
    counts.row_ones = {3, 3, 3, 3, 3, 7};
    EXPECT_THAT(compile(ToSpec(counts)),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("takuzu.row_ones[5]")));
  }
  {
    Rules regions = rules;
    regions.regions = {{{0, 1}, 3}};
    EXPECT_THAT(compile(ToSpec(regions)),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("takuzu.regions[0].ones")));
    regions.regions = {{{0, 0}, 1}};
    EXPECT_THAT(compile(ToSpec(regions)),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("listed twice")));
  }
  {
    Rules pairs = rules;
    pairs.equality_regions = {{0, 1}};
    pairs.different_regions = {{0, 1}};
    EXPECT_THAT(compile(ToSpec(pairs)),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("takuzu.different_regions[0]")));
  }
  {
    Rules narrow = rules;
    narrow.rows = 2;
    narrow.topology = v1::TakuzuPuzzle::TORUS;
    EXPECT_THAT(compile(ToSpec(narrow)),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("takuzu.topology")));
  }
  {
    v1::PuzzleSpec empty;
    empty.mutable_takuzu();
    EXPECT_THAT(compile(empty), StatusIs(absl::StatusCode::kInvalidArgument,
                                         HasSubstr("takuzu.rows")));
  }
  {
    // 250000 cells, but 500 rows and 500 columns of 500 cells: 125M couplers.
    Rules big = rules;
    big.rows = big.cols = 500;
    EXPECT_THAT(compile(ToSpec(big)),
                StatusIs(absl::StatusCode::kResourceExhausted,
                         HasSubstr("quadratic terms")));
  }
}

// ---------------------------------------------------------------------------------------------------
// Validation, decoding and encoding.

v1::PuzzleSolution Rows(std::vector<std::string> rows) {
  v1::PuzzleSolution solution;
  for (const std::string& row : rows) solution.add_rows(row);
  return solution;
}

std::vector<std::string> RuleLocations(const v1::ValidationReport& report) {
  std::vector<std::string> out;
  for (const v1::Violation& v : report.violations())
    out.push_back(v.rule() + "@" + v.location());
  return out;
}

TEST(TakuzuValidateTest, UniqueLinesOnlyWhenAsked) {
  // Rows 1 and 4, 2 and 5, columns 1 and 5, 2 and 6 are equal; every other rule
  // holds.
  const std::vector<std::string> board = {"011001", "100110", "010101",
                                          "011001", "100110", "101010"};
  Rules rules;
  rules.rows = rules.cols = 6;
  auto compiler = NewTakuzuCompiler();
  auto report = compiler->Validate(ToSpec(rules), Rows(board));
  ASSERT_OK(report);
  EXPECT_TRUE(report->valid()) << report->DebugString();
  rules.unique = true;
  report = compiler->Validate(ToSpec(rules), Rows(board));
  ASSERT_OK(report);
  EXPECT_FALSE(report->valid());
  EXPECT_THAT(RuleLocations(*report),
              ::testing::ElementsAre("duplicate_rows@rows 1 and 4",
                                     "duplicate_rows@rows 2 and 5",
                                     "duplicate_columns@columns 1 and 5",
                                     "duplicate_columns@columns 2 and 6"));
}

TEST(TakuzuValidateTest, NamesEveryBrokenRule) {
  Rules rules;
  rules.rows = rules.cols = 6;
  rules.diagonal = true;
  rules.givens.assign(36, -1);
  rules.givens[rules.Cell(0, 0)] = 1;
  rules.signs = {{rules.Cell(0, 0), rules.Cell(0, 1), true},
                 {rules.Cell(5, 0), rules.Cell(5, 1), false}};
  rules.regions = {{{rules.Cell(2, 2), rules.Cell(2, 3)}, 2}};
  rules.equality_regions = {{rules.Cell(4, 4), rules.Cell(4, 5)},
                            {rules.Cell(2, 3)}};
  rules.different_regions = {{0, 1}};
  const std::vector<std::string> board = {"000111", "000111", "010110",
                                          "111000", "000111", "00011."};
  auto report = NewTakuzuCompiler()->Validate(ToSpec(rules), Rows(board));
  ASSERT_OK(report);
  EXPECT_FALSE(report->valid());
  const std::vector<std::string> got = RuleLocations(*report);
  using ::testing::Contains;
  EXPECT_THAT(got, Contains("empty_cell@cell (6,6)"));
  EXPECT_THAT(got, Contains("clue_mismatch@cell (1,1)"));
  EXPECT_THAT(got, Contains("row_repetition@cells (1,1) (1,2) (1,3)"));
  EXPECT_THAT(got, Contains("column_repetition@cells (1,1) (2,1) (3,1)"));
  EXPECT_THAT(got, Contains("diagonal_repetition@cells (1,1) (2,2) (3,3)"));
  EXPECT_THAT(got, Contains("column_count@column 1"));
  EXPECT_THAT(got, Contains("region_count@region 1"));
  EXPECT_THAT(got, Contains("sign_different@cells (6,1) and (6,2)"));
  EXPECT_THAT(got, Contains("different_regions@equality regions 1 and 2"));
  EXPECT_THAT(got,
              ::testing::Not(Contains("sign_equal@cells (1,1) and (1,2)")));
  EXPECT_THAT(got,
              ::testing::Not(Contains(::testing::StartsWith("row_count@"))));
}

TEST(TakuzuValidateTest, DecodeEncodeRoundTrip) {
  Rules rules;
  rules.rows = 4;
  rules.cols = 6;
  const v1::PuzzleSpec spec = ToSpec(rules);
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
  const Board board = SomeBoard(4, 6, 2);
  auto compiler = NewTakuzuCompiler();
  const v1::PuzzleSolution solution = compiler->Decode(spec, problem, board);
  ASSERT_EQ(solution.rows_size(), 4);
  EXPECT_EQ(solution.rows(0).size(), 6u);
  EXPECT_EQ(solution.cells_size(), 24);
  auto bits = compiler->Encode(spec, problem, solution);
  ASSERT_OK(bits);
  EXPECT_EQ(*bits, board);
  auto from_rows = compiler->Encode(
      spec, problem, Rows({solution.rows().begin(), solution.rows().end()}));
  ASSERT_OK(from_rows);
  EXPECT_EQ(*from_rows, board);
  EXPECT_THAT(
      compiler->Encode(spec, problem, Rows({"0101", "1010"})),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("solution.rows")));
}

TEST(TakuzuValidateTest, RegisteredAsBuiltin) {
  auto compiler = BuiltinCompilers().ForKind("takuzu");
  ASSERT_OK(compiler);
  EXPECT_EQ((*compiler)->puzzle_case(), v1::PuzzleSpec::kTakuzu);
}

// ---------------------------------------------------------------------------------------------------
// The stored puzzles (tests/data/takuzu/puzzles.txt): Unruly game IDs from
// sgt-unruly and signed 6x6 Tango puzzles from scripts/make_takuzu_data.py,
// each with its unique solution.

struct StoredPuzzle {
  std::string name;
  std::string kind;
  std::string input;
  std::vector<std::string> solution;
  v1::PuzzleSpec spec;
};

const std::vector<StoredPuzzle>& StoredPuzzles() {
  static const auto* puzzles = [] {
    auto* out = new std::vector<StoredPuzzle>;
    std::ifstream in(SourceDir() + "/tests/data/takuzu/puzzles.txt");
    EXPECT_TRUE(in.good());
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream fields(line);
      StoredPuzzle p;
      std::string solution;
      fields >> p.name >> p.kind >> p.input >> solution;
      p.solution = absl::StrSplit(solution, '/');
      auto spec = formats::ParsePuzzleText(p.kind, p.input);
      EXPECT_OK(spec) << p.name;
      if (spec.ok()) p.spec = *spec;
      out->push_back(std::move(p));
    }
    return out;
  }();
  return *puzzles;
}

TEST(TakuzuStoredPuzzlesTest, SolutionsAreValidAndScoreTheGroundEnergy) {
  auto compiler = NewTakuzuCompiler();
  ASSERT_EQ(StoredPuzzles().size(), 100u);
  for (const StoredPuzzle& p : StoredPuzzles()) {
    SCOPED_TRACE(p.name);
    const CompiledProblem problem = CompileOrDie(p.spec);
    auto report = compiler->Validate(p.spec, Rows(p.solution));
    ASSERT_OK(report);
    EXPECT_TRUE(report->valid()) << report->DebugString();
    auto bits = compiler->Encode(p.spec, problem, Rows(p.solution));
    ASSERT_OK(bits);
    // The reduction keeps the solution: it is an expansion of a reduced state,
    // at the same energy.
    EXPECT_TRUE(problem.variables.IsConsistent(*bits));
    EXPECT_EQ(problem.full_model.Energy(*bits), *problem.ground_energy);
    EXPECT_EQ(problem.model.Energy(problem.variables.Restrict(*bits)),
              *problem.ground_energy);
  }
}

// Lines of balanced Takuzu and Tango hold 3 or more ones: no exactly-one
// groups. Count regions of one 1 (here the 2x2 blocks of a stored puzzle with
// one 1 in its solution) are groups, and the solution keeps them.
TEST(TakuzuStoredPuzzlesTest, CountsOfOneAreOneHotGroupsTheSolutionKeeps) {
  auto compiler = NewTakuzuCompiler();
  for (const StoredPuzzle& p : StoredPuzzles())
    EXPECT_TRUE(CompileOrDie(p.spec).one_hot_groups.empty()) << p.name;
  const auto stored = std::find_if(
      StoredPuzzles().begin(), StoredPuzzles().end(),
      [](const StoredPuzzle& p) { return p.name == "unruly-14x14-dn-1"; });
  ASSERT_NE(stored, StoredPuzzles().end());
  v1::PuzzleSpec spec = stored->spec;
  v1::TakuzuPuzzle* t = spec.mutable_takuzu();
  ASSERT_EQ(t->rows(), 14u);
  auto add_region = [&](std::vector<std::pair<int, int>> cells) {
    int ones = 0;
    for (auto [r, c] : cells) ones += stored->solution[r][c] - '0';
    if (ones != 1) return;
    v1::TakuzuCountRegion* region = t->add_regions();
    for (auto [r, c] : cells) {
      v1::TakuzuCellRef* ref = region->add_cells();
      ref->set_row(r);
      ref->set_col(c);
    }
    region->set_ones(1);
  };
  for (int r = 0; r < 14; r += 2) {
    for (int c = 0; c < 14; c += 2)
      add_region({{r, c}, {r, c + 1}, {r + 1, c}, {r + 1, c + 1}});
  }
  ASSERT_GT(t->regions_size(), 0);
  for (v1::Reduction reduction :
       {v1::REDUCTION_NONE, v1::REDUCTION_CLUES, v1::REDUCTION_FULL}) {
    SCOPED_TRACE(v1::Reduction_Name(reduction));
    const CompiledProblem problem = CompileOrDie(spec, reduction);
    ASSERT_FALSE(problem.one_hot_groups.empty());
    EXPECT_EQ(testing::MalformedGroups(problem.one_hot_groups,
                                       problem.model.num_variables()),
              0);
    auto bits = compiler->Encode(spec, problem, Rows(stored->solution));
    ASSERT_OK(bits);
    EXPECT_TRUE(problem.variables.IsConsistent(*bits));
    EXPECT_EQ(problem.model.Energy(problem.variables.Restrict(*bits)),
              *problem.ground_energy);
    EXPECT_EQ(GroupsBrokenBy(problem, *bits), 0);
    if (reduction == v1::REDUCTION_NONE) {
      EXPECT_EQ(problem.one_hot_groups.size(),
                static_cast<size_t>(t->regions_size()));
    }
  }
  // Rows of two cells hold one 1 each.
  Rules narrow_rules;
  narrow_rules.rows = 4;
  narrow_rules.cols = 2;
  const CompiledProblem narrow = CompileOrDie(ToSpec(narrow_rules));
  EXPECT_EQ(narrow.one_hot_groups.size(), 4u);
}

// Variables before and after each stage, and the bound NM - N_I0 - N_I1 - N_He
// - N_Hc - N_Ve - N_Vc.
TEST(TakuzuStoredPuzzlesTest, ReductionStaysWithinThePapersBound) {
  struct Totals {
    int puzzles = 0;
    int64_t cells = 0, bound = 0, after = 0;
    std::map<std::string, int64_t> fixed;
  };
  std::map<std::string, Totals> by_size;
  for (const StoredPuzzle& p : StoredPuzzles()) {
    SCOPED_TRACE(p.name);
    const CompiledProblem problem = CompileOrDie(p.spec);
    const int64_t bound = TakuzuPaperVariableBound(p.spec.takuzu());
    EXPECT_LE(problem.model.num_variables(), bound);
    EXPECT_EQ(TakuzuIndependentVariableBound(p.spec.takuzu()),
              bound);  // the stored clues are independent
    ASSERT_GE(problem.stages.size(), 6u);
    EXPECT_EQ(problem.stages[0].name, "model");
    EXPECT_EQ(problem.stages[1].name, "givens");
    EXPECT_EQ(problem.stages.back().name, "substitution");
    EXPECT_EQ(problem.stages.back().variables, problem.model.num_variables());
    int fixed = 0;
    for (const ReductionStage& s : problem.stages)
      fixed += s.fixed_zero + s.fixed_one;
    EXPECT_EQ(
        problem.variables.num_fixed_zero() + problem.variables.num_fixed_one(),
        fixed);
    const std::string size =
        absl::StrCat(p.kind, " ", problem.height, "x", problem.width);
    Totals& t = by_size[size];
    ++t.puzzles;
    t.cells += problem.full_model.num_variables();
    t.bound += bound;
    t.after += problem.model.num_variables();
    for (const ReductionStage& s : problem.stages) {
      const std::string stage = s.name.substr(0, s.name.find('.'));
      t.fixed[stage] += s.fixed_zero + s.fixed_one;
    }
    if (problem.stages.size() > 1)
      t.fixed["substitution"] +=
          problem.stages[problem.stages.size() - 2].variables -
          problem.stages.back().variables;
  }
  // Mean over the puzzles of each size: variables before, the paper's bound,
  // after; cells each stage removed. Printed for the record; the assertions are
  // above.
  std::cout << "puzzles  size          before  bound  after  givens signs "
               "lines pairs substitution\n";
  for (auto& [size, t] : by_size) {
    // clang 14 cannot capture a structured binding.
    auto mean = [puzzles = t.puzzles](int64_t x) {
      return absl::StrCat(static_cast<double>(x) / puzzles);
    };
    std::cout << t.puzzles << "  " << size << "  " << mean(t.cells) << "  "
              << mean(t.bound) << "  " << mean(t.after) << "  "
              << mean(t.fixed["givens"]) << " " << mean(t.fixed["signs"]) << " "
              << mean(t.fixed["lines"]) << " " << mean(t.fixed["pairs"]) << " "
              << mean(t.fixed["substitution"]) << "\n";
  }
  EXPECT_EQ(by_size.size(), 5u);
}

// Collects every read, validated as a solve does.
class CollectingSink final : public SampleSink {
 public:
  void OnSample(Sample sample) override {
    absl::MutexLock lock(&mu_);
    samples_.push_back(std::move(sample));
  }
  std::vector<Sample> Take() {
    absl::MutexLock lock(&mu_);
    return std::move(samples_);
  }

 private:
  absl::Mutex mu_;
  std::vector<Sample> samples_;
};

// Anneals in batches of reads until one decodes to a valid board (the
// uniqueness rule included), at most `max_batches` batches; returns that board
// and counts the reads.
std::optional<std::vector<std::string>> AnnealUntilValid(
    const StoredPuzzle& p, const CompiledProblem& problem, int* reads,
    int* ground_but_invalid) {
  auto sampler = NewCpuSaSampler(&Pool());
  auto compiler = NewTakuzuCompiler();
  // Short anneals pay off on the hardest 14x14 puzzles (about one read in 2000
  // reaches the ground state, whatever the sweeps), so many reads of 200
  // sweeps.
  constexpr int kBatch = 128, kMaxBatches = 128;
  for (int batch = 0; batch < kMaxBatches; ++batch) {
    SampleParams params;
    params.num_reads = kBatch;
    params.num_sweeps = 200;
    params.seed = 1000 + batch;
    CollectingSink sink;
    Interrupter interrupter;
    auto stats = sampler->Sample(problem.model, params, sink, interrupter);
    EXPECT_OK(stats);
    if (!stats.ok()) return std::nullopt;
    std::vector<Sample> samples = sink.Take();
    std::sort(samples.begin(), samples.end(),
              [](const Sample& a, const Sample& b) {
                return a.read_index < b.read_index;
              });
    for (const Sample& s : samples) {
      ++*reads;
      const Board full = problem.variables.Expand(s.bits);
      EXPECT_DOUBLE_EQ(problem.full_model.Energy(full), s.energy);
      const v1::PuzzleSolution solution =
          compiler->Decode(p.spec, problem, full);
      auto report = compiler->Validate(p.spec, solution);
      EXPECT_OK(report);
      if (report.ok() && report->valid())
        return std::vector<std::string>(solution.rows().begin(),
                                        solution.rows().end());
      if (report.ok() && s.energy == *problem.ground_energy) {
        // At the ground energy only the uniqueness rule, which has no QUBO
        // term, can be broken.
        ++*ground_but_invalid;
        for (const v1::Violation& v : report->violations()) {
          EXPECT_THAT(v.rule(),
                      ::testing::AnyOf("duplicate_rows", "duplicate_columns"));
        }
      }
    }
  }
  return std::nullopt;
}

TEST(TakuzuStoredPuzzlesTest, AnnealerFindsTheStoredSolutions) {
  int total_reads = 0, total_ground_invalid = 0;
  for (const StoredPuzzle& p : StoredPuzzles()) {
    SCOPED_TRACE(p.name);
    const CompiledProblem problem = CompileOrDie(p.spec);
    int reads = 0, ground_invalid = 0;
    const auto board = AnnealUntilValid(p, problem, &reads, &ground_invalid);
    ASSERT_TRUE(board.has_value()) << "no valid board in " << reads << " reads";
    EXPECT_EQ(*board, p.solution);
    total_reads += reads;
    total_ground_invalid += ground_invalid;
  }
  std::cout << "reads until a valid board, all puzzles: " << total_reads
            << "; ground-energy boards that broke only the uniqueness rule: "
            << total_ground_invalid << "\n";
}

// Through the solve engine: boards that only repeat a row or column are invalid
// samples, the valid ones come first, the summary's best is valid, and
// stop_at_first_valid stops only on a valid board.
TEST(TakuzuSolveTest, ValidBoardsFirstWhenOnlyUniquenessBreaks) {
  const StoredPuzzle* puzzle = nullptr;
  for (const StoredPuzzle& p : StoredPuzzles()) {
    if (p.name == "unruly-6x6-udn-2")
      puzzle = &p;  // 12 boards keep the QUBO rules, one is unique
  }
  ASSERT_NE(puzzle, nullptr);
  BackendRegistry samplers;
  BackendOptions backend_options;
  backend_options.pool = &Pool();
  ASSERT_OK(RegisterBuiltinBackends(samplers, backend_options));
  SolveEngine engine(&BuiltinCompilers(), &samplers, SolveLimits{});

  v1::SolveRequest request;
  *request.mutable_puzzle() = puzzle->spec;
  request.mutable_params()->set_backend("cpu-sa");
  request.mutable_params()->set_num_reads(200);
  request.mutable_params()->set_num_sweeps(500);
  request.mutable_params()->set_seed(7);
  request.mutable_params()->set_aggregate(true);
  std::vector<v1::SampleEvent> samples;
  v1::SolveSummary summary;
  Interrupter interrupter;
  ASSERT_OK(engine.Solve(request, interrupter, [&](v1::SolveResponse&& r) {
    if (r.has_sample()) samples.push_back(r.sample());
    if (r.has_summary()) summary = r.summary();
  }));
  ASSERT_FALSE(samples.empty());
  EXPECT_TRUE(samples.front().valid());
  bool seen_invalid = false, uniqueness_only = false;
  for (const v1::SampleEvent& s : samples) {
    if (!s.valid()) seen_invalid = true;
    EXPECT_FALSE(seen_invalid && s.valid())
        << "a valid sample after an invalid one";
    if (!s.valid() && s.energy() == summary.ground_energy()) {
      uniqueness_only = true;
      for (const v1::Violation& v : s.violations()) {
        EXPECT_THAT(v.rule(),
                    ::testing::AnyOf("duplicate_rows", "duplicate_columns"));
      }
    }
  }
  EXPECT_TRUE(uniqueness_only)
      << "expected ground-energy boards that repeat a line";
  EXPECT_TRUE(summary.best_valid());
  EXPECT_EQ(std::vector<std::string>(summary.best_solution().rows().begin(),
                                     summary.best_solution().rows().end()),
            puzzle->solution);

  request.mutable_params()->set_stop_at_first_valid(true);
  request.mutable_params()->set_aggregate(false);
  v1::SolveSummary first;
  Interrupter interrupter2;
  ASSERT_OK(engine.Solve(request, interrupter2, [&](v1::SolveResponse&& r) {
    if (r.has_summary()) first = r.summary();
  }));
  EXPECT_EQ(first.termination(), v1::TARGET_REACHED);
  EXPECT_TRUE(first.best_valid());
  EXPECT_GE(first.num_valid(), 1u);

  // With a target energy too: reaching the ground energy with repeated lines
  // does not end the solve.
  request.mutable_params()->set_target_energy(12);
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    request.mutable_params()->set_seed(seed);
    v1::SolveSummary targeted;
    Interrupter interrupter3;
    ASSERT_OK(engine.Solve(request, interrupter3, [&](v1::SolveResponse&& r) {
      if (r.has_summary()) targeted = r.summary();
    }));
    EXPECT_EQ(targeted.termination(), v1::TARGET_REACHED) << seed;
    EXPECT_TRUE(targeted.best_valid()) << seed;
  }
}

}  // namespace
}  // namespace qs
