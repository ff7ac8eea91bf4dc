// The generic checks, descriptions and defaults of backend parameter
// schemas, by proto reflection over the backend's own message and the
// (qs.v1.param) options of its fields.
#include "core/backend/param_schema.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace qs {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::EnumValueDescriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;
using Option = v1::ParamOption;

std::string Number(double value) { return absl::StrFormat("%.15g", value); }

std::string RangeText(const Option& option) {
  if (option.has_min() && option.has_max() && !option.min_exclusive())
    return absl::StrCat(Number(option.min()), "..", Number(option.max()));
  std::string text;
  if (option.has_min()) {
    absl::StrAppend(
        &text, option.min_exclusive() ? "> " : ">= ", Number(option.min()));
  }
  if (option.has_min() && option.has_max()) absl::StrAppend(&text, " and ");
  if (option.has_max()) absl::StrAppend(&text, "<= ", Number(option.max()));
  return text;
}

bool BelowMin(double value, const Option& option) {
  if (!option.has_min()) return false;
  return option.min_exclusive() ? value <= option.min() : value < option.min();
}

bool Refused(const Option& option, absl::string_view name) {
  for (const v1::RefusedValue& refused : option.refused())
    if (refused.value() == name) return true;
  return false;
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

absl::Status CheckNumber(double value, const Option& option, bool zero_is_unset,
                         absl::string_view where) {
  if (!std::isfinite(value)) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": must be finite, got ", value));
  }
  if (value == 0 && zero_is_unset) return absl::OkStatus();
  if (BelowMin(value, option) || (option.has_max() && value > option.max())) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": must be ", RangeText(option), ", got ", value));
  }
  return absl::OkStatus();
}

absl::Status CheckEnum(int number, const FieldDescriptor& field,
                       const Option& option, absl::string_view where) {
  const EnumValueDescriptor* value =
      field.enum_type()->FindValueByNumber(number);
  if (value == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": unknown value ", number));
  }
  for (const v1::RefusedValue& refused : option.refused()) {
    if (value->name() == refused.value()) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": ", refused.reason()));
    }
  }
  return absl::OkStatus();
}

// Element `index` (-1: the singular value) of `field` against its option.
absl::Status CheckValue(const Message& message, const FieldDescriptor& field,
                        const Option& option, int index,
                        absl::string_view where) {
  if (field.cpp_type() == FieldDescriptor::CPPTYPE_ENUM) {
    const Reflection& r = *message.GetReflection();
    const int number = index < 0
                           ? r.GetEnumValue(message, &field)
                           : r.GetRepeatedEnumValue(message, &field, index);
    return CheckEnum(number, field, option, where);
  }
  if (!IsNumber(field)) return absl::OkStatus();
  // A list's elements and a field with presence are values as given; a
  // plain proto3 zero is "unset".
  const bool zero_is_unset =
      index < 0 && !field.has_presence() && !option.zero_is_value();
  return CheckNumber(NumberAt(message, field, index), option, zero_is_unset,
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

// The leading word of a stated default: up to the first space or '('.
absl::string_view LeadingWord(absl::string_view text) {
  const size_t end = text.find_first_of(" (");
  return end == absl::string_view::npos ? text : text.substr(0, end);
}

// Whether what follows the leading word is nothing or an explanation in
// parentheses (a rule such as "min(20, n / 4)" or "4 / beta" is neither).
bool OnlyExplained(absl::string_view rest) {
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  return rest.empty() || (rest.front() == '(' && rest.back() == ')');
}

}  // namespace

const Option* ParamOptionOf(const FieldDescriptor& field) {
  if (!field.options().HasExtension(v1::param)) return nullptr;
  return &field.options().GetExtension(v1::param);
}

std::optional<double> LiteralDefault(const FieldDescriptor& field) {
  const Option* option = ParamOptionOf(field);
  if (option == nullptr) return std::nullopt;
  const absl::string_view text = option->default_();
  const absl::string_view word = LeadingWord(text);
  if (word.empty() || !OnlyExplained(text.substr(word.size())))
    return std::nullopt;
  if (field.cpp_type() == FieldDescriptor::CPPTYPE_ENUM) {
    const EnumValueDescriptor* value =
        field.enum_type()->FindValueByName(std::string(word));
    if (value == nullptr) return std::nullopt;
    return value->number();
  }
  if (field.cpp_type() == FieldDescriptor::CPPTYPE_BOOL) {
    if (word == "true") return 1.0;
    if (word == "false") return 0.0;
    return std::nullopt;
  }
  double number;
  if (!absl::SimpleAtod(word, &number)) return std::nullopt;
  return number;
}

double StatedDefault(const Descriptor& type, absl::string_view field_name) {
  const FieldDescriptor* field = type.FindFieldByName(std::string(field_name));
  const std::optional<double> value =
      field == nullptr ? std::nullopt : LiteralDefault(*field);
  if (!value) {
    std::fprintf(stderr,
                 "%s.%s: the (qs.v1.param) option states no literal default "
                 "for the backend to use\n",
                 std::string(type.full_name()).c_str(),
                 std::string(field_name).c_str());
    std::abort();
  }
  return *value;
}

absl::Status CheckParamsBySchema(const Message& message,
                                 absl::string_view path) {
  const Descriptor& type = *message.GetDescriptor();
  const Reflection& r = *message.GetReflection();
  for (int f = 0; f < type.field_count(); ++f) {
    const FieldDescriptor& field = *type.field(f);
    const Option* option = ParamOptionOf(field);
    if (option == nullptr) continue;
    const std::string where = absl::StrCat(path, ".", field.name());
    if (field.is_repeated()) {
      for (int k = 0; k < r.FieldSize(message, &field); ++k) {
        absl::Status s = CheckValue(message, field, *option, k,
                                    absl::StrCat(where, "[", k, "]"));
        if (!s.ok()) return s;
      }
    } else if (!field.has_presence() || r.HasField(message, &field)) {
      absl::Status s = CheckValue(message, field, *option, -1, where);
      if (!s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

std::vector<v1::ParamDescription> DescribeParams(const Descriptor& type) {
  std::vector<v1::ParamDescription> rows;
  for (int f = 0; f < type.field_count(); ++f) {
    const FieldDescriptor& field = *type.field(f);
    const Option* option = ParamOptionOf(field);
    if (option == nullptr) continue;  // the schema test reports it
    v1::ParamDescription& row = rows.emplace_back();
    row.set_name(field.name());
    row.set_type(TypeName(field));
    row.set_repeated(field.is_repeated());
    row.set_has_presence(field.has_presence() && !field.is_repeated() &&
                         field.cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE);
    row.set_default_value(option->default_());
    if (option->has_min()) row.set_min(option->min());
    row.set_min_exclusive(option->has_min() && option->min_exclusive());
    if (option->has_max()) row.set_max(option->max());
    row.set_unit(option->unit());
    row.set_help(option->help());
    if (field.cpp_type() == FieldDescriptor::CPPTYPE_ENUM) {
      const auto* values = field.enum_type();
      for (int v = 0; v < values->value_count(); ++v) {
        const std::string& name = values->value(v)->name();
        if (!Refused(*option, name)) row.add_choices(name);
      }
    }
  }
  return rows;
}

}  // namespace qs
