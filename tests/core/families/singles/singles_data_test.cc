// The stored Singles puzzles of tests/data/singles (sgt-singles, 5x5 to
// 10x10, easy and tricky): each parses; the exact rules (Count with CaDiCaL)
// give exactly one solution; the validator accepts it; it scores the ground
// energy 0 in the full model and, restricted, in the reduced one (so every
// clamp of the reduction agrees with it); and in it every one-hot group of the
// reduced model holds exactly one 1.
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/families/singles/singles.h"
#include "formats/puzzle_text.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

std::vector<std::string> StoredIds() {
  const char* source_dir = std::getenv("QS_SOURCE_DIR");
  std::ifstream in(std::string(source_dir != nullptr ? source_dir : ".") +
                   "/tests/data/singles/sgt_puzzles.txt");
  std::vector<std::string> ids;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != '#') ids.push_back(line);
  }
  return ids;
}

TEST(SinglesDataTest, TwelvePuzzlesOfFourSizes) {
  const std::vector<std::string> ids = StoredIds();
  ASSERT_EQ(ids.size(), 12u);
  int tens = 0;
  for (const std::string& id : ids) tens += id.rfind("10x10:", 0) == 0;
  EXPECT_EQ(tens, 4);
}

TEST(SinglesDataTest, ExactRulesGiveOneValidGroundStateSolution) {
  auto compiler = NewSinglesCompiler();
  auto encoder = BuiltinEncoders().ForSpec([] {
    v1::PuzzleSpec spec;
    spec.mutable_singles();
    return spec;
  }());
  ASSERT_OK(encoder);
  for (const std::string& id : StoredIds()) {
    SCOPED_TRACE(id);
    auto spec = formats::ParsePuzzleText("singles", id);
    ASSERT_OK(spec);
    auto problem = compiler->Compile(*spec, v1::CompileOptions());
    ASSERT_OK(problem);
    const int n = problem->variables.num_full();
    auto count =
        CountRuleSolutions(**encoder, *spec, n, 10, CountMethod::kSat, nullptr);
    ASSERT_OK(count);
    EXPECT_TRUE(count->complete);
    EXPECT_EQ(count->count, 1u);
    std::vector<std::vector<uint8_t>> solutions;
    auto solved =
        SolveRules(**encoder, *spec, n, 1, [&](std::vector<uint8_t> bits) {
          solutions.push_back(std::move(bits));
        });
    ASSERT_OK(solved);
    ASSERT_EQ(solutions.size(), 1u);
    const std::vector<uint8_t>& bits = solutions[0];
    EXPECT_EQ(problem->full_model.Energy(bits), 0.0);
    EXPECT_TRUE(problem->variables.IsConsistent(bits));
    const std::vector<uint8_t> reduced = problem->variables.Restrict(bits);
    EXPECT_EQ(problem->model.Energy(reduced), 0.0);
    for (const auto& group : problem->one_hot_groups) {
      int ones = 0;
      for (int32_t v : group) ones += reduced[v];
      EXPECT_EQ(ones, 1);
    }
    const v1::PuzzleSolution board = compiler->Decode(*spec, *problem, bits);
    auto report = compiler->Validate(*spec, board);
    ASSERT_OK(report);
    EXPECT_TRUE(report->valid());
    // The encoder's auxiliaries are the canonical ones of the compiler.
    auto encoded = compiler->Encode(*spec, *problem, board);
    ASSERT_OK(encoded);
    EXPECT_EQ(*encoded, bits);
  }
}

}  // namespace
}  // namespace qs
