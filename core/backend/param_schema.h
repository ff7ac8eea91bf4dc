// The schema of a backend's own parameter message (SolveParams' backend_params
// oneof): each field carries a (qs.v1.param) option (proto/qs/v1/param.proto)
// that says what an unset value means, the allowed range, the unit and one
// line of help. From that one declaration come the request checks
// (CheckParamsBySchema, INVALID_ARGUMENT naming the field), ListBackends'
// parameter tables (DescribeParams, from which the CLI's --param and
// `backends --describe`, the HTTP API and its OpenAPI document, the Python
// sampler's keyword arguments and the playground's form follow), the
// conformance suite's out-of-range probes, and the defaults the backends'
// code uses (StatedDefault). docs/architecture.md §2.3.
#ifndef QS_CORE_BACKEND_PARAM_SCHEMA_H_
#define QS_CORE_BACKEND_PARAM_SCHEMA_H_

#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"
#include "qs/v1/param.pb.h"
#include "qs/v1/solve.pb.h"

namespace qs {

// The (qs.v1.param) option of `field`, or null when it has none (the schema
// test requires one on every field of every backend's message).
const v1::ParamOption* ParamOptionOf(
    const google::protobuf::FieldDescriptor& field);

// The literal the option of `field` states as its default, as a number (true
// is 1, an enum value its number): the leading word of `default` when it is a
// number, true or false, or a value name of the field's enum (an explanation
// in parentheses may follow). Nullopt when the default states a rule.
std::optional<double> LiteralDefault(
    const google::protobuf::FieldDescriptor& field);

// The literal default of `field` of `type`, for the backend's code to use when
// the field is unset. A field without one is a programming error: the
// process stops naming it (each backend's tests reach every default it
// reads).
double StatedDefault(const google::protobuf::Descriptor& type,
                     absl::string_view field);
template <typename ParamsMessage>
double StatedDefault(absl::string_view field) {
  return StatedDefault(*ParamsMessage::descriptor(), field);
}

// INVALID_ARGUMENT naming "<path>.<field>" (and "[k]" for an element) when a
// set field of `message` breaks its option: a number outside [min, max], a
// double that is not finite, an enum number the proto does not define or the
// option refuses.
absl::Status CheckParamsBySchema(const google::protobuf::Message& message,
                                 absl::string_view path);

// ListBackends' table of the message type `type`: one row per field with an
// option, in field order, with the type, choices and repetition from the
// descriptor.
std::vector<v1::ParamDescription> DescribeParams(
    const google::protobuf::Descriptor& type);

}  // namespace qs

#endif  // QS_CORE_BACKEND_PARAM_SCHEMA_H_
