// Unary RPCs (Compile, Validate, Count, Draw, ListBackends) and the probes.
#include <functional>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "qs/v1/solve.pb.h"
#include "server/http/guarded_server.h"
#include "server/http/handlers.h"
#include "server/http/http_call.h"
#include "server/http/openapi.h"
#include "server/solve_reactor.h"

namespace qs::server::http {
namespace {

using Work = std::function<absl::StatusOr<std::string>()>;

// Runs `work` (which answers the response's JSON) on the request pool under
// admission while this thread waits for it and watches the client, then
// answers and records the call. `interrupter`, when given, is stopped if the
// client leaves.
void RunUnary(ServiceContext* context, const httplib::Request& request,
              httplib::Response& response, const CallLog& call,
              Interrupter* interrupter, Work work) {
  if (absl::Status admitted = context->admission->Admit(); !admitted.ok()) {
    context->metrics->RecordRejected(call.method, "overloaded", "http");
    SendError(response, admitted);
    FinishCall(context, call, admitted);
    return;
  }
  auto channel = std::make_shared<JobChannel>();
  // `work` refers to this handler's locals: the wait below outlasts the job.
  context->request_pool->NewGroup()->Submit(
      [context, channel, work = std::move(work)] {
        absl::StatusOr<std::string> json;
        if (absl::Status started = context->admission->Start(); started.ok()) {
          json = work();
          context->admission->Finished(/*started=*/true);
        } else {
          json = std::move(started);
        }
        if (json.ok()) channel->Push(*std::move(json));
        channel->Close(json.status());
      });
  ClientWatch watch(request);
  AwaitJob(*channel, watch, interrupter, /*until_closed=*/true);
  const absl::Status status = channel->status();
  if (status.ok()) {
    SendJson(response, channel->Take().front());
  } else {
    SendError(response, status);
  }
  FinishCall(context, call, status);
}

// The JSON of a SolveEngine answer, or its error.
template <typename Response>
absl::StatusOr<std::string> JsonOf(absl::StatusOr<Response> response) {
  if (!response.ok()) return response.status();
  return ToJson(*response);
}

void HandleCompile(ServiceContext* context, const httplib::Request& request,
                   httplib::Response& response) {
  CallLog call = StartCall(request, "Compile");
  v1::CompileRequest body;
  if (!BeginCall(context, request, response, call, &body)) return;
  call.puzzle = PuzzleLabel(*context->engine, body.puzzle());
  RunUnary(context, request, response, call, nullptr,
           [&] { return JsonOf(context->engine->Compile(body)); });
}

void HandleValidate(ServiceContext* context, const httplib::Request& request,
                    httplib::Response& response) {
  CallLog call = StartCall(request, "Validate");
  v1::ValidateRequest body;
  if (!BeginCall(context, request, response, call, &body)) return;
  call.puzzle = PuzzleLabel(*context->engine, body.puzzle());
  RunUnary(context, request, response, call, nullptr,
           [&] { return JsonOf(context->engine->Validate(body)); });
}

void HandleDraw(ServiceContext* context, const httplib::Request& request,
                httplib::Response& response) {
  CallLog call = StartCall(request, "Draw");
  v1::DrawRequest body;
  if (!BeginCall(context, request, response, call, &body)) return;
  call.puzzle = PuzzleLabel(*context->engine, body.puzzle());
  RunUnary(context, request, response, call, nullptr,
           [&] { return JsonOf(context->engine->Draw(body)); });
}

void HandleCount(ServiceContext* context, const httplib::Request& request,
                 httplib::Response& response) {
  CallLog call = StartCall(request, "Count");
  v1::CountRequest body;
  if (!BeginCall(context, request, response, call, &body)) return;
  call.puzzle = PuzzleLabel(*context->engine, body.puzzle());
  Interrupter interrupter;
  RunUnary(context, request, response, call, &interrupter, [&] {
    context->Track(&interrupter);
    auto result = context->engine->Count(body, interrupter);
    context->Untrack(&interrupter);
    return JsonOf(std::move(result));
  });
}

std::string AsJson(const std::string& json) { return json; }
template <typename Message>
std::string AsJson(const Message& message) {
  return ToJson(message);
}

// A listing answered inline: ListBackends, ListFamilies, the OpenAPI
// document.
template <typename List>
void HandleListing(ServiceContext* context, const httplib::Request& request,
                   httplib::Response& response, const char* method, List list) {
  const CallLog call = StartCall(request, method);
  const absl::Status status = Authorize(context, request);
  if (status.ok()) {
    SendJson(response, AsJson(list()));
  } else {
    SendError(response, status);
  }
  FinishCall(context, call, status);
}

void HandleBackends(ServiceContext* context, const httplib::Request& request,
                    httplib::Response& response) {
  HandleListing(context, request, response, "ListBackends",
                [&] { return context->engine->ListBackends(); });
}

void HandleFamilies(ServiceContext* context, const httplib::Request& request,
                    httplib::Response& response) {
  HandleListing(context, request, response, "ListFamilies",
                [&] { return context->engine->ListFamilies(); });
}

// Liveness: the process answers. Readiness: it takes new work (not
// draining), as the gRPC health service says SERVING.
void HandleHealth(ServiceContext* context, bool readiness,
                  httplib::Response& response) {
  const bool serving = !readiness || !context->admission->draining();
  response.status = serving ? 200 : 503;
  response.set_content(
      absl::StrCat(R"({"status":")", serving ? "SERVING" : "NOT_SERVING",
                   R"(","running":)", context->admission->running(),
                   R"(,"queued":)", context->admission->queued(), "}\n"),
      "application/json");
}

