// Energy and rule tests of the Keen QUBO (docs/keen.md): the ground energy
// -n^2 of known solutions in every reduction, higher energy for each broken
// rule (empty cell, several digits, a digit twice in a row or a column, a
// wrong cage of each operation), the gadgets checked exhaustively over their
// cells and selectors, the reduction's stages, the one-hot groups, the
// validator's rule names and bad specs.
#include "core/families/keen/keen.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/families/keen/keen_testing.h"
#include "tests/testing/no_sampler.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::KeenBoard;
using ::qs::testing::KeenSpec;
using ::qs::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

CompiledProblem CompileOrDie(const v1::PuzzleSpec& spec,
                             v1::Reduction reduction = v1::REDUCTION_FULL) {
  v1::CompileOptions options;
  options.set_reduction(reduction);
  auto problem = NewKeenCompiler()->Compile(spec, options);
  EXPECT_TRUE(problem.ok()) << problem.status();
  return problem.ok() ? *std::move(problem) : CompiledProblem();
}

std::vector<uint8_t> EncodeOrDie(const v1::PuzzleSpec& spec,
                                 const CompiledProblem& problem,
                                 const v1::PuzzleSolution& board) {
  auto bits = NewKeenCompiler()->Encode(spec, problem, board);
  EXPECT_TRUE(bits.ok()) << bits.status();
  return bits.ok() ? *bits : std::vector<uint8_t>();
}

std::vector<std::string> RulesOf(const v1::ValidationReport& report) {
  std::vector<std::string> rules;
  for (const auto& v : report.violations())
    rules.push_back(v.rule() + "@" + v.location());
  return rules;
}

std::vector<std::string> RulesOfBoard(const v1::PuzzleSpec& spec,
                                      const v1::PuzzleSolution& board) {
  auto report = NewKeenCompiler()->Validate(spec, board);
  EXPECT_TRUE(report.ok()) << report.status();
  return report.ok() ? RulesOf(*report) : std::vector<std::string>{"error"};
}

TEST(KeenCompilerTest, ModelHasCellsSelectorsAndStages) {
  const v1::PuzzleSpec spec = KeenSpec(testing::kKeen4x4);
  const CompiledProblem problem = CompileOrDie(spec);
  // 64 cell variables; B 6x in a column (1,2,3 / 1,3,2 ... 6 orders) and
  // G 4x in a row (1,4 and 4,1) add 6 + 2 selectors.
  EXPECT_EQ(problem.full_model.num_variables(), 72);
  EXPECT_EQ(problem.ground_energy, -16.0);
  EXPECT_EQ(problem.full_model.labels()[0], "r1c1d1");
  EXPECT_EQ(problem.full_model.labels()[64], "cage2_123");
  EXPECT_EQ(problem.full_model.labels()[70], "cage7_14");
  std::vector<std::string> stages;
  for (const ReductionStage& stage : problem.stages)
    stages.push_back(stage.name);
  EXPECT_THAT(stages,
              ElementsAre("model", "givens", "cage_digits", "latin", "tuples"));
  EXPECT_EQ(problem.stages.back().variables, problem.model.num_variables());
  EXPECT_EQ(problem.height, 4);
}

TEST(KeenCompilerTest, SolutionScoresTheGroundEnergyInEveryReduction) {
  auto compiler = NewKeenCompiler();
  for (const auto& [text, solution] :
       {std::pair{testing::kKeen4x4, testing::kKeen4x4Solution},
        std::pair{testing::kKeen3x3Grid, testing::kKeen3x3Solution}}) {
    const v1::PuzzleSpec spec = KeenSpec(text);
    const double ground =
        -static_cast<double>(spec.keen().size() * spec.keen().size());
    for (v1::Reduction reduction :
         {v1::REDUCTION_NONE, v1::REDUCTION_CLUES, v1::REDUCTION_FULL}) {
      SCOPED_TRACE(std::string(text) + " " + v1::Reduction_Name(reduction));
      const CompiledProblem problem = CompileOrDie(spec, reduction);
      const std::vector<uint8_t> bits =
          EncodeOrDie(spec, problem, KeenBoard(solution));
      EXPECT_EQ(problem.full_model.Energy(bits), ground);
      EXPECT_TRUE(problem.variables.IsConsistent(bits));
      EXPECT_EQ(problem.model.Energy(problem.variables.Restrict(bits)), ground);
      const v1::PuzzleSolution decoded = compiler->Decode(spec, problem, bits);
      EXPECT_EQ(decoded.rows(0), std::string(solution).substr(0, 4).substr(
                                     0, spec.keen().size()));
      auto report = compiler->Validate(spec, decoded);
      ASSERT_OK(report);
      EXPECT_TRUE(report->valid())
          << ::testing::PrintToString(RulesOf(*report));
    }
  }
}

