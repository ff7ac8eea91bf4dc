// Lattice models for the lns tests: a ±J spin glass and an antiferromagnet on
// a torus, as Max-Cut QUBOs (minimise -cut), numbered row by row.
#ifndef QS_TESTS_CORE_SAMPLE_LNS_LNS_TESTING_H_
#define QS_TESTS_CORE_SAMPLE_LNS_LNS_TESTING_H_

#include <cstdint>

#include "core/base/rng.h"
#include "core/qubo/qubo.h"

namespace qs::testing {

// Max-Cut of a rows x cols grid (a torus when `wrap`), each bond weighted
// +1, or ±1 at random when `seed` is non-zero: -w (x_i + x_j - 2 x_i x_j)
// per bond.
inline Qubo LatticeMaxCut(int rows, int cols, bool wrap, uint64_t seed) {
  QuboBuilder builder(rows * cols);
  Xoshiro256 rng(seed);
  auto bond = [&](int i, int j) {
    const double w = seed == 0 || (rng.Next() & 1) ? 1.0 : -1.0;
    builder.AddLinear(i, -w);
    builder.AddLinear(j, -w);
    builder.AddQuadratic(i, j, 2 * w);
  };
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const int i = r * cols + c;
      if (wrap || c + 1 < cols) bond(i, r * cols + (c + 1) % cols);
      if (wrap || r + 1 < rows) bond(i, ((r + 1) % rows) * cols + c);
    }
  }
  return *std::move(builder).Build();
}

}  // namespace qs::testing

#endif  // QS_TESTS_CORE_SAMPLE_LNS_LNS_TESTING_H_
