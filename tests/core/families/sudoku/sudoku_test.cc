// Energy tests of the Sudoku QUBO ([Mücke 2024] §2, §2.1): clamping counts of
// the NYT puzzle, the ground energy -81 of its solution in the full and every
// reduced model, and higher energy for broken grids.
#include "core/families/sudoku/sudoku.h"

#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "core/compile/registry.h"
#include "core/families/builtin.h"
#include "core/sample/exact/brute_force_sampler.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/nyt_puzzle.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/sudoku_grid.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::qs::testing::SudokuGridSpec;
using ::testing::HasSubstr;

v1::PuzzleSolution SolutionFromString(const std::string& grid) {
  v1::PuzzleSolution solution;
  for (char ch : grid) solution.add_cells(ch == '.' ? 0 : ch - '0');
  return solution;
}

CompiledProblem CompileOrDie(const v1::PuzzleSpec& spec,
                             v1::Reduction reduction) {
  v1::CompileOptions options;
  options.set_reduction(reduction);
  auto problem = NewSudokuCompiler()->Compile(spec, options);
  EXPECT_TRUE(problem.ok()) << problem.status();
  return *std::move(problem);
}

// Energy of a full assignment in the reduced model (restricted to the free
// variables).
double ReducedEnergy(const CompiledProblem& problem,
                     const std::vector<uint8_t>& full) {
  return problem.model.Energy(problem.variables.Restrict(full));
}

TEST(SudokuCompilerTest, FullModelMatchesThePaper) {
  const CompiledProblem problem =
      CompileOrDie(SudokuGridSpec(std::string(81, '.')), v1::REDUCTION_NONE);
  const QuboStats stats = problem.full_model.Stats();
  EXPECT_EQ(stats.num_variables, 729);
  EXPECT_EQ(stats.num_couplers,
            10206);  // 28 neighbours per variable, each pair once
  EXPECT_EQ(stats.max_degree, 28);
  EXPECT_EQ(problem.ground_energy, -81);
  EXPECT_EQ(problem.full_model.labels()[81 * 2 + 9 * 4 + 6], "r3c5d7");
}

TEST(SudokuCompilerTest, NytClampingGives513And211Variables) {
  const v1::PuzzleSpec spec = SudokuGridSpec(testing::kNytPuzzle);
  const CompiledProblem clues = CompileOrDie(spec, v1::REDUCTION_CLUES);
  EXPECT_EQ(clues.model.num_variables(), 513);
  EXPECT_EQ(clues.model.offset(), -24);
  ASSERT_EQ(clues.stages.size(), 2u);
  EXPECT_EQ(clues.stages[1].fixed_one, 24);
  EXPECT_EQ(clues.stages[1].fixed_zero, 192);
  const CompiledProblem full = CompileOrDie(spec, v1::REDUCTION_FULL);
  EXPECT_EQ(full.model.num_variables(), 211);
  EXPECT_EQ(full.model.num_couplers(),
            1125);  // as in tests/data/instances/sudoku_nyt_I_IV.qubo
  ASSERT_EQ(full.stages.size(), 3u);
  EXPECT_EQ(full.stages[2].name, "implied");
  EXPECT_EQ(full.stages[2].variables, 211);
  EXPECT_EQ(full.stages[1].fixed_zero + full.stages[2].fixed_zero, 494);
  // The default reduction is the strongest one.
  EXPECT_EQ(CompileOrDie(spec, v1::REDUCTION_DEFAULT).model.num_variables(),
            211);
}

TEST(SudokuCompilerTest, SolutionScoresMinus81InEveryModel) {
  const v1::PuzzleSpec spec = SudokuGridSpec(testing::kNytPuzzle);
  auto compiler = NewSudokuCompiler();
  for (v1::Reduction reduction :
       {v1::REDUCTION_NONE, v1::REDUCTION_CLUES, v1::REDUCTION_FULL}) {
    const CompiledProblem problem = CompileOrDie(spec, reduction);
    auto bits = compiler->Encode(spec, problem,
                                 SolutionFromString(testing::kNytSolution));
    ASSERT_OK(bits);
    EXPECT_EQ(problem.full_model.Energy(*bits), -81);
    EXPECT_TRUE(problem.variables.IsConsistent(*bits));
    EXPECT_EQ(ReducedEnergy(problem, *bits), -81)
        << v1::Reduction_Name(reduction);
  }
}

