// Backend: the one interface of everything that answers a Solve — QUBO
// samplers (cpu-sa, exact enumeration), the puzzle-rules solver (sat), remote
// QPUs (dwave). The solve engine knows backends only through this interface
// and the BackendRegistry: each backend checks and maps its own parameter
// message (the SolveParams.backend_params oneof), says what it can do
// (capabilities), reports its own part of the summary (BackendInfo) and
// declares and records its own metrics. Its parameters are declared once, in
// its message's proto, as a (qs.v1.param) option on each field
// (param_schema.h). A new backend is one folder (core/sample/<name>/: class,
// kernel, README), its message in solve.proto and one line in
// RegisterBuiltinBackends. Backends are shared by all requests:
// every method must be thread-safe, and none but Solve and RefreshAvailability
// may block.
#ifndef QS_CORE_BACKEND_BACKEND_H_
#define QS_CORE_BACKEND_BACKEND_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "core/backend/metrics.h"
#include "core/backend/param_schema.h"
#include "core/base/interrupter.h"
#include "core/compile/compiler.h"
#include "qs/v1/solve.pb.h"

namespace qs {

// One finished read (or board), over the reduced model's variables.
struct Sample {
  std::vector<uint8_t> bits;  // one byte (0/1) per model variable
  double energy = 0;          // model energy, offset included
  uint32_t read_index = 0;
  uint64_t num_occurrences = 1;
};

// Receives reads as they finish. OnSample may be called from several threads
// at once.
class SampleSink {
 public:
  virtual ~SampleSink() = default;
  virtual void OnSample(Sample sample) = 0;
  // Whether the board of a state of the model's variables is valid, without
  // reporting it as a read: for a backend that weighs states it does not draw
  // (qaoa's probability of the valid boards). nullopt from a sink that does
  // not decode boards.
  virtual std::optional<bool> IsValidBoard(const std::vector<uint8_t>& bits) {
    return std::nullopt;
  }
};

// What a backend can do; read where it matters (request checks, ListBackends,
// the conformance suite).
struct BackendCapabilities {
  bool exact = false;          // finds the ground states (or proves none)
  bool deterministic = false;  // same seed, same samples
  bool interruptible = true;   // cancel, deadline and time limit stop it
  bool remote = false;         // work leaves the machine
  bool rules = false;          // works on the puzzle's rules, not its QUBO
  bool higher_order = false;   // takes CompiledProblem::higher_order models
  // Sizes its reads and sweeps itself (auto's rounds): the request's are
  // bounds, not what runs, and SolveHeader reports none.
  bool sizes_own_rounds = false;
  int max_variables = 0;  // reduced-model variables; 0: no own limit
};

// The server's limits a backend checks its own parameters against.
struct ParamLimits {
  uint32_t max_reads = 100000;
  uint32_t max_sweeps = 10000000;
};

// The work of one solve, as the engine hands it over.
struct BackendJob {
  const v1::PuzzleSpec* spec = nullptr;
  const CompiledProblem* problem = nullptr;  // problem->model is sampled
  const v1::SolveParams* params = nullptr;   // the backend reads its message
  int num_reads = 100;
  int num_sweeps = 1000;
  uint64_t seed = 0;
  // Energy (offset included) at or below which a read ends the solve.
  std::optional<double> target_energy;
  // Starting states over the reduced variables, cycled over the reads.
  std::vector<std::vector<uint8_t>> initial_states;
};

// Reads and sweeps of a job: what the engine reports in the header and weighs
// against the server's budget.
struct JobBudget {
  int num_reads = 100;
  int num_sweeps = 1000;
  // Proposals per variable in one sweep of one read: pt's replicas, sqa's
  // Trotter slices.
  int proposals_per_variable = 1;
};

// What a finished (or stopped) job reports.
struct BackendResult {
  // kNone: every read ran to the end.
  StopReason stop_reason = StopReason::kNone;
  int reads_done = 0;
  // Reads delivered as they stood when the time limit, the deadline or a
  // cancel stopped them mid-schedule.
  int reads_cut_short = 0;
  int64_t sweeps_done = 0;
  int64_t spin_update_attempts = 0;
  int64_t accepted_flips = 0;
  uint64_t seed = 0;
  absl::Duration elapsed;
  // CPU time of the backend's kernels summed over threads (zero when not
  // measured).
  absl::Duration cpu_time;
  // Time on a remote device billed to this job (a QPU's access time); zero
  // for backends that run here.
  absl::Duration device_time;
  // The backend's own part of the summary (the engine sets info.name).
  v1::BackendInfo info;
  // What an exact rules backend proved (status, uniqueness, encoding size).
  std::optional<v1::ExactSummary> exact;
  // The backend that delivered the best sample, for a backend that runs
  // others ("auto"); empty: this backend.
  std::string solved_by;
};

class Backend {
 public:
  virtual ~Backend() = default;

