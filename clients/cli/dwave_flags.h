// qsolve's flags for the D-Wave QPU controls (docs/dwave-protocol.md §6):
// --dwave_spin_reversal_transforms, --dwave_anneal_schedule,
// --dwave_reverse_anneal, --dwave_reinitialize_state, --dwave_h_gain_schedule,
// --dwave_flux_biases and --dwave_refine_rounds are aliases of the dwave
// backend's parameters (param_flags.h); --dwave_initial_state sets
// SolveParams.initial_states.
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

// --dwave_initial_state as SolveParams.initial_states[0] (packed bits).
absl::Status AddDwaveInitialState(v1::SolveParams& params);

// "t,s t,s ..." of --dwave_anneal_schedule and "t,g ..." of
// --dwave_h_gain_schedule as the JSON of their parameters (lists of
// AnnealPoint / GainPoint). INVALID_ARGUMENT naming the flag.
absl::StatusOr<std::string> AnnealScheduleJson(absl::string_view text);
absl::StatusOr<std::string> GainScheduleJson(absl::string_view text);

// "t,v t,v ..." (points separated by spaces or ';') as (t, v) pairs.
absl::StatusOr<std::vector<std::pair<double, double>>> ParsePoints(
    absl::string_view flag, absl::string_view text);

}  // namespace qs::cli

#endif  // QS_CLIENTS_CLI_DWAVE_FLAGS_H_
