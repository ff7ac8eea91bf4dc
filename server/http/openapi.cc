// OpenApiDocument: walks the descriptors of every route's messages into
// components/schemas as protobuf's JSON mapping writes them (lowerCamel
// names, enums by name, 64-bit integers as strings), then adds each backend's
// parameter metadata to its parameter message.
#include "server/http/openapi.h"

#include <set>
#include <string>

#include "absl/strings/numbers.h"
#include "nlohmann/json.hpp"
#include "server/http/api_routes.h"

namespace qs::server::http {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::EnumDescriptor;
using google::protobuf::FieldDescriptor;
using nlohmann::json;

std::string RefTo(const std::string& full_name) {
  return "#/components/schemas/" + full_name;
}

// The schemas of the messages and enums reached so far, by full name.
class SchemaBuilder {
 public:
  json Ref(const Descriptor* message) {
    Add(message);
    return {{"$ref", RefTo(message->full_name())}};
  }
  json& schemas() { return schemas_; }

 private:
  void Add(const Descriptor* message) {
    if (!seen_.insert(message->full_name()).second) return;
    json properties = json::object();
    json oneofs = json::object();
    for (int k = 0; k < message->field_count(); ++k) {
      const FieldDescriptor* field = message->field(k);
      properties[field->json_name()] = FieldSchema(field);
    }
    json schema = {{"type", "object"}, {"properties", properties}};
    for (int k = 0; k < message->oneof_decl_count(); ++k) {
      const auto* oneof = message->oneof_decl(k);
      // proto3 `optional` is a oneof of one field of its own.
      if (oneof->field_count() == 1 && oneof->field(0)->has_optional_keyword())
        continue;
      json names = json::array();
      for (int f = 0; f < oneof->field_count(); ++f)
        names.push_back(oneof->field(f)->json_name());
      oneofs[oneof->name()] = names;
      // A message that is one oneof (PuzzleSpec) holds exactly one member.
      if (oneof->field_count() == message->field_count()) {
        json alternatives = json::array();
        for (const json& name : names)
          alternatives.push_back({{"required", json::array({name})}});
        schema["oneOf"] = alternatives;
      }
    }
    if (!oneofs.empty()) {
      schema["x-qs-oneof"] = oneofs;
      schema["description"] =
          "Fields listed together under x-qs-oneof are alternatives: set at "
          "most one of each group.";
    }
    schemas_[message->full_name()] = schema;
  }

  json EnumRef(const EnumDescriptor* type) {
    if (seen_.insert(type->full_name()).second) {
      json names = json::array();
      for (int k = 0; k < type->value_count(); ++k)
        names.push_back(type->value(k)->name());
      schemas_[type->full_name()] = {{"type", "string"}, {"enum", names}};
    }
    return {{"$ref", RefTo(type->full_name())}};
  }

  json ValueSchema(const FieldDescriptor* field) {
    switch (field->cpp_type()) {
      case FieldDescriptor::CPPTYPE_INT32:
        return {{"type", "integer"}, {"format", "int32"}};
      case FieldDescriptor::CPPTYPE_UINT32:
        return {{"type", "integer"}, {"format", "int64"}, {"minimum", 0}};
      case FieldDescriptor::CPPTYPE_INT64:
        return {{"type", "string"}, {"format", "int64"}};
      case FieldDescriptor::CPPTYPE_UINT64:
        return {{"type", "string"}, {"format", "uint64"}};
      case FieldDescriptor::CPPTYPE_DOUBLE:
      case FieldDescriptor::CPPTYPE_FLOAT:
        return {{"type", "number"}};
      case FieldDescriptor::CPPTYPE_BOOL:
        return {{"type", "boolean"}};
      case FieldDescriptor::CPPTYPE_STRING:
        if (field->type() == FieldDescriptor::TYPE_BYTES)
          return {{"type", "string"}, {"format", "byte"}};
        return {{"type", "string"}};
      case FieldDescriptor::CPPTYPE_ENUM:
        return EnumRef(field->enum_type());
      case FieldDescriptor::CPPTYPE_MESSAGE:
        return Ref(field->message_type());
    }
    return json::object();
  }

  json FieldSchema(const FieldDescriptor* field) {
    if (field->is_map()) {
      return {{"type", "object"},
              {"additionalProperties",
               ValueSchema(field->message_type()->map_value())}};
    }
    if (field->is_repeated())
      return {{"type", "array"}, {"items", ValueSchema(field)}};
    return ValueSchema(field);
  }

