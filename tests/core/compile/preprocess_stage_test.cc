// The preprocessing stages of the compile path
// (core/compile/preprocess_stage.h) on puzzles: the NYT Sudoku of 2024-01-08 at
// REDUCTION_FULL, its solution's energy unchanged by every option, the stages
// and statistics, the variable map's consistency with the full model, one-hot
// groups carried through, a puzzle preprocessing solves outright, the compile
// cache keeping options apart, and an unknown option value refused.
#include "core/compile/preprocess_stage.h"

#include <string>
#include <vector>

#include "core/compile/compile_cache.h"
#include "core/compile/registry.h"
#include "core/families/builtin.h"
#include "gtest/gtest.h"
#include "tests/testing/nyt_puzzle.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/sudoku_grid.h"

namespace qs {
namespace {

using ::qs::testing::StatusIs;
using ::qs::testing::SudokuGridSpec;
using ::testing::HasSubstr;

CompiledProblem CompileOrDie(const v1::PuzzleSpec& spec,
                             v1::Preprocess preprocess,
                             v1::Reduction reduction = v1::REDUCTION_FULL) {
  v1::CompileOptions options;
  options.set_reduction(reduction);
  options.set_preprocess(preprocess);
  const PuzzleCompiler& compiler = **BuiltinCompilers().ForSpec(spec);
  auto problem = CompileProblem(compiler, spec, options);
  EXPECT_TRUE(problem.ok()) << problem.status();
  return *std::move(problem);
}

std::vector<uint8_t> NytSolutionBits(const CompiledProblem& problem) {
  const v1::PuzzleSpec spec = SudokuGridSpec(testing::kNytPuzzle);
  v1::PuzzleSolution solution;
  for (char ch : std::string(testing::kNytSolution))
    solution.add_cells(ch - '0');
  const PuzzleCompiler& compiler = **BuiltinCompilers().ForSpec(spec);
  return *compiler.Encode(spec, problem, solution);
}

TEST(PreprocessStageTest, NytAtFullReductionWithQproHas209Variables) {
  const CompiledProblem problem =
      CompileOrDie(SudokuGridSpec(testing::kNytPuzzle), v1::PREPROCESS_QPRO);
  EXPECT_EQ(problem.model.num_variables(), 209);
  ASSERT_EQ(problem.stages.size(), 5u);
  EXPECT_EQ(problem.stages[2].variables, 211);
  EXPECT_EQ(problem.stages[3].name, "roof");
  EXPECT_EQ(problem.stages[4].name, "qpro");
  EXPECT_EQ(problem.stages[4].variables, 209);
  EXPECT_EQ(problem.removed_by_preprocess, 2);
  EXPECT_LE(*problem.roof_lower_bound, -81);
}

TEST(PreprocessStageTest, SolutionEnergyIsExactUnderEveryOption) {
  const v1::PuzzleSpec spec = SudokuGridSpec(testing::kNytPuzzle);
  for (v1::Reduction reduction :
       {v1::REDUCTION_NONE, v1::REDUCTION_CLUES, v1::REDUCTION_FULL}) {
    for (v1::Preprocess preprocess :
         {v1::PREPROCESS_NONE, v1::PREPROCESS_ROOF, v1::PREPROCESS_QPRO}) {
      const CompiledProblem problem = CompileOrDie(spec, preprocess, reduction);
      const std::vector<uint8_t> bits = NytSolutionBits(problem);
      // The unique solution survives (a kept minimum is the only one) ...
      EXPECT_TRUE(problem.variables.IsConsistent(bits))
          << v1::Reduction_Name(reduction) << " "
          << v1::Preprocess_Name(preprocess);
      // ... with the energy it has in the full model.
      const std::vector<uint8_t> reduced = problem.variables.Restrict(bits);
      EXPECT_EQ(problem.model.Energy(reduced), -81);
      EXPECT_EQ(problem.full_model.Energy(problem.variables.Expand(reduced)),
                -81);
      EXPECT_EQ(problem.ground_energy, -81);
    }
  }
}

TEST(PreprocessStageTest, NoneAddsNoStage) {
  const CompiledProblem problem =
      CompileOrDie(SudokuGridSpec(testing::kNytPuzzle), v1::PREPROCESS_NONE);
  EXPECT_EQ(problem.stages.size(), 3u);
  EXPECT_EQ(problem.removed_by_preprocess, 0);
  EXPECT_FALSE(problem.roof_lower_bound.has_value());
}

TEST(PreprocessStageTest, StagesCountFixedVariables) {
  // The full model of the NYT puzzle: no givens clamped, so the stages have
  // the whole model to work on.
  const CompiledProblem problem =
      CompileOrDie(SudokuGridSpec(testing::kNytPuzzle), v1::PREPROCESS_QPRO,
                   v1::REDUCTION_NONE);
  ASSERT_EQ(problem.stages.size(), 3u);
  int fixed = 0;
  for (size_t s = 1; s < problem.stages.size(); ++s)
    fixed += problem.stages[s].fixed_zero + problem.stages[s].fixed_one;
  EXPECT_EQ(
      problem.variables.num_fixed_zero() + problem.variables.num_fixed_one(),
      fixed);
  EXPECT_EQ(problem.model.num_variables(), problem.stages.back().variables);
}

TEST(PreprocessStageTest, OneHotGroupsLoseFixedZerosAndKeepTheRest) {
  CompiledProblem problem =
      CompileOrDie(SudokuGridSpec(testing::kNytPuzzle), v1::PREPROCESS_NONE,
                   v1::REDUCTION_NONE);
  // Groups {0, 1, 2} and {3, 4} over a model where roof duality fixes x1 = 0
  // and x3 = 1 and nothing else (x0 + x2 = 1 has two minima, x4 is free).
  QuboBuilder builder(5);
  builder.AddLinear(1, 5);
  builder.AddLinear(3, -5);
  builder.AddLinear(0, -1);
  builder.AddLinear(2, -1);
  builder.AddQuadratic(0, 2, 2);
  problem.full_model = *std::move(builder).Build();
  problem.model = problem.full_model;
  problem.variables = VariableMap::Identity(5);
  problem.stages = {{"model", 5, 0, 0}};
  problem.one_hot_groups = {{0, 1, 2}, {3, 4}};
  ASSERT_TRUE(ApplyPreprocess(v1::PREPROCESS_ROOF, problem).ok());
  ASSERT_EQ(problem.stages.back().fixed_zero, 1);
  ASSERT_EQ(problem.stages.back().fixed_one, 1);
  EXPECT_EQ(problem.one_hot_groups,
            (std::vector<std::vector<int32_t>>{{0, 1}}));
}

TEST(PreprocessStageTest, EasyPuzzleIsSolvedOutright) {
  // Every empty cell of this 4x4 puzzle has a single candidate after its
  // neighbours' givens, which the QPRO rules see.
  const CompiledProblem problem =
      CompileOrDie(SudokuGridSpec("12.43.1..1.34.21"), v1::PREPROCESS_QPRO,
                   v1::REDUCTION_CLUES);
  EXPECT_EQ(problem.model.num_variables(), 0);
  EXPECT_EQ(problem.model.offset(), -16);
}

TEST(PreprocessStageTest, CompileCacheKeysOnThePreprocessing) {
  CompileCache cache({});
  const v1::PuzzleSpec spec = SudokuGridSpec(testing::kNytPuzzle);
  const PuzzleCompiler& compiler = **BuiltinCompilers().ForSpec(spec);
  v1::CompileOptions plain, qpro;
  qpro.set_preprocess(v1::PREPROCESS_QPRO);
  bool hit = true;
  auto a = cache.GetOrCompile(compiler, spec, plain, &hit);
  ASSERT_TRUE(a.ok());
  EXPECT_FALSE(hit);
  EXPECT_EQ((*a)->model.num_variables(), 211);
  auto b = cache.GetOrCompile(compiler, spec, qpro, &hit);
  ASSERT_TRUE(b.ok());
  EXPECT_FALSE(hit);
  EXPECT_EQ((*b)->model.num_variables(), 209);
  auto c = cache.GetOrCompile(compiler, spec, qpro, &hit);
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(hit);
  EXPECT_EQ(c->get(), b->get());
}

TEST(PreprocessStageTest, UnknownValueIsRefusedNamingTheField) {
  v1::CompileOptions options;
  options.set_preprocess(static_cast<v1::Preprocess>(9));
  const v1::PuzzleSpec spec = SudokuGridSpec(testing::kNytPuzzle);
  EXPECT_THAT(CompileProblem(**BuiltinCompilers().ForSpec(spec), spec, options)
                  .status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("options.preprocess")));
}

}  // namespace
}  // namespace qs
