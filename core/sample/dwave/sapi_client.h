// SapiClient: D-Wave's Solver API (SAPI) as the official client speaks it
// (docs/dwave-protocol.md §1): solver listing and fetching, problem
// submission (`POST problems/`, array form), long polling, answers and
// cancellation, with media-type versioning (§1.1), X-Auth-Token authentication
// (§1.2) and the retry policy of §1.9: connection failures and 429/503
// (honouring Retry-After, in seconds or as an HTTP date) are retried with
// exponential backoff and jitter for every method; read failures, 5xx and
// malformed bodies only for GET and DELETE, never for a submission that may
// have reached SAPI (no duplicate QPU charges). Every call is bounded by the
// caller's deadline and aborted when its interrupter fires. The token never
// appears in a status message.
//
// Also the endpoint resolution of §1.1 through the Metadata API (regions).
#ifndef QS_CORE_SAMPLE_DWAVE_SAPI_CLIENT_H_
#define QS_CORE_SAMPLE_DWAVE_SAPI_CLIENT_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "core/base/interrupter.h"
#include "core/sample/dwave/qp_codec.h"

namespace qs::dwave {

inline constexpr absl::string_view kDefaultMetadataEndpoint =
    "https://cloud.dwavesys.com/metadata/v1/";
inline constexpr absl::string_view kDefaultRegion = "na-west-1";
inline constexpr absl::string_view kDefaultSapiEndpoint =
    "https://cloud.dwavesys.com/sapi/";

// Bounds of one client call: an absolute deadline and an optional interrupter
// whose firing aborts it.
struct CallContext {
  absl::Time deadline = absl::InfiniteFuture();
  Interrupter* interrupter = nullptr;
};

// A solver definition (v3 representation). `identity_json` is the identity
// object exactly as received, echoed back in submissions.
struct SolverInfo {
  std::string name;
  std::string
      graph_id;  // empty for solvers without a versioned identity (hybrid)
  std::string identity_json;
  std::string status;  // "ONLINE", "OFFLINE" or empty when not listed
  double avg_load = 0;
  std::string description;
  std::string category;  // "qpu", "hybrid", "software"
  std::vector<std::string> supported_problem_types;
  int num_qubits = 0;
  std::vector<int> qubits;
  std::vector<std::pair<int, int>> couplers;
  std::string topology_type;
  std::vector<int> topology_shape;
  std::pair<double, double> h_range{-4, 4};
  std::pair<double, double> j_range{-1, 1};
  std::pair<double, double> extended_j_range{-1, 1};
  std::pair<int64_t, int64_t> num_reads_range{1, 10000};
  std::pair<double, double> annealing_time_range{0.5, 2000};
  double default_annealing_time = 20;
  double max_run_duration_us = 1e6;
  double default_programming_thermalization = 1000;
  double default_readout_thermalization = 0;
  std::vector<std::string> parameters;
  // Anneal controls (docs/dwave-protocol.md §6); 0 / nullopt when the solver
  // does not list them.
  int max_anneal_schedule_points = 0;
  int max_h_gain_schedule_points = 0;
  std::optional<std::pair<double, double>> h_gain_schedule_range;
  // Steepest |ds/dt| of a schedule segment (1/µs): the `max_slope` property
  // when listed, else 1 / the minimum anneal time.
  std::optional<double> max_slope;

  bool online() const { return status.empty() || status == "ONLINE"; }
};

// Parses a solver definition object (JSON text). INVALID_ARGUMENT naming the
// bad field.
absl::StatusOr<SolverInfo> ParseSolverInfo(absl::string_view json);

// One job of a submission.
struct ProblemJob {
  std::string solver_identity_json;
  std::string type = "ising";  // SAPI's problem type (QpProblemType)
  QpData data;
  std::string params_json = "{}";  // a JSON object
  std::string label;               // sent when not empty
};

struct ProblemAnswer {
  std::string format;  // "qp"
  QpAnswerFields fields;
  std::map<std::string, double> timing;  // µs
  std::optional<double> offset;          // when the answer carries one (§5.2)
};

struct ProblemStatus {
  std::string id;
  std::string status;  // PENDING, IN_PROGRESS, COMPLETED, FAILED, CANCELLED
  std::string type;
  std::string label;
  std::string error_message;
  std::string submitted_on;
  std::string solved_on;
  std::optional<ProblemAnswer> answer;

