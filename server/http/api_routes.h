// The HTTP/JSON front's API routes as one table: the path, the HTTP method,
// the RPC it serves (for logs and metrics) and the protobuf messages of its
// body and answer. The gate's method names and the OpenAPI document
// (openapi.cc) both read it, so a route is described once.
#ifndef QS_SERVER_HTTP_API_ROUTES_H_
#define QS_SERVER_HTTP_API_ROUTES_H_

#include <string>
#include <vector>

#include "google/protobuf/descriptor.h"

namespace qs::server::http {

// How a route's body or answer is carried.
enum class BodyKind {
  kNone,    // no body (GET)
  kJson,    // one JSON object of the message
  kNdjson,  // one JSON object of the message per line
  kCustom,  // a JSON object of its own shape (described by openapi.cc)
};

struct ApiRoute {
  const char* path;
  const char* http_method;  // "GET" or "POST"
  const char* rpc;          // the gRPC method it mirrors, or the helper's name
  const char* summary;
  BodyKind request_kind;
  const google::protobuf::Descriptor* request;  // null for kNone / kCustom
  BodyKind response_kind;
  const google::protobuf::Descriptor* response;  // null for kCustom
};

// Every route of the API (not the playground's files or the probes).
const std::vector<ApiRoute>& ApiRoutes();

// The RPC a path serves, for the log line and metrics of a refusal at the
// gate; empty for paths that serve none.
std::string MethodOf(const std::string& path);

}  // namespace qs::server::http

#endif  // QS_SERVER_HTTP_API_ROUTES_H_
