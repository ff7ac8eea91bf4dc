// Backend parameters on the command line, without knowing any backend:
// `--param name=value` (repeatable) sets a field of the chosen backend's own
// message (SolveParams.<backend, '-' as '_'>), found and typed by proto
// reflection, as `qsolve backends --describe NAME` lists them. The older
// per-backend flags (--beta_hot, --replicas, --qaoa_layers, --solver, ...)
// are aliases of parameters; without --backend, a parameter goes to the first
// backend message (in SolveParams' order) that has it, and the server runs the
// backend whose message is set. docs/cli.md "Backend parameters".
#ifndef QS_CLIENTS_CLI_PARAM_FLAGS_H_
#define QS_CLIENTS_CLI_PARAM_FLAGS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "clients/common/param_settings.h"
#include "qs/v1/solve.pb.h"

namespace qs::cli {

using clients::ApplyParamSettings;
using clients::ExtractParamArgs;
using clients::ParamSetting;
using clients::ParamSettingsOfParamFlag;

// The settings of --param and of the alias flags that were given.
absl::StatusOr<std::vector<ParamSetting>> ParamSettingsFromFlags();

}  // namespace qs::cli

#endif  // QS_CLIENTS_CLI_PARAM_FLAGS_H_
