// The generic checks and descriptions of backend parameter schemas, by proto
// reflection over the backend's own message.
#include "core/backend/param_schema.h"

#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace qs {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::EnumValueDescriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

std::string Number(double value) { return absl::StrFormat("%.15g", value); }

std::string RangeText(const ParamSpec& spec) {
  if (spec.min && spec.max && !spec.min_exclusive)
    return absl::StrCat(Number(*spec.min), "..", Number(*spec.max));
  std::string text;
  if (spec.min) {
    absl::StrAppend(&text,
                    spec.min_exclusive ? "> " : ">= ", Number(*spec.min));
  }
  if (spec.min && spec.max) absl::StrAppend(&text, " and ");
  if (spec.max) absl::StrAppend(&text, "<= ", Number(*spec.max));
  return text;
}

bool BelowMin(double value, const ParamSpec& spec) {
  if (!spec.min) return false;
  return spec.min_exclusive ? value <= *spec.min : value < *spec.min;
}

bool IsNumber(const FieldDescriptor& field) {
  switch (field.cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
    case FieldDescriptor::CPPTYPE_INT64:
    case FieldDescriptor::CPPTYPE_UINT32:
    case FieldDescriptor::CPPTYPE_UINT64:
    case FieldDescriptor::CPPTYPE_DOUBLE:
    case FieldDescriptor::CPPTYPE_FLOAT:
      return true;
    default:
      return false;
  }
}

// Element `index` of a number field (-1: the singular value).
double NumberAt(const Message& message, const FieldDescriptor& field,
                int index) {
  const Reflection& r = *message.GetReflection();
  const bool one = index < 0;
  switch (field.cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      return one ? r.GetInt32(message, &field)
                 : r.GetRepeatedInt32(message, &field, index);
    case FieldDescriptor::CPPTYPE_INT64:
      return static_cast<double>(
          one ? r.GetInt64(message, &field)
              : r.GetRepeatedInt64(message, &field, index));
    case FieldDescriptor::CPPTYPE_UINT32:
      return one ? r.GetUInt32(message, &field)
                 : r.GetRepeatedUInt32(message, &field, index);
    case FieldDescriptor::CPPTYPE_UINT64:
      return static_cast<double>(
          one ? r.GetUInt64(message, &field)
              : r.GetRepeatedUInt64(message, &field, index));
    case FieldDescriptor::CPPTYPE_FLOAT:
      return one ? r.GetFloat(message, &field)
                 : r.GetRepeatedFloat(message, &field, index);
    default:
      return one ? r.GetDouble(message, &field)
                 : r.GetRepeatedDouble(message, &field, index);
  }
}

absl::Status CheckNumber(double value, const ParamSpec& spec,
                         bool zero_is_unset, absl::string_view where) {
  if (!std::isfinite(value)) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": must be finite, got ", value));
  }
  if (value == 0 && zero_is_unset) return absl::OkStatus();
  if (BelowMin(value, spec) || (spec.max && value > *spec.max)) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": must be ", RangeText(spec), ", got ", value));
  }
  return absl::OkStatus();
}

absl::Status CheckEnum(int number, const FieldDescriptor& field,
                       const ParamSpec& spec, absl::string_view where) {
  const EnumValueDescriptor* value =
      field.enum_type()->FindValueByNumber(number);
  if (value == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": unknown value ", number));
  }
  for (const RefusedValue& refused : spec.refused_values) {
    if (value->name() == refused.value) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": ", refused.reason));
    }
  }
  return absl::OkStatus();
}

// Element `index` (-1: the singular value) of `field` against `spec`.
absl::Status CheckValue(const Message& message, const FieldDescriptor& field,
                        const ParamSpec& spec, int index,
                        absl::string_view where) {
  if (field.cpp_type() == FieldDescriptor::CPPTYPE_ENUM) {
    const Reflection& r = *message.GetReflection();
    const int number = index < 0
                           ? r.GetEnumValue(message, &field)
                           : r.GetRepeatedEnumValue(message, &field, index);
    return CheckEnum(number, field, spec, where);
  }
  if (!IsNumber(field)) return absl::OkStatus();
  // A list's elements and a field with presence are values as given; a
  // plain proto3 zero is "unset".
  const bool zero_is_unset =
      index < 0 && !field.has_presence() && !spec.zero_is_value;
  return CheckNumber(NumberAt(message, field, index), spec, zero_is_unset,
                     where);
}

std::string TypeName(const FieldDescriptor& field) {
  switch (field.cpp_type()) {
    case FieldDescriptor::CPPTYPE_ENUM:
      return "enum";
    case FieldDescriptor::CPPTYPE_MESSAGE:
      return std::string(field.message_type()->name());
    case FieldDescriptor::CPPTYPE_FLOAT:
      return "double";
    default:
      return std::string(field.type_name());
  }
}

}  // namespace

const ParamSpec* FindParamSpec(absl::Span<const ParamSpec> specs,
                               absl::string_view name) {
  for (const ParamSpec& spec : specs)
    if (name == spec.name) return &spec;
  return nullptr;
}

absl::Status CheckParamsBySchema(const Message& message,
                                 absl::Span<const ParamSpec> specs,
                                 absl::string_view path) {
  const Descriptor& type = *message.GetDescriptor();
  const Reflection& r = *message.GetReflection();
  for (int f = 0; f < type.field_count(); ++f) {
    const FieldDescriptor& field = *type.field(f);
    const ParamSpec* spec = FindParamSpec(specs, field.name());
    if (spec == nullptr) continue;
    const std::string where = absl::StrCat(path, ".", field.name());
    if (field.is_repeated()) {
      for (int k = 0; k < r.FieldSize(message, &field); ++k) {
        absl::Status s = CheckValue(message, field, *spec, k,
                                    absl::StrCat(where, "[", k, "]"));
        if (!s.ok()) return s;
      }
    } else if (!field.has_presence() || r.HasField(message, &field)) {
      absl::Status s = CheckValue(message, field, *spec, -1, where);
      if (!s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

std::vector<v1::ParamDescription> DescribeParams(
    const Descriptor& type, absl::Span<const ParamSpec> specs) {
  std::vector<v1::ParamDescription> rows;
  for (const ParamSpec& spec : specs) {
    const FieldDescriptor* field = type.FindFieldByName(spec.name);
    if (field == nullptr) continue;  // the schema test reports it
    v1::ParamDescription& row = rows.emplace_back();
    row.set_name(spec.name);
    row.set_type(TypeName(*field));
    row.set_repeated(field->is_repeated());
    row.set_has_presence(field->has_presence() && !field->is_repeated() &&
                         field->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE);
    row.set_default_value(spec.default_value);
    if (spec.min) row.set_min(*spec.min);
    row.set_min_exclusive(spec.min.has_value() && spec.min_exclusive);
    if (spec.max) row.set_max(*spec.max);
    row.set_unit(spec.unit);
    row.set_help(spec.help);
    if (field->cpp_type() == FieldDescriptor::CPPTYPE_ENUM) {
      const auto* values = field->enum_type();
      for (int v = 0; v < values->value_count(); ++v) {
        const std::string& name = values->value(v)->name();
        bool refused = false;
        for (const RefusedValue& r : spec.refused_values)
          refused |= name == r.value;
        if (!refused) row.add_choices(name);
      }
    }
  }
  return rows;
}

}  // namespace qs
