// Hubo: a higher-order binary model, E(x) = offset + sum_t w_t prod_{v in t}
// x_v over 0/1 variables. Formulations whose constraints are of order above two
// (the binary "BIN" encoding of N-queens, [Bryant 2019]) are kept in this form
// for the backends that take it directly (a QAOA phase operator applies
// multi-qubit Z rotations; a QUBO would need auxiliary variables).
#ifndef QS_CORE_QUBO_HUBO_H_
#define QS_CORE_QUBO_HUBO_H_

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace qs {

// One term: the product of the listed variables (sorted, distinct) times the
// weight; an empty list is a constant.
struct HuboTerm {
  std::vector<int32_t> variables;
  double w = 0;
};

struct Hubo {
  int num_variables = 0;
  double offset = 0;
  std::vector<HuboTerm> terms;

  int max_order() const {
    size_t order = 0;
    for (const HuboTerm& t : terms) order = std::max(order, t.variables.size());
    return static_cast<int>(order);
  }
  double Energy(std::span<const uint8_t> x) const {
    double e = offset;
    for (const HuboTerm& t : terms) {
      bool all = true;
      for (int32_t v : t.variables) all = all && x[v] != 0;
      if (all) e += t.w;
    }
    return e;
  }
};

}  // namespace qs

#endif  // QS_CORE_QUBO_HUBO_H_
