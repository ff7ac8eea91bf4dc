// The Singles (Hitori) QUBO of docs/singles.md: a solution scores the ground
// energy 0, each broken rule scores at least 1 whatever the auxiliaries hold
// (a duplicate, two shaded side neighbours, a shading cut off at the border
// and one cut off by a floating ring), the connectivity encoding proven
// exhaustively on small grids (the minimum over the auxiliaries is 0 exactly
// on valid shadings, at least 1 otherwise), the reduction stages, the
// validator's rule names and the decoded board.
#include "core/families/singles/singles.h"

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

v1::PuzzleSpec Parse(const std::string& text) {
  auto spec = formats::ParsePuzzleText("singles", text);
  EXPECT_TRUE(spec.ok()) << spec.status();
  return *spec;
}

// A rows x cols grid of distinct numbers: no duplicate pairs, so that only
// the adjacency and connectivity terms count.
v1::PuzzleSpec DistinctGrid(int rows, int cols) {
  v1::PuzzleSpec spec;
  spec.mutable_singles()->set_rows(rows);
  spec.mutable_singles()->set_cols(cols);
  for (int k = 0; k < rows * cols; ++k)
    spec.mutable_singles()->add_numbers(k + 1);
  return spec;
}

v1::CompileOptions NoReduction() {
  v1::CompileOptions options;
  options.set_reduction(v1::REDUCTION_NONE);
  return options;
}

// The unshaded cells are connected through sides.
bool Connected(int rows, int cols, const std::vector<uint8_t>& shaded) {
  std::vector<uint8_t> seen(shaded.size(), 0);
  int start = -1, unshaded = 0;
  for (size_t a = 0; a < shaded.size(); ++a) {
    if (!shaded[a]) {
      ++unshaded;
      if (start < 0) start = static_cast<int>(a);
    }
  }
  if (start < 0) return false;
  std::vector<int> stack = {start};
  seen[start] = 1;
  int reached = 0;
  while (!stack.empty()) {
    const int a = stack.back();
    stack.pop_back();
    ++reached;
    const int r = a / cols, c = a % cols;
    const int next[4][2] = {{r - 1, c}, {r + 1, c}, {r, c - 1}, {r, c + 1}};
    for (const auto& n : next) {
      if (n[0] < 0 || n[0] >= rows || n[1] < 0 || n[1] >= cols) continue;
      const int b = n[0] * cols + n[1];
      if (shaded[b] || seen[b]) continue;
      seen[b] = 1;
      stack.push_back(b);
    }
  }
  return reached == unshaded;
}

bool SideAdjacent(int rows, int cols, const std::vector<uint8_t>& shaded) {
  for (int a = 0; a < rows * cols; ++a) {
    if (!shaded[a]) continue;
    if (a % cols + 1 < cols && shaded[a + 1]) return true;
    if (a + cols < rows * cols && shaded[a + cols]) return true;
  }
  return false;
}

// The minimum of the full model over the auxiliaries for a fixed shading.
// Every term is a non-negative integer (checked by NonNegativeIntegerTerms),
// so an energy of 0 needs every one-state term at 0: an unshaded interior cell
// with no state, a shaded one with exactly one. Enumerating those choices
// finds every zero; when none is zero the minimum is at least 1, and the
// smallest energy among the choices is returned.
double MinOverAuxiliaries(const Qubo& full, const SinglesLayout& layout,
                          const std::vector<uint8_t>& shaded) {
  std::vector<uint8_t> bits(layout.num_variables, 0);
  for (int a = 0; a < layout.size(); ++a) bits[a] = shaded[a];
  std::vector<int> choosers;
  for (int a = 0; a < layout.size(); ++a) {
    if (shaded[a] && layout.states[a][0].var != a) choosers.push_back(a);
  }
  double best = INFINITY;
  std::function<void(size_t)> walk = [&](size_t k) {
    if (k == choosers.size()) {
      best = std::min(best, full.Energy(bits));
      return;
    }
    for (const SinglesState& state : layout.states[choosers[k]]) {
      bits[state.var] = 1;
      walk(k + 1);
      bits[state.var] = 0;
      if (best == 0) return;
    }
  };
  walk(0);
  return best;
}

struct Compiled {
  v1::PuzzleSpec spec;
  CompiledProblem problem;
  SinglesLayout layout;
};

