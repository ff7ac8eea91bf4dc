// The stored Towers puzzles of tests/data/towers (sgt-towers, sizes 3 to 7,
// every difficulty grade): each parses, the exact rules give exactly one
// solution (CaDiCaL's enumeration and Count agree), the validator accepts it,
// and it scores the ground energy 0 in the full and the reduced model.
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/families/towers/towers.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

std::vector<std::string> StoredGameIds() {
  const char* source_dir = std::getenv("QS_SOURCE_DIR");
  std::ifstream in(std::string(source_dir != nullptr ? source_dir : ".") +
                   "/tests/data/towers/sgt_puzzles.txt");
  std::vector<std::string> ids;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != '#') ids.push_back(line);
  }
  return ids;
}

TEST(TowersDataTest, FourteenPuzzlesOfSizes3To7) {
  const std::vector<std::string> ids = StoredGameIds();
  ASSERT_EQ(ids.size(), 14u);
  std::vector<int> sizes(10, 0);
  for (const std::string& id : ids) ++sizes[id[0] - '0'];
  EXPECT_EQ(sizes[3], 1);
  EXPECT_EQ(sizes[4], 2);
  EXPECT_EQ(sizes[5], 3);
  EXPECT_EQ(sizes[6], 4);
  EXPECT_EQ(sizes[7], 4);
}

TEST(TowersDataTest, EachHasOneSolutionThatIsValidAndScoresTheGroundEnergy) {
  auto compiler = NewTowersCompiler();
  auto encoder = BuiltinEncoders().ForSpec([] {
    v1::PuzzleSpec spec;
    spec.mutable_towers();
    return spec;
  }());
  ASSERT_OK(encoder);
  for (const std::string& id : StoredGameIds()) {
    SCOPED_TRACE(id);
    auto spec = formats::ParsePuzzleText("towers", id);
    ASSERT_OK(spec);
    auto problem = compiler->Compile(*spec, v1::CompileOptions());
    ASSERT_OK(problem);
    ASSERT_EQ(problem->ground_energy, 0.0);
    const int num_primary = problem->full_model.num_variables();
    std::vector<std::vector<uint8_t>> solutions;
    auto solved = SolveRules(**encoder, *spec, num_primary, 2,
                             [&](std::vector<uint8_t> bits) {
                               solutions.push_back(std::move(bits));
                             });
    ASSERT_OK(solved);
    EXPECT_TRUE(solved->enumeration.complete);
    ASSERT_EQ(solutions.size(), 1u);
    const std::vector<uint8_t>& bits = solutions[0];
    auto report =
        compiler->Validate(*spec, compiler->Decode(*spec, *problem, bits));
    ASSERT_OK(report);
    EXPECT_TRUE(report->valid());
    EXPECT_EQ(problem->full_model.Energy(bits), 0.0);
    EXPECT_TRUE(problem->variables.IsConsistent(bits));
    EXPECT_EQ(problem->model.Energy(problem->variables.Restrict(bits)), 0.0);
    // The rules' chain variables are the true ones, as Encode sets them.
    auto encoded = compiler->Encode(*spec, *problem,
                                    compiler->Decode(*spec, *problem, bits));
    ASSERT_OK(encoded);
    EXPECT_EQ(*encoded, bits);
    auto count = CountRuleSolutions(**encoder, *spec, num_primary, 10,
                                    CountMethod::kAuto, nullptr);
    ASSERT_OK(count);
    EXPECT_TRUE(count->complete);
    EXPECT_EQ(count->count, 1u);
  }
}

}  // namespace
}  // namespace qs
