// BackendInfo as text and JSON by reflection, so that a new backend's details
// show up in every client without client code.
#include "clients/cli/backend_details.h"

#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "google/protobuf/util/json_util.h"

namespace qs::cli {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

constexpr int kListShown = 8;

// Element `k` of a scalar field (-1: the singular value) as text.
std::string ScalarText(const Message& m, const FieldDescriptor& f, int k) {
  const Reflection& r = *m.GetReflection();
  const bool one = k < 0;
  switch (f.cpp_type()) {
    case FieldDescriptor::CPPTYPE_DOUBLE:
      return absl::StrFormat(
          "%.4g", one ? r.GetDouble(m, &f) : r.GetRepeatedDouble(m, &f, k));
    case FieldDescriptor::CPPTYPE_FLOAT:
      return absl::StrFormat(
          "%.4g", one ? r.GetFloat(m, &f) : r.GetRepeatedFloat(m, &f, k));
    case FieldDescriptor::CPPTYPE_BOOL:
      return (one ? r.GetBool(m, &f) : r.GetRepeatedBool(m, &f, k)) ? "true"
                                                                    : "false";
    case FieldDescriptor::CPPTYPE_ENUM:
      return std::string(
          (one ? r.GetEnum(m, &f) : r.GetRepeatedEnum(m, &f, k))->name());
    case FieldDescriptor::CPPTYPE_STRING:
      return one ? r.GetString(m, &f) : r.GetRepeatedString(m, &f, k);
    case FieldDescriptor::CPPTYPE_INT32:
      return absl::StrCat(one ? r.GetInt32(m, &f)
                              : r.GetRepeatedInt32(m, &f, k));
    case FieldDescriptor::CPPTYPE_INT64:
      return absl::StrCat(one ? r.GetInt64(m, &f)
                              : r.GetRepeatedInt64(m, &f, k));
    case FieldDescriptor::CPPTYPE_UINT32:
      return absl::StrCat(one ? r.GetUInt32(m, &f)
                              : r.GetRepeatedUInt32(m, &f, k));
    case FieldDescriptor::CPPTYPE_UINT64:
      return absl::StrCat(one ? r.GetUInt64(m, &f)
                              : r.GetRepeatedUInt64(m, &f, k));
    default:
      return "";
  }
}

std::string ValueText(const Message& m, const FieldDescriptor& f) {
  const Reflection& r = *m.GetReflection();
  if (!f.is_repeated()) return ScalarText(m, f, -1);
  const int size = r.FieldSize(m, &f);
  std::vector<std::string> shown;
  if (f.cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
    // Messages that have a name (auto's raced backends) show their names,
    // so that the line says what ran; others their count.
    const FieldDescriptor* name = f.message_type()->FindFieldByName("name");
    if (name == nullptr || name->is_repeated() ||
        name->cpp_type() != FieldDescriptor::CPPTYPE_STRING)
      return absl::StrCat("(", size, ")");
    for (int k = 0; k < size && k < kListShown; ++k)
      shown.push_back(ScalarText(r.GetRepeatedMessage(m, &f, k), *name, -1));
  } else {
    for (int k = 0; k < size && k < kListShown; ++k)
      shown.push_back(ScalarText(m, f, k));
  }
  return absl::StrCat(
      "[", absl::StrJoin(shown, " "),
      size > kListShown ? absl::StrCat(" ... (", size, ")") : std::string(),
      "]");
}

// The set fields of `m` as "prefix.field value", nested messages flattened.
void AppendFields(const Message& m, const std::string& prefix,
                  std::vector<std::string>& out) {
  std::vector<const FieldDescriptor*> fields;
  m.GetReflection()->ListFields(m, &fields);
  for (const FieldDescriptor* f : fields) {
    if (prefix.empty() && f->name() == "name") continue;
    const std::string name = absl::StrCat(prefix, f->name());
    if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE &&
        !f->is_repeated()) {
      AppendFields(m.GetReflection()->GetMessage(m, f), name + ".", out);
      continue;
    }
    out.push_back(absl::StrCat(name, " ", ValueText(m, *f)));
  }
}

google::protobuf::Value ScalarJson(const Message& m, const FieldDescriptor& f) {
  google::protobuf::Value v;
  const Reflection& r = *m.GetReflection();
  switch (f.cpp_type()) {
    case FieldDescriptor::CPPTYPE_BOOL:
      v.set_bool_value(r.GetBool(m, &f));
      break;
    case FieldDescriptor::CPPTYPE_STRING:
    case FieldDescriptor::CPPTYPE_ENUM:
      v.set_string_value(ScalarText(m, f, -1));
      break;
    case FieldDescriptor::CPPTYPE_DOUBLE:
      v.set_number_value(r.GetDouble(m, &f));
      break;
    default: {
      double number = 0;
      if (absl::SimpleAtod(ScalarText(m, f, -1), &number))
        v.set_number_value(number);
    }
  }
  return v;
}