Compiled CompileFull(const v1::PuzzleSpec& spec) {
  auto problem = NewSinglesCompiler()->Compile(spec, NoReduction());
  EXPECT_TRUE(problem.ok()) << problem.status();
  return {spec, *std::move(problem),
          MakeSinglesLayout(spec.singles().rows(), spec.singles().cols())};
}

// sgt-singles --generate 1 5x5de; its only solution (found by the exact rules
// in singles_data_test.cc):
//   # 3 # 5 2 / 2 5 3 # 4 / # 1 # 2 5 / 1 2 5 4 # / # 4 # 3 1
constexpr char kPuzzle[] = "5x5:2355225324115251254214331";
const std::vector<uint8_t> kSolution = {1, 0, 1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1,
                                        0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 0, 0};

TEST(SinglesTest, SolutionScoresTheGroundEnergy) {
  const Compiled c = CompileFull(Parse(kPuzzle));
  ASSERT_TRUE(c.problem.ground_energy.has_value());
  EXPECT_EQ(*c.problem.ground_energy, 0.0);
  const auto bits = SinglesAuxiliaries(c.layout, kSolution);
  ASSERT_TRUE(bits.has_value());
  EXPECT_EQ(c.problem.full_model.Energy(*bits), 0.0);
  EXPECT_EQ(MinOverAuxiliaries(c.problem.full_model, c.layout, kSolution), 0.0);
}

TEST(SinglesTest, ReducedModelKeepsTheSolutionAtTheGroundEnergy) {
  auto compiler = NewSinglesCompiler();
  const v1::PuzzleSpec spec = Parse(kPuzzle);
  auto problem = compiler->Compile(spec, v1::CompileOptions());
  ASSERT_OK(problem);
  v1::PuzzleSolution board;
  for (uint8_t s : kSolution) board.add_cells(s);
  auto bits = compiler->Encode(spec, *problem, board);
  ASSERT_OK(bits);
  EXPECT_TRUE(problem->variables.IsConsistent(*bits));
  EXPECT_EQ(problem->model.Energy(problem->variables.Restrict(*bits)), 0.0);
  auto report =
      compiler->Validate(spec, compiler->Decode(spec, *problem, *bits));
  ASSERT_OK(report);
  EXPECT_TRUE(report->valid());
}

TEST(SinglesTest, DuplicateScoresAtLeastOne) {
  const Compiled c = CompileFull(Parse(kPuzzle));
  std::vector<uint8_t> shading = kSolution;
  shading[10] = 0;  // (3,1) unshaded: two 1s in row 3 and in column 1
  ASSERT_FALSE(SideAdjacent(5, 5, shading));
  ASSERT_TRUE(Connected(5, 5, shading));
  EXPECT_GE(MinOverAuxiliaries(c.problem.full_model, c.layout, shading), 1.0);
  auto report = NewSinglesCompiler()->Validate(c.spec, [&] {
    v1::PuzzleSolution board;
    for (uint8_t s : shading) board.add_cells(s);
    return board;
  }());
  ASSERT_OK(report);
  ASSERT_EQ(report->violations_size(), 2);
  for (const auto& v : report->violations()) EXPECT_EQ(v.rule(), "duplicate");
}

TEST(SinglesTest, AdjacentShadedCellsScoreAtLeastOne) {
  const Compiled c = CompileFull(DistinctGrid(4, 4));
  std::vector<uint8_t> shading(16, 0);
  shading[5] = shading[6] = 1;  // (2,2) and (2,3)
  ASSERT_TRUE(Connected(4, 4, shading));
  EXPECT_GE(MinOverAuxiliaries(c.problem.full_model, c.layout, shading), 1.0);
}

TEST(SinglesTest, CornerCutOffAtTheBorderScoresAtLeastOne) {
  // (1,2) and (2,1) shaded: no duplicate, no side contact, but the corner
  // (1,1) is cut off; in G' the two cells and the border node form a cycle.
  const Compiled c = CompileFull(DistinctGrid(4, 4));
  std::vector<uint8_t> shading(16, 0);
  shading[1] = shading[4] = 1;
  ASSERT_FALSE(SideAdjacent(4, 4, shading));
  ASSERT_FALSE(Connected(4, 4, shading));
  EXPECT_GE(MinOverAuxiliaries(c.problem.full_model, c.layout, shading), 1.0);
  // Uncut, the same cell alone costs nothing.
  shading[4] = 0;
  EXPECT_EQ(MinOverAuxiliaries(c.problem.full_model, c.layout, shading), 0.0);
}

