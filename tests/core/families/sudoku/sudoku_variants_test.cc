// The Sudoku variants (rectangular boxes, jigsaw regions, X diagonals, killer
// cages): the ground energy -side^2 of a known solution in the full and every
// reduced model, higher energy for each broken rule, the reduction stages
// (I-IV over every group, the digits a cage allows), the exact rules' counts
// (uniqueness of each stored puzzle, counts of empty grids against search),
// the validator's rule ids, the input checks, the text round trips and the
// drawing.
#include <cmath>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_join.h"
#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/families/sudoku/sudoku.h"
#include "core/sample/exact/brute_force_sampler.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Cells of a grid string ('.' blank, digits, then 'A'.. for 10..).
std::vector<uint32_t> Cells(const std::string& grid) {
  std::vector<uint32_t> out;
  for (char ch : grid) {
    out.push_back(ch == '.'   ? 0
                  : ch <= '9' ? static_cast<uint32_t>(ch - '0')
                              : static_cast<uint32_t>(ch - 'A' + 10));
  }
  return out;
}

v1::PuzzleSolution Board(const std::string& grid) {
  v1::PuzzleSolution board;
  for (uint32_t v : Cells(grid)) board.add_cells(static_cast<int>(v));
  return board;
}

v1::PuzzleSpec Rectangular(int box_rows, int box_cols,
                           const std::string& grid) {
  v1::PuzzleSpec spec;
  spec.mutable_sudoku()->set_box_rows(box_rows);
  spec.mutable_sudoku()->set_box_cols(box_cols);
  for (uint32_t v : Cells(grid)) spec.mutable_sudoku()->add_cells(v);
  return spec;
}

// Regions as rows of letters separated by '/', numbered in order of first
// appearance.
v1::PuzzleSpec Jigsaw(const std::string& regions, const std::string& grid) {
  v1::PuzzleSpec spec;
  std::string seen;
  for (char ch : regions) {
    if (ch == '/') continue;
    if (seen.find(ch) == std::string::npos) seen.push_back(ch);
    spec.mutable_sudoku()->add_regions(static_cast<uint32_t>(seen.find(ch)));
  }
  for (uint32_t v : Cells(grid)) spec.mutable_sudoku()->add_cells(v);
  return spec;
}

v1::PuzzleSpec Boxed(int box, const std::string& grid) {
  v1::PuzzleSpec spec;
  spec.mutable_sudoku()->set_box_size(box);
  for (uint32_t v : Cells(grid)) spec.mutable_sudoku()->add_cells(v);
  return spec;
}

void AddCage(v1::PuzzleSpec& spec, int sum, std::vector<uint32_t> cells) {
  v1::SudokuCage& cage = *spec.mutable_sudoku()->add_cages();
  cage.set_sum(sum);
  cage.mutable_cells()->Add(cells.begin(), cells.end());
}

// A valid grid with rectangular boxes: (r * box_cols + r / box_rows + c) mod
// side.
std::string PatternGrid(int box_rows, int box_cols) {
  const int side = box_rows * box_cols;
  std::string grid;
  for (int r = 0; r < side; ++r) {
    for (int c = 0; c < side; ++c) {
      const int v = (r * box_cols + r / box_rows + c) % side + 1;
      grid.push_back(v <= 9 ? static_cast<char>('0' + v)
                            : static_cast<char>('A' + v - 10));
    }
  }
  return grid;
}

// Puzzles with a unique solution, each made for these tests by a backtracking
// search independent of this code, which also proved the uniqueness.
constexpr char kRect6Puzzle[] = ".1.....3..54...5.1..3...6...1....2..";
constexpr char kRect6Solution[] = "514326236154462531153642625413341265";
constexpr char kX9Puzzle[] =
    ".....27...7......9.4..6..1..........7...48.......9..5.....5...6268.....4.."
    ".."
    "..1..";
constexpr char kX9Solution[] =
    "13948276567231548984596721358627394179154863232419685741785932626873159495"
    "3"
    "624178";
constexpr char kJigsaw6Regions[] = "AAADDD/AAABBD/CCCBDD/EECBBB/ECCFFF/EEEFFF";
constexpr char kJigsaw6Puzzle[] = "........1..21....3.5.1.....6..2.....";
constexpr char kJigsaw6Solution[] = "523416641532164253352164435621216345";
constexpr char kJigsaw9Regions[] =
    "ABBBBBFFC/AAAABBFCC/AADDBFFCC/ADDDBEFCC/ADDEEEFCC/DDGGEEFII/GGGEEIFII/"
    "GGGHEIIII/GHHHHHHHH";
