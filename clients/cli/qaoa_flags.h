// qsolve's QAOA flags: --qaoa_layers, --gammas, --betas, --qaoa_optimizer,
// --qaoa_mixer and --qaoa_iterations are aliases of backend parameters
// (param_flags.h) for solve; compile --export-qasm FILE [--qasm_version 2|3]
// with the same layers and angles maps to CompileOptions.qaoa_circuit.
#ifndef QS_CLIENTS_CLI_QAOA_FLAGS_H_
#define QS_CLIENTS_CLI_QAOA_FLAGS_H_

#include <string>

#include "absl/flags/declare.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "qs/v1/solve.pb.h"

ABSL_DECLARE_FLAG(std::string, export_qasm);

namespace qs::cli {

// The circuit options of --qasm_version, --qaoa_layers, --gammas, --betas.
absl::StatusOr<v1::QaoaCircuitOptions> QaoaCircuitFromFlags();

}  // namespace qs::cli

#endif  // QS_CLIENTS_CLI_QAOA_FLAGS_H_
