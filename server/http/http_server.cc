// The HTTP front's lifecycle: the guarded cpp-httplib server (plain or TLS),
// its connection threads, limits, gate and routes, and the listener thread.
#include "server/http/http_server.h"

#include <httplib.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <thread>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "server/http/api_routes.h"
#include "server/http/guarded_server.h"
#include "server/http/handlers.h"
#include "server/http/http_call.h"
#include "server/http/http_status.h"
#include "spdlog/spdlog.h"

namespace qs::server::http {

struct HttpFront::Impl {
  explicit Impl(const ConnectionLimits& limits)
      : limits(limits), registry(limits) {}
  const ConnectionLimits limits;
  ConnectionRegistry registry;
  std::unique_ptr<httplib::Server> server;
  std::thread listener;
  std::atomic<bool> listener_ended{false};
};

namespace {

std::chrono::milliseconds Millis(absl::Duration d) {
  return std::chrono::milliseconds(absl::ToInt64Milliseconds(d));
}

ConnectionLimits LimitsOf(const HttpOptions& options) {
  ConnectionLimits limits;
  limits.max_connections = std::max(1, options.max_connections);
  limits.max_connections_per_client =
      std::max(1, options.max_connections_per_client);
  limits.idle_threads = std::max(0, options.threads);
  limits.keep_alive_timeout = Millis(options.keep_alive_timeout);
  limits.header_timeout = Millis(options.header_timeout);
  limits.body_timeout = Millis(options.body_timeout);
  limits.write_timeout = Millis(options.write_timeout);
  // Chunked framing around a body at the limit (chunks of a kilobyte or
  // more) stays well inside twice its size.
  limits.max_raw_body_bytes = 2 * options.max_body_bytes + (1 << 20);
  return limits;
}

absl::StatusOr<std::unique_ptr<httplib::Server>> MakeServer(
    const TlsOptions& tls, const ConnectionLimits& limits,
    ConnectionRegistry* registry) {
  if (tls.cert_file.empty())
    return std::make_unique<GuardedServer>(limits, registry);
  auto server = std::make_unique<GuardedSslServer>(
      limits, registry, tls.cert_file.c_str(), tls.key_file.c_str(),
      tls.client_ca_file.empty() ? nullptr : tls.client_ca_file.c_str());
  if (!server->is_valid()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--http_address: cannot use --tls_cert_file ",
                     tls.cert_file, " with its key (or client CA)"));
  }
  return server;
}

// Splits "host:port" ("[::1]:port" for IPv6).
absl::Status SplitAddress(const std::string& address, std::string* host,
                          int* port) {
  const size_t colon = address.rfind(':');
  if (colon == std::string::npos ||
      !absl::SimpleAtoi(address.substr(colon + 1), port) || *port < 0 ||
      *port > 65535) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--http_address: expected HOST:PORT, got '", address, "'"));
  }
  *host = address.substr(0, colon);
  if (host->size() >= 2 && host->front() == '[' && host->back() == ']')
    *host = host->substr(1, host->size() - 2);
  if (host->empty()) *host = "0.0.0.0";
  return absl::OkStatus();
}

// Errors cpp-httplib answers itself (unknown path, body too large ...) get
// Google's error object too.
void AnswerLibraryError(size_t max_body_bytes, const httplib::Request& request,
                        httplib::Response& response) {
  if (!response.body.empty()) return;
  const Connection* connection = CurrentConnection();
  if (response.status == 400 && connection != nullptr &&
      connection->body_too_large) {
    response.status = 413;
  }
  absl::StatusCode code = absl::StatusCode::kUnknown;
  std::string message = absl::StrCat("HTTP ", response.status);
  switch (response.status) {
    case 404:
      code = absl::StatusCode::kNotFound;
      message =
          absl::StrCat("no such endpoint: ", request.method, " ", request.path);
      break;
    case 413:
      code = absl::StatusCode::kResourceExhausted;
      message = std::string(BodyTooLarge(max_body_bytes).message());
      break;
    case 400:
      code = absl::StatusCode::kInvalidArgument;
      message = "malformed or incomplete HTTP request";
      break;
    default:
      break;
  }
  const absl::Status status(code, message);
  response.set_content(ErrorJson(status, response.status) + "\n",
                       "application/json");
}

