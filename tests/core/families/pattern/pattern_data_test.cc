// The stored Nonogram puzzles of tests/data/pattern (sgt-pattern, 5x5 to
// 20x20 and non-square): each parses, the exact rules give exactly one
// solution, which the validator accepts, which scores the ground energy 0 in
// the full and the reduced model, and which line solving (the default
// reduction) finds alone.
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/families/pattern/pattern.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

std::string DataPath() {
  const char* source_dir = std::getenv("QS_SOURCE_DIR");
  return std::string(source_dir != nullptr ? source_dir : ".") +
         "/tests/data/pattern/sgt_puzzles.txt";
}

std::vector<std::string> StoredIds() {
  std::ifstream in(DataPath());
  std::vector<std::string> ids;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != '#') ids.push_back(line);
  }
  return ids;
}

TEST(PatternDataTest, FifteenPuzzlesOfMixedSizes) {
  const std::vector<std::string> ids = StoredIds();
  ASSERT_EQ(ids.size(), 15u) << DataPath();
  int non_square = 0;
  for (const std::string& id : ids) {
    const std::string size = id.substr(0, id.find(':'));
    const size_t x = size.find('x');
    non_square += size.substr(0, x) != size.substr(x + 1);
  }
  EXPECT_EQ(non_square, 5);
}

TEST(PatternDataTest, EachPuzzleHasOneSolutionAtTheGroundEnergy) {
  auto compiler = NewPatternCompiler();
  for (const std::string& id : StoredIds()) {
    SCOPED_TRACE(id);
    auto spec = formats::ParsePuzzleText("pattern", id);
    ASSERT_OK(spec);
    v1::CompileOptions none;
    none.set_reduction(v1::REDUCTION_NONE);
    auto full = compiler->Compile(*spec, none);
    ASSERT_OK(full);
    const int n = full->full_model.num_variables();
    auto encoder = BuiltinEncoders().ForSpec(*spec);
    ASSERT_OK(encoder);
    std::vector<std::vector<uint8_t>> solutions;
    auto solved =
        SolveRules(**encoder, *spec, n, 2, [&](std::vector<uint8_t> solution) {
          solutions.push_back(std::move(solution));
        });
    ASSERT_OK(solved);
    EXPECT_TRUE(solved->enumeration.complete);
    ASSERT_EQ(solutions.size(), 1u);
    const std::vector<uint8_t>& bits = solutions[0];
    EXPECT_EQ(full->full_model.Energy(bits), 0.0);
    const v1::PuzzleSolution board = compiler->Decode(*spec, *full, bits);
    auto report = compiler->Validate(*spec, board);
    ASSERT_OK(report);
    EXPECT_TRUE(report->valid());
    auto encoded = compiler->Encode(*spec, *full, board);
    ASSERT_OK(encoded);
    EXPECT_EQ(*encoded, bits);
    // The default reduction keeps the solution and, on Tatham's puzzles,
    // decides every start.
    auto reduced = compiler->Compile(*spec, v1::CompileOptions());
    ASSERT_OK(reduced);
    EXPECT_TRUE(reduced->variables.IsConsistent(bits));
    EXPECT_EQ(reduced->model.num_variables(), 0);
    EXPECT_EQ(reduced->model.Energy(reduced->variables.Restrict(bits)), 0.0);
    // The clues reduction leaves a model the samplers must solve.
    v1::CompileOptions clues;
    clues.set_reduction(v1::REDUCTION_CLUES);
    auto clued = compiler->Compile(*spec, clues);
    ASSERT_OK(clued);
    EXPECT_TRUE(clued->variables.IsConsistent(bits));
    EXPECT_EQ(clued->model.Energy(clued->variables.Restrict(bits)), 0.0);
  }
}

}  // namespace
}  // namespace qs