  std::set<std::string> seen_;
  json schemas_ = json::object();
};

// Bounds, unit, default and help of a parameter, on the value schema (the
// items of a list).
void AnnotateParameter(const v1::ParamDescription& param, json& property) {
  // A $ref takes no siblings in OpenAPI 3.0: the annotations go beside it.
  if (property.contains("$ref"))
    property = {{"allOf", json::array({property})}};
  property["description"] = param.help();
  if (!param.default_value().empty())
    property["x-qs-default"] = param.default_value();
  if (!param.unit().empty()) property["x-qs-unit"] = param.unit();
  json& value = property.contains("items") ? property["items"] : property;
  if (value.contains("$ref") || value.contains("allOf"))
    return;  // enums and messages: bounded by their own schema
  if (param.has_min()) {
    value["minimum"] = param.min();
    if (param.min_exclusive()) value["exclusiveMinimum"] = true;
  }
  if (param.has_max()) value["maximum"] = param.max();
}

void AddParameterMetadata(const v1::ListBackendsResponse& backends,
                          json& schemas) {
  const Descriptor* params = v1::SolveParams::descriptor();
  for (const v1::BackendDescription& backend : backends.backends()) {
    const FieldDescriptor* field =
        params->FindFieldByName(backend.params_field());
    if (field == nullptr || field->message_type() == nullptr) continue;
    const Descriptor* message = field->message_type();
    auto schema = schemas.find(message->full_name());
    if (schema == schemas.end()) continue;
    (*schema)["x-qs-backend"] = backend.name();
    for (const v1::ParamDescription& param : backend.params()) {
      const FieldDescriptor* member = message->FindFieldByName(param.name());
      if (member == nullptr) continue;
      AnnotateParameter(param, (*schema)["properties"][member->json_name()]);
    }
  }
}

json Content(BodyKind kind, json schema) {
  const char* type =
      kind == BodyKind::kNdjson ? "application/x-ndjson" : "application/json";
  return {{type, {{"schema", std::move(schema)}}}};
}

// The bodies of the text helpers, which are JSON objects of their own.
json CustomRequest(const std::string& path, SchemaBuilder& builder) {
  json kind = {{"type", "string"},
               {"description", "a text kind /v1/families lists"}};
  if (path == "/v1/parse") {
    return {{"type", "object"},
            {"required", {"kind", "text"}},
            {"properties", {{"kind", kind}, {"text", {{"type", "string"}}}}}};
  }
  return {{"type", "object"},
          {"required", {"kind", "puzzle"}},
          {"properties",
           {{"kind", kind},
            {"puzzle", builder.Ref(v1::PuzzleSpec::descriptor())}}}};
}

json CustomResponse(const std::string& path, SchemaBuilder& builder) {
  json kind = {{"type", "string"}};
  if (path == "/v1/parse") {
    return {{"type", "object"},
            {"properties",
             {{"kind", kind},
              {"puzzle", builder.Ref(v1::PuzzleSpec::descriptor())}}}};
  }
  if (path == "/v1/format") {
    return {{"type", "object"},
            {"properties", {{"kind", kind}, {"text", {{"type", "string"}}}}}};
  }
  return {{"type", "object"}, {"description", "an OpenAPI 3.0 document"}};
}

json Operation(const ApiRoute& route, SchemaBuilder& builder) {
  json operation = {{"operationId", route.rpc}, {"summary", route.summary}};
  const std::string path = route.path;
  if (route.request_kind == BodyKind::kCustom) {
    operation["requestBody"] = {
        {"required", true},
        {"content", Content(BodyKind::kJson, CustomRequest(path, builder))}};
  } else if (route.request_kind != BodyKind::kNone) {
    operation["requestBody"] = {
        {"required", true},
        {"content", Content(route.request_kind, builder.Ref(route.request))}};
  }
  const json answer = route.response_kind == BodyKind::kCustom
                          ? CustomResponse(path, builder)
                          : builder.Ref(route.response);
  operation["responses"] = {
      {"200",
       {{"description", route.response_kind == BodyKind::kNdjson
                            ? "one JSON object per line"
                            : "the answer"},
        {"content", Content(route.response_kind, answer)}}},
      {"default",
       {{"description", "an error, with the gRPC status code's name"},
        {"content", Content(BodyKind::kJson, {{"$ref", RefTo("Error")}})}}}};
  return operation;
}

json ErrorSchema() {
  json error = {{"type", "object"},
                {"properties",
                 {{"code", {{"type", "integer"}}},
                  {"status", {{"type", "string"}}},
                  {"message", {{"type", "string"}}}}}};
  return {{"type", "object"}, {"properties", {{"error", error}}}};
}

}  // namespace

std::string OpenApiDocument(const v1::ListBackendsResponse& backends) {
  SchemaBuilder builder;
  json paths = json::object();
  for (const ApiRoute& route : ApiRoutes()) {
    std::string method = route.http_method;
    for (char& c : method) c = static_cast<char>(std::tolower(c));
    paths[route.path][method] = Operation(route, builder);
  }
  json& schemas = builder.schemas();
  AddParameterMetadata(backends, schemas);
  schemas["Error"] = ErrorSchema();
  json document = {
      {"openapi", "3.0.3"},
      {"info",
       {{"title", "qubo-solver HTTP/JSON API"},
        {"version", "v1"},
        {"description",
         "The HTTP/JSON front of the qs.v1.Solver gRPC service: the same "
         "messages in protobuf's JSON mapping (docs/http.md)."}}},
      {"servers", json::array({{{"url", "/"}}})},
      {"paths", paths},
      {"components",
       {{"schemas", schemas},
        {"securitySchemes",
         {{"bearer", {{"type", "http"}, {"scheme", "bearer"}}}}}}},
      // The token is asked only by servers started with one.
      {"security", json::array({json::object(), {{"bearer", json::array()}}})},
  };
  return document.dump();
}

}  // namespace qs::server::http
