// Flags of qs_server.
#include "server/flags.h"

#include <cmath>
#include <string>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "spdlog/spdlog.h"

// Each help string is also the "meaning" column of the flag tables in the docs
// (scripts/update-flag-docs.sh): it says what the flag bounds, its unit, and,
// in a clause "; 0: ..." or "; empty: ...", what a default of 0 or empty
// stands for; the tables show that text beside the default.
ABSL_FLAG(std::string, address, "0.0.0.0:50051",
          "gRPC listen address host:port (port 0: any free port)");
ABSL_FLAG(std::string, metrics_address, "0.0.0.0:9464",
          "Prometheus `/metrics` address host:port; empty: off");
ABSL_FLAG(int, worker_threads, 0,
          "Compute threads shared by every request (reads are spread over "
          "them round-robin between requests); 0: one per core");
ABSL_FLAG(int, max_concurrent_requests, 0,
          "Requests running at once; 0: twice the compute threads");
ABSL_FLAG(int, max_queued_requests, 64,
          "Admitted requests that may wait for a request thread beyond those "
          "running; past this, `UNAVAILABLE` at once");
ABSL_FLAG(int, max_batch_in_flight, 0,
          "Items of one `SolveBatch` stream running at once (each also takes "
          "an admission slot; past the queue, the item's result is "
          "`UNAVAILABLE`); 0: `--max_concurrent_requests`");
ABSL_FLAG(std::string, instance_name, "",
          "Name of this process in `BatchResult.server_instance` and "
          "`SolveHeader.server_instance`; empty: hostname:port");
ABSL_FLAG(std::string, tls_cert_file, "",
          "PEM certificate chain of the server, for gRPC and HTTP alike; "
          "empty: plaintext");
ABSL_FLAG(std::string, tls_key_file, "",
          "PEM private key of the server certificate (needs "
          "`--tls_cert_file`)");
ABSL_FLAG(std::string, tls_client_ca_file, "",
          "PEM CA bundle; when set, clients need a certificate it signed "
          "(mutual TLS; needs `--tls_cert_file`)");
ABSL_FLAG(std::string, auth_token_file, "",
          "File holding a bearer token every Solver call and `/v1/*` HTTP "
          "route must present (health and the probes stay open); empty: none");
ABSL_FLAG(std::string, http_address, "",
          "HTTP/JSON front and playground address host:port (port 0: any "
          "free port), using the `--tls_*` files and the bearer token as gRPC "
          "does; empty: off");
ABSL_FLAG(int, http_threads, 8,
          "HTTP connection threads kept waiting for new connections (each "
          "connection gets a thread of its own, up to "
          "`--http_max_connections`), 0..1024");
ABSL_FLAG(int, http_max_body_mb, 16,
          "Largest HTTP request body, MiB of decoded bytes, chunked or "
          "compressed bodies included (larger: 413; a larger declared "
          "`Content-Length` is refused before the body is read)");
ABSL_FLAG(int, http_max_connections, 1024,
          "HTTP connections open at once, all clients; at the bound the "
          "oldest idle one is closed, else the new one gets 503");
ABSL_FLAG(int, http_max_connections_per_client, 256,
          "HTTP connections open at once from one client address; at the "
          "bound that client's oldest idle one is closed");
ABSL_FLAG(double, http_header_timeout_seconds, 10,
          "Time for a request's line and headers (64 KiB at most), seconds, "
          "from the connection (or the previous answer) on; past it the "
          "connection closes");
ABSL_FLAG(double, http_body_timeout_seconds, 60,
          "Time for a whole request body once its headers are in, seconds");
ABSL_FLAG(double, http_write_timeout_seconds, 10,
          "Time one write of an answer may stay blocked (a client that does "
          "not read), seconds; past it the call is cancelled (`CANCELLED`)");
ABSL_FLAG(double, http_keep_alive_seconds, 5,
          "Time an idle keep-alive HTTP connection stays open between "
          "requests, seconds");
ABSL_FLAG(int, http_max_json_depth, 64,
          "Deepest nesting of JSON arrays and objects in an HTTP body, checked "
          "before it is parsed (deeper: 400)");
ABSL_FLAG(int, http_max_answer_mb, 64,
          "Largest answer built whole (`?stream=false`), MiB, estimated from "
          "`params.max_sample_events` before the solve (larger: "
          "`RESOURCE_EXHAUSTED`, 429)");
ABSL_FLAG(int64_t, max_variables, 2000000,
          "Largest full puzzle model accepted, variables (larger: "
          "`RESOURCE_EXHAUSTED`). 2e6 is twice a 10^6-spin sparse Ising model "
          "(a 1000 x 1000 lattice); the model's own memory is bounded by "
          "--max_model_mb and --max_couplers, and beyond it each read in "
          "flight takes a byte per variable and each streamed sample about "
          "two, which keeps a 10^6-spin solve near 1.2 GB of peak memory");
ABSL_FLAG(int64_t, max_couplers, 20000000,
          "Largest reduced model accepted, quadratic terms (larger: "
          "`RESOURCE_EXHAUSTED`)");