  virtual absl::string_view name() const = 0;
  virtual absl::string_view description() const = 0;
  virtual BackendCapabilities capabilities() const = 0;
  // The SolveParams field of this backend's own parameter message ("cpu_sa"),
  // empty when it has none. The options on that message's fields are its
  // schema: the engine checks requests against them before CheckParams, and
  // ListBackends publishes them.
  virtual absl::string_view params_field() const { return ""; }

  // OK when the backend takes work now, else why not (FAILED_PRECONDITION for
  // a missing setting, UNAVAILABLE for an outage). Never blocks: a remote
  // backend answers from a status RefreshAvailability keeps fresh.
  virtual absl::Status Available() const { return absl::OkStatus(); }
  // One line for ListBackends: "ready", or why not.
  virtual std::string StatusMessage() const {
    const absl::Status available = Available();
    return available.ok() ? "ready" : std::string(available.message());
  }
  // The slow probe behind Available (network, files). Run by the
  // BackendStatusMonitor on its own thread, never on a request path; returns
  // early when `interrupter` fires.
  virtual void RefreshAvailability(Interrupter& interrupter) const {}
  // How often RefreshAvailability should run; zero for never.
  virtual absl::Duration RefreshInterval() const {
    return absl::ZeroDuration();
  }

  // Checks what the schema cannot say of the backend's own parameter message
  // in `params` (rules between fields, limits of the server), after the
  // engine's schema check (INVALID_ARGUMENT naming the field as
  // "<prefix>.<message>.<field>"). Cheap: runs before admission.
  virtual absl::Status CheckParams(const v1::SolveParams& params,
                                   const ParamLimits& limits,
                                   absl::string_view prefix) const {
    return absl::OkStatus();
  }
  // OK when the backend can work on this kind of puzzle; INVALID_ARGUMENT
  // naming "<prefix>.backend" otherwise.
  virtual absl::Status Supports(const v1::PuzzleSpec& spec,
                                absl::string_view prefix) const {
    return absl::OkStatus();
  }
  // The reads and sweeps this backend will run for `params`, given the
  // engine's defaults (a custom schedule fixes the sweeps, a rules backend
  // has none).
  virtual JobBudget Budget(const v1::SolveParams& params,
                           JobBudget defaults) const {
    return defaults;
  }

  // Runs the job, passing reads to `sink` as they finish. Returns once every
  // read has finished or the interrupter fired; in the latter case the reads
  // already delivered stay valid and stop_reason says why it stopped.
  virtual absl::StatusOr<BackendResult> Solve(
      const BackendJob& job, SampleSink& sink,
      Interrupter& interrupter) const = 0;

  // The metrics this backend records beyond the common ones; registered once
  // by the host at start-up.
  virtual std::vector<MetricSpec> Metrics() const { return {}; }
  // Records this backend's metrics for one finished solve of `puzzle`.
  virtual void RecordMetrics(const v1::SolveSummary& summary,
                             absl::string_view puzzle,
                             MetricRecorder& recorder) const {}
};

}  // namespace qs

#endif  // QS_CORE_BACKEND_BACKEND_H_
