// Backend parameters given as text, set without knowing any backend:
// `--param name=value` (repeatable) sets a field of the chosen backend's own
// message (SolveParams.<backend, '-' as '_'>), found and typed by proto
// reflection, as `qsolve backends --describe NAME` lists them. Shared by
// qsolve and qs_loadgen (docs/cli.md "Backend parameters").
#ifndef QS_CLIENTS_COMMON_PARAM_SETTINGS_H_
#define QS_CLIENTS_COMMON_PARAM_SETTINGS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "google/protobuf/message.h"
#include "qs/v1/solve.pb.h"

namespace qs::clients {

// A parameter to set: `name` = `value` (text), and where it came from for
// error messages ("--param tenure", "--replicas").
struct ParamSetting {
  std::string name;
  std::string value;
  std::string origin;
};

// Removes every `--param X` / `--param=X` from `args` (absl keeps only the
// last occurrence of a flag) and keeps them for ParamSettingsOfParamFlag. A
// value may hold several settings separated by ';'.
std::vector<char*> ExtractParamArgs(std::vector<char*> args);

// The settings of every --param given. INVALID_ARGUMENT for an item that is
// not name=value.
absl::StatusOr<std::vector<ParamSetting>> ParamSettingsOfParamFlag();

// Sets each setting on params' backend message: the message of
// params.backend(), or, when none is named, the first one with a field of
// that name. INVALID_ARGUMENT naming the origin for an unknown name, a value
// of the wrong type, or settings that belong to different backends.
absl::Status ApplyParamSettings(const std::vector<ParamSetting>& settings,
                                v1::SolveParams& params);

// Each setting of "name=value;name=value" text (what --param takes), with
// `origin` ("--variant") naming the flag in errors.
absl::StatusOr<std::vector<ParamSetting>> ParseSettings(
    const std::string& text, const std::string& origin);

// Sets each setting on `message`'s field of its name, typed by reflection.
// INVALID_ARGUMENT naming the origin for an unknown field or a bad value.
absl::Status ApplySettingsTo(const std::vector<ParamSetting>& settings,
                             google::protobuf::Message& message);

}  // namespace qs::clients

#endif  // QS_CLIENTS_COMMON_PARAM_SETTINGS_H_
