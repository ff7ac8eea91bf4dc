// The routes of the HTTP front, registered on a cpp-httplib server by
// concern: the unary RPCs and probes (rpc_handlers.cc), the streaming RPCs
// (stream_handlers.cc) and the playground with its text-format helpers
// (playground_handlers.cc). Handlers run on the HTTP server's threads; every
// job runs on the request pool under admission.
#ifndef QS_SERVER_HTTP_HANDLERS_H_
#define QS_SERVER_HTTP_HANDLERS_H_

#include <httplib.h>

#include <functional>
#include <string>

#include "google/protobuf/message.h"
#include "server/http/http_call.h"
#include "server/http/http_server.h"
#include "server/service_context.h"

namespace qs::server::http {

// GET /healthz, /readyz, /v1/backends; POST /v1/compile, /v1/validate,
// /v1/count.
void RegisterRpcRoutes(httplib::Server& server, ServiceContext* context,
                       const HttpOptions& options);
// POST /v1/solve, /v1/solve_batch, /v1/generate.
void RegisterStreamRoutes(httplib::Server& server, ServiceContext* context,
                          const HttpOptions& options);
// GET / and its assets; POST /v1/parse, /v1/format.
void RegisterPlaygroundRoutes(httplib::Server& server, ServiceContext* context,
                              const HttpOptions& options);

// A handler of one route; Route registers it for `method` ("GET" or "POST").
// A POST handler's request holds the body, read whatever its content type
// (curl -d sends JSON as a form) within the size limit, and nested no deeper
// than the JSON depth limit; past them it is answered 413 or 400 and never
// called.
using HandlerFn =
    std::function<void(ServiceContext* context, const httplib::Request& request,
                       httplib::Response& response)>;
void Route(httplib::Server& server, ServiceContext* context,
           const HttpOptions& options, const std::string& method,
           const std::string& path, HandlerFn handler);

// The common start of a POST handler: checks the bearer token and parses the
// body into `body`. On failure answers the error, records the call and
// returns false.
bool BeginCall(ServiceContext* context, const httplib::Request& request,
               httplib::Response& response, CallLog& call,
               google::protobuf::Message* body);

}  // namespace qs::server::http

#endif  // QS_SERVER_HTTP_HANDLERS_H_
