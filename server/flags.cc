// Flags of qs_server.
#include "server/flags.h"

#include <string>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "spdlog/spdlog.h"

ABSL_FLAG(std::string, address, "0.0.0.0:50051",
          "gRPC listen address host:port (port 0: any free port)");
ABSL_FLAG(std::string, metrics_address, "0.0.0.0:9464",
          "Prometheus /metrics address host:port; empty: off");
ABSL_FLAG(int, worker_threads, 0,
          "Compute threads shared by all requests; 0: one per core");
ABSL_FLAG(int, max_concurrent_requests, 0,
          "Requests running at once; 0: twice the compute threads");
ABSL_FLAG(int, max_queued_requests, 64,
          "Admitted requests that may wait for a request thread; beyond this, "
          "UNAVAILABLE");
ABSL_FLAG(int, max_batch_in_flight, 0,
          "Items of one SolveBatch stream running at once; 0: "
          "max_concurrent_requests");
ABSL_FLAG(std::string, instance_name, "",
          "Name of this process in responses; empty: hostname:port");
ABSL_FLAG(std::string, tls_cert_file, "",
          "PEM certificate chain of the server; empty: plaintext");
ABSL_FLAG(std::string, tls_key_file, "",
          "PEM private key of the server certificate");
ABSL_FLAG(std::string, tls_client_ca_file, "",
          "PEM CA bundle; when set, clients need a certificate it signed "
          "(mutual TLS)");
ABSL_FLAG(std::string, auth_token_file, "",
          "File holding a bearer token every Solver call must present; "
          "empty: none. Health stays open");
ABSL_FLAG(int64_t, max_variables, 200000,
          "Largest full puzzle model (variables) accepted");
ABSL_FLAG(int64_t, max_couplers, 20000000,
          "Largest reduced model (quadratic terms) accepted");
ABSL_FLAG(uint32_t, max_reads, 100000, "Largest num_reads accepted");
ABSL_FLAG(uint32_t, max_sweeps, 10000000, "Largest num_sweeps accepted");
ABSL_FLAG(double, max_attempts, 1e12,
          "Largest reads x sweeps x variables accepted per request");
ABSL_FLAG(int, max_message_mb, 64, "Largest gRPC message, MiB");
ABSL_FLAG(double, shutdown_grace_seconds, 10,
          "On SIGTERM/SIGINT, time running solves get to finish");
ABSL_FLAG(double, memory_trim_seconds, 10,
          "Hand free heap memory back to the system this often; 0: never");
ABSL_FLAG(std::string, log_level, "info",
          "trace, debug, info, warn, error or off");

namespace qs::server {

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
  options.limits.max_variables = absl::GetFlag(FLAGS_max_variables);
  options.limits.max_couplers = absl::GetFlag(FLAGS_max_couplers);
  options.limits.max_reads = absl::GetFlag(FLAGS_max_reads);
  options.limits.max_sweeps = absl::GetFlag(FLAGS_max_sweeps);
  options.limits.max_attempts = absl::GetFlag(FLAGS_max_attempts);
  if (options.limits.max_variables < 1 || options.limits.max_couplers < 0 ||
      options.limits.max_reads < 1 || options.limits.max_sweeps < 1 ||
      !(options.limits.max_attempts > 0)) {
    return absl::InvalidArgumentError(
        "--max_variables, --max_reads, --max_sweeps and --max_attempts must be "
        "> 0");
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
