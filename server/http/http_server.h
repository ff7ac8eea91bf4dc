// HttpFront: the HTTP/1.1 + JSON front of qs_server, a sibling of the gRPC
// service over the same ServiceContext (engine, request pool, admission,
// metrics, bearer token). It serves the RPCs as JSON (protobuf's JSON
// mapping), the probes and the playground; see handlers.h for the routes.
// Built on cpp-httplib, guarded (guarded_server.h): a thread per connection,
// bounded connections per client, deadlines for heads and bodies, the token
// and the body size checked before a body is read; TLS from the server's
// certificate flags. docs/http-limits.md lists the limits.
#ifndef QS_SERVER_HTTP_HTTP_SERVER_H_
#define QS_SERVER_HTTP_HTTP_SERVER_H_

#include <cstddef>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "server/auth.h"
#include "server/service_context.h"

namespace qs::server::http {

struct HttpOptions {
  std::string address;  // host:port (port 0: any free port); empty: off
  int threads = 8;      // connection threads kept waiting for connections
  size_t max_body_bytes = size_t{16} << 20;
  int max_connections = 1024;            // open at once, all clients
  int max_connections_per_client = 256;  // open at once from one address
  absl::Duration header_timeout = absl::Seconds(10);  // whole request head
  absl::Duration body_timeout = absl::Seconds(60);    // whole request body
  absl::Duration write_timeout = absl::Seconds(10);   // one blocked write
  absl::Duration keep_alive_timeout = absl::Seconds(5);
  int max_json_depth = 64;  // nesting of arrays and objects in a body
  // Largest answer built whole (?stream=false).
  size_t max_answer_bytes = size_t{64} << 20;
};

class HttpFront {
 public:
  // Binds and starts serving. UNAVAILABLE when the address cannot be bound,
  // INVALID_ARGUMENT for unusable TLS files.
  static absl::StatusOr<std::unique_ptr<HttpFront>> Start(
      const HttpOptions& options, const TlsOptions& tls,
      ServiceContext* context);
  ~HttpFront();

  int port() const { return port_; }
  // Closes the listening socket and waits for the requests being served;
  // idempotent.
  void Stop();

 private:
  struct Impl;
  explicit HttpFront(std::unique_ptr<Impl> impl, int port);
  std::unique_ptr<Impl> impl_;
  int port_;
};

}  // namespace qs::server::http

#endif  // QS_SERVER_HTTP_HTTP_SERVER_H_
