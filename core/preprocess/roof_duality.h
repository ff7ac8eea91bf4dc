// Roof duality ([Boros & Hammer 2002] §5; the implication network of [Boros
// et al. 2006]): the QUBO is written as a posiform, its implication network
// over the 2n + 2 literals is given a maximum flow, and the literals the
// source reaches in the residual network of the symmetrised flow are strong
// persistencies: every minimum of the model takes those values. The flow
// value is the roof dual, a lower bound of the minimum. docs/preprocessing.md
// has the construction and the proof sketch.
#ifndef QS_CORE_PREPROCESS_ROOF_DUALITY_H_
#define QS_CORE_PREPROCESS_ROOF_DUALITY_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "core/qubo/qubo.h"

namespace qs {

struct RoofDualityResult {
  // Per variable: -1 free, else the value every minimum gives it.
  std::vector<int8_t> fixed;
  // The roof dual (offset included); none when the model was left alone.
  std::optional<double> lower_bound;
};

// The flow runs on integers: the coefficients are scaled by the smallest
// power of two that makes them all integers (exact), else by the smallest
// power of ten up to 10^9 that brings each within 10^-6 of an integer (weights
// written with decimals, which binary floating point holds only approximately:
// the persistencies are then those of the decimal model). A model neither
// scale fits, or whose scaled coefficients would overflow, is left alone
// (nothing fixed, no bound): rounding further could make a false persistency.
RoofDualityResult RoofDuality(const Qubo& model);

}  // namespace qs

#endif  // QS_CORE_PREPROCESS_ROOF_DUALITY_H_