TEST(SudokuCompilerTest, EverySingleWrongDigitScoresHigher) {
  const v1::PuzzleSpec spec = SudokuGridSpec(testing::kNytPuzzle);
  auto compiler = NewSudokuCompiler();
  const CompiledProblem none = CompileOrDie(spec, v1::REDUCTION_NONE);
  const CompiledProblem full = CompileOrDie(spec, v1::REDUCTION_FULL);
  const std::string solution = testing::kNytSolution;
  int checked = 0;
  for (int cell = 0; cell < 81; ++cell) {
    for (char digit = '1'; digit <= '9'; ++digit) {
      if (digit == solution[cell]) continue;
      std::string broken = solution;
      broken[cell] = digit;
      auto bits = compiler->Encode(spec, none, SolutionFromString(broken));
      ASSERT_OK(bits);
      EXPECT_GT(none.full_model.Energy(*bits), -81);
      // A wrong digit in a free cell is also worse in the reduced model.
      if (testing::kNytPuzzle[cell] == '.') {
        EXPECT_GT(ReducedEnergy(full, *bits), -81);
      }
      auto report = compiler->Validate(spec, SolutionFromString(broken));
      ASSERT_OK(report);
      EXPECT_FALSE(report->valid());
      ++checked;
    }
  }
  EXPECT_EQ(checked, 81 * 8);
}

TEST(SudokuCompilerTest, EmptyAndDoubledCellsScoreHigher) {
  const v1::PuzzleSpec spec = SudokuGridSpec(testing::kNytPuzzle);
  auto compiler = NewSudokuCompiler();
  const CompiledProblem none = CompileOrDie(spec, v1::REDUCTION_NONE);
  auto bits =
      compiler->Encode(spec, none, SolutionFromString(testing::kNytSolution));
  ASSERT_OK(bits);
  std::vector<uint8_t> empty = *bits;
  empty[0 * 9 + 6] = 0;  // cell (1,1) held 7
  EXPECT_EQ(none.full_model.Energy(empty), -80);
  std::vector<uint8_t> doubled = *bits;
  doubled[0 * 9 + 1] = 1;  // cell (1,1) holds 7 and 2
  EXPECT_GT(none.full_model.Energy(doubled), -81);
  const v1::PuzzleSolution decoded = compiler->Decode(spec, none, doubled);
  EXPECT_EQ(decoded.rows(0)[0], '*');
  auto report = compiler->Validate(spec, decoded);
  ASSERT_OK(report);
  ASSERT_FALSE(report->valid());
  EXPECT_EQ(report->violations(0).rule(), "multiple_digits");
}

TEST(SudokuCompilerTest, DecodeValidateRoundTrip) {
  const v1::PuzzleSpec spec = SudokuGridSpec(testing::kNytPuzzle);
  auto compiler = NewSudokuCompiler();
  const CompiledProblem full = CompileOrDie(spec, v1::REDUCTION_FULL);
  auto bits =
      compiler->Encode(spec, full, SolutionFromString(testing::kNytSolution));
  ASSERT_OK(bits);
  const v1::PuzzleSolution decoded = compiler->Decode(
      spec, full, full.variables.Expand(full.variables.Restrict(*bits)));
  EXPECT_EQ(decoded.rows(0), "713854629");
  EXPECT_EQ(decoded.rows(8), "374986512");
  auto report = compiler->Validate(spec, decoded);
  ASSERT_OK(report);
  EXPECT_TRUE(report->valid());
}

TEST(SudokuCompilerTest, ValidatorNamesTheBrokenRules) {
  const v1::PuzzleSpec spec = SudokuGridSpec(testing::kNytPuzzle);
  auto compiler = NewSudokuCompiler();
  std::string broken = testing::kNytSolution;
  std::swap(broken[7],
            broken[8]);  // row 1: ...629 -> ...692; clue '2' at (1,8) now wrong
  auto report = compiler->Validate(spec, SolutionFromString(broken));
  ASSERT_OK(report);
  std::vector<std::string> rules;
  for (const auto& v : report->violations())
    rules.push_back(v.rule() + "@" + v.location());
  EXPECT_THAT(rules, ::testing::Contains("clue_mismatch@cell (1,8)"));
  EXPECT_THAT(rules,
              ::testing::Contains(::testing::StartsWith("column_duplicate@")));
  EXPECT_THAT(rules, ::testing::Not(::testing::Contains(
                         ::testing::StartsWith("row_duplicate@"))));
}

// Every valid completion of a 4x4 grid ('.' blank), by backtracking.
void Complete4x4(std::string& grid, size_t cell, std::set<std::string>& out) {
  if (cell == grid.size()) {
    out.insert(grid);
    return;
  }
  if (grid[cell] != '.') {
    Complete4x4(grid, cell + 1, out);
    return;
  }
  const size_t row = cell / 4, column = cell % 4;
  for (char digit = '1'; digit <= '4'; ++digit) {
    bool clash = false;
    for (size_t k = 0; k < 4; ++k) {
      const size_t box_cell =
          (row / 2 * 2 + k / 2) * 4 + column / 2 * 2 + k % 2;
      clash = clash || grid[row * 4 + k] == digit ||
              grid[k * 4 + column] == digit || grid[box_cell] == digit;
    }
    if (clash) continue;
    grid[cell] = digit;
    Complete4x4(grid, cell + 1, out);
    grid[cell] = '.';
  }
}