ABSL_FLAG(int64_t, max_model_mb, 512,
          "Largest memory to build one model, MiB, estimated from its "
          "variables and couplers before it is built, over gRPC as over HTTP "
          "(larger: `RESOURCE_EXHAUSTED`)");
ABSL_FLAG(uint32_t, max_reads, 100000,
          "Largest `num_reads` accepted (larger: `INVALID_ARGUMENT`)");
ABSL_FLAG(uint32_t, max_sweeps, 10000000,
          "Largest `num_sweeps` accepted (larger: `INVALID_ARGUMENT`)");
ABSL_FLAG(double, max_attempts, 1e12,
          "Largest reads x sweeps x variables per request, times `pt`'s "
          "replicas or `sqa`'s Trotter slices: over it a request without a "
          "time limit gets `RESOURCE_EXHAUSTED`, one with a time limit runs "
          "with its reads clamped (`SolveSummary.budget_clamped`)");
ABSL_FLAG(double, max_time_limit_seconds, 3600,
          "Largest `time_limit_seconds` of a request, seconds (larger: "
          "`INVALID_ARGUMENT`)");
ABSL_FLAG(int64_t, compile_cache_entries, 256,
          "Compiled problems kept for puzzles that come again (byte-identical "
          "`PuzzleSpec` and `CompileOptions`; least recently used leave "
          "first); a hit skips compiling and shows as "
          "`CompileStats.from_cache`; 0: no cache");
ABSL_FLAG(int64_t, compile_cache_mb, 256,
          "Memory the compile cache may hold, MiB (approximate); a larger "
          "problem is not kept");
ABSL_FLAG(int, max_message_mb, 64, "Largest gRPC message, MiB, 1..1024");
ABSL_FLAG(double, shutdown_grace_seconds, 10,
          "On SIGTERM/SIGINT: health turns NOT_SERVING, new calls get "
          "`UNAVAILABLE`, running and queued solves get this long, seconds; "
          "then queued ones never start and running ones stop, both "
          "`UNAVAILABLE`");
ABSL_FLAG(double, memory_trim_seconds, 10,
          "How often free heap memory is handed back to the system (glibc "
          "`malloc_trim`), seconds, so that resident memory follows what is in "
          "use after bursts; 0: never");
ABSL_FLAG(std::string, log_level, "info",
          "spdlog level: trace, debug, info, warn, error or off; info logs "
          "one line per request (method, request id, puzzle, variables, "
          "backend, status, duration)");

