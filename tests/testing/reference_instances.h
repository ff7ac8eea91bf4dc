// The reference QUBO instances of tests/data/instances (README.md there): what
// each one is and how it is made, shared by the generator that writes them
// (tests/tools/make_instances.cc) and the test that checks the stored files
// against the project's compilers
// (tests/core/families/reference_instances_test.cc). Puzzle instances are
// compiled by the built-in compilers and written as `qsolve compile --export`
// writes them; random instances are drawn from a fixed seed with the project's
// own generator (xoshiro256**), so every file can be made again bit for bit.
#ifndef QS_TESTS_TESTING_REFERENCE_INSTANCES_H_
#define QS_TESTS_TESTING_REFERENCE_INSTANCES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "qs/v1/qubo.pb.h"
#include "qs/v1/solve.pb.h"

namespace qs::testing {

struct ReferenceInstance {
  std::string name;  // file stem in tests/data/instances
  // Puzzle instances: a kind of formats::ParsePuzzleText, its text, the
  // reduction, and a valid board (rows separated by '/') whose energy is the
  // ground energy.
  std::string kind;
  std::string text;
  v1::Reduction reduction = v1::REDUCTION_NONE;
  std::string solution;
  // Random instances (kind empty): `variables` variables, every linear weight
  // and either exactly `couplers` distinct couplers (G(n, m)) or each pair
  // with probability `density`; weights uniform in [-1, 1] rounded to 6
  // decimals, never 0.
  int variables = 0;
  int couplers = 0;
  double density = 0;
  uint64_t seed = 0;
};

// Every reference instance, in the order of the README's table.
const std::vector<ReferenceInstance>& ReferenceInstances();

struct MadeInstance {
  v1::QuboModel model;  // BINARY, linear terms first, couplers by (i, j)
  // Puzzle instances whose reduction removes variables: the full-model index
  // of each reduced variable (the `.map` file); empty otherwise.
  std::vector<int32_t> variable_map;
  // Puzzle instances: the compiler's ground energy (offset included).
  std::optional<double> ground_energy;
};

// Compiles or draws one instance.
absl::StatusOr<MadeInstance> MakeInstance(const ReferenceInstance& instance);

// The `.map` file: "free_index original_index" lines under a '#' header.
std::string FormatVariableMap(const std::vector<int32_t>& variable_map);

}  // namespace qs::testing

#endif  // QS_TESTS_TESTING_REFERENCE_INSTANCES_H_
