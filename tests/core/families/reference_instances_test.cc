// The stored reference instances (tests/data/instances) are what the project
// makes today: every file equals the generator's output (the compilers' reduced
// models for the puzzles, the seeded draws for the random ones), and on each
// puzzle instance a valid board scores the ground energy of the README's table.
#include "tests/testing/reference_instances.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "core/families/builtin.h"
#include "core/qubo/qubo_proto.h"
#include "formats/puzzle_text.h"
#include "formats/qubo_text.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace qs {
namespace testing {

// Test names and failure messages show the instance by name.
void PrintTo(const ReferenceInstance& instance, std::ostream* os) {
  *os << instance.name;
}

}  // namespace testing
namespace {

using ::qs::testing::ReferenceInstance;

std::string InstancePath(const std::string& file) {
  const char* root = std::getenv("QS_SOURCE_DIR");
  return std::string(root == nullptr ? "." : root) + "/tests/data/instances/" +
         file;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<ReferenceInstance> Instances(bool puzzles) {
  std::vector<ReferenceInstance> out;
  for (const ReferenceInstance& instance : testing::ReferenceInstances()) {
    if (instance.kind.empty() != puzzles) out.push_back(instance);
  }
  return out;
}

std::string Name(const ::testing::TestParamInfo<ReferenceInstance>& info) {
  return info.param.name;
}

class ReferenceInstancesTest
    : public ::testing::TestWithParam<ReferenceInstance> {};
class PuzzleInstanceTest : public ReferenceInstancesTest {};
class RandomInstanceTest : public ReferenceInstancesTest {};

TEST_P(ReferenceInstancesTest, StoredFileIsWhatTheGeneratorMakes) {
  const ReferenceInstance& instance = GetParam();
  auto made = testing::MakeInstance(instance);
  ASSERT_OK(made);
  auto text = formats::FormatQuboText(made->model);
  ASSERT_OK(text);
  EXPECT_TRUE(*text == ReadFile(InstancePath(instance.name + ".qubo")))
      << instance.name << ".qubo differs from make_instances' output";
  if (!made->variable_map.empty()) {
    EXPECT_EQ(testing::FormatVariableMap(made->variable_map),
              ReadFile(InstancePath(instance.name + ".map")));
  }
}

// The ground energies of tests/data/instances/README.md.
const absl::flat_hash_map<std::string, double>& GroundEnergies() {
  static const auto* energies = new absl::flat_hash_map<std::string, double>{
      {"sudoku_full", -81}, {"sudoku_nyt_I_II", -81}, {"sudoku_nyt_I_IV", -81},
      {"queens8", 0},       {"queens12", 0},          {"takuzu6", 12},
      {"takuzu10", 40},     {"takuzu14", 84},
  };
  return *energies;
}

TEST_P(PuzzleInstanceTest, ValidBoardScoresTheGroundEnergy) {
  const ReferenceInstance& instance = GetParam();
  auto spec = formats::ParsePuzzleText(instance.kind, instance.text);
  ASSERT_OK(spec);
  auto compiler = BuiltinCompilers().ForSpec(*spec);
  ASSERT_OK(compiler);
  v1::CompileOptions options;
  options.set_reduction(instance.reduction);
  auto problem = (*compiler)->Compile(*spec, options);
  ASSERT_OK(problem);
  ASSERT_TRUE(GroundEnergies().contains(instance.name));
  const double ground = GroundEnergies().at(instance.name);
  EXPECT_EQ(problem->ground_energy, ground);

  auto board = formats::ParseBoardText(instance.kind, *spec, instance.solution);
  ASSERT_OK(board);
  auto report = (*compiler)->Validate(*spec, *board);
  ASSERT_OK(report);
  EXPECT_TRUE(report->valid()) << instance.name;
  auto full_bits = (*compiler)->Encode(*spec, *problem, *board);
  ASSERT_OK(full_bits);
  EXPECT_EQ(problem->full_model.Energy(*full_bits), ground);

  auto stored = formats::ReadQuboFile(InstancePath(instance.name + ".qubo"));
  ASSERT_OK(stored);
  auto model = QuboFromProto(*stored);
  ASSERT_OK(model);
  EXPECT_EQ(model->Energy(problem->variables.Restrict(*full_bits)), ground);
}

TEST_P(RandomInstanceTest, HasItsShape) {
  const ReferenceInstance& instance = GetParam();
  auto stored = formats::ReadQuboFile(InstancePath(instance.name + ".qubo"));
  ASSERT_OK(stored);
  EXPECT_EQ(stored->num_variables(), static_cast<uint32_t>(instance.variables));
  absl::flat_hash_set<std::pair<uint32_t, uint32_t>> pairs;
  int linear = 0;
  for (int k = 0; k < stored->w_size(); ++k) {
    EXPECT_LE(stored->i(k), stored->j(k));
    EXPECT_TRUE(pairs.insert({stored->i(k), stored->j(k)}).second);
    EXPECT_TRUE(stored->w(k) >= -1 && stored->w(k) <= 1 && stored->w(k) != 0);
    if (stored->i(k) == stored->j(k)) ++linear;
  }
  EXPECT_EQ(linear, instance.variables);
  const int couplers = stored->w_size() - linear;
  if (instance.couplers > 0) {
    EXPECT_EQ(couplers, instance.couplers);
  } else {
    const double pairs_total =
        0.5 * instance.variables * (instance.variables - 1.0);
    // Within 5 standard deviations of the binomial mean.
    const double mean = instance.density * pairs_total;
    const double sd = std::sqrt(mean * (1 - instance.density));
    EXPECT_NEAR(couplers, mean, 5 * sd);
  }
}

INSTANTIATE_TEST_SUITE_P(All, ReferenceInstancesTest,
                         ::testing::ValuesIn(testing::ReferenceInstances()),
                         Name);
INSTANTIATE_TEST_SUITE_P(Puzzles, PuzzleInstanceTest,
                         ::testing::ValuesIn(Instances(true)), Name);
INSTANTIATE_TEST_SUITE_P(Random, RandomInstanceTest,
                         ::testing::ValuesIn(Instances(false)), Name);

}  // namespace
}  // namespace qs
