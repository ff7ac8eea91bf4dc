// qsolve's flags for the D-Wave QPU controls (docs/dwave-protocol.md §6):
// --dwave_spin_reversal_transforms, --dwave_anneal_schedule,
// --dwave_reverse_anneal, --dwave_initial_state, --dwave_reinitialize_state,
// --dwave_h_gain_schedule, --dwave_flux_biases and --dwave_refine_rounds map
// to SolveParams.dwave (and initial_states).
#ifndef QS_CLIENTS_CLI_DWAVE_FLAGS_H_
#define QS_CLIENTS_CLI_DWAVE_FLAGS_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "qs/v1/solve.pb.h"

namespace qs::cli {

// Sets the QPU controls on params.dwave when one of their flags is given.
// INVALID_ARGUMENT naming the flag for a malformed value, or when the cpu-sa
// flags are set too.
absl::Status AddDwaveControlParams(v1::SolveParams& params);

// "t,v t,v ..." (points separated by spaces or ';') as (t, v) pairs.
absl::StatusOr<std::vector<std::pair<double, double>>> ParsePoints(
    absl::string_view flag, absl::string_view text);

}  // namespace qs::cli

#endif  // QS_CLIENTS_CLI_DWAVE_FLAGS_H_