constexpr char kJigsaw9Puzzle[] =
    ".........89......5..7..2..6...13.9..4....5.2.......7.9.1..............."
    "......4..8";
constexpr char kJigsaw9Solution[] =
    "728659413896217345137542896542136987489375621364821759613498572275983164"
    "951764238";
// Killer grids without givens.
constexpr char kKiller4Solution[] = "4321123434122143";
constexpr char kKiller6Solution[] = "431625256413512346364251625134143562";

v1::PuzzleSpec Killer4(const std::string& grid) {
  v1::PuzzleSpec spec = Boxed(2, grid);
  AddCage(spec, 10, {0, 4, 5, 8});
  AddCage(spec, 10, {7, 10, 11, 15});
  AddCage(spec, 5, {9, 13});
  AddCage(spec, 5, {2, 6});
  AddCage(spec, 4, {14});
  AddCage(spec, 2, {12});
  AddCage(spec, 3, {1});
  AddCage(spec, 1, {3});
  return spec;
}

v1::PuzzleSpec Killer6() {
  v1::PuzzleSpec spec = Rectangular(2, 3, std::string(36, '.'));
  AddCage(spec, 8, {12, 18});
  AddCage(spec, 10, {1, 6, 7});
  AddCage(spec, 13, {11, 16, 17});
  AddCage(spec, 10, {13, 14, 15, 20});
  AddCage(spec, 13, {22, 23, 28, 29});
  AddCage(spec, 17, {19, 25, 26, 31});
  AddCage(spec, 14, {32, 33, 34});
  AddCage(spec, 8, {3, 4});
  AddCage(spec, 11, {8, 9, 10});
  AddCage(spec, 2, {35});
  AddCage(spec, 5, {5});
  AddCage(spec, 4, {0});
  AddCage(spec, 3, {21, 27});
  AddCage(spec, 7, {24, 30});
  AddCage(spec, 1, {2});
  return spec;
}

v1::PuzzleSpec X9(const std::string& grid) {
  v1::PuzzleSpec spec = Boxed(3, grid);
  spec.mutable_sudoku()->set_diagonals(true);
  return spec;
}

bool IsFree(const CompiledProblem& problem, int variable) {
  return problem.variables.source(variable).reduced >= 0;
}

CompiledProblem CompileOrDie(const v1::PuzzleSpec& spec,
                             v1::Reduction reduction) {
  v1::CompileOptions options;
  options.set_reduction(reduction);
  auto problem = NewSudokuCompiler()->Compile(spec, options);
  EXPECT_TRUE(problem.ok()) << problem.status();
  return *std::move(problem);
}

std::vector<std::string> Rules(const v1::PuzzleSpec& spec,
                               const std::string& grid) {
  auto report = NewSudokuCompiler()->Validate(spec, Board(grid));
  EXPECT_TRUE(report.ok()) << report.status();
  std::vector<std::string> rules;
  for (const auto& v : report->violations()) rules.push_back(v.rule());
  return rules;
}

// The solution scores -side^2 in every model; each grid of `broken` scores
// higher in the full model and breaks `rule`.
void ExpectGround(const v1::PuzzleSpec& spec, const std::string& solution,
                  double ground) {
  auto compiler = NewSudokuCompiler();
  for (v1::Reduction reduction :
       {v1::REDUCTION_NONE, v1::REDUCTION_CLUES, v1::REDUCTION_FULL}) {
    const CompiledProblem problem = CompileOrDie(spec, reduction);
    EXPECT_EQ(problem.ground_energy, ground);
    auto bits = compiler->Encode(spec, problem, Board(solution));
    ASSERT_OK(bits);
    EXPECT_DOUBLE_EQ(problem.full_model.Energy(*bits), ground);
    ASSERT_TRUE(problem.variables.IsConsistent(*bits))
        << v1::Reduction_Name(reduction);
    EXPECT_DOUBLE_EQ(problem.model.Energy(problem.variables.Restrict(*bits)),
                     ground)
        << v1::Reduction_Name(reduction);
  }
  EXPECT_THAT(Rules(spec, solution), ::testing::IsEmpty());
}