TEST(SinglesTest, FloatingRingScoresAtLeastOne) {
  // A diamond of four interior cells around (3,3) of a 5x5 grid of distinct
  // numbers: every local rule holds, the centre is cut off, and no pointer
  // reaches the border.
  const Compiled c = CompileFull(DistinctGrid(5, 5));
  std::vector<uint8_t> shading(25, 0);
  for (int cell : {1 * 5 + 2, 2 * 5 + 1, 2 * 5 + 3, 3 * 5 + 2})
    shading[cell] = 1;
  ASSERT_FALSE(SideAdjacent(5, 5, shading));
  ASSERT_FALSE(Connected(5, 5, shading));
  EXPECT_GE(MinOverAuxiliaries(c.problem.full_model, c.layout, shading), 1.0);
  EXPECT_FALSE(SinglesAuxiliaries(c.layout, shading).has_value());
  shading[3 * 5 + 2] = 0;  // the ring opened: a floating tree
  ASSERT_TRUE(Connected(5, 5, shading));
  EXPECT_EQ(MinOverAuxiliaries(c.problem.full_model, c.layout, shading), 0.0);
  EXPECT_TRUE(SinglesAuxiliaries(c.layout, shading).has_value());
}

// Every shading of small grids: the minimum over the auxiliaries is 0
// exactly when no two shaded cells share a side and the unshaded cells are
// connected, and at least 1 otherwise.
TEST(SinglesTest, ConnectivityEncodingIsExactOnSmallGrids) {
  for (const auto& [rows, cols] : std::vector<std::pair<int, int>>{{2, 2},
                                                                   {2, 4},
                                                                   {3, 3},
                                                                   {3, 4},
                                                                   {4, 3},
                                                                   {4, 4},
                                                                   {3, 5},
                                                                   {4, 5},
                                                                   {5, 4}}) {
    SCOPED_TRACE(absl::StrCat(rows, "x", cols));
    const Compiled c = CompileFull(DistinctGrid(rows, cols));
    const int n = rows * cols;
    int valid = 0;
    for (uint32_t mask = 0; mask < (1u << n); ++mask) {
      std::vector<uint8_t> shading(n);
      for (int a = 0; a < n; ++a) shading[a] = (mask >> a) & 1;
      const bool ok =
          !SideAdjacent(rows, cols, shading) && Connected(rows, cols, shading);
      // Side contacts alone already cost; the search is for the rest.
      if (SideAdjacent(rows, cols, shading)) {
        ASSERT_GE(c.problem.full_model.Energy([&] {
          std::vector<uint8_t> bits(c.layout.num_variables, 0);
          for (int a = 0; a < n; ++a) bits[a] = shading[a];
          return bits;
        }()),
                  1.0);
        continue;
      }
      const double min =
          MinOverAuxiliaries(c.problem.full_model, c.layout, shading);
      if (ok) {
        ++valid;
        ASSERT_EQ(min, 0.0) << "mask " << mask;
        const auto bits = SinglesAuxiliaries(c.layout, shading);
        ASSERT_TRUE(bits.has_value()) << "mask " << mask;
        ASSERT_EQ(c.problem.full_model.Energy(*bits), 0.0);
      } else {
        ASSERT_GE(min, 1.0) << "mask " << mask;
        ASSERT_FALSE(SinglesAuxiliaries(c.layout, shading).has_value());
      }
    }
    EXPECT_GT(valid, 1);
  }
}

// Every term is a non-negative integer: integral coefficients, and no
// assignment, auxiliaries included, scores below 0.
TEST(SinglesTest, NonNegativeIntegerTerms) {
  for (int side : {4, 6}) {
    const Compiled c = CompileFull(
        Parse(side == 4 ? "4x4:1213214334124321"
                        : "6x6:321532146643446215453543313462164331"));
    const Qubo& q = c.problem.full_model;
    EXPECT_EQ(q.offset(), std::round(q.offset()));
    for (int i = 0; i < q.num_variables(); ++i) {
      EXPECT_EQ(q.linear(i), std::round(q.linear(i)));
      for (const auto& nb : q.neighbors(i)) EXPECT_EQ(nb.w, std::round(nb.w));
    }
    std::mt19937 rng(side);
    for (int trial = 0; trial < 20000; ++trial) {
      std::vector<uint8_t> bits(q.num_variables());
      const int density = 1 + trial % 8;  // sparse to dense assignments
      for (auto& bit : bits) bit = rng() % 16 < static_cast<unsigned>(density);
      ASSERT_GE(q.Energy(bits), 0.0);
    }
  }
}

