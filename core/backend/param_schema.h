// ParamSpec: one parameter of a backend's own message (SolveParams'
// backend_params oneof), declared once, in the backend's folder, beside the
// backend. The proto field gives the name and the type; the spec adds what the
// wire cannot say: what an unset value means, the allowed range, the unit and
// one line of help. From the one declaration come the request checks
// (CheckParamsBySchema, INVALID_ARGUMENT naming the field), ListBackends'
// parameter tables (DescribeParams, from which the CLI's --param and
// `backends --describe`, the HTTP API, the Python sampler's keyword arguments
// and the playground's form follow) and the conformance suite's out-of-range
// probes. docs/architecture.md §2.6.
#ifndef QS_CORE_BACKEND_PARAM_SCHEMA_H_
#define QS_CORE_BACKEND_PARAM_SCHEMA_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"
#include "qs/v1/solve.pb.h"

namespace qs {

// An enum value a request may not set, and why (the error's text).
struct RefusedValue {
  const char* value = "";
  const char* reason = "";
};

struct ParamSpec {
  // The field of the backend's message ("tenure").
  const char* name = "";
  // What the unset (zero) value means: "64", "from the model's couplings".
  const char* default_value = "";
  // One line: what it does, for tables, forms and --help.
  const char* help = "";
  // "sweeps", "us", "1/energy"; empty for a pure number or a choice.
  const char* unit = "";
  // Inclusive bounds of a set number (every element of a repeated one). A
  // proto3 zero means "unset, use the default" unless zero_is_value.
  std::optional<double> min = std::nullopt;
  std::optional<double> max = std::nullopt;
  // min itself is refused ("> 0").
  bool min_exclusive = false;
  // The field's zero is a value to check, not "unset" (a bound that excludes
  // zero then refuses it).
  bool zero_is_value = false;
  // Enum values a request may not set (left out of the choices).
  std::vector<RefusedValue> refused_values = {};
};

// INVALID_ARGUMENT naming "<path>.<field>" (and "[k]" for an element) when a
// set field of `message` breaks its spec: a number outside [min, max], a
// double that is not finite, an enum number the proto does not define or the
// spec refuses. Fields without a spec are not checked here (the schema test
// requires one per field).
absl::Status CheckParamsBySchema(const google::protobuf::Message& message,
                                 absl::Span<const ParamSpec> specs,
                                 absl::string_view path);

// ListBackends' table of the message type `type`: one row per spec, in the
// spec's order, with the type, choices and repetition from the descriptor.
std::vector<v1::ParamDescription> DescribeParams(
    const google::protobuf::Descriptor& type,
    absl::Span<const ParamSpec> specs);

// The spec of `name`, or null.
const ParamSpec* FindParamSpec(absl::Span<const ParamSpec> specs,
                               absl::string_view name);

}  // namespace qs

#endif  // QS_CORE_BACKEND_PARAM_SCHEMA_H_