// Energy of a board given as cells (0 empty, -1 for two digits: the solution's
// and the next one), selectors as Encode sets them.
double BoardEnergy(const v1::PuzzleSpec& spec, const CompiledProblem& problem,
                   std::vector<int> cells, const std::vector<int>& solution) {
  v1::PuzzleSolution board;
  for (int v : cells) board.add_cells(std::max(v, 0));
  std::vector<uint8_t> bits = EncodeOrDie(spec, problem, board);
  const int n = static_cast<int>(spec.keen().size());
  for (size_t k = 0; k < cells.size(); ++k) {
    if (cells[k] != -1) continue;
    bits[k * n + solution[k] - 1] = 1;
    bits[k * n + solution[k] % n] = 1;
  }
  return problem.full_model.Energy(bits);
}

std::vector<int> CellsOf(const std::string& rows) {
  std::vector<int> cells;
  const v1::PuzzleSolution board = KeenBoard(rows);
  for (int v : board.cells()) cells.push_back(v);
  return cells;
}

TEST(KeenCompilerTest, EachBrokenLatinRuleScoresHigher) {
  const v1::PuzzleSpec spec = KeenSpec(testing::kKeen4x4);
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
  const std::vector<int> solution = CellsOf(testing::kKeen4x4Solution);
  ASSERT_EQ(BoardEnergy(spec, problem, solution, solution), -16.0);
  for (int cell = 0; cell < 16; ++cell) {
    std::vector<int> empty = solution, doubled = solution;
    empty[cell] = 0;
    doubled[cell] = -1;
    EXPECT_GE(BoardEnergy(spec, problem, empty, solution), -15.0);
    EXPECT_GE(BoardEnergy(spec, problem, doubled, solution), -15.0);
  }
  // Two cells of a column swapped: both rows hold a digit twice.
  std::vector<int> rows_broken = solution;
  std::swap(rows_broken[0], rows_broken[4]);
  EXPECT_GE(BoardEnergy(spec, problem, rows_broken, solution), -15.0);
  // Two cells of a row swapped: both columns hold a digit twice.
  std::vector<int> cols_broken = solution;
  std::swap(cols_broken[0], cols_broken[1]);
  EXPECT_GE(BoardEnergy(spec, problem, cols_broken, solution), -15.0);
}

// For every cage: a Latin square (the solution with its digits renamed) that
// breaks that cage scores at least 1 above the ground energy, and the
// validator names the cage. The 4x4 puzzle has cages of +, -, x and /, the
// 3x3 one a given.
TEST(KeenCompilerTest, EveryWrongCageScoresHigher) {
  for (const auto& [text, rows] :
       {std::pair{testing::kKeen4x4, testing::kKeen4x4Solution},
        std::pair{testing::kKeen3x3Grid, testing::kKeen3x3Solution}}) {
    const v1::PuzzleSpec spec = KeenSpec(text);
    const int n = static_cast<int>(spec.keen().size());
    const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
    const std::vector<int> solution = CellsOf(rows);
    for (int i = 0; i < spec.keen().cages_size(); ++i) {
      SCOPED_TRACE(absl::StrCat(text, " cage ", i + 1));
      std::vector<int> names(n);
      std::iota(names.begin(), names.end(), 1);
      bool found = false;
      while (std::next_permutation(names.begin(), names.end())) {
        std::vector<int> renamed;
        for (int v : solution) renamed.push_back(names[v - 1]);
        v1::PuzzleSolution board;
        for (int v : renamed) board.add_cells(v);
        const std::vector<std::string> rules = RulesOfBoard(spec, board);
        if (std::find(rules.begin(), rules.end(),
                      absl::StrCat("cage_result@cage ", i + 1)) == rules.end())
          continue;
        found = true;
        for (const std::string& rule : rules)
          EXPECT_THAT(rule, HasSubstr("cage_result@"));
        EXPECT_GE(BoardEnergy(spec, problem, renamed, solution), -n * n + 1);
        break;
      }
      EXPECT_TRUE(found);
    }
  }
}

