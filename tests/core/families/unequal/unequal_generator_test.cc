// The Futoshiki / Unequal generator (unequal_generator.cc): each made puzzle
// has exactly one solution (counted again here with the rules), that solution
// is the one it reports and is valid, removal left fewer clues than it
// started with, easy puzzles are decided by propagation, the same seed gives
// the same puzzle, and the request checks name their fields.
#include <string>
#include <vector>

#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/families/unequal/unequal.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/no_sampler.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::NoSampler;

using ::qs::testing::StatusIs;
using ::testing::HasSubstr;

// The generator draws its own squares; a call to the annealer is an error.
const PuzzleGenerator& Generator() {
  auto generator = BuiltinGenerators().Get("unequal");
  EXPECT_OK(generator);
  return **generator;
}

absl::StatusOr<GeneratedPuzzle> Generate(int side, v1::Difficulty difficulty,
                                         uint64_t seed) {
  GenerateOptions options;
  options.rows = options.cols = side;
  options.difficulty = difficulty;
  NoSampler sampler;
  Interrupter interrupter;
  return Generator().Generate(options, seed, sampler, interrupter);
}

TEST(UnequalGeneratorTest, PuzzlesHaveOneSolutionTheirOwn) {
  auto compiler = NewUnequalCompiler();
  for (int side : {3, 4, 5, 6}) {
    for (v1::Difficulty difficulty :
         {v1::DIFFICULTY_EASY, v1::DIFFICULTY_MEDIUM, v1::DIFFICULTY_HARD}) {
      SCOPED_TRACE(absl::StrCat(side, " ", v1::Difficulty_Name(difficulty)));
      auto made = Generate(side, difficulty, 7 + side);
      ASSERT_OK(made);
      const v1::PuzzleSpec& spec = made->puzzle;
      EXPECT_EQ(made->puzzle_kind, "unequal");
      EXPECT_EQ(spec.unequal().size(), static_cast<uint32_t>(side));
      EXPECT_LT(made->clues, made->clues_at_start);
      EXPECT_EQ(made->clues_at_start, side * side + 2 * side * (side - 1));
      if (difficulty == v1::DIFFICULTY_EASY) {
        EXPECT_EQ(made->propagation_decided, 1.0);
      }
      auto encoder = BuiltinEncoders().ForSpec(spec);
      ASSERT_OK(encoder);
      auto count = CountRuleSolutions(**encoder, spec, side * side * side, 10,
                                      CountMethod::kSat, nullptr);
      ASSERT_OK(count);
      EXPECT_TRUE(count->complete);
      EXPECT_EQ(count->count, 1u);
      auto problem = compiler->Compile(spec, v1::CompileOptions());
      ASSERT_OK(problem);
      EXPECT_EQ(problem->full_model.Energy(made->solution), 0.0);
      auto report = compiler->Validate(
          spec, compiler->Decode(spec, *problem, made->solution));
      ASSERT_OK(report);
      EXPECT_TRUE(report->valid());
    }
  }
}

TEST(UnequalGeneratorTest, SameSeedSamePuzzle) {
  auto a = Generate(5, v1::DIFFICULTY_HARD, 42);
  auto b = Generate(5, v1::DIFFICULTY_HARD, 42);
  ASSERT_OK(a);
  ASSERT_OK(b);
  EXPECT_EQ(a->puzzle.SerializeAsString(), b->puzzle.SerializeAsString());
}

TEST(UnequalGeneratorTest, ChecksNameTheField) {
  GenerateOptions options;
  options.rows = options.cols = 10;
  EXPECT_THAT(Generator().Check(options),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("rows")));
  options.rows = 4;
  options.cols = 5;
  EXPECT_THAT(Generator().Check(options),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("cols")));
  options.cols = 4;
  EXPECT_OK(Generator().Check(options));
}

}  // namespace
}  // namespace qs
