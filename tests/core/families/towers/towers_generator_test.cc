// The Towers generator (towers_generator.cc): puzzles whose clues admit one
// square, the square being the generated solution, at each difficulty, and
// the options it refuses.
#include <string>
#include <vector>

#include "core/base/interrupter.h"
#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/families/towers/towers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/no_sampler.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::NoSampler;

using ::qs::testing::StatusIs;
using ::testing::HasSubstr;

TEST(TowersGeneratorTest, PuzzlesHaveTheirSolutionAsTheOnlyOne) {
  auto generator = BuiltinGenerators().Get("towers");
  ASSERT_OK(generator);
  auto compiler = NewTowersCompiler();
  auto encoder = BuiltinEncoders().ForSpec([] {
    v1::PuzzleSpec spec;
    spec.mutable_towers();
    return spec;
  }());
  ASSERT_OK(encoder);
  NoSampler sampler;
  for (int n : {4, 5}) {
    for (v1::Difficulty difficulty :
         {v1::DIFFICULTY_EASY, v1::DIFFICULTY_HARD}) {
      SCOPED_TRACE(n);
      SCOPED_TRACE(v1::Difficulty_Name(difficulty));
      GenerateOptions options;
      options.rows = options.cols = n;
      options.difficulty = difficulty;
      ASSERT_OK((*generator)->Check(options));
      Interrupter interrupter;
      auto puzzle = (*generator)->Generate(options, 7, sampler, interrupter);
      ASSERT_OK(puzzle);
      EXPECT_EQ(puzzle->puzzle_kind, "towers");
      EXPECT_EQ(puzzle->clues_at_start, 4 * n);
      EXPECT_LE(puzzle->clues, 4 * n);
      // Easy keeps every clue, as sgt-towers does; hard removes some.
      if (difficulty == v1::DIFFICULTY_EASY) {
        EXPECT_EQ(puzzle->clues, 4 * n);
      }
      if (difficulty == v1::DIFFICULTY_HARD) {
        EXPECT_LT(puzzle->clues, 4 * n);
      }
      auto problem = compiler->Compile(puzzle->puzzle, v1::CompileOptions());
      ASSERT_OK(problem);
      ASSERT_EQ(puzzle->solution.size(),
                static_cast<size_t>(problem->full_model.num_variables()));
      EXPECT_EQ(problem->full_model.Energy(puzzle->solution), 0.0);
      auto report = compiler->Validate(
          puzzle->puzzle,
          compiler->Decode(puzzle->puzzle, *problem, puzzle->solution));
      ASSERT_OK(report);
      EXPECT_TRUE(report->valid());
      std::vector<std::vector<uint8_t>> found;
      auto solved = SolveRules(
          **encoder, puzzle->puzzle, problem->full_model.num_variables(), 2,
          [&](std::vector<uint8_t> bits) { found.push_back(std::move(bits)); });
      ASSERT_OK(solved);
      ASSERT_EQ(found.size(), 1u);
      EXPECT_EQ(found[0], puzzle->solution);
    }
  }
}

TEST(TowersGeneratorTest, RefusesOptionsThatDoNotFit) {
  auto generator = BuiltinGenerators().Get("towers");
  ASSERT_OK(generator);
  GenerateOptions options;
  options.rows = 4;
  options.cols = 5;
  EXPECT_THAT((*generator)->Check(options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("towers grids are square")));
  options.rows = options.cols = 12;
  EXPECT_THAT((*generator)->Check(options),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("rows")));
  options.rows = options.cols = 4;
  options.target_clues = 17;
  EXPECT_THAT(
      (*generator)->Check(options),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("target_clues")));
}

}  // namespace
}  // namespace qs