// Each cage's own term: the solution of a puzzle whose one cage has another
// target (one some digits reach) breaks that cage alone, and scores at least
// 1 above the ground energy.
TEST(KeenCompilerTest, EachCageTermAloneChargesAWrongResult) {
  for (const auto& [text, rows] :
       {std::pair{testing::kKeen4x4, testing::kKeen4x4Solution},
        std::pair{testing::kKeen3x3Grid, testing::kKeen3x3Solution}}) {
    const v1::PuzzleSpec spec = KeenSpec(text);
    const int n = static_cast<int>(spec.keen().size());
    for (int i = 0; i < spec.keen().cages_size(); ++i) {
      SCOPED_TRACE(absl::StrCat(text, " cage ", i + 1));
      v1::PuzzleSpec changed = spec;
      v1::KeenCage& cage = *changed.mutable_keen()->mutable_cages(i);
      const uint64_t target = cage.target();
      bool compiled = false;
      for (uint64_t other = 1; other <= 30 && !compiled; ++other) {
        if (other == target) continue;
        cage.set_target(other);
        compiled = KeenShapeOf(changed.keen()).ok();
      }
      ASSERT_TRUE(compiled);
      EXPECT_THAT(RulesOfBoard(changed, KeenBoard(rows)),
                  ElementsAre(absl::StrCat("cage_result@cage ", i + 1)));
      for (v1::Reduction reduction : {v1::REDUCTION_NONE, v1::REDUCTION_FULL}) {
        const CompiledProblem problem = CompileOrDie(changed, reduction);
        const std::vector<uint8_t> bits =
            EncodeOrDie(changed, problem, KeenBoard(rows));
        EXPECT_GE(problem.full_model.Energy(bits), -n * n + 1);
      }
    }
  }
}

// Every assignment of one cage's cell variables and selectors, the rest of the
// board at its solution: the minimum over the selectors is the ground energy
// exactly when the board is valid, and at least 1 more otherwise.
void CheckCageExhaustively(const v1::PuzzleSpec& spec, const std::string& rows,
                           int cage_index) {
  auto compiler = NewKeenCompiler();
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
  auto shape = KeenShapeOf(spec.keen());
  ASSERT_OK(shape);
  const KeenCageShape& cage = shape->cages[cage_index];
  const int n = shape->size;
  const double ground = -n * n;
  const std::vector<uint8_t> base = EncodeOrDie(spec, problem, KeenBoard(rows));
  std::vector<int> cell_vars, selectors;
  for (int cell : cage.cells) {
    for (int d = 1; d <= n; ++d) cell_vars.push_back(shape->Var(cell, d));
  }
  if (KeenCageUsesSelectors(cage)) {
    for (size_t t = 0; t < cage.tuples.size(); ++t)
      selectors.push_back(cage.first_selector + static_cast<int>(t));
  }
  ASSERT_LE(cell_vars.size() + selectors.size(), 22u);
  int valid_boards = 0;
  for (uint32_t xs = 0; xs < (1u << cell_vars.size()); ++xs) {
    std::vector<uint8_t> bits = base;
    for (size_t k = 0; k < cell_vars.size(); ++k)
      bits[cell_vars[k]] = (xs >> k) & 1;
    double best = 1e18;
    for (uint32_t ys = 0; ys < (1u << selectors.size()); ++ys) {
      for (size_t k = 0; k < selectors.size(); ++k)
        bits[selectors[k]] = (ys >> k) & 1;
      best = std::min(best, problem.full_model.Energy(bits));
    }
    auto report =
        compiler->Validate(spec, compiler->Decode(spec, problem, bits));
    ASSERT_OK(report);
    if (report->valid()) {
      ++valid_boards;
      EXPECT_EQ(best, ground) << "cells " << xs;
    } else {
      EXPECT_GE(best, ground + 1) << "cells " << xs;
    }
  }
  EXPECT_EQ(valid_boards, 1);  // the puzzle's unique solution
}

