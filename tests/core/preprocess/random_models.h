// Small random QUBOs with small integer weights (ties are common, which is
// where persistency rules go wrong if they are unsound) and their exact
// minimum by enumeration, for the preprocessing property tests.
#ifndef QS_TESTS_CORE_PREPROCESS_RANDOM_MODELS_H_
#define QS_TESTS_CORE_PREPROCESS_RANDOM_MODELS_H_

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "core/qubo/qubo.h"

namespace qs::testing {

// n variables, each pair coupled with probability `density`, weights in
// [-range, range].
inline Qubo RandomModel(std::mt19937_64& rng, int n, double density,
                        int range) {
  std::uniform_int_distribution<int> weight(-range, range);
  std::bernoulli_distribution coupled(density);
  QuboBuilder builder(n);
  builder.AddOffset(weight(rng));
  for (int i = 0; i < n; ++i) {
    builder.AddLinear(i, weight(rng));
    for (int j = i + 1; j < n; ++j) {
      if (coupled(rng)) builder.AddQuadratic(i, j, weight(rng));
    }
  }
  return *std::move(builder).Build();
}

// Every assignment of a model of at most 20 variables, as bits.
inline std::vector<uint8_t> Bits(int n, uint32_t mask) {
  std::vector<uint8_t> bits(n);
  for (int i = 0; i < n; ++i) bits[i] = (mask >> i) & 1;
  return bits;
}

struct GroundStates {
  double energy = std::numeric_limits<double>::infinity();
  std::vector<std::vector<uint8_t>> states;
};

inline GroundStates Enumerate(const Qubo& model) {
  GroundStates ground;
  const int n = model.num_variables();
  for (uint32_t mask = 0; mask < (uint32_t{1} << n); ++mask) {
    std::vector<uint8_t> bits = Bits(n, mask);
    const double e = model.Energy(bits);
    if (e < ground.energy) {
      ground.energy = e;
      ground.states.clear();
    }
    if (e == ground.energy) ground.states.push_back(std::move(bits));
  }
  return ground;
}

}  // namespace qs::testing

#endif  // QS_TESTS_CORE_PREPROCESS_RANDOM_MODELS_H_