namespace qs::server {

namespace {

// A flag's value in seconds as a duration: positive and at most a day.
absl::StatusOr<absl::Duration> SecondsFlag(double seconds, const char* name) {
  if (!(seconds > 0) || seconds > 86400) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", name, " must be in (0, 86400], got ", seconds));
  }
  return absl::Seconds(seconds);
}

absl::Status HttpLimitsFromFlags(http::HttpOptions& http) {
  http.max_connections = absl::GetFlag(FLAGS_http_max_connections);
  http.max_connections_per_client =
      absl::GetFlag(FLAGS_http_max_connections_per_client);
  if (http.max_connections < 1 || http.max_connections > 65536)
    return absl::InvalidArgumentError(
        "--http_max_connections must be 1..65536");
  if (http.max_connections_per_client < 1)
    return absl::InvalidArgumentError(
        "--http_max_connections_per_client must be >= 1");
  const std::pair<double, absl::Duration*> timeouts[] = {
      {absl::GetFlag(FLAGS_http_header_timeout_seconds), &http.header_timeout},
      {absl::GetFlag(FLAGS_http_body_timeout_seconds), &http.body_timeout},
      {absl::GetFlag(FLAGS_http_write_timeout_seconds), &http.write_timeout},
      {absl::GetFlag(FLAGS_http_keep_alive_seconds), &http.keep_alive_timeout}};
  const char* names[] = {
      "http_header_timeout_seconds", "http_body_timeout_seconds",
      "http_write_timeout_seconds", "http_keep_alive_seconds"};
  for (int k = 0; k < 4; ++k) {
    auto d = SecondsFlag(timeouts[k].first, names[k]);
    if (!d.ok()) return d.status();
    *timeouts[k].second = *d;
  }
  http.max_json_depth = absl::GetFlag(FLAGS_http_max_json_depth);
  if (http.max_json_depth < 1 || http.max_json_depth > 10000)
    return absl::InvalidArgumentError("--http_max_json_depth must be 1..10000");
  const int answer_mb = absl::GetFlag(FLAGS_http_max_answer_mb);
  if (answer_mb < 1 || answer_mb > 4096)
    return absl::InvalidArgumentError("--http_max_answer_mb must be 1..4096");
  http.max_answer_bytes = static_cast<size_t>(answer_mb) << 20;
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ServerOptions> OptionsFromFlags() {
  ServerOptions options;
  options.address = absl::GetFlag(FLAGS_address);
  options.metrics_address = absl::GetFlag(FLAGS_metrics_address);
  options.worker_threads = absl::GetFlag(FLAGS_worker_threads);
  options.max_concurrent_requests =
      absl::GetFlag(FLAGS_max_concurrent_requests);
  options.max_queued_requests = absl::GetFlag(FLAGS_max_queued_requests);
  options.max_batch_in_flight = absl::GetFlag(FLAGS_max_batch_in_flight);
  options.instance_name = absl::GetFlag(FLAGS_instance_name);
  options.tls.cert_file = absl::GetFlag(FLAGS_tls_cert_file);
  options.tls.key_file = absl::GetFlag(FLAGS_tls_key_file);
  options.tls.client_ca_file = absl::GetFlag(FLAGS_tls_client_ca_file);
  options.auth_token_file = absl::GetFlag(FLAGS_auth_token_file);
  options.http.address = absl::GetFlag(FLAGS_http_address);
  options.http.threads = absl::GetFlag(FLAGS_http_threads);
  const int body_mb = absl::GetFlag(FLAGS_http_max_body_mb);
  if (options.http.threads < 0 || options.http.threads > 1024)
    return absl::InvalidArgumentError("--http_threads must be 0..1024");
  if (body_mb < 1 || body_mb > 1024)
    return absl::InvalidArgumentError("--http_max_body_mb must be 1..1024");
  options.http.max_body_bytes = static_cast<size_t>(body_mb) << 20;
  if (absl::Status s = HttpLimitsFromFlags(options.http); !s.ok()) return s;
  if (options.max_batch_in_flight < 0)
    return absl::InvalidArgumentError("--max_batch_in_flight must be >= 0");
  const int message_mb = absl::GetFlag(FLAGS_max_message_mb);
  if (message_mb < 1 || message_mb > 1024) {
    return absl::InvalidArgumentError(
        absl::StrCat("--max_message_mb must be 1..1024, got ", message_mb));
  }
  options.max_message_bytes = message_mb << 20;
  if (options.worker_threads < 0)
    return absl::InvalidArgumentError("--worker_threads must be >= 0");
  if (options.max_concurrent_requests < 0) {
    return absl::InvalidArgumentError("--max_concurrent_requests must be >= 0");
  }
  if (options.max_queued_requests < 0)
    return absl::InvalidArgumentError("--max_queued_requests must be >= 0");
  const double trim_seconds = absl::GetFlag(FLAGS_memory_trim_seconds);
  if (!(trim_seconds >= 0))
    return absl::InvalidArgumentError("--memory_trim_seconds must be >= 0");
  options.memory_trim_interval = absl::Seconds(trim_seconds);
  options.compile_cache.max_entries =
      absl::GetFlag(FLAGS_compile_cache_entries);
  options.compile_cache.max_bytes = absl::GetFlag(FLAGS_compile_cache_mb) << 20;
  if (options.compile_cache.max_entries < 0 ||
      absl::GetFlag(FLAGS_compile_cache_mb) < 0 ||
      absl::GetFlag(FLAGS_compile_cache_mb) > (int64_t{1} << 30)) {
    return absl::InvalidArgumentError(
        "--compile_cache_entries and --compile_cache_mb must be >= 0 (MiB "
        "at most 2^30)");
  }
  options.limits.max_variables = absl::GetFlag(FLAGS_max_variables);
  options.limits.max_couplers = absl::GetFlag(FLAGS_max_couplers);
  options.limits.max_model_bytes = absl::GetFlag(FLAGS_max_model_mb) << 20;
  if (options.limits.max_model_bytes < (int64_t{1} << 20) ||
      options.limits.max_model_bytes > (int64_t{1} << 50))
    return absl::InvalidArgumentError("--max_model_mb must be >= 1");
  options.limits.max_reads = absl::GetFlag(FLAGS_max_reads);
  options.limits.max_sweeps = absl::GetFlag(FLAGS_max_sweeps);
  options.limits.max_attempts = absl::GetFlag(FLAGS_max_attempts);
  options.limits.max_time_limit_seconds =
      absl::GetFlag(FLAGS_max_time_limit_seconds);
  if (options.limits.max_variables < 1 || options.limits.max_couplers < 0 ||
      options.limits.max_reads < 1 || options.limits.max_sweeps < 1 ||
      !(options.limits.max_attempts > 0) ||
      !(options.limits.max_time_limit_seconds > 0) ||
      !std::isfinite(options.limits.max_time_limit_seconds)) {
    return absl::InvalidArgumentError(
        "--max_variables, --max_reads, --max_sweeps, --max_attempts and "
        "--max_time_limit_seconds must be > 0 (and finite)");
  }
  return options;
}

absl::Duration ShutdownGraceFromFlags() {
  return absl::Seconds(
      std::max(0.0, absl::GetFlag(FLAGS_shutdown_grace_seconds)));
}

absl::Status ConfigureLoggingFromFlags() {
  const std::string level_name = absl::GetFlag(FLAGS_log_level);
  const spdlog::level::level_enum level = spdlog::level::from_str(level_name);
  if (level == spdlog::level::off && level_name != "off") {
    return absl::InvalidArgumentError(
        absl::StrCat("--log_level: unknown level '", level_name, "'"));
  }
  spdlog::set_level(level);
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e%z %^%l%$ %v");
  return absl::OkStatus();
}

}  // namespace qs::server