void ExpectBroken(const v1::PuzzleSpec& spec, const std::string& grid,
                  double ground, const std::string& rule) {
  const CompiledProblem none = CompileOrDie(spec, v1::REDUCTION_NONE);
  auto bits = NewSudokuCompiler()->Encode(spec, none, Board(grid));
  ASSERT_OK(bits);
  EXPECT_GT(none.full_model.Energy(*bits), ground) << rule;
  EXPECT_THAT(Rules(spec, grid), Contains(rule));
}

std::string Swapped(std::string grid, int a, int b) {
  std::swap(grid[a], grid[b]);
  return grid;
}

uint64_t CountSolutions(const v1::PuzzleSpec& spec, CountMethod method) {
  auto encoder = BuiltinEncoders().ForSpec(spec);
  EXPECT_TRUE(encoder.ok());
  const int side = static_cast<int>(std::sqrt(spec.sudoku().cells_size()));
  auto counted = CountRuleSolutions(**encoder, spec, side * side * side, 1000,
                                    method, nullptr);
  EXPECT_TRUE(counted.ok()) << counted.status();
  EXPECT_TRUE(counted->complete);
  return counted->count;
}

TEST(SudokuVariantsTest, RectangularBoxesHaveGroundEnergyMinusSideSquared) {
  for (const auto& [rows, cols] :
       std::vector<std::pair<int, int>>{{2, 3}, {2, 4}, {3, 4}}) {
    const int side = rows * cols;
    const std::string grid = PatternGrid(rows, cols);
    ExpectGround(Rectangular(rows, cols, std::string(side * side, '.')), grid,
                 -side * side);
    const CompiledProblem none =
        CompileOrDie(Rectangular(rows, cols, std::string(side * side, '.')),
                     v1::REDUCTION_NONE);
    EXPECT_EQ(none.full_model.num_variables(), side * side * side);
  }
  const v1::PuzzleSpec puzzle = Rectangular(2, 3, kRect6Puzzle);
  ExpectGround(puzzle, kRect6Solution, -36);
  // Swapping two cells of a row breaks two columns; swapping two rows of a
  // band keeps the rows and columns but breaks the boxes when they differ.
  ExpectBroken(puzzle, Swapped(kRect6Solution, 0, 1), -36, "column_duplicate");
  std::string boxes = kRect6Solution;
  // Rows 2 and 3 (0-based 1, 2) lie in different 2x3 boxes.
  for (int c = 0; c < 6; ++c) std::swap(boxes[6 + c], boxes[12 + c]);
  ExpectBroken(Rectangular(2, 3, std::string(36, '.')), boxes, -36,
               "block_duplicate");
}

TEST(SudokuVariantsTest, XSudokuAddsTheDiagonals) {
  const v1::PuzzleSpec puzzle = X9(kX9Puzzle);
  ExpectGround(puzzle, kX9Solution, -81);
  // The plain pattern grid is a Sudoku but repeats digits on the diagonals.
  const std::string pattern = PatternGrid(3, 3);
  ExpectBroken(X9(std::string(81, '.')), pattern, -81, "diagonal_duplicate");
  EXPECT_THAT(Rules(Boxed(3, std::string(81, '.')), pattern),
              ::testing::IsEmpty());
  // Diagonal pairs are couplers of the X model only.
  EXPECT_GT(CompileOrDie(X9(std::string(81, '.')), v1::REDUCTION_NONE)
                .full_model.num_couplers(),
            CompileOrDie(Boxed(3, std::string(81, '.')), v1::REDUCTION_NONE)
                .full_model.num_couplers());
}

TEST(SudokuVariantsTest, JigsawRegionsReplaceTheBoxes) {
  const v1::PuzzleSpec six = Jigsaw(kJigsaw6Regions, kJigsaw6Puzzle);
  ExpectGround(six, kJigsaw6Solution, -36);
  const v1::PuzzleSpec nine = Jigsaw(kJigsaw9Regions, kJigsaw9Puzzle);
  ExpectGround(nine, kJigsaw9Solution, -81);
  // A valid boxed grid breaks the jigsaw regions.
  ExpectBroken(Jigsaw(kJigsaw6Regions, std::string(36, '.')), PatternGrid(2, 3),
               -36, "region_duplicate");
  EXPECT_THAT(Rules(six, PatternGrid(2, 3)),
              ::testing::Not(Contains("block_duplicate")));
}

