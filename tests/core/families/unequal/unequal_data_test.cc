// The stored Futoshiki / Unequal puzzles of tests/data/unequal/sgt_puzzles.txt
// (sgt-unequal game IDs of sizes 4 to 7, every difficulty, both modes): each
// parses, the exact rules give exactly one solution, the validator accepts
// it, it scores the ground energy 0 in the full and the reduced model (the
// reduction keeps it), and the writer gives the game ID back.
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/families/unequal/unequal.h"
#include "formats/puzzle_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace {

std::string DataPath() {
  const char* source_dir = std::getenv("QS_SOURCE_DIR");
  return std::string(source_dir != nullptr ? source_dir : ".") +
         "/tests/data/unequal/sgt_puzzles.txt";
}

// The game IDs, in file order ('#' lines are comments).
std::vector<std::string> StoredIds() {
  std::ifstream in(DataPath());
  std::vector<std::string> ids;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != '#') ids.push_back(line);
  }
  return ids;
}

TEST(UnequalDataTest, SizesAndModesAreMixed) {
  const std::vector<std::string> ids = StoredIds();
  ASSERT_GE(ids.size(), 12u) << DataPath();
  int adjacent = 0;
  std::vector<int> sizes(10, 0);
  for (const std::string& id : ids) {
    adjacent += id.find("a:") != std::string::npos;
    ++sizes[id[0] - '0'];
  }
  EXPECT_GE(adjacent, 3);
  EXPECT_GE(static_cast<int>(ids.size()) - adjacent, 3);
  for (int n = 4; n <= 7; ++n) EXPECT_GE(sizes[n], 2) << "size " << n;
}

TEST(UnequalDataTest, EachPuzzleHasOneSolutionAtTheGroundEnergy) {
  auto compiler = NewUnequalCompiler();
  for (const std::string& id : StoredIds()) {
    SCOPED_TRACE(id);
    auto spec = formats::ParsePuzzleText("unequal", id);
    ASSERT_OK(spec);
    auto written = formats::FormatPuzzleText("unequal", *spec);
    ASSERT_OK(written);
    EXPECT_EQ(*written, id);
    auto problem = compiler->Compile(*spec, v1::CompileOptions());
    ASSERT_OK(problem);
    auto encoder = BuiltinEncoders().ForSpec(*spec);
    ASSERT_OK(encoder);
    const int vars = problem->full_model.num_variables();
    std::vector<std::vector<uint8_t>> solutions;
    auto solved =
        SolveRules(**encoder, *spec, vars, 2, [&](std::vector<uint8_t> bits) {
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
    ASSERT_TRUE(problem->ground_energy.has_value());
    EXPECT_EQ(problem->full_model.Energy(bits), *problem->ground_energy);
    EXPECT_TRUE(problem->variables.IsConsistent(bits));
    EXPECT_EQ(problem->model.Energy(problem->variables.Restrict(bits)),
              *problem->ground_energy);
  }
}

}  // namespace
}  // namespace qs
