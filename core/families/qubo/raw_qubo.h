// Raw QUBO / Ising input (docs/architecture.md §3, family 7): the user's own
// model, sampled as given. No reduction, no ground energy, no rules: every
// assignment is a valid "board" (one row of 0/1). The objective is the energy,
// or minus it for a model with sense MAXIMIZE (stored negated so that samplers
// minimise).
#ifndef QS_CORE_FAMILIES_QUBO_RAW_QUBO_H_
#define QS_CORE_FAMILIES_QUBO_RAW_QUBO_H_

#include <memory>

#include "core/compile/compiler.h"

namespace qs {

std::unique_ptr<PuzzleCompiler> NewRawQuboCompiler();

}  // namespace qs

#endif  // QS_CORE_FAMILIES_QUBO_RAW_QUBO_H_