TEST(SudokuVariantsTest, KillerCagesAddTheirSquaredSum) {
  const v1::PuzzleSpec four = Killer4(std::string(16, '.'));
  ExpectGround(four, kKiller4Solution, -16);
  const v1::PuzzleSpec six = Killer6();
  ExpectGround(six, kKiller6Solution, -36);
  // Swapping the first two digits breaks two columns and the sums of the
  // cages of both cells.
  const std::string swapped = Swapped(kKiller4Solution, 0, 1);
  EXPECT_THAT(Rules(four, swapped), Contains("cage_sum"));
  ExpectBroken(four, swapped, -16, "cage_sum");
  // A valid 4x4 Sudoku whose cage {3, 12} (corners that share no row,
  // column or box) holds 3 twice, summing right.
  v1::PuzzleSpec repeat = Boxed(2, std::string(16, '.'));
  AddCage(repeat, 4, {0, 5});
  AddCage(repeat, 6, {3, 12});
  const std::string grid = "1243431221343421";
  EXPECT_THAT(Rules(repeat, grid), Contains("cage_duplicate"));
  ExpectBroken(repeat, grid, -16, "cage_duplicate");
  EXPECT_THAT(Rules(repeat, grid), ::testing::Not(Contains("cage_sum")));
}

// Relabelling digits keeps every row, column and box valid, so only the cage
// term can tell the relabelled grid from the solution: swapping 1 and 2 in the
// 4x4 solution moves the sums of cages {9, 13} and {2, 6} and of the single
// cells 12 and 3 by one each, (sum - S)^2 = 1 four times; the cages holding
// both a 1 and a 2 keep their sums.
TEST(SudokuVariantsTest, RelabelledSolutionPaysForEachWrongCageSum) {
  auto relabel = [](std::string grid, char a, char b) {
    for (char& ch : grid) ch = ch == a ? b : ch == b ? a : ch;
    return grid;
  };
  const v1::PuzzleSpec four = Killer4(std::string(16, '.'));
  const std::string four_relabelled = relabel(kKiller4Solution, '1', '2');
  const CompiledProblem none = CompileOrDie(four, v1::REDUCTION_NONE);
  auto energy = [&](const v1::PuzzleSpec& spec, const CompiledProblem& problem,
                    const std::string& grid) {
    auto bits = NewSudokuCompiler()->Encode(spec, problem, Board(grid));
    EXPECT_TRUE(bits.ok()) << bits.status();
    return problem.full_model.Energy(*bits);
  };
  EXPECT_DOUBLE_EQ(energy(four, none, kKiller4Solution), -16);
  EXPECT_DOUBLE_EQ(energy(four, none, four_relabelled), -16 + 4);
  // The relabelled grid breaks the cages and nothing else.
  EXPECT_THAT(Rules(Boxed(2, std::string(16, '.')), four_relabelled),
              ::testing::IsEmpty());
  EXPECT_THAT(Rules(four, four_relabelled),
              ::testing::Each(::testing::Eq("cage_sum")));
  EXPECT_EQ(Rules(four, four_relabelled).size(), 4u);
  // The same on the 6x6 killer, for every pair of digits.
  const v1::PuzzleSpec six = Killer6();
  const CompiledProblem six_none = CompileOrDie(six, v1::REDUCTION_NONE);
  for (char a = '1'; a <= '6'; ++a) {
    for (char b = a + 1; b <= '6'; ++b) {
      const std::string grid = relabel(kKiller6Solution, a, b);
      EXPECT_THAT(Rules(Rectangular(2, 3, std::string(36, '.')), grid),
                  ::testing::IsEmpty());
      EXPECT_THAT(Rules(six, grid), Contains("cage_sum")) << a << b;
      EXPECT_GE(energy(six, six_none, grid), -36 + 1) << a << b;
    }
  }
}

