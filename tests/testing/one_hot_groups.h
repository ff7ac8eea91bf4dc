// The exactly-one groups a state breaks and the groups no sampler can use,
// for the families' tests of CompiledProblem::one_hot_groups.
#ifndef QS_TESTS_TESTING_ONE_HOT_GROUPS_H_
#define QS_TESTS_TESTING_ONE_HOT_GROUPS_H_

#include <cstdint>
#include <vector>

namespace qs::testing {

// Groups of `groups` that do not hold exactly one 1 in `reduced` (a state of
// the reduced variables).
inline int GroupsBroken(const std::vector<std::vector<int32_t>>& groups,
                        const std::vector<uint8_t>& reduced) {
  int broken = 0;
  for (const std::vector<int32_t>& group : groups) {
    int ones = 0;
    for (int32_t v : group) ones += reduced[v];
    broken += ones != 1;
  }
  return broken;
}

// Groups of `groups` that no sampler can use: fewer than two members, or a
// member outside 0 .. num_variables - 1.
inline int MalformedGroups(const std::vector<std::vector<int32_t>>& groups,
                           int num_variables) {
  int malformed = 0;
  for (const std::vector<int32_t>& group : groups) {
    bool bad = group.size() < 2;
    for (int32_t v : group) bad = bad || v < 0 || v >= num_variables;
    malformed += bad;
  }
  return malformed;
}

}  // namespace qs::testing

#endif  // QS_TESTS_TESTING_ONE_HOT_GROUPS_H_
