// The D-Wave backend's server flags and their checks (dwave_flags.h).
#include "core/sample/dwave/dwave_flags.h"

#include <string>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/time/time.h"

// The D-Wave backend. The API token comes from the environment variable
// DWAVE_API_TOKEN or from --dwave_token_file, never from a flag (flags show in
// process listings).
// Each help string is also the "meaning" column of the D-Wave table in
// docs/operations.md (scripts/update-flag-docs.sh); "; empty: ..." says what
// the empty default stands for. A default is DwaveOptions' own
// (dwave_options.h), so that the flags and a host that passes DwaveOptions{}
// (tests) cannot disagree; the number is written there only.
ABSL_FLAG(std::string, dwave_endpoint, "",
          "SAPI base URL (e.g. https://na-west-1.cloud.dwavesys.com/sapi/v2/); "
          "wins over `--dwave_region`");
ABSL_FLAG(std::string, dwave_region, "",
          "D-Wave region code, resolved to an endpoint through the Metadata "
          "API; empty: na-west-1");
ABSL_FLAG(std::string, dwave_metadata_endpoint, "",
          "Metadata API base URL; empty: D-Wave's, "
          "https://cloud.dwavesys.com/metadata/v1/");
ABSL_FLAG(std::string, dwave_token_file, "",
          "File whose first line is the SAPI token, read when "
          "`DWAVE_API_TOKEN` is not set (the token is never a flag, never "
          "logged)");
ABSL_FLAG(std::string, dwave_solver, "",
          "Solver name; empty: the least-loaded online QPU solver of "
          "`--dwave_topology`");
ABSL_FLAG(std::string, dwave_topology, "",
          "Topology of the solver chosen when `--dwave_solver` is empty: "
          "pegasus, zephyr or chimera; empty: any");
ABSL_FLAG(double, dwave_chain_strength_prefactor,
          qs::DwaveOptions{}.chain_strength_prefactor,
          "Default prefactor of uniform torque compensation (the chain "
          "strength)");
ABSL_FLAG(double, dwave_embedding_timeout_seconds,
          absl::ToDoubleSeconds(qs::DwaveOptions{}.embedding_timeout),
          "Time budget of the minor-embedding heuristic, seconds");
ABSL_FLAG(int, dwave_embedding_cache_size,
          static_cast<int>(qs::DwaveOptions{}.embedding_cache_size),
          "Embeddings kept per (solver graph, problem graph)");
ABSL_FLAG(double, dwave_request_timeout_seconds,
          absl::ToDoubleSeconds(qs::DwaveOptions{}.request_timeout),
          "Read timeout of one SAPI request, seconds (long polls add their "
          "wait)");
ABSL_FLAG(double, dwave_solve_timeout_seconds,
          absl::ToDoubleSeconds(qs::DwaveOptions{}.solve_timeout),
          "Upper bound of a D-Wave solve when the call has no deadline, "
          "seconds");
ABSL_FLAG(int, dwave_poll_seconds, qs::DwaveOptions{}.poll_timeout_seconds,
          "Long-poll wait per SAPI status request, seconds, 1..30");
ABSL_FLAG(double, dwave_status_interval_seconds,
          absl::ToDoubleSeconds(qs::DwaveOptions{}.status_cache_ttl),
          "How often the D-Wave backend's availability (token, SAPI, solver) "
          "is probed in the background, seconds; requests and `ListBackends` "
          "read the last result and never wait on SAPI");

namespace qs {

absl::StatusOr<DwaveOptions> DwaveOptionsFromFlags() {
  DwaveOptions dwave;
  dwave.endpoint = absl::GetFlag(FLAGS_dwave_endpoint);
  dwave.region = absl::GetFlag(FLAGS_dwave_region);
  dwave.metadata_endpoint = absl::GetFlag(FLAGS_dwave_metadata_endpoint);
  dwave.token_file = absl::GetFlag(FLAGS_dwave_token_file);
  dwave.solver = absl::GetFlag(FLAGS_dwave_solver);
  dwave.topology = absl::GetFlag(FLAGS_dwave_topology);
  dwave.chain_strength_prefactor =
      absl::GetFlag(FLAGS_dwave_chain_strength_prefactor);
  const double embedding_timeout =
      absl::GetFlag(FLAGS_dwave_embedding_timeout_seconds);
  const double request_timeout =
      absl::GetFlag(FLAGS_dwave_request_timeout_seconds);
  const double solve_timeout = absl::GetFlag(FLAGS_dwave_solve_timeout_seconds);
  const int cache_size = absl::GetFlag(FLAGS_dwave_embedding_cache_size);
  dwave.poll_timeout_seconds = absl::GetFlag(FLAGS_dwave_poll_seconds);
  if (!(dwave.chain_strength_prefactor > 0)) {
    return absl::InvalidArgumentError(
        "--dwave_chain_strength_prefactor must be > 0");
  }
  if (!(embedding_timeout > 0) || !(request_timeout > 0) ||
      !(solve_timeout > 0)) {
    return absl::InvalidArgumentError(
        "--dwave_embedding_timeout_seconds, --dwave_request_timeout_seconds "
        "and --dwave_solve_timeout_seconds must be > 0");
  }
  if (cache_size < 1) {
    return absl::InvalidArgumentError(
        "--dwave_embedding_cache_size must be >= 1");
  }
  const double status_interval =
      absl::GetFlag(FLAGS_dwave_status_interval_seconds);
  if (!(status_interval > 0)) {
    return absl::InvalidArgumentError(
        "--dwave_status_interval_seconds must be > 0");
  }
  dwave.status_cache_ttl = absl::Seconds(status_interval);
  if (dwave.poll_timeout_seconds < 1 || dwave.poll_timeout_seconds > 30) {
    return absl::InvalidArgumentError("--dwave_poll_seconds must be 1..30");
  }
  if (!dwave.topology.empty() && dwave.topology != "pegasus" &&
      dwave.topology != "zephyr" && dwave.topology != "chimera") {
    return absl::InvalidArgumentError(
        "--dwave_topology must be pegasus, zephyr, chimera or empty");
  }
  dwave.embedding_timeout = absl::Seconds(embedding_timeout);
  dwave.request_timeout = absl::Seconds(request_timeout);
  dwave.solve_timeout = absl::Seconds(solve_timeout);
  dwave.embedding_cache_size = static_cast<size_t>(cache_size);
  return dwave;
}

}  // namespace qs