// Only the cage term decides between two Sudoku completions. The givens leave
// cells 0, 3, 4 and 7 open, and the Sudoku rules let them hold 4 1 / 1 4 (the
// solution) or 1 4 / 4 1; the cage {0, 1} of sum 7 over the given 3 in cell 1
// asks for 4 in cell 0. With the givens clamped and nothing else (the cage
// stage would clamp cell 0 too), every assignment of the 16 open variables is
// enumerated: the solution is the only ground state.
TEST(SudokuVariantsTest, CageTermAloneSettlesAnAmbiguousGrid) {
  v1::PuzzleSpec spec = Boxed(2, ".32..23.34122143");
  AddCage(spec, 7, {0, 1});
  EXPECT_EQ(CountSolutions(Boxed(2, ".32..23.34122143"), CountMethod::kSat),
            2u);
  EXPECT_EQ(CountSolutions(spec, CountMethod::kSat), 1u);
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_CLUES);
  ASSERT_EQ(problem.model.num_variables(), 16);
  auto ground = FindGroundStates(problem.model, 10, nullptr);
  ASSERT_OK(ground);
  EXPECT_DOUBLE_EQ(ground->energy, -16);
  ASSERT_EQ(ground->count, 1);
  auto compiler = NewSudokuCompiler();
  const v1::PuzzleSolution solution = compiler->Decode(
      spec, problem, problem.variables.Expand(ground->states[0]));
  EXPECT_EQ(absl::StrJoin(solution.rows(), ""), kKiller4Solution);
  // The other completion keeps every Sudoku rule but the cage's sum.
  const std::string other = "1324423134122143";
  EXPECT_THAT(Rules(spec, other), ElementsAre("cage_sum"));
  auto bits = compiler->Encode(spec, problem, Board(other));
  ASSERT_OK(bits);
  EXPECT_DOUBLE_EQ(problem.full_model.Energy(*bits), -16 + 9);
}

TEST(SudokuVariantsTest, CageStageKeepsTheDigitsACombinationAllows) {
  v1::PuzzleSpec spec = Rectangular(2, 3, std::string(36, '.'));
  AddCage(spec, 3, {0, 1});                 // 1 + 2
  AddCage(spec, 11, {6, 7});                // 5 + 6
  AddCage(spec, 15, {12, 13, 14, 15, 16});  // any 5 distinct digits of 15
  const CompiledProblem full = CompileOrDie(spec, v1::REDUCTION_FULL);
  ASSERT_EQ(full.stages.size(), 4u);
  EXPECT_EQ(full.stages[3].name, "cages");
  // 4 digits ruled out in each of the four cells of the 2-cell cages; the
  // 5-cell cage of sum 15 needs 1..5, so its five cells lose the 6.
  EXPECT_EQ(full.stages[3].fixed_zero, 4 * 4 + 5);
  EXPECT_EQ(full.stages[3].variables, 216 - 21);
  auto allowed = [&](int cell) {
    std::vector<int> digits;
    for (int d = 0; d < 6; ++d) {
      if (IsFree(full, cell * 6 + d)) digits.push_back(d + 1);
    }
    return digits;
  };
  EXPECT_THAT(allowed(0), ::testing::ElementsAre(1, 2));
  EXPECT_THAT(allowed(7), ::testing::ElementsAre(5, 6));
  EXPECT_THAT(allowed(12), ::testing::ElementsAre(1, 2, 3, 4, 5));
  // A given in a cage narrows the rest: 1 given, the other cell holds 2.
  v1::PuzzleSpec given = spec;
  given.mutable_sudoku()->set_cells(0, 1);
  const CompiledProblem with_given = CompileOrDie(given, v1::REDUCTION_FULL);
  int cell1 = 0;
  for (int d = 0; d < 6; ++d) cell1 += IsFree(with_given, 1 * 6 + d);
  EXPECT_EQ(cell1, 1);
  // No cages, no cage stage: plain grids keep their three stages.
  EXPECT_EQ(CompileOrDie(Rectangular(2, 3, kRect6Puzzle), v1::REDUCTION_FULL)
                .stages.size(),
            3u);
}

TEST(SudokuVariantsTest, ImpliedStageCoversRegionsDiagonalsAndCages) {
  // A given on the main diagonal rules its digit out of the whole diagonal
  // in the X model, not in the plain one.
  std::string grid(81, '.');
  grid[0] = '5';
  const CompiledProblem x = CompileOrDie(X9(grid), v1::REDUCTION_FULL);
  const CompiledProblem plain =
      CompileOrDie(Boxed(3, grid), v1::REDUCTION_FULL);
  EXPECT_FALSE(IsFree(x, (4 * 9 + 4) * 9 + 4));  // (5,5) digit 5
  EXPECT_TRUE(IsFree(plain, (4 * 9 + 4) * 9 + 4));
  EXPECT_EQ(plain.model.num_variables() - x.model.num_variables(), 6);
  // In a jigsaw, the given's region (not its box) loses the digit.
  std::string jig(36, '.');
  jig[9] = '1';  // cell (2,4): region B, box 2
  const CompiledProblem j =
      CompileOrDie(Jigsaw(kJigsaw6Regions, jig), v1::REDUCTION_FULL);
  EXPECT_FALSE(IsFree(j, 22 * 6 + 0));  // (4,5): region B, box 4
  EXPECT_TRUE(IsFree(j, 4 * 6 + 0));    // (1,5): region D, box 2
}