  bool terminal() const {
    return status == "COMPLETED" || status == "FAILED" || status == "CANCELLED";
  }
};

struct SapiClientOptions {
  std::string endpoint;  // SAPI base URL, e.g.
                         // https://na-west-1.cloud.dwavesys.com/sapi/v2/
  std::string token;
  absl::Duration connect_timeout = absl::Seconds(60);
  absl::Duration request_timeout =
      absl::Seconds(120);  // per request; above the long-poll wait
  int max_attempts = 8;
  absl::Duration backoff_base = absl::Milliseconds(100);
  absl::Duration backoff_max = absl::Seconds(30);
  absl::Duration retry_after_cap = absl::Hours(6);
  std::string user_agent = "qubo-solver/0.1";
};

class SapiClient {
 public:
  virtual ~SapiClient() = default;
  // `filter` is SAPI's field filter (§1.3), empty for everything.
  virtual absl::StatusOr<std::vector<SolverInfo>> ListSolvers(
      absl::string_view filter, const CallContext& ctx) = 0;
  virtual absl::StatusOr<SolverInfo> GetSolver(absl::string_view name,
                                               const CallContext& ctx) = 0;
  // One POST for all jobs. The outer status fails when the request as a whole
  // failed; each item is the job's status or its per-item error (error_code
  // mapped to a status code).
  virtual absl::StatusOr<std::vector<absl::StatusOr<ProblemStatus>>> Submit(
      const std::vector<ProblemJob>& jobs, const CallContext& ctx) = 0;
  // GET problems/?id=...&timeout=N: blocks up to N seconds (1..30) until one of
  // them is terminal.
  virtual absl::StatusOr<std::vector<ProblemStatus>> Poll(
      const std::vector<std::string>& ids, int timeout_seconds,
      const CallContext& ctx) = 0;
  virtual absl::StatusOr<ProblemAnswer> GetAnswer(absl::string_view id,
                                                  const CallContext& ctx) = 0;
  // DELETE problems/{id} for one id, DELETE problems/ with the list for
  // several. Problems already finished or in progress are not an error.
  virtual absl::Status Cancel(const std::vector<std::string>& ids,
                              const CallContext& ctx) = 0;
  virtual const std::string& endpoint() const = 0;
};

// The libcurl implementation. Thread-safe (one curl handle per request).
std::unique_ptr<SapiClient> NewCurlSapiClient(SapiClientOptions options);

struct EndpointResolution {
  std::string endpoint;
  std::string region;  // empty when the endpoint was given explicitly
  std::string
      warning;  // set when the Metadata API failed and the default was used
};

// §1.1: an explicit endpoint wins; the default region with the default metadata
// endpoint uses the global endpoint without asking; otherwise GET regions/ from
// the Metadata API and take the region's endpoint (fall back to the default
// endpoint with a warning when the API fails). INVALID_ARGUMENT for a region
// the Metadata API does not list.
absl::StatusOr<EndpointResolution> ResolveEndpoint(
    absl::string_view endpoint, absl::string_view region,
    absl::string_view metadata_endpoint, const SapiClientOptions& http,
    const CallContext& ctx);

// Parses a Retry-After value (delta seconds or an IMF-fixdate HTTP date)
// relative to `now`.
std::optional<absl::Duration> ParseRetryAfter(absl::string_view value,
                                              absl::Time now);

// Maps an HTTP status of SAPI to a status code (400 INVALID_ARGUMENT, 401
// UNAUTHENTICATED, 403 PERMISSION_DENIED, 404/410 NOT_FOUND, 409
// FAILED_PRECONDITION, 415 UNIMPLEMENTED, 429 RESOURCE_EXHAUSTED, 5xx
// UNAVAILABLE).
absl::StatusCode StatusCodeForHttp(int http_status);

}  // namespace qs::dwave

#endif  // QS_CORE_SAMPLE_DWAVE_SAPI_CLIENT_H_
