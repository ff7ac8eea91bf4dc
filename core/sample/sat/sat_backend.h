// The "sat" backend: a rules backend (core/backend/backend.h) that encodes
// the puzzle's real rules (core/exact/encoder.h) with
// [Bryant 2019]'s linear-size encodings and solves them with
// CaDiCaL. It returns a valid board or proves that none exists (termination
// INFEASIBLE), and, asking for one board more than the first, proves whether
// that board is unique; with params.sat.max_solutions it enumerates up to that
// many boards. Any board size: nothing here enumerates the QUBO, unlike the
// "exact" backend (core/sample/exact/). Deterministic.
#ifndef QS_CORE_SAMPLE_SAT_SAT_BACKEND_H_
#define QS_CORE_SAMPLE_SAT_SAT_BACKEND_H_

#include <memory>

#include "core/backend/backend.h"

namespace qs {

inline constexpr absl::string_view kSatBackend = "sat";

std::unique_ptr<Backend> NewSatBackend();

}  // namespace qs

#endif  // QS_CORE_SAMPLE_SAT_SAT_BACKEND_H_