TEST(SudokuVariantsTest, SmallKillerGroundStatesAreExactlyItsSolutions) {
  // Four givens leave few enough variables for exhaustive search.
  const v1::PuzzleSpec spec = Killer4("4....2....1....3");
  auto compiler = NewSudokuCompiler();
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_FULL);
  ASSERT_LE(problem.model.num_variables(), 30);
  auto ground = FindGroundStates(problem.model, 1000, nullptr);
  ASSERT_OK(ground);
  EXPECT_DOUBLE_EQ(ground->energy, -16);
  ASSERT_EQ(ground->count, 1);
  const v1::PuzzleSolution solution = compiler->Decode(
      spec, problem, problem.variables.Expand(ground->states[0]));
  EXPECT_EQ(absl::StrJoin(solution.rows(), ""), kKiller4Solution);
}

TEST(SudokuVariantsTest, ExactRulesCountEveryVariant) {
  // Each stored puzzle has one solution.
  EXPECT_EQ(CountSolutions(Rectangular(2, 3, kRect6Puzzle), CountMethod::kSat),
            1u);
  EXPECT_EQ(CountSolutions(X9(kX9Puzzle), CountMethod::kSat), 1u);
  EXPECT_EQ(CountSolutions(Jigsaw(kJigsaw6Regions, kJigsaw6Puzzle),
                           CountMethod::kSat),
            1u);
  EXPECT_EQ(CountSolutions(Jigsaw(kJigsaw9Regions, kJigsaw9Puzzle),
                           CountMethod::kSat),
            1u);
  EXPECT_EQ(CountSolutions(Killer6(), CountMethod::kSat), 1u);
  // The killer's sums by the state diagram (sat) and by forbidden prefixes
  // (a BDD has no auxiliary variables).
  EXPECT_EQ(CountSolutions(Killer4(std::string(16, '.')), CountMethod::kSat),
            1u);
  EXPECT_EQ(CountSolutions(Killer4(std::string(16, '.')), CountMethod::kBdd),
            1u);
  // Empty 4x4 grids, counted by an independent search: 288 Sudokus, 48 of
  // them X-Sudokus.
  EXPECT_EQ(CountSolutions(Boxed(2, std::string(16, '.')), CountMethod::kBdd),
            288u);
  v1::PuzzleSpec x4 = Boxed(2, std::string(16, '.'));
  x4.mutable_sudoku()->set_diagonals(true);
  EXPECT_EQ(CountSolutions(x4, CountMethod::kBdd), 48u);
  EXPECT_EQ(CountSolutions(x4, CountMethod::kSat), 48u);
  // One cage of two cells summing to 3 in an empty 4x4: relabelling the
  // digits, each of the 12 ordered pairs of two cells of a row is in 288 / 12
  // grids, and (1, 2) and (2, 1) are allowed.
  v1::PuzzleSpec cage = Boxed(2, std::string(16, '.'));
  AddCage(cage, 3, {0, 1});
  EXPECT_EQ(CountSolutions(cage, CountMethod::kSat),
            CountSolutions(cage, CountMethod::kBdd));
  EXPECT_EQ(CountSolutions(cage, CountMethod::kSat), 288u / 6);
}

TEST(SudokuVariantsTest, ValidatorNamesEachBrokenRule) {
  // Cells 1 and 7 (one column, both given) swapped.
  const std::vector<std::string> rect =
      Rules(Rectangular(2, 3, kRect6Puzzle), Swapped(kRect6Solution, 1, 7));
  EXPECT_THAT(rect, Contains("row_duplicate"));
  EXPECT_THAT(rect, Contains("clue_mismatch"));
  EXPECT_THAT(Rules(X9(std::string(81, '.')), PatternGrid(3, 3)),
              Contains("diagonal_duplicate"));
  EXPECT_THAT(
      Rules(Jigsaw(kJigsaw6Regions, std::string(36, '.')), PatternGrid(2, 3)),
      Contains("region_duplicate"));
  EXPECT_THAT(Rules(Killer6(), Swapped(kKiller6Solution, 0, 1)),
              Contains("cage_sum"));
  std::string empty = kKiller6Solution;
  empty[0] = '.';
  EXPECT_THAT(Rules(Killer6(), empty), Contains("empty_cell"));
  EXPECT_THAT(Rules(Killer6(), empty), ::testing::Not(Contains("cage_sum")));
}

