// A random TSP as a QUBO with its exactly-one groups, the way the model kind
// writes one, and reads that start inside its groups: the test model of the
// moves that keep the groups
// (core/sample/pt/group_moves.h, core/sample/cpu_sa/group_anneal.h).
#ifndef QS_TESTS_CORE_SAMPLE_TESTING_TSP_H_
#define QS_TESTS_CORE_SAMPLE_TESTING_TSP_H_

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "core/base/rng.h"
#include "core/qubo/qubo.h"
#include "core/sample/cpu_sa/sa_kernel.h"
#include "core/sample/group_structure.h"

namespace qs::testing {

inline constexpr double kTspPenalty = 60;

// A TSP of n cities as a QUBO the way the model kind writes one: x(c, t) =
// variable c * n + t, one-hot rows and columns at penalty kTspPenalty, random
// integer distances 1..20 between consecutive positions, plus `free` extra
// variables with random couplings to the rest.
struct Tsp {
  Qubo model;
  std::vector<std::vector<int32_t>> groups;
};

inline Tsp MakeTsp(int n, int free, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> distance(1, 20);
  const int vars = n * n + free;
  QuboBuilder builder(vars);
  Tsp tsp;
  auto one_hot = [&](const std::vector<int32_t>& group) {
    builder.AddOffset(kTspPenalty);
    for (size_t a = 0; a < group.size(); ++a) {
      builder.AddLinear(group[a], -kTspPenalty);
      for (size_t b = a + 1; b < group.size(); ++b)
        builder.AddQuadratic(group[a], group[b], 2 * kTspPenalty);
    }
    tsp.groups.push_back(group);
  };
  for (int c = 0; c < n; ++c) {
    std::vector<int32_t> row;
    for (int t = 0; t < n; ++t) row.push_back(c * n + t);
    one_hot(row);
  }
  for (int t = 0; t < n; ++t) {
    std::vector<int32_t> col;
    for (int c = 0; c < n; ++c) col.push_back(c * n + t);
    one_hot(col);
  }
  for (int c = 0; c < n; ++c) {
    for (int d = c + 1; d < n; ++d) {
      const int w = distance(gen);
      for (int t = 0; t < n; ++t) {
        builder.AddQuadratic(c * n + t, d * n + (t + 1) % n, w);
        builder.AddQuadratic(d * n + t, c * n + (t + 1) % n, w);
      }
    }
  }
  std::uniform_int_distribution<int> weight(-3, 3);
  for (int f = n * n; f < vars; ++f) {
    builder.AddLinear(f, weight(gen));
    builder.AddQuadratic(f, static_cast<int>(gen() % (n * n)), weight(gen));
  }
  tsp.model = *std::move(builder).Build();
  return tsp;
}

// `count` kernel reads starting inside `structure` (GroupRespectingState),
// read r from stream DeriveSeed(seed, r).
inline std::vector<KernelRead> ReadsInGroups(const GroupStructure& structure,
                                             int vars, int count,
                                             uint64_t seed) {
  std::vector<KernelRead> reads(count);
  for (int r = 0; r < count; ++r) {
    Xoshiro256 rng(DeriveSeed(seed, r));
    GroupRespectingState(structure, vars, rng, reads[r].state);
    reads[r].rng_seed = rng.Next();
  }
  return reads;
}

}  // namespace qs::testing

#endif  // QS_TESTS_CORE_SAMPLE_TESTING_TSP_H_
