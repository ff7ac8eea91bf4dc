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
#include "qs/v1/solve.pb.h"

namespace qs::cli {

// A parameter to set: `name` = `value` (text), and where it came from for
// error messages ("--param tenure", "--replicas").
struct ParamSetting {
  std::string name;
  std::string value;
  std::string origin;
};

// Removes every `--param X` / `--param=X` from `args` (absl keeps only the
// last occurrence of a flag) and keeps them for ParamSettingsFromFlags. A
// value may hold several settings separated by ';'.
std::vector<char*> ExtractParamArgs(std::vector<char*> args);

// The settings of --param and of the alias flags that were given.
absl::StatusOr<std::vector<ParamSetting>> ParamSettingsFromFlags();

// Sets each setting on params' backend message: the message of
// params.backend(), or, when none is named, the first one with a field of
// that name. INVALID_ARGUMENT naming the origin for an unknown name, a value
// of the wrong type, or settings that belong to different backends.
absl::Status ApplyParamSettings(const std::vector<ParamSetting>& settings,
                                v1::SolveParams& params);

}  // namespace qs::cli

#endif  // QS_CLIENTS_CLI_PARAM_FLAGS_H_
