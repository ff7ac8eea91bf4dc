// The Singles generator (core/families/singles/singles_generator.cc): each
// puzzle has exactly one shading (counted again here with CaDiCaL), its
// solution scores the ground energy 0 and validates, every shaded cell
// repeats an unshaded number of its line, the difficulty bounds what the
// compiler's deductions settle, a seed gives the same puzzle, and the options a
// Singles puzzle cannot meet are refused naming the field.
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/base/status_macros.h"
#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/families/singles/singles.h"
#include "core/generate/generator.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/no_sampler.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

using ::qs::testing::NoSampler;

using ::qs::testing::StatusIs;
using ::testing::HasSubstr;

absl::StatusOr<GeneratedPuzzle> Generate(int rows, int cols,
                                         v1::Difficulty difficulty,
                                         uint64_t seed) {
  ASSIGN_OR_RETURN(const PuzzleGenerator* generator,
                   BuiltinGenerators().Get("singles"));
  GenerateOptions options;
  options.rows = rows;
  options.cols = cols;
  options.difficulty = difficulty;
  RETURN_IF_ERROR(generator->Check(options));
  NoSampler sampler;
  Interrupter interrupter;
  return generator->Generate(options, seed, sampler, interrupter);
}

// Every shaded cell shows a number that an unshaded cell of its row or
// column shows too.
void ExpectEveryShadingForced(const v1::SinglesPuzzle& p,
                              const std::vector<uint8_t>& solution) {
  const int rows = p.rows(), cols = p.cols();
  for (int cell = 0; cell < rows * cols; ++cell) {
    if (!solution[cell]) continue;
    const int r = cell / cols, c = cell % cols;
    bool repeated = false;
    for (int k = 0; k < cols; ++k) {
      const int other = r * cols + k;
      repeated |= !solution[other] && p.numbers(other) == p.numbers(cell);
    }
    for (int k = 0; k < rows; ++k) {
      const int other = k * cols + c;
      repeated |= !solution[other] && p.numbers(other) == p.numbers(cell);
    }
    EXPECT_TRUE(repeated) << "shaded cell " << cell;
  }
}

TEST(SinglesGeneratorTest, PuzzlesHaveOneShadingThatScoresZero) {
  auto compiler = NewSinglesCompiler();
  for (const auto& [rows, cols] :
       std::vector<std::pair<int, int>>{{5, 5}, {6, 8}, {8, 8}}) {
    for (v1::Difficulty difficulty :
         {v1::DIFFICULTY_EASY, v1::DIFFICULTY_MEDIUM, v1::DIFFICULTY_HARD}) {
      SCOPED_TRACE(absl::StrCat(rows, "x", cols, " difficulty ", difficulty));
      absl::StatusOr<GeneratedPuzzle> made =
          Generate(rows, cols, difficulty, 11 + rows);
      ASSERT_OK(made);
      const v1::PuzzleSpec& spec = made->puzzle;
      EXPECT_EQ(made->puzzle_kind, "singles");
      EXPECT_EQ(spec.singles().rows(), static_cast<uint32_t>(rows));
      EXPECT_EQ(spec.singles().cols(), static_cast<uint32_t>(cols));
      EXPECT_EQ(made->clues, rows * cols);
      auto problem = compiler->Compile(spec, [] {
        v1::CompileOptions none;
        none.set_reduction(v1::REDUCTION_NONE);
        return none;
      }());
      ASSERT_OK(problem);
      EXPECT_EQ(problem->full_model.Energy(made->solution), 0.0);
      auto report = compiler->Validate(
          spec, compiler->Decode(spec, *problem, made->solution));
      ASSERT_OK(report);
      EXPECT_TRUE(report->valid()) << report->ShortDebugString();
      ExpectEveryShadingForced(spec.singles(), made->solution);
      auto encoder = BuiltinEncoders().ForSpec(spec);
      ASSERT_OK(encoder);
      auto count = CountRuleSolutions(**encoder, spec,
                                      problem->full_model.num_variables(), 2,
                                      CountMethod::kSat, nullptr);
      ASSERT_OK(count);
      EXPECT_TRUE(count->complete);
      EXPECT_EQ(count->count, 1u);
      if (difficulty == v1::DIFFICULTY_EASY) {
        EXPECT_DOUBLE_EQ(made->propagation_decided, 1.0);
      }
      if (difficulty == v1::DIFFICULTY_MEDIUM) {
        EXPECT_GE(made->propagation_decided, 0.5);
      }
    }
  }
}

TEST(SinglesGeneratorTest, ASeedGivesTheSamePuzzle) {
  absl::StatusOr<GeneratedPuzzle> a = Generate(6, 6, v1::DIFFICULTY_HARD, 5);
  absl::StatusOr<GeneratedPuzzle> b = Generate(6, 6, v1::DIFFICULTY_HARD, 5);
  absl::StatusOr<GeneratedPuzzle> c = Generate(6, 6, v1::DIFFICULTY_HARD, 6);
  ASSERT_OK(a);
  ASSERT_OK(b);
  ASSERT_OK(c);
  EXPECT_EQ(a->puzzle.SerializeAsString(), b->puzzle.SerializeAsString());
  EXPECT_EQ(a->solution, b->solution);
  EXPECT_NE(a->puzzle.SerializeAsString(), c->puzzle.SerializeAsString());
}

TEST(SinglesGeneratorTest, RefusesWhatASinglesPuzzleCannotBeNamingTheField) {
  auto generator = BuiltinGenerators().Get("singles");
  ASSERT_OK(generator);
  GenerateOptions options;
  options.rows = 2;
  options.cols = 5;
  EXPECT_THAT((*generator)->Check(options),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("rows")));
  options.rows = 5;
  options.cols = 13;
  EXPECT_THAT((*generator)->Check(options),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("cols")));
  options.cols = 5;
  options.target_clues = 10;
  EXPECT_THAT(
      (*generator)->Check(options),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("target_clues")));
}

}  // namespace
}  // namespace qs
