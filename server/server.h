// Server: owns everything one qs_server process runs: the compute pool, the
// request pool, the solve engine and its registries, admission, metrics and
// their exposer, and the gRPC server with health and reflection. Start() binds
// and returns; Drain() shuts down gracefully: health turns NOT_SERVING, new
// calls get UNAVAILABLE, running solves get the grace period to finish and are
// then stopped (UNAVAILABLE), and the gRPC server shuts down.
#ifndef QS_SERVER_SERVER_H_
#define QS_SERVER_SERVER_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "core/solve/builtin_backends.h"
#include "core/solve/solve_engine.h"
#include "server/auth.h"
#include "server/http/http_server.h"

namespace qs::server {

struct ServerOptions {
  std::string address = "0.0.0.0:50051";         // port 0: pick a free one
  std::string metrics_address = "0.0.0.0:9464";  // empty: no /metrics endpoint
  int worker_threads = 0;           // compute threads; 0: one per core
  int max_concurrent_requests = 0;  // request threads; 0: 2 x worker threads
  int max_queued_requests = 64;     // admitted requests waiting beyond those
  int max_batch_in_flight =
      0;  // items of one SolveBatch stream at once; 0: request threads
  std::string instance_name;  // name in responses; empty: hostname:port
  int max_message_bytes = 64 << 20;
  absl::Duration keepalive_time = absl::Seconds(60);
  absl::Duration keepalive_timeout = absl::Seconds(20);
  SolveLimits limits;
  // Compiled problems kept for repeated puzzles; max_entries 0: no cache.
  CompileCacheOptions compile_cache;
  TlsOptions tls;
  std::string auth_token_file;  // empty: no token required
  // How often free heap memory is handed back to the system (glibc
  // malloc_trim), so that resident memory follows what is in use; zero: never.
  absl::Duration memory_trim_interval = absl::Seconds(10);
  // Settings a host passes to the backends instead of their own flags
  // (tests); the pool is the server's.
  BackendOptions backends;
  // The HTTP/JSON front (--http_* flags); off when its address is empty. It
  // uses the same TLS files and bearer token as gRPC.
  http::HttpOptions http;
};

class Server {
 public:
  static absl::StatusOr<std::unique_ptr<Server>> Start(
      const ServerOptions& options);
  ~Server();

  // Address clients can dial (the bound port), e.g. "127.0.0.1:39211".
  std::string address() const;
  int port() const;
  // Bound /metrics port, or 0 when metrics are off.
  int metrics_port() const;
  // Bound HTTP front port, or 0 when the HTTP front is off.
  int http_port() const;

  // Graceful shutdown; idempotent. Returns when the gRPC server has stopped.
  void Drain(absl::Duration grace);
  // Blocks until the gRPC server has shut down.
  void Wait();

 private:
  struct Impl;
  explicit Server(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace qs::server

#endif  // QS_SERVER_SERVER_H_