TEST(KeenCompilerTest, EveryCageGadgetIsExactOverItsCellsAndSelectors) {
  const v1::PuzzleSpec four = KeenSpec(testing::kKeen4x4);
  for (int i = 0; i < four.keen().cages_size(); ++i) {
    SCOPED_TRACE(absl::StrCat("4x4 cage ", i + 1));
    CheckCageExhaustively(four, testing::kKeen4x4Solution, i);
  }
  const v1::PuzzleSpec three = KeenSpec(testing::kKeen3x3Grid);
  for (int i = 0; i < three.keen().cages_size(); ++i) {
    SCOPED_TRACE(absl::StrCat("3x3 cage ", i + 1));
    CheckCageExhaustively(three, testing::kKeen3x3Solution, i);
  }
}

// The whole 3x3 QUBO (27 cells and 2 selectors) enumerated: its minimum is
// the ground energy, reached only by the solution.
TEST(KeenCompilerTest, WholeSmallModelHasTheSolutionAsOnlyGroundState) {
  const v1::PuzzleSpec spec = KeenSpec(testing::kKeen3x3Grid);
  const CompiledProblem problem = CompileOrDie(spec, v1::REDUCTION_NONE);
  const int n = problem.full_model.num_variables();
  ASSERT_EQ(n, 29);
  const std::vector<uint8_t> solution =
      EncodeOrDie(spec, problem, KeenBoard(testing::kKeen3x3Solution));
  // A cell without a digit or with two scores at least ground + 1 (the Latin
  // part's argument, tested above), so every state of one digit per cell and
  // every selector pair are enumerated: 3^9 * 4.
  std::vector<uint8_t> bits(n, 0);
  int at_ground = 0;
  std::vector<int> digit(9, 0);
  for (int code = 0; code < 19683; ++code) {
    for (int k = 0, c = code; k < 9; ++k, c /= 3) digit[k] = c % 3;
    std::fill(bits.begin(), bits.end(), 0);
    for (int k = 0; k < 9; ++k) bits[k * 3 + digit[k]] = 1;
    for (int ys = 0; ys < 4; ++ys) {
      bits[27] = ys & 1;
      bits[28] = ys >> 1;
      const double e = problem.full_model.Energy(bits);
      if (e < -8) {
        EXPECT_EQ(e, -9.0);
        EXPECT_EQ(bits, solution);
        ++at_ground;
      }
    }
  }
  EXPECT_EQ(at_ground, 1);
}

TEST(KeenCompilerTest, ReductionClampsGivensCageDigitsLatinAndTuples) {
  const v1::PuzzleSpec spec = KeenSpec(testing::kKeen3x3Grid);
  const CompiledProblem problem = CompileOrDie(spec);
  ASSERT_EQ(problem.stages.size(), 5u);
  // givens: cell (2,2) holds 2.
  EXPECT_EQ(problem.stages[1].fixed_one, 1);
  EXPECT_EQ(problem.stages[1].fixed_zero, 2);
  auto fixed = [&](int var) {
    const VariableMap::Source& s = problem.variables.source(var);
    return s.reduced < 0 ? static_cast<int>(s.value) : -1;
  };
  auto shape = KeenShapeOf(spec.keen());
  ASSERT_OK(shape);
  EXPECT_EQ(fixed(shape->Var(4, 2)), 1);
  EXPECT_EQ(fixed(shape->Var(4, 1)), 0);
  // cage_digits: E 2/ allows 1 and 2 only, A 3x 1 and 3 only.
  EXPECT_EQ(fixed(shape->Var(6, 3)), 0);
  EXPECT_EQ(fixed(shape->Var(0, 2)), 0);
  // latin: the given 2 leaves row 2 and column 2.
  EXPECT_EQ(fixed(shape->Var(1, 2)), 0);
  EXPECT_EQ(fixed(shape->Var(5, 2)), 0);
  EXPECT_EQ(fixed(shape->Var(7, 2)), 0);
  // The stages' counts add up to the fixed variables.
  int zeros = 0, ones = 0;
  for (const ReductionStage& stage : problem.stages) {
    zeros += stage.fixed_zero;
    ones += stage.fixed_one;
  }
  EXPECT_EQ(zeros, problem.variables.num_fixed_zero());
  EXPECT_EQ(ones, problem.variables.num_fixed_one());
  EXPECT_EQ(problem.model.num_variables(),
            problem.full_model.num_variables() - zeros - ones);
}