TEST(SudokuVariantsTest, RejectsBadVariantsNamingTheField) {
  auto compiler = NewSudokuCompiler();
  v1::CompileOptions options;
  auto expect = [&](const v1::PuzzleSpec& spec, const std::string& text) {
    EXPECT_THAT(compiler->Compile(spec, options),
                StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(text)));
  };
  v1::PuzzleSpec rows_only = Rectangular(2, 3, std::string(36, '.'));
  rows_only.mutable_sudoku()->set_box_cols(0);
  expect(rows_only, "sudoku.box_cols");
  v1::PuzzleSpec both = Rectangular(2, 3, std::string(36, '.'));
  both.mutable_sudoku()->set_box_size(3);
  expect(both, "sudoku.box_size");
  expect(Rectangular(2, 3, std::string(35, '.')), "sudoku.cells: expected 36");
  v1::PuzzleSpec regions_and_boxes = Jigsaw(kJigsaw6Regions, kJigsaw6Puzzle);
  regions_and_boxes.mutable_sudoku()->set_box_rows(2);
  expect(regions_and_boxes, "sudoku.regions");
  expect(Jigsaw("AAADDD/AAABBD/CCCBDD/EECBBB/ECCFFF/EEEFFA", kJigsaw6Puzzle),
         "sudoku.regions: region");
  expect(Jigsaw("AAADDD/AAABBD/CCCBDD/EECBBB/ECCFFF", std::string(30, '.')),
         "sudoku.regions");
  v1::PuzzleSpec cage = Boxed(2, std::string(16, '.'));
  AddCage(cage, 3, {0, 16});
  expect(cage, "sudoku.cages[0].cells: cell 16 out of range");
  cage = Boxed(2, std::string(16, '.'));
  AddCage(cage, 3, {0, 0});
  expect(cage, "sudoku.cages[0].cells: cell 0 is listed twice");
  cage = Boxed(2, std::string(16, '.'));
  AddCage(cage, 3, {0, 1});
  AddCage(cage, 5, {1, 2});
  expect(cage, "sudoku.cages[1].cells: cell 1 is also in sudoku.cages[0]");
  cage = Boxed(2, std::string(16, '.'));
  AddCage(cage, 2, {0, 1});
  expect(cage, "sudoku.cages[0].sum");
  cage = Boxed(2, "4...............");
  AddCage(cage, 5, {0, 1});  // 4 + 1 fits; 4 + 2 would not
  EXPECT_OK(compiler->Compile(cage, options));
  cage.mutable_sudoku()->mutable_cages(0)->set_sum(4);
  expect(cage, "sudoku.cages[0].sum");
  v1::PuzzleSpec clash = X9(std::string(81, '.'));
  clash.mutable_sudoku()->set_cells(0, 5);
  clash.mutable_sudoku()->set_cells(80, 5);
  expect(clash, "share a diagonal");
}

TEST(SudokuVariantsTest, TextRoundTripsEveryVariant) {
  v1::PuzzleSpec x_killer = Killer6();
  x_killer.mutable_sudoku()->set_diagonals(true);
  for (const v1::PuzzleSpec& spec :
       {Rectangular(2, 3, kRect6Puzzle), Rectangular(3, 4, PatternGrid(3, 4)),
        X9(kX9Puzzle), Jigsaw(kJigsaw6Regions, kJigsaw6Puzzle),
        Jigsaw(kJigsaw9Regions, kJigsaw9Puzzle), Killer6(), x_killer}) {
    auto text = formats::FormatPuzzleText("sudoku", spec);
    ASSERT_OK(text);
    auto parsed = formats::ParsePuzzleText("sudoku", *text);
    ASSERT_OK(parsed) << *text;
    EXPECT_EQ(parsed->SerializeAsString(), spec.SerializeAsString()) << *text;
  }
  // Plain grids keep their one-line form.
  auto plain =
      formats::FormatPuzzleText("sudoku", Boxed(2, "1.3.3.1.2.4.4..."));
  ASSERT_OK(plain);
  EXPECT_EQ(*plain, "1.3.3.1.2.4.4...");
}