// On every shading of a 5x5 grid without side contacts, the parent pointers
// exist (and score 0) exactly when the unshaded cells are connected: the
// levels of the layout suffice there.
TEST(SinglesTest, AuxiliariesOfEveryConnectedFiveByFiveShading) {
  const Compiled c = CompileFull(DistinctGrid(5, 5));
  int connected = 0;
  for (uint32_t mask = 0; mask < (1u << 25); ++mask) {
    // Cells a and a + 1 of one row, or a and a + 5.
    if ((mask & (mask >> 1) & 0xF7BDEFu) != 0) continue;
    if ((mask & (mask >> 5)) != 0) continue;
    std::vector<uint8_t> shading(25);
    for (int a = 0; a < 25; ++a) shading[a] = (mask >> a) & 1;
    ASSERT_FALSE(SideAdjacent(5, 5, shading));
    const auto bits = SinglesAuxiliaries(c.layout, shading);
    if (Connected(5, 5, shading)) {
      ++connected;
      ASSERT_TRUE(bits.has_value()) << mask;
      ASSERT_EQ(c.problem.full_model.Energy(*bits), 0.0) << mask;
    } else {
      ASSERT_FALSE(bits.has_value()) << mask;
    }
  }
  EXPECT_GT(connected, 1000);
}

TEST(SinglesTest, ReductionClampsWhatTheNumbersForce) {
  // kPuzzle: column 1 reads 2 2 1 1 1 (a triple: (4,1) stays, (3,1) and
  // (5,1) are shaded), row 3 reads 1 1 5 2 5 (the 2 of (3,4) is sandwiched),
  // the 3 of (5,4) is alone in its row and column, and (2,1) is unshaded next
  // to the shaded (3,1), which shades the other 2 of column 1, (1,1).
  auto problem =
      NewSinglesCompiler()->Compile(Parse(kPuzzle), v1::CompileOptions());
  ASSERT_OK(problem);
  std::vector<std::string> names;
  for (const ReductionStage& stage : problem->stages)
    names.push_back(stage.name);
  EXPECT_THAT(names, ::testing::ElementsAre("model", "unique", "patterns",
                                            "propagation", "auxiliaries"));
  auto fixed = [&](int cell) {
    const VariableMap::Source& s = problem->variables.source(cell);
    return s.reduced == -1 ? static_cast<int>(s.value) : -1;
  };
  EXPECT_EQ(fixed(15), 0);  // the triple's middle
  EXPECT_EQ(fixed(10), 1);  // its ends
  EXPECT_EQ(fixed(20), 1);
  EXPECT_EQ(fixed(13), 0);  // sandwiched
  EXPECT_EQ(fixed(23), 0);  // unique
  EXPECT_EQ(fixed(5), 0);   // next to a shaded cell
  EXPECT_EQ(fixed(0), 1);   // equal to an unshaded number in its column
  // Every clamp agrees with the puzzle's only solution.
  for (int a = 0; a < 25; ++a) {
    if (fixed(a) != -1) {
      EXPECT_EQ(fixed(a), kSolution[a]) << a;
    }
  }
  EXPECT_EQ(problem->stages[1].fixed_one, 0);  // "unique" unshades only
  EXPECT_GT(problem->stages[1].fixed_zero, 0);
  EXPECT_GT(problem->stages[2].fixed_one, 0);
  EXPECT_GT(problem->stages[3].fixed_one + problem->stages[3].fixed_zero, 0);
  EXPECT_GT(problem->stages[4].fixed_zero, 0);  // states of unshaded cells
  for (size_t k = 1; k < problem->stages.size(); ++k)
    EXPECT_LE(problem->stages[k].variables, problem->stages[k - 1].variables);
  // A shaded interior cell takes exactly one of its states left open.
  v1::PuzzleSolution board;
  for (uint8_t s : kSolution) board.add_cells(s);
  auto bits = NewSinglesCompiler()->Encode(Parse(kPuzzle), *problem, board);
  ASSERT_OK(bits);
  const std::vector<uint8_t> reduced = problem->variables.Restrict(*bits);
  for (const auto& group : problem->one_hot_groups) {
    EXPECT_GE(group.size(), 2u);
    int ones = 0;
    for (int32_t v : group) ones += reduced[v];
    EXPECT_EQ(ones, 1);
  }
}