std::set<std::string> CompletionsOf4x4(std::string grid) {
  std::set<std::string> out;
  Complete4x4(grid, 0, out);
  return out;
}

TEST(SudokuCompilerTest, FourByFourGroundStatesAreExactlyTheValidGrids) {
  // 4x4 with 7 clues and four completions leaves few enough variables (18)
  // for exact enumeration after I-IV.
  constexpr char kGrid[] = "1.3.3.1.2.4.4...";
  const v1::PuzzleSpec spec = SudokuGridSpec(kGrid);
  auto compiler = NewSudokuCompiler();
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_FULL);
  ASSERT_LE(problem.model.num_variables(), 30);
  auto ground = FindGroundStates(problem.model, 1000, nullptr);
  ASSERT_OK(ground);
  EXPECT_EQ(ground->energy, -16);
  ASSERT_EQ(static_cast<int64_t>(ground->states.size()),
            ground->count);  // all of them listed
  std::set<std::string> decoded;
  for (const auto& state : ground->states) {
    const v1::PuzzleSolution solution =
        compiler->Decode(spec, problem, problem.variables.Expand(state));
    auto report = compiler->Validate(spec, solution);
    ASSERT_OK(report);
    EXPECT_TRUE(report->valid());
    decoded.insert(absl::StrJoin(solution.rows(), ""));
  }
  // The completions found by search, independent of the QUBO: every one is
  // a ground state, and no two ground states decode to the same grid.
  const std::set<std::string> valid = CompletionsOf4x4(kGrid);
  EXPECT_EQ(valid.size(), 4u);
  EXPECT_EQ(decoded, valid);
  EXPECT_EQ(ground->count, static_cast<int64_t>(valid.size()));
}

TEST(SudokuCompilerTest, RejectsBadInputNamingTheField) {
  auto compiler = NewSudokuCompiler();
  v1::CompileOptions options;
  v1::PuzzleSpec short_grid = SudokuGridSpec(std::string(80, '.'));
  short_grid.mutable_sudoku()->set_box_size(3);
  EXPECT_THAT(compiler->Compile(short_grid, options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("sudoku.cells: expected 81")));
  v1::PuzzleSpec big_digit = SudokuGridSpec(std::string(81, '.'));
  big_digit.mutable_sudoku()->set_cells(5, 10);
  EXPECT_THAT(compiler->Compile(big_digit, options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("sudoku.cells[5]")));
  v1::PuzzleSpec contradiction = SudokuGridSpec("11" + std::string(79, '.'));
  EXPECT_THAT(compiler->Compile(contradiction, options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("contradictory clues")));
  EXPECT_THAT(
      compiler->Compile(SudokuGridSpec(std::string(81, '.'), 2.0), options),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("sudoku.penalty")));
  v1::PuzzleSpec box6 = SudokuGridSpec(std::string(81, '.'));
  box6.mutable_sudoku()->set_box_size(6);
  EXPECT_THAT(compiler->Compile(box6, options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("sudoku.box_size")));
}

TEST(SudokuCompilerTest, LargerGridsHaveTheirGroundEnergy) {
  for (int box : {2, 4, 5}) {
    const int side = box * box;
    v1::PuzzleSpec spec;
    spec.mutable_sudoku()->set_box_size(box);
    for (int k = 0; k < side * side; ++k) spec.mutable_sudoku()->add_cells(0);
    const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
    EXPECT_EQ(problem.full_model.num_variables(), side * side * side);
    EXPECT_EQ(problem.ground_energy, -side * side);
    // A valid grid: the pattern (r * box + r / box + c) mod side.
    v1::PuzzleSolution grid;
    for (int r = 0; r < side; ++r) {
      for (int c = 0; c < side; ++c)
        grid.add_cells((r * box + r / box + c) % side + 1);
    }
    auto compiler = NewSudokuCompiler();
    auto bits = compiler->Encode(spec, problem, grid);
    ASSERT_OK(bits);
    EXPECT_EQ(problem.full_model.Energy(*bits), -side * side) << side;
    auto report = compiler->Validate(spec, grid);
    ASSERT_OK(report);
    EXPECT_TRUE(report->valid()) << side;
  }
}

TEST(SudokuCompilerTest, RegisteredAsBuiltin) {
  auto compiler = BuiltinCompilers().ForKind("sudoku");
  ASSERT_OK(compiler);
  EXPECT_EQ((*compiler)->puzzle_case(), v1::PuzzleSpec::kSudoku);
}

}  // namespace
}  // namespace qs
