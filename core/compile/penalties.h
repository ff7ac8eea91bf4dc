// The penalty terms the puzzle formulations share, written once: every
// family's count constraints are a weighted (k - sum x)^2.
#ifndef QS_CORE_COMPILE_PENALTIES_H_
#define QS_CORE_COMPILE_PENALTIES_H_

#include <span>

#include "core/qubo/qubo.h"

namespace qs {

// Adds weight * (target - sum_{v in vars} x_v)^2, which for binary x is
//   weight * (target^2 + (1 - 2 target) sum_v x_v + 2 sum_{v<w} x_v x_w).
// Zero exactly when target of the variables are 1 (an integer target); a
// half-integer target (k + 1/2) is minimal, at 1/4, when k or k + 1 are.
inline void AddSquaredCount(QuboBuilder& builder, std::span<const int> vars,
                            double target, double weight = 1.0) {
  builder.AddOffset(weight * target * target);
  for (size_t a = 0; a < vars.size(); ++a) {
    builder.AddLinear(vars[a], weight * (1.0 - 2.0 * target));
    for (size_t b = a + 1; b < vars.size(); ++b)
      builder.AddQuadratic(vars[a], vars[b], 2.0 * weight);
  }
}

}  // namespace qs

#endif  // QS_CORE_COMPILE_PENALTIES_H_