TEST(KeenCompilerTest, CageWithOneTupleLeftChoosesIt) {
  // A 3x at (1,1) and (1,2) is 1,3 or 3,1; the given 3 at (2,1) takes 3 from
  // column 1, so the tuples stage drops 3,1 and chooses 1,3.
  const v1::PuzzleSpec spec =
      KeenSpec("AAB/CDE/FDE;A 3x;B 2;C 3;D 2/;E 2-;F 2");
  auto shape = KeenShapeOf(spec.keen());
  ASSERT_OK(shape);
  const KeenCageShape& cage = shape->cages[0];
  ASSERT_EQ(cage.tuples, (std::vector<std::vector<int>>{{1, 3}, {3, 1}}));
  const CompiledProblem problem = CompileOrDie(spec);
  const VariableMap::Source& chosen =
      problem.variables.source(cage.first_selector);
  const VariableMap::Source& dropped =
      problem.variables.source(cage.first_selector + 1);
  EXPECT_EQ(chosen.reduced, -1);
  EXPECT_EQ(chosen.value, 1);
  EXPECT_EQ(dropped.reduced, -1);
  EXPECT_EQ(dropped.value, 0);
  EXPECT_EQ(problem.stages.back().name, "tuples");
  EXPECT_EQ(problem.stages.back().fixed_one, 1);
  EXPECT_GE(problem.stages.back().fixed_zero, 1);
  // The reduction keeps the solution at the ground energy.
  const std::vector<uint8_t> bits =
      EncodeOrDie(spec, problem, KeenBoard("132/321/213"));
  EXPECT_TRUE(problem.variables.IsConsistent(bits));
  EXPECT_EQ(problem.model.Energy(problem.variables.Restrict(bits)), -9.0);
}

TEST(KeenCompilerTest, OneHotGroupsCoverCellsLinesAndSelectors) {
  const v1::PuzzleSpec spec = KeenSpec(testing::kKeen4x4);
  const CompiledProblem none = CompileOrDie(spec, v1::REDUCTION_NONE);
  // 16 cells, 4 rows and 4 columns per digit, 2 selector cages.
  EXPECT_EQ(none.one_hot_groups.size(), 16u + 32u + 2u);
  EXPECT_EQ(none.one_hot_groups.back(), (std::vector<int32_t>{70, 71}));
  const CompiledProblem full = CompileOrDie(spec);
  for (const auto& group : full.one_hot_groups) {
    EXPECT_GE(group.size(), 2u);
    for (int32_t v : group) EXPECT_LT(v, full.model.num_variables());
  }
}

TEST(KeenCompilerTest, ValidatorNamesEachRule) {
  const v1::PuzzleSpec spec = KeenSpec(testing::kKeen4x4);
  EXPECT_THAT(RulesOfBoard(spec, KeenBoard(testing::kKeen4x4Solution)),
              ::testing::IsEmpty());
  v1::PuzzleSolution board = KeenBoard("4321/2143/3214/1432");
  board.set_cells(0, 0);
  board.set_cells(5, -1);
  EXPECT_THAT(
      RulesOfBoard(spec, board),
      ElementsAre("empty_cell@cell (1,1)", "multiple_digits@cell (2,2)"));
  // Rows 1 and 2 swapped in column 1: each row then holds a digit twice.
  EXPECT_THAT(RulesOfBoard(spec, KeenBoard("2321/4143/3214/1432")),
              ElementsAre("row_duplicate@row 1", "row_duplicate@row 2"));
  // Columns 1 and 2 swapped in row 1.
  EXPECT_THAT(
      RulesOfBoard(spec, KeenBoard("3421/2143/3214/1432")),
      ElementsAre("column_duplicate@column 1", "column_duplicate@column 2",
                  "cage_result@cage 1", "cage_result@cage 2"));
  auto report =
      NewKeenCompiler()->Validate(spec, KeenBoard("4321/2143/3214/1432"));
  ASSERT_OK(report);
  EXPECT_TRUE(report->valid());
  v1::PuzzleSolution wrong = KeenBoard("4321/2143/3214/1432");
  wrong.set_cells(3, 7);
  EXPECT_THAT(NewKeenCompiler()->Validate(spec, wrong),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("solution.cells[3]")));
}

