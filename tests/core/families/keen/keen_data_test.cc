// The stored Keen puzzles of tests/data/keen/sgt_puzzles.txt (sgt-keen,
// sizes 4 to 7, every grade): each parses, the exact rules give exactly one
// solution, which the validator accepts and which scores the ground energy
// -n^2 in the full and the reduced model; the BDD-free count agrees.
#include <set>
#include <string>
#include <vector>

#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/families/keen/keen.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/families/keen/keen_testing.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

TEST(KeenDataTest, SixteenPuzzlesOfFourSizes) {
  const auto puzzles = testing::ReadStoredKeenPuzzles();
  ASSERT_EQ(puzzles.size(), 16u);
  std::set<std::string> sizes, commands;
  for (const auto& p : puzzles) {
    sizes.insert(p.id.substr(0, p.id.find(':')));
    commands.insert(p.command);
  }
  EXPECT_EQ(sizes, (std::set<std::string>{"4", "5", "6", "7"}));
  EXPECT_EQ(commands.size(), 8u);
}

TEST(KeenDataTest, EachPuzzleHasOneSolutionAtTheGroundEnergy) {
  auto compiler = NewKeenCompiler();
  for (const auto& p : testing::ReadStoredKeenPuzzles()) {
    SCOPED_TRACE(p.command + ": " + p.id);
    const v1::PuzzleSpec spec = testing::KeenSpec(p.id);
    ASSERT_EQ(spec.puzzle_case(), v1::PuzzleSpec::kKeen);
    const int n = static_cast<int>(spec.keen().size());
    auto problem = compiler->Compile(spec, v1::CompileOptions());
    ASSERT_OK(problem);
    ASSERT_EQ(problem->ground_energy, -static_cast<double>(n * n));
    const auto solutions = testing::KeenRuleSolutions(spec, 2);
    ASSERT_EQ(solutions.size(), 1u);
    const std::vector<uint8_t>& bits = solutions[0];
    EXPECT_EQ(problem->full_model.Energy(bits), *problem->ground_energy);
    EXPECT_TRUE(problem->variables.IsConsistent(bits));
    EXPECT_EQ(problem->model.Energy(problem->variables.Restrict(bits)),
              *problem->ground_energy);
    const v1::PuzzleSolution board = compiler->Decode(spec, *problem, bits);
    auto report = compiler->Validate(spec, board);
    ASSERT_OK(report);
    EXPECT_TRUE(report->valid());
    // The board's own encoding is the rules' assignment (selectors included).
    auto encoded = compiler->Encode(spec, *problem, board);
    ASSERT_OK(encoded);
    EXPECT_EQ(*encoded, bits);
  }
}

TEST(KeenDataTest, CountFindsOneSolution) {
  const auto puzzles = testing::ReadStoredKeenPuzzles();
  ASSERT_FALSE(puzzles.empty());
  const v1::PuzzleSpec spec = testing::KeenSpec(puzzles.back().id);
  auto encoder = BuiltinEncoders().ForSpec(spec);
  ASSERT_OK(encoder);
  auto shape = KeenShapeOf(spec.keen());
  ASSERT_OK(shape);
  auto count = CountRuleSolutions(**encoder, spec, shape->num_variables(), 10,
                                  CountMethod::kAuto, nullptr);
  ASSERT_OK(count);
  EXPECT_TRUE(count->complete);
  EXPECT_EQ(count->count, 1u);
}

}  // namespace
}  // namespace qs
