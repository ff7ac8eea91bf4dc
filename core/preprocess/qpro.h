// The QPRO+ reduction rules ([Glover et al. 2018]), for minimisation: a
// variable is fixed when the bounds of its flip cost (its linear term plus the
// sums of its negative or positive couplings) have one sign; two coupled
// variables are fixed together, or one is made equal to the other or to its
// complement, when some joint values of the pair cost no less than others
// whatever the rest of the model holds. Every rule keeps at least one minimum
// (weak persistency), and rules are applied to the model they leave until none
// applies. docs/preprocessing.md states each rule and its proof.
#ifndef QS_CORE_PREPROCESS_QPRO_H_
#define QS_CORE_PREPROCESS_QPRO_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "core/qubo/qubo.h"
#include "core/qubo/variable_map.h"

namespace qs {

struct QproOptions {
  // Neighbour visits the pair rules may spend (the single-variable rules are
  // not limited); dense models stop checking pairs when it is spent.
  int64_t pair_work_budget = int64_t{10'000'000};
};

// The variables of `model` the rules fix or merge, as a map onto the
// remaining ones: ApplyVariableMap(model, map) has the same minimum as
// `model`, and every minimum of it expands to a minimum of `model`.
absl::StatusOr<VariableMap> QproReduce(const Qubo& model,
                                       const QproOptions& options = {});

}  // namespace qs

#endif  // QS_CORE_PREPROCESS_QPRO_H_
