// The HTTP front's lifecycle: the cpp-httplib server (plain or TLS), its
// thread pool, limits and routes, and the listener thread.
#include "server/http/http_server.h"

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "server/http/handlers.h"
#include "server/http/http_status.h"
#include "spdlog/spdlog.h"

namespace qs::server::http {

struct HttpFront::Impl {
  std::unique_ptr<httplib::Server> server;
  std::thread listener;
  std::atomic<bool> listener_ended{false};
};

namespace {

absl::StatusOr<std::unique_ptr<httplib::Server>> MakeServer(
    const TlsOptions& tls) {
  if (tls.cert_file.empty()) return std::make_unique<httplib::Server>();
  auto server = std::make_unique<httplib::SSLServer>(
      tls.cert_file.c_str(), tls.key_file.c_str(),
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
void AnswerLibraryError(const httplib::Request& request,
                        httplib::Response& response) {
  if (!response.body.empty()) return;
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
      message = "body: larger than this server's --http_max_body_mb";
      break;
    case 400:
      code = absl::StatusCode::kInvalidArgument;
      message = "malformed HTTP request";
      break;
    default:
      break;
  }
  const absl::Status status(code, message);
  response.set_content(ErrorJson(status) + "\n", "application/json");
}

}  // namespace

absl::StatusOr<std::unique_ptr<HttpFront>> HttpFront::Start(
    const HttpOptions& options, const TlsOptions& tls,
    ServiceContext* context) {
  std::string host;
  int port = 0;
  if (absl::Status s = SplitAddress(options.address, &host, &port); !s.ok())
    return s;
  auto impl = std::make_unique<Impl>();
  auto server = MakeServer(tls);
  if (!server.ok()) return server.status();
  impl->server = *std::move(server);
  httplib::Server& http = *impl->server;
  const size_t threads = static_cast<size_t>(std::max(1, options.threads));
  http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  http.set_payload_max_length(options.max_body_bytes);
  http.set_keep_alive_timeout(5);
  http.set_error_handler(AnswerLibraryError);
  // SO_REUSEADDR only: cpp-httplib's default adds SO_REUSEPORT, with which a
  // second server on the same port would bind too and share its connections.
  http.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  RegisterRpcRoutes(http, context);
  RegisterStreamRoutes(http, context);
  RegisterPlaygroundRoutes(http, context);
  const int bound = port == 0 ? http.bind_to_any_port(host)
                              : (http.bind_to_port(host, port) ? port : -1);
  if (bound <= 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot listen on ", options.address, " (HTTP)"));
  }
  impl->listener = std::thread([&http, ended = &impl->listener_ended] {
    http.listen_after_bind();
    *ended = true;
  });
  // A stop() before the listener runs would be lost (cpp-httplib only stops
  // a running server), so Start returns once it runs.
  while (!http.is_running() && !impl->listener_ended)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  spdlog::info("HTTP front on {} (port {}), {} threads, tls {}",
               options.address, bound, threads,
               tls.cert_file.empty() ? "off" : "on");
  return std::unique_ptr<HttpFront>(new HttpFront(std::move(impl), bound));
}

HttpFront::HttpFront(std::unique_ptr<Impl> impl, int port)
    : impl_(std::move(impl)), port_(port) {}

HttpFront::~HttpFront() { Stop(); }

void HttpFront::Stop() {
  if (!impl_->listener.joinable()) return;
  impl_->server->stop();
  // listen_after_bind returns once its thread pool has finished the
  // requests in hand.
  impl_->listener.join();
}

}  // namespace qs::server::http