TEST(KeenCompilerTest, RefusesBadSpecsNamingTheField) {
  auto compile = [](const v1::PuzzleSpec& spec) {
    return NewKeenCompiler()->Compile(spec, v1::CompileOptions()).status();
  };
  v1::PuzzleSpec spec = KeenSpec(testing::kKeen4x4);
  v1::PuzzleSpec big = spec;
  big.mutable_keen()->set_size(10);
  EXPECT_THAT(compile(big), StatusIs(absl::StatusCode::kInvalidArgument,
                                     HasSubstr("keen.size")));
  v1::PuzzleSpec missing = spec;
  missing.mutable_keen()->mutable_cages()->RemoveLast();
  EXPECT_THAT(compile(missing), StatusIs(absl::StatusCode::kInvalidArgument,
                                         HasSubstr("is in no cage")));
  v1::PuzzleSpec twice = spec;
  twice.mutable_keen()->mutable_cages(1)->add_cells(0);
  EXPECT_THAT(compile(twice), StatusIs(absl::StatusCode::kInvalidArgument,
                                       HasSubstr("keen.cages[1].cells")));
  v1::PuzzleSpec apart = spec;
  apart.mutable_keen()->mutable_cages(2)->set_cells(1, 15);
  EXPECT_THAT(compile(apart), StatusIs(absl::StatusCode::kInvalidArgument,
                                       HasSubstr("connected")));
  v1::PuzzleSpec unreachable = spec;
  unreachable.mutable_keen()->mutable_cages(2)->set_target(7);  // 7- in 1..4
  EXPECT_THAT(compile(unreachable),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("keen.cages[2].target")));
  v1::PuzzleSpec three_minus = spec;
  three_minus.mutable_keen()->mutable_cages(0)->set_operation(
      v1::KeenCage::SUBTRACT);
  EXPECT_THAT(compile(three_minus),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("keen.cages[0].cells: 3 cells")));
  v1::PuzzleSpec unset = spec;
  unset.mutable_keen()->mutable_cages(0)->set_operation(
      v1::KeenCage::OPERATION_UNSPECIFIED);
  EXPECT_THAT(compile(unset), StatusIs(absl::StatusCode::kInvalidArgument,
                                       HasSubstr("keen.cages[0].operation")));
}

TEST(KeenGeneratorTest, GeneratesUniqueValidPuzzles) {
  auto generator = BuiltinGenerators().Get("keen");
  ASSERT_OK(generator);
  testing::NoSampler sampler;
  Interrupter interrupter;
  GenerateOptions options;
  options.rows = options.cols = 4;
  options.difficulty = v1::DIFFICULTY_HARD;
  ASSERT_OK((*generator)->Check(options));
  auto puzzle = (*generator)->Generate(options, 7, sampler, interrupter);
  ASSERT_OK(puzzle);
  EXPECT_EQ(testing::KeenRuleSolutions(puzzle->puzzle, 2).size(), 1u);
  EXPECT_LT(puzzle->propagation_decided, 1.0);
  const CompiledProblem problem = CompileOrDie(puzzle->puzzle);
  EXPECT_EQ(problem.full_model.Energy(puzzle->solution), -16.0);
  auto report = NewKeenCompiler()->Validate(
      puzzle->puzzle,
      NewKeenCompiler()->Decode(puzzle->puzzle, problem, puzzle->solution));
  ASSERT_OK(report);
  EXPECT_TRUE(report->valid());
  // The same seed gives the same puzzle.
  auto again = (*generator)->Generate(options, 7, sampler, interrupter);
  ASSERT_OK(again);
  EXPECT_EQ(again->puzzle.SerializeAsString(),
            puzzle->puzzle.SerializeAsString());
  options.cols = 5;
  EXPECT_THAT((*generator)->Check(options),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("cols")));
}

}  // namespace
}  // namespace qs
