// The playground (the page and its scripts, compiled into the binary) and
// the two helpers it needs: puzzle text -> PuzzleSpec (/v1/parse) and back
// (/v1/format), with the clients' text formats, so that the page parses
// nothing itself.
#include <map>
#include <string>
#include <string_view>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "formats/puzzle_text.h"
#include "nlohmann/json.hpp"
#include "qs/v1/puzzles.pb.h"
#include "server/http/handlers.h"
#include "server/http/http_call.h"

namespace qs::server::http {

// Defined in the generated web_assets.cc: "/index.html" -> its bytes.
const std::map<std::string, std::string_view>& EmbeddedFiles();

namespace {

std::string ContentType(const std::string& path) {
  if (absl::EndsWith(path, ".html")) return "text/html; charset=utf-8";
  if (absl::EndsWith(path, ".js")) return "text/javascript; charset=utf-8";
  if (absl::EndsWith(path, ".css")) return "text/css; charset=utf-8";
  return "application/octet-stream";
}

// A string field of a JSON object body, or INVALID_ARGUMENT naming it.
absl::StatusOr<std::string> StringField(const nlohmann::json& body,
                                        const std::string& name) {
  auto it = body.find(name);
  if (it == body.end() || !it->is_string())
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": a string is required"));
  return it->get<std::string>();
}

absl::StatusOr<nlohmann::json> JsonObject(const std::string& text) {
  nlohmann::json body = nlohmann::json::parse(text, nullptr,
                                              /*allow_exceptions=*/false);
  if (!body.is_object())
    return absl::InvalidArgumentError("body: a JSON object is required");
  return body;
}

// {"kind": "queens", "text": "AABB/..."} -> {"kind": ..., "puzzle": {...}}
absl::StatusOr<std::string> Parse(const std::string& text) {
  auto body = JsonObject(text);
  if (!body.ok()) return body.status();
  auto kind = StringField(*body, "kind");
  if (!kind.ok()) return kind.status();
  auto puzzle_text = StringField(*body, "text");
  if (!puzzle_text.ok()) return puzzle_text.status();
  auto spec = formats::ParsePuzzleText(*kind, *puzzle_text);
  if (!spec.ok())
    return absl::InvalidArgumentError(
        absl::StrCat("text: ", spec.status().message()));
  return absl::StrCat(R"({"kind":)", nlohmann::json(*kind).dump(),
                      R"(,"puzzle":)", ToJson(*spec), "}");
}

// {"kind": "tango", "puzzle": {...}} -> {"kind": ..., "text": "..."}
absl::StatusOr<std::string> Format(const std::string& text) {
  auto body = JsonObject(text);
  if (!body.ok()) return body.status();
  auto kind = StringField(*body, "kind");
  if (!kind.ok()) return kind.status();
  auto it = body->find("puzzle");
  if (it == body->end() || !it->is_object())
    return absl::InvalidArgumentError("puzzle: an object is required");
  v1::PuzzleSpec spec;
  if (absl::Status s = ParseJson(it->dump(), &spec, "puzzle"); !s.ok())
    return s;
  auto formatted = formats::FormatPuzzleText(*kind, spec);
  if (!formatted.ok()) return formatted.status();
  return absl::StrCat(R"({"kind":)", nlohmann::json(*kind).dump(),
                      R"(,"text":)", nlohmann::json(*formatted).dump(), "}");
}

// Cheap and bounded by the body size: answered on the HTTP thread.
void HandleTextHelper(
    ServiceContext* context, const httplib::Request& request,
    httplib::Response& response, const std::string& method,
    absl::StatusOr<std::string> (*helper)(const std::string&)) {
  const CallLog call = StartCall(request, method);
  const absl::Status authorized = Authorize(context, request);
  const absl::StatusOr<std::string> json =
      authorized.ok() ? helper(request.body)
                      : absl::StatusOr<std::string>(authorized);
  if (json.ok()) {
    SendJson(response, *json);
  } else {
    SendError(response, json.status());
  }
  FinishCall(context, call, json.status());
}

}  // namespace

void RegisterPlaygroundRoutes(httplib::Server& server, ServiceContext* context,
                              const HttpOptions& options) {
  for (const auto& [path, bytes] : EmbeddedFiles()) {
    const std::string route = path == "/index.html" ? "/" : path;
    server.Get(route, [path = path, bytes = bytes](const httplib::Request&,
                                                   httplib::Response& r) {
      r.set_header("Cache-Control", "no-cache");
      r.set_content(bytes.data(), bytes.size(), ContentType(path));
    });
  }
  Route(server, context, options, "POST", "/v1/parse",
        [](ServiceContext* c, const httplib::Request& q, httplib::Response& r) {
          HandleTextHelper(c, q, r, "Parse", &Parse);
        });
  Route(server, context, options, "POST", "/v1/format",
        [](ServiceContext* c, const httplib::Request& q, httplib::Response& r) {
          HandleTextHelper(c, q, r, "Format", &Format);
        });
}

}  // namespace qs::server::http
