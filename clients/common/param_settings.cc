// --param name=value set on a backend's message by proto reflection: each
// value becomes JSON of the field's type and is parsed into the message, so
// every backend parameter is reachable without code that knows the backend.
#include "clients/common/param_settings.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "google/protobuf/util/json_util.h"

ABSL_FLAG(std::string, param, "",
          "A backend parameter, name=value (repeatable; several separated by "
          "';'); `qsolve backends --describe NAME` lists a backend's");

namespace qs::clients {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::EnumDescriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;

std::vector<std::string>& ExtractedParams() {
  static auto* const params = new std::vector<std::string>;
  return *params;
}

std::string Quoted(absl::string_view text) {
  return absl::StrCat(
      "\"", absl::StrReplaceAll(text, {{"\\", "\\\\"}, {"\"", "\\\""}}), "\"");
}

// The enum value `text` names: its full name in any case, or the end of it
// after an underscore ("single_flip" for PT_MOVES_SINGLE_FLIP).
absl::StatusOr<std::string> EnumName(const EnumDescriptor& type,
                                     absl::string_view text) {
  const std::string upper = absl::AsciiStrToUpper(text);
  std::vector<std::string> names, matches;
  for (int v = 0; v < type.value_count(); ++v) {
    const std::string& name = type.value(v)->name();
    names.push_back(name);
    if (name == upper) return name;
    if (absl::EndsWith(name, absl::StrCat("_", upper))) matches.push_back(name);
  }
  if (matches.size() == 1) return matches[0];
  return absl::InvalidArgumentError(absl::StrCat(
      "one of ", absl::StrJoin(names, ", "), ", got '", text, "'"));
}

// One element of `field` as JSON.
absl::StatusOr<std::string> ScalarJson(const FieldDescriptor& field,
                                       absl::string_view text) {
  switch (field.cpp_type()) {
    case FieldDescriptor::CPPTYPE_STRING:
      return Quoted(text);
    case FieldDescriptor::CPPTYPE_ENUM: {
      absl::StatusOr<std::string> name = EnumName(*field.enum_type(), text);
      if (!name.ok()) return name.status();
      return Quoted(*name);
    }
    case FieldDescriptor::CPPTYPE_BOOL: {
      bool value = false;
      if (!absl::SimpleAtob(text, &value))
        return absl::InvalidArgumentError(
            absl::StrCat("true or false, got '", text, "'"));
      return std::string(value ? "true" : "false");
    }
    case FieldDescriptor::CPPTYPE_DOUBLE:
    case FieldDescriptor::CPPTYPE_FLOAT: {
      double value = 0;
      if (!absl::SimpleAtod(text, &value))
        return absl::InvalidArgumentError(
            absl::StrCat("a number, got '", text, "'"));
      return absl::StrCat(value);
    }
    case FieldDescriptor::CPPTYPE_MESSAGE:
      return std::string(text);  // JSON as given
    default: {
      int64_t signed_value = 0;
      uint64_t unsigned_value = 0;
      if (absl::SimpleAtoi(text, &signed_value))
        return absl::StrCat(signed_value);
      if (absl::SimpleAtoi(text, &unsigned_value))
        return absl::StrCat(unsigned_value);
      return absl::InvalidArgumentError(
          absl::StrCat("an integer, got '", text, "'"));
    }
  }
}

// `text` as the JSON value of `field`: a list from a JSON array or from
// comma-separated elements.
absl::StatusOr<std::string> ValueJson(const FieldDescriptor& field,
                                      absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  if (!field.is_repeated()) return ScalarJson(field, text);
  if (absl::StartsWith(text, "[")) return std::string(text);
  std::vector<std::string> elements;
  for (absl::string_view element :
       absl::StrSplit(text, ',', absl::SkipWhitespace())) {
    absl::StatusOr<std::string> json =
        ScalarJson(field, absl::StripAsciiWhitespace(element));
    if (!json.ok()) return json.status();
    elements.push_back(*std::move(json));
  }
  return absl::StrCat("[", absl::StrJoin(elements, ","), "]");
}

// The backend messages of SolveParams' backend_params oneof, in their order.
std::vector<const FieldDescriptor*> BackendMessages() {
  const auto* oneof =
      v1::SolveParams::descriptor()->FindOneofByName("backend_params");
  std::vector<const FieldDescriptor*> fields;
  for (int f = 0; f < oneof->field_count(); ++f)
    fields.push_back(oneof->field(f));
  return fields;
}

std::string FieldNames(const Descriptor& type) {
  std::vector<std::string> names;
  for (int f = 0; f < type.field_count(); ++f)
    names.push_back(type.field(f)->name());
  return absl::StrJoin(names, ", ");
}

// The backends' messages in the order unnamed settings look for a home:
// the default backend's (auto) first, then the oneof's.
std::vector<const FieldDescriptor*> HomeCandidates() {
  std::vector<const FieldDescriptor*> fields = BackendMessages();
  std::stable_partition(
      fields.begin(), fields.end(),
      [](const FieldDescriptor* field) { return field->name() == "auto"; });
  return fields;
}

// The message the settings go to: the named backend's, else the first of
// HomeCandidates that has every setting's field (`--group_moves off` is
// auto's, though cpu-sa has the field too).
absl::StatusOr<const FieldDescriptor*> TargetMessage(
    const std::vector<ParamSetting>& settings, const v1::SolveParams& params) {
  if (!params.backend().empty()) {
    const std::string field_name =
        absl::StrReplaceAll(params.backend(), {{"-", "_"}});
    for (const FieldDescriptor* field : BackendMessages())
      if (field->name() == field_name) return field;
    return absl::InvalidArgumentError(
        absl::StrCat(settings.front().origin, ": backend '", params.backend(),
                     "' takes no parameters"));
  }
  const std::vector<const FieldDescriptor*> candidates = HomeCandidates();
  for (const FieldDescriptor* field : candidates) {
    const bool has_all = std::all_of(
        settings.begin(), settings.end(), [&](const ParamSetting& setting) {
          return field->message_type()->FindFieldByName(setting.name) !=
                 nullptr;
        });
    if (has_all) return field;
  }
  // No backend has them all: the first setting without a home, or the first
  // two that live apart, say why.
  const FieldDescriptor* target = nullptr;
  for (const ParamSetting& setting : settings) {
    const FieldDescriptor* home = nullptr;
    for (const FieldDescriptor* field : candidates) {
      if (field->message_type()->FindFieldByName(setting.name) != nullptr) {
        home = field;
        break;
      }
    }
    if (home == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          setting.origin, ": no backend has a parameter '", setting.name,
          "' (`qsolve backends --describe NAME` lists a backend's)"));
    }
    if (target != nullptr && home != target) {
      return absl::InvalidArgumentError(
          absl::StrCat(setting.origin, " is a parameter of params.",
                       home->name(), ", the ones before of params.",
                       target->name(), ": name the backend with --backend"));
    }
    target = home;
  }
  return target;
}