// Before any body byte is read: the bearer token of the API's routes, then
// the declared body size and type.
bool RefuseAtGate(ServiceContext* context, const HttpOptions& options,
                  const httplib::Request& request,
                  httplib::Response& response) {
  absl::Status status;
  int http_status = 0;
  if (absl::StartsWith(request.path, "/v1/"))
    status = Authorize(context, request);
  if (status.ok() && request.has_header("Content-Length") &&
      std::strtoull(request.get_header_value("Content-Length").c_str(), nullptr,
                    10) > options.max_body_bytes) {
    status = BodyTooLarge(options.max_body_bytes);
    http_status = 413;
  }
  if (status.ok() && request.is_multipart_form_data()) {
    status = absl::InvalidArgumentError(
        "body: multipart forms are not read; send the JSON with "
        "'Content-Type: application/json'");
    http_status = 415;
  }
  if (status.ok()) return false;
  SendError(response, status, http_status);
  if (const std::string method = MethodOf(request.path); !method.empty())
    FinishCall(context, StartCall(request, method), status);
  return true;
}

}  // namespace

absl::StatusOr<std::unique_ptr<HttpFront>> HttpFront::Start(
    const HttpOptions& options, const TlsOptions& tls,
    ServiceContext* context) {
  std::string host;
  int port = 0;
  if (absl::Status s = SplitAddress(options.address, &host, &port); !s.ok())
    return s;
  // OpenSSL writes with write(2): a peer that left would raise SIGPIPE and
  // end the process.
  std::signal(SIGPIPE, SIG_IGN);
  auto impl = std::make_unique<Impl>(LimitsOf(options));
  auto server = MakeServer(tls, impl->limits, &impl->registry);
  if (!server.ok()) return server.status();
  impl->server = *std::move(server);
  httplib::Server& http = *impl->server;
  const ConnectionLimits& limits = impl->limits;
  // A thread per connection; twice the connection bound leaves room for
  // the threads of evicted connections that are still closing.
  http.new_task_queue = [&limits] {
    return new ConnectionThreads(2 * limits.max_connections,
                                 limits.idle_threads);
  };
  http.set_payload_max_length(options.max_body_bytes);
  http.set_keep_alive_timeout(
      std::max<int64_t>(1, absl::ToInt64Seconds(options.keep_alive_timeout)));
  http.set_keep_alive_max_count(100);
  http.set_error_handler([max = options.max_body_bytes](
                             const httplib::Request& q, httplib::Response& r) {
    AnswerLibraryError(max, q, r);
  });
  InstallGate(
      http, limits,
      [context, options](const httplib::Request& q, httplib::Response& r) {
        return RefuseAtGate(context, options, q, r);
      });
  // SO_REUSEADDR only: cpp-httplib's default adds SO_REUSEPORT, with which a
  // second server on the same port would bind too and share its connections.
  http.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  RegisterRpcRoutes(http, context, options);
  RegisterStreamRoutes(http, context, options);
  RegisterPlaygroundRoutes(http, context, options);
  const int bound = port == 0 ? http.bind_to_any_port(host)
                              : (http.bind_to_port(host, port) ? port : -1);
  if (bound <= 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot listen on ", options.address, " (HTTP)"));
  }
  // cpp-httplib listens with a backlog of 5: a burst of connections would
  // wait for SYN retries.
  ::listen(ListeningSocket(http), SOMAXCONN);
  impl->listener = std::thread([&http, ended = &impl->listener_ended] {
    http.listen_after_bind();
    *ended = true;
  });
  // A stop() before the listener runs would be lost (cpp-httplib only stops
  // a running server), so Start returns once it runs.
  while (!http.is_running() && !impl->listener_ended)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  spdlog::info(
      "HTTP front on {} (port {}), up to {} connections ({} per client), "
      "tls {}",
      options.address, bound, limits.max_connections,
      limits.max_connections_per_client, tls.cert_file.empty() ? "off" : "on");
  return std::unique_ptr<HttpFront>(new HttpFront(std::move(impl), bound));
}

HttpFront::HttpFront(std::unique_ptr<Impl> impl, int port)
    : impl_(std::move(impl)), port_(port) {}

HttpFront::~HttpFront() { Stop(); }

void HttpFront::Stop() {
  if (!impl_->listener.joinable()) return;
  impl_->server->stop();
  // Connections between requests would wait for their keep-alive timeout.
  impl_->registry.ShutdownIdle();
  // listen_after_bind returns once every connection thread has finished;
  // an answer its client does not read would hold one for the write
  // timeout: after a second, every connection is cut.
  for (int k = 0; k < 100 && !impl_->listener_ended; ++k)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (!impl_->listener_ended) impl_->registry.ShutdownAll();
  impl_->listener.join();
}

}  // namespace qs::server::http