TEST(SinglesTest, CluesReductionAppliesTheUniqueStageOnly) {
  v1::CompileOptions options;
  options.set_reduction(v1::REDUCTION_CLUES);
  auto problem = NewSinglesCompiler()->Compile(Parse(kPuzzle), options);
  ASSERT_OK(problem);
  ASSERT_EQ(problem->stages.size(), 3u);
  EXPECT_EQ(problem->stages[1].name, "unique");
  EXPECT_EQ(problem->stages[2].name, "auxiliaries");
  EXPECT_EQ(problem->variables.source(10).reduced >= 0, true);  // not clamped
}

TEST(SinglesTest, ValidatorNamesEachRule) {
  auto compiler = NewSinglesCompiler();
  const v1::PuzzleSpec spec = DistinctGrid(4, 4);
  v1::PuzzleSolution board;
  // (1,2),(2,1) shaded: corner cut off; (3,3),(3,4) side by side.
  for (int s : {0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0})
    board.add_cells(s);
  auto report = compiler->Validate(spec, board);
  ASSERT_OK(report);
  EXPECT_FALSE(report->valid());
  std::vector<std::string> rules;
  for (const auto& v : report->violations()) rules.push_back(v.rule());
  EXPECT_THAT(rules, ::testing::UnorderedElementsAre("adjacent_shaded",
                                                     "disconnected"));
  v1::PuzzleSpec twins = spec;
  twins.mutable_singles()->set_numbers(1, 1);  // row 1: 1 1 3 4
  v1::PuzzleSolution none;
  for (int k = 0; k < 16; ++k) none.add_cells(0);
  report = compiler->Validate(twins, none);
  ASSERT_OK(report);
  ASSERT_EQ(report->violations_size(), 1);
  EXPECT_EQ(report->violations(0).rule(), "duplicate");
  EXPECT_EQ(report->violations(0).location(), "row 1");
  v1::PuzzleSolution bad;
  for (int k = 0; k < 16; ++k) bad.add_cells(2);
  EXPECT_FALSE(compiler->Validate(spec, bad).ok());
}

TEST(SinglesTest, DecodePrintsNumbersAndShadedCells) {
  auto compiler = NewSinglesCompiler();
  const v1::PuzzleSpec spec = Parse(kPuzzle);
  auto problem = compiler->Compile(spec, v1::CompileOptions());
  ASSERT_OK(problem);
  std::vector<uint8_t> bits(problem->variables.num_full(), 0);
  for (int a = 0; a < 25; ++a) bits[a] = kSolution[a];
  const v1::PuzzleSolution board = compiler->Decode(spec, *problem, bits);
  ASSERT_EQ(board.rows_size(), 5);
  EXPECT_EQ(board.rows(0), "# 3 # 5 2");
  EXPECT_EQ(board.rows(4), "# 4 # 3 1");
  EXPECT_EQ(board.cells(2), 1);
  // Rows alone validate too.
  v1::PuzzleSolution rows_only;
  for (const std::string& row : board.rows()) rows_only.add_rows(row);
  auto report = compiler->Validate(spec, rows_only);
  ASSERT_OK(report);
  EXPECT_TRUE(report->valid());
}

TEST(SinglesTest, RefusesMalformedSpecs) {
  auto compiler = NewSinglesCompiler();
  v1::PuzzleSpec spec = DistinctGrid(3, 3);
  spec.mutable_singles()->set_numbers(4, 0);
  auto problem = compiler->Compile(spec, v1::CompileOptions());
  EXPECT_FALSE(problem.ok());
  EXPECT_THAT(std::string(problem.status().message()),
              ::testing::HasSubstr("singles.numbers[4]"));
  spec = DistinctGrid(1, 3);
  EXPECT_THAT(
      std::string(
          compiler->Compile(spec, v1::CompileOptions()).status().message()),
      ::testing::HasSubstr("singles.rows"));
  spec = DistinctGrid(3, 3);
  spec.mutable_singles()->add_numbers(1);
  EXPECT_FALSE(compiler->Compile(spec, v1::CompileOptions()).ok());
  EXPECT_EQ(compiler->ModelVariables(DistinctGrid(3, 3)), 9 + 5);
}

}  // namespace
}  // namespace qs