absl::Status ApplyOne(const ParamSetting& setting, Message& message) {
  const Descriptor& type = *message.GetDescriptor();
  const FieldDescriptor* field = type.FindFieldByName(setting.name);
  if (field == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(setting.origin, ": ", type.name(), " has no field '",
                     setting.name, "'; its fields: ", FieldNames(type)));
  }
  absl::StatusOr<std::string> json = ValueJson(*field, setting.value);
  if (!json.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(setting.origin, ": ", json.status().message()));
  }
  std::unique_ptr<Message> parsed(message.New());
  const auto status = google::protobuf::util::JsonStringToMessage(
      absl::StrCat("{", Quoted(setting.name), ":", *json, "}"), parsed.get());
  if (!status.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(setting.origin, ": ", std::string(status.message())));
  }
  message.MergeFrom(*parsed);
  return absl::OkStatus();
}

}  // namespace

std::vector<char*> ExtractParamArgs(std::vector<char*> args) {
  std::vector<char*> kept;
  for (size_t k = 0; k < args.size(); ++k) {
    const absl::string_view arg = args[k];
    if (arg == "--param" || arg == "-param") {
      if (k + 1 < args.size()) ExtractedParams().push_back(args[++k]);
      continue;
    }
    if (absl::StartsWith(arg, "--param=") || absl::StartsWith(arg, "-param=")) {
      ExtractedParams().emplace_back(arg.substr(arg.find('=') + 1));
      continue;
    }
    kept.push_back(args[k]);
  }
  return kept;
}

absl::StatusOr<std::vector<ParamSetting>> ParseSettings(
    const std::string& text, const std::string& origin) {
  std::vector<ParamSetting> settings;
  for (absl::string_view item : absl::StrSplit(text, ';', absl::SkipEmpty())) {
    std::pair<std::string, std::string> kv =
        absl::StrSplit(item, absl::MaxSplits('=', 1));
    const std::string name(absl::StripAsciiWhitespace(kv.first));
    if (name.empty() || item.find('=') == absl::string_view::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat(origin, ": expected name=value, got '", item, "'"));
    }
    settings.push_back(
        {name, std::move(kv.second), absl::StrCat(origin, " ", name)});
  }
  return settings;
}

absl::StatusOr<std::vector<ParamSetting>> ParamSettingsOfParamFlag() {
  std::vector<ParamSetting> settings;
  std::vector<std::string> texts = ExtractedParams();
  if (const std::string last = absl::GetFlag(FLAGS_param); !last.empty())
    texts.push_back(last);
  for (const std::string& text : texts) {
    absl::StatusOr<std::vector<ParamSetting>> parsed =
        ParseSettings(text, "--param");
    if (!parsed.ok()) return parsed.status();
    settings.insert(settings.end(), parsed->begin(), parsed->end());
  }
  return settings;
}

absl::Status ApplySettingsTo(const std::vector<ParamSetting>& settings,
                             Message& message) {
  for (const ParamSetting& setting : settings) {
    if (absl::Status s = ApplyOne(setting, message); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status ApplyParamSettings(const std::vector<ParamSetting>& settings,
                                v1::SolveParams& params) {
  if (settings.empty()) return absl::OkStatus();
  absl::StatusOr<const FieldDescriptor*> target =
      TargetMessage(settings, params);
  if (!target.ok()) return target.status();
  return ApplySettingsTo(
      settings, *params.GetReflection()->MutableMessage(&params, *target));
}

}  // namespace qs::clients