TEST(SudokuVariantsTest, TextNamesEachVariantLine) {
  auto spec = formats::ParsePuzzleText(
      "sudoku",
      "boxes 2x3\nX\ncage 3: 0 1\ncage 11: 6, 7\n"
      ".1.... / .3..54 / ...5.1 / ..3... / 6...1. / ...2..");
  ASSERT_OK(spec);
  EXPECT_EQ(spec->sudoku().box_rows(), 2u);
  EXPECT_EQ(spec->sudoku().box_cols(), 3u);
  EXPECT_TRUE(spec->sudoku().diagonals());
  ASSERT_EQ(spec->sudoku().cages_size(), 2);
  EXPECT_EQ(spec->sudoku().cages(1).sum(), 11u);
  EXPECT_THAT(spec->sudoku().cages(1).cells(), ::testing::ElementsAre(6, 7));
  EXPECT_EQ(spec->sudoku().cells(1), 1u);
  auto jigsaw = formats::ParsePuzzleText(
      "sudoku",
      "regions\nAAADDD\nAAABBD\nCCCBDD\nEECBBB\nECCFFF\nEEEFFF\n"
      "........1..21....3.5.1.....6..2.....");
  ASSERT_OK(jigsaw);
  EXPECT_EQ(jigsaw->SerializeAsString(),
            Jigsaw(kJigsaw6Regions, kJigsaw6Puzzle).SerializeAsString());
  EXPECT_THAT(
      formats::ParsePuzzleText("sudoku", "boxes 2y3\n"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("boxes RxC")));
  EXPECT_THAT(
      formats::ParsePuzzleText("sudoku", "boxes 2x3\n" + std::string(30, '.')),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("30 cells")));
  EXPECT_THAT(
      formats::ParsePuzzleText("sudoku", "cage 8 0 1\n"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("7 cells")));
  // 36 cells without a variant line are no grid.
  EXPECT_THAT(
      formats::ParsePuzzleText("sudoku", std::string(36, '.')),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("boxes RxC")));
}

TEST(SudokuVariantsTest, DrawingShowsBoxesRegionsCagesAndDiagonals) {
  const FamilyInfo* family = BuiltinFamilies().Find("sudoku");
  ASSERT_NE(family, nullptr);
  ASSERT_NE(family->draw, nullptr);
  const v1::PuzzleSpec rect = Rectangular(2, 3, kRect6Puzzle);
  const v1::PuzzleSolution solution = Board(kRect6Solution);
  auto picture = family->draw(rect, &solution);
  ASSERT_OK(picture);
  EXPECT_EQ(picture->rows(), 6u);
  ASSERT_EQ(picture->cells_size(), 36);
  EXPECT_EQ(picture->cells(1).text(), "1");
  EXPECT_TRUE(picture->cells(1).given());
  EXPECT_EQ(picture->cells(0).text(), "5");
  EXPECT_FALSE(picture->cells(0).given());
  // One wall per row between columns 3 and 4, and six under rows 2 and 4.
  EXPECT_EQ(picture->walls_size(), 6 + 12);
  auto alone = family->draw(rect, nullptr);
  ASSERT_OK(alone);
  EXPECT_EQ(alone->cells(0).text(), "");

  auto x = family->draw(X9(kX9Puzzle), nullptr);
  ASSERT_OK(x);
  int shaded = 0;
  for (const auto& cell : x->cells()) shaded += cell.shaded();
  EXPECT_EQ(shaded, 17);
  EXPECT_EQ(x->walls_size(), 2 * 9 * 2);

  auto jigsaw = family->draw(Jigsaw(kJigsaw6Regions, kJigsaw6Puzzle), nullptr);
  ASSERT_OK(jigsaw);
  std::set<std::pair<uint32_t, uint32_t>> walls;
  for (const auto& wall : jigsaw->walls()) walls.insert({wall.a(), wall.b()});
  EXPECT_TRUE(walls.count({2, 3}));   // A | D on row 1
  EXPECT_FALSE(walls.count({0, 1}));  // A | A
  EXPECT_TRUE(walls.count({6, 12}));  // A over C
  EXPECT_EQ(jigsaw->cells(0).region(), 1u);

  auto killer = family->draw(Killer6(), nullptr);
  ASSERT_OK(killer);
  ASSERT_EQ(killer->cages_size(), 15);
  EXPECT_EQ(killer->cages(0).label(), "8");
  EXPECT_THAT(killer->cages(0).cells(), ::testing::ElementsAre(12, 18));
}

}  // namespace
}  // namespace qs