void HandleLiveness(ServiceContext* context, const httplib::Request&,
                    httplib::Response& response) {
  HandleHealth(context, /*readiness=*/false, response);
}

void HandleReadiness(ServiceContext* context, const httplib::Request&,
                     httplib::Response& response) {
  HandleHealth(context, /*readiness=*/true, response);
}

}  // namespace

bool BeginCall(ServiceContext* context, const httplib::Request& request,
               httplib::Response& response, CallLog& call,
               google::protobuf::Message* body) {
  absl::Status status = Authorize(context, request);
  if (status.ok()) status = ParseJson(request.body, body);
  if (status.ok()) return true;
  SendError(response, status);
  FinishCall(context, call, status);
  return false;
}

namespace {

// Reads the body within the limit (the gate refused a declared size past
// it; this holds for chunked bodies too). False after answering the error.
bool ReadBody(ServiceContext* context, const HttpOptions& options,
              const httplib::Request& request, httplib::Response& response,
              const httplib::ContentReader& reader, std::string* body) {
  bool too_large = false;
  const bool read = reader([&](const char* data, size_t length) {
    if (body->size() + length > options.max_body_bytes) {
      too_large = true;
      return false;
    }
    body->append(data, length);
    return true;
  });
  absl::Status status;
  int http_status = 0;
  if (too_large) {
    status = BodyTooLarge(options.max_body_bytes);
    http_status = 413;
  } else if (!read) {
    status = absl::InvalidArgumentError(
        "body: incomplete (malformed chunks, or not sent within "
        "--http_body_timeout_seconds)");
  } else {
    status = CheckJsonDepth(*body, options.max_json_depth);
  }
  if (status.ok()) return true;
  // What is left of the body is never read: the connection closes.
  if (Connection* connection = CurrentConnection(); !read && connection) {
    connection->close_after = true;
    connection->linger = too_large;
  }
  SendError(response, status, http_status);
  if (!read) response.set_header("Connection", "close");
  return false;
}

}  // namespace

void Route(httplib::Server& server, ServiceContext* context,
           const HttpOptions& options, const std::string& method,
           const std::string& path, HandlerFn handler) {
  if (method == "GET") {
    server.Get(path, [context, handler](const httplib::Request& q,
                                        httplib::Response& r) {
      handler(context, q, r);
    });
    return;
  }
  server.Post(path, [context, options, handler](
                        const httplib::Request& q, httplib::Response& r,
                        const httplib::ContentReader& reader) {
    std::string body;
    if (!ReadBody(context, options, q, r, reader, &body)) return;
    httplib::Request with_body = q;
    with_body.body = std::move(body);
    handler(context, with_body, r);
  });
}

void RegisterRpcRoutes(httplib::Server& server, ServiceContext* context,
                       const HttpOptions& options) {
  Route(server, context, options, "POST", "/v1/compile", &HandleCompile);
  Route(server, context, options, "POST", "/v1/validate", &HandleValidate);
  Route(server, context, options, "POST", "/v1/count", &HandleCount);
  Route(server, context, options, "POST", "/v1/draw", &HandleDraw);
  Route(server, context, options, "GET", "/v1/backends", &HandleBackends);
  Route(server, context, options, "GET", "/v1/families", &HandleFamilies);
  // Generated once: the document depends on the protos and the backends'
  // parameter descriptions, not on the backends' state.
  Route(
      server, context, options, "GET", "/v1/openapi.json",
      [document = OpenApiDocument(context->engine->ListBackends())](
          ServiceContext* c, const httplib::Request& q, httplib::Response& r) {
        HandleListing(c, q, r, "OpenApi", [&] { return document; });
      });
  Route(server, context, options, "GET", "/healthz", &HandleLiveness);
  Route(server, context, options, "GET", "/readyz", &HandleReadiness);
}

}  // namespace qs::server::http
