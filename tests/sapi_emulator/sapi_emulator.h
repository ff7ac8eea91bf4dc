// SapiEmulator: a local stand-in for D-Wave's Solver API that the production
// client talks to unchanged (docs/dwave-protocol.md §4.1, the fake-server
// contract): the Metadata API's region list, generated QPU solvers (Pegasus P16
// and Zephyr Z(12,4) with seeded broken qubits, the 4-qubit solver of the §1.7
// worked example, a small Chimera solver) plus a hybrid listing, X-Auth-Token
// authentication, media-type negotiation, submissions validated as strictly as
// SAPI validates them, a per-solver queue delay and run time, long polling,
// cancellation with SAPI's codes, answers computed on the submitted physical
// problem by the project's own samplers (exact enumeration up to 20 active
// qubits, simulated annealing above), fault injection and a request log for
// assertions.
//
// Runs in-process (tests: Start() on a loopback port, in a background thread)
// or as the qs_sapi_emulator binary. Control routes live outside the SAPI base
// path: POST /_emulator/faults, GET /_emulator/log, GET /_emulator/problems
// (every accepted problem with its params, h and J), POST /_emulator/reset,
// POST /_emulator/solvers/{name} ({"status": ..., "avg_load": ...}).
//
// Anneal controls (docs/dwave-protocol.md §6): anneal_schedule,
// h_gain_schedule, initial_state, reinitialize_state and flux_biases are
// checked by SAPI's rules; a reverse anneal starts every read from the
// submitted initial_state and anneals only as deep as the schedule's lowest s.
#ifndef QS_TESTS_SAPI_EMULATOR_SAPI_EMULATOR_H_
#define QS_TESTS_SAPI_EMULATOR_SAPI_EMULATOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "core/sample/dwave/qp_codec.h"

namespace qs::sapi_emulator {

struct SolverSpec {
  std::string name;
  std::string topology;  // "pegasus", "zephyr", "chimera", "clique" (the §1.7
                         // K4), "hybrid"
  std::vector<int> shape;
  uint64_t defect_seed = 0;    // 0: full yield
  double broken_qubits = 0;    // fraction of qubits removed
  double broken_couplers = 0;  // fraction of the remaining couplers removed
  double avg_load = 0;
};

struct Options {
  std::string host = "127.0.0.1";
  int port = 0;  // 0: any free port
  std::string base_path = "/sapi/v2/";
  std::vector<std::string> tokens = {"emulator-token"};
  // A token that authenticates but sees no solver (404 on fetch, 400 per job on
  // submit).
  std::string token_without_access;
  std::vector<SolverSpec>
      solvers;  // empty: the default catalogue (see DefaultSolvers)
  absl::Duration queue_delay =
      absl::Milliseconds(50);  // PENDING time of every problem
  absl::Duration run_time =
      absl::Milliseconds(50);  // IN_PROGRESS time at least
  bool complete_on_submit =
      false;  // answer inline in the POST response when solved in time
  absl::Duration retention =
      absl::Hours(1);  // afterwards a problem is gone (410)
  uint64_t seed = 1;
  int sweeps = 10000;  // simulated-annealing sweeps per read
  int threads = 2;
  // Anneal the clusters joined by a submission's most negative couplers (an
  // embedded problem's chains) as single spins; false: plain single-spin
  // annealing of the physical problem, where chains freeze early.
  bool chain_aware = true;
  double flip_probability =
      0;  // per qubit and read, after sampling (exercises chain breaks)
  bool omit_raw_occurrences =
      false;  // answer_mode raw without num_occurrences (§5.3)
};

std::vector<SolverSpec> DefaultSolvers();

// One handled request.
struct LogEntry {
  std::string method;
  std::string path;
  std::string query;
  int status = 0;
  std::string accept;
  bool authenticated = false;
  uint64_t body_hash = 0;
  std::string route;  // "submit", "poll", "problem", "answer", "cancel",
                      // "solvers", "solver", "regions", ...
};

// A problem the emulator accepted, as submitted (for assertions on gauges,
// initial states and schedules).
struct SubmittedProblem {
  std::string id;
  std::string solver;
  std::string type;
  std::string params_json;         // the job's params object
  dwave::PhysicalProblem problem;  // h / J (or Q) per active qubit / coupler
};

// Injected behaviour for the next `count` requests on `route` ("any" for every
// SAPI route).
struct Fault {
  std::string route = "any";
  // "status": answer http_status (with Retry-After when retry_after is set,
  // plain text when plain_text); "truncated": handle normally, send half the
  // JSON body; "slow": handle normally, answer after delay; "wrong_version":
  // handle normally, label the body version 4.0.0; "fail_problem" /
  // "cancel_problem": the next submitted problems end FAILED (with message) /
  // CANCELLED.
  std::string kind = "status";
  int http_status = 503;
  std::string retry_after;
  bool plain_text = false;
  std::string message;
  absl::Duration delay = absl::ZeroDuration();
  int count = 1;
};

class SapiEmulator {
 public:
  explicit SapiEmulator(Options options);
  ~SapiEmulator();
  SapiEmulator(const SapiEmulator&) = delete;
  SapiEmulator& operator=(const SapiEmulator&) = delete;

  // Binds and starts serving in a background thread.
  absl::Status Start();
  // Serves on the calling thread until Stop() (for the binary).
  absl::Status Run();
  void Stop();

  int port() const;
  // http://host:port/sapi/v2/ and http://host:port/metadata/v1/.
  std::string endpoint() const;
  std::string metadata_endpoint() const;

  void AddFault(Fault fault);
  void ClearFaults();
  std::vector<LogEntry> RequestLog() const;
  void ClearLog();
  // Every accepted problem since the start (or the last reset), in submission
  // order.
  std::vector<SubmittedProblem> Submissions() const;
  // Number of logged requests with this route and method.
  int CountRequests(absl::string_view route, absl::string_view method) const;
  absl::Status SetSolverStatus(absl::string_view name, absl::string_view status,
                               double avg_load = -1);
  // The working graph's graph_id of a solver.
  absl::StatusOr<std::string> GraphIdOf(absl::string_view name) const;
  // Status of a problem ("PENDING", ... ) as the emulator sees it now;
  // NOT_FOUND when unknown.
  absl::StatusOr<std::string> ProblemStatusOf(absl::string_view id) const;

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// Parses a Fault from its JSON form ({"route":..., "kind":...,
// "http_status":..., "retry_after":..., "plain_text":..., "message":...,
// "delay_ms":..., "count":...}).
absl::StatusOr<Fault> ParseFault(absl::string_view json);

}  // namespace qs::sapi_emulator

#endif  // QS_TESTS_SAPI_EMULATOR_SAPI_EMULATOR_H_