std::string TypeText(const v1::ParamDescription& p) {
  std::string type = p.type();
  if (p.type() == "enum") type = absl::StrJoin(p.choices(), "|");
  return p.repeated() ? absl::StrCat("list of ", type) : type;
}

std::string RangeText(const v1::ParamDescription& p) {
  auto number = [](double v) { return absl::StrFormat("%.15g", v); };
  if (p.has_min() && p.has_max() && !p.min_exclusive())
    return absl::StrCat(number(p.min()), "..", number(p.max()));
  std::string text;
  if (p.has_min())
    absl::StrAppend(&text, p.min_exclusive() ? "> " : ">= ", number(p.min()));
  if (p.has_min() && p.has_max()) absl::StrAppend(&text, " and ");
  if (p.has_max()) absl::StrAppend(&text, "<= ", number(p.max()));
  return text;
}

}  // namespace

std::string BackendParamsText(const v1::BackendDescription& backend) {
  std::string out =
      absl::StrCat(backend.name(), ": ", backend.description(), "\n");
  if (backend.params().empty()) {
    absl::StrAppend(&out, "  no parameters\n");
    return out;
  }
  absl::StrAppend(&out, "  parameters (params.", backend.params_field(),
                  "; set with --param name=value):\n");
  for (const v1::ParamDescription& p : backend.params()) {
    absl::StrAppend(&out, "  ", p.name(), " (", TypeText(p));
    if (const std::string range = RangeText(p); !range.empty())
      absl::StrAppend(&out, ", ", range);
    if (!p.unit().empty()) absl::StrAppend(&out, ", ", p.unit());
    absl::StrAppend(&out, "; default ", p.default_value(), ")\n      ",
                    p.help(), "\n");
  }
  return out;
}

std::string BackendParamsMarkdownTable(const v1::BackendDescription& backend) {
  if (backend.params().empty()) {
    return absl::StrCat("`", backend.name(), "` has no parameter message.\n");
  }
  std::string out =
      "| parameter | type | default | range | unit | what it does |\n"
      "| --- | --- | --- | --- | --- | --- |\n";
  for (const v1::ParamDescription& p : backend.params()) {
    absl::StrAppend(&out, "| `", p.name(), "` | ",
                    absl::StrReplaceAll(TypeText(p), {{"|", " \\| "}}), " | ",
                    p.default_value(), " | ", RangeText(p), " | ", p.unit(),
                    " | ", p.help(), " |\n");
  }
  return out;
}

std::string BackendParamsMarkdown(const v1::ListBackendsResponse& backends) {
  std::string out;
  for (const v1::BackendDescription& b : backends.backends()) {
    if (b.params().empty()) continue;
    absl::StrAppend(&out, "### `", b.name(), "` (`params.", b.params_field(),
                    "`)\n\n", BackendParamsMarkdownTable(b), "\n");
  }
  return out;
}

std::string BackendDetailsText(const v1::BackendInfo& info) {
  std::vector<std::string> parts;
  AppendFields(info, "", parts);
  return absl::StrCat(info.name(), ": ", absl::StrJoin(parts, ", "));
}

void AddBackendDetailsJson(const v1::BackendInfo& info,
                           google::protobuf::Struct& out) {
  std::vector<const FieldDescriptor*> fields;
  info.GetReflection()->ListFields(info, &fields);
  for (const FieldDescriptor* f : fields) {
    if (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) continue;
    const Message& own = info.GetReflection()->GetMessage(info, f);
    google::protobuf::util::JsonPrintOptions options;
    options.preserve_proto_field_names = true;
    options.always_print_primitive_fields = true;
    std::string json;
    google::protobuf::Value value;
    if (google::protobuf::util::MessageToJsonString(own, &json, options).ok() &&
        google::protobuf::util::JsonStringToMessage(json, &value).ok()) {
      (*out.mutable_fields())[f->name()] = value;
    }
    std::vector<const FieldDescriptor*> own_fields;
    own.GetReflection()->ListFields(own, &own_fields);
    for (const FieldDescriptor* g : own_fields) {
      if (g->is_repeated() || g->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE)
        continue;
      (*out.mutable_fields())[absl::StrCat(f->name(), "_", g->name())] =
          ScalarJson(own, *g);
    }
  }
}

}  // namespace qs::cli
