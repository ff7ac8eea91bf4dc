// DwaveSampler: the "dwave" backend. Samples a reduced Qubo on a D-Wave QPU
// through SAPI (docs/dwave-protocol.md): picks a solver (by name, or the
// least-loaded online QPU of a topology), embeds the logical problem graph on
// the solver's working graph (CMR heuristic, cached by graph id and problem
// graph), spreads the Ising form over the chains with a
// uniform-torque-compensation chain strength, submits it as `ising` `qp`
// problems (one POST, num_reads split over jobs when above the solver's limit),
// long-polls, unembeds every answer by majority vote and reports each logical
// sample with its energy recomputed on the model (offset included).
// The QPU controls of docs/dwave-protocol.md §6 (anneal_controls.h): reads
// split over spin-reversal transforms, anneal and h-gain schedules checked
// against the solver before anything is sent, reverse annealing from
// initial_states[0] on the chains, a reverse-anneal refinement loop, flux
// biases, and QPU timing per problem and in total.
// Cancellation or the deadline of the call send DELETE for the unfinished
// problems. Thread-safe.
//
// Errors: FAILED_PRECONDITION for a missing token or a problem that cannot be
// embedded, INVALID_ARGUMENT for parameters the solver refuses, UNAVAILABLE
// when SAPI cannot be reached or a solver is offline, ABORTED for a problem
// SAPI failed or cancelled; the message never contains the token.
#ifndef QS_CORE_SAMPLE_DWAVE_DWAVE_SAMPLER_H_
#define QS_CORE_SAMPLE_DWAVE_DWAVE_SAMPLER_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "core/sample/dwave/dwave_options.h"
#include "core/sample/sampler.h"

namespace qs {

inline constexpr absl::string_view kDwaveBackend = "dwave";

std::unique_ptr<Sampler> NewDwaveSampler(DwaveOptions options);

// The API token the options lead to: options.token, else env DWAVE_API_TOKEN,
// else the first line of options.token_file. FAILED_PRECONDITION (naming the
// setting, never a token) when there is none.
absl::StatusOr<std::string> ResolveDwaveToken(const DwaveOptions& options);

}  // namespace qs

#endif  // QS_CORE_SAMPLE_DWAVE_DWAVE_SAMPLER_H_
