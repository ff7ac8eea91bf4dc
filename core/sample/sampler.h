// Sampler: a Backend that samples the reduced QUBO alone (CPU simulated
// annealing, exact enumeration, D-Wave). It takes the model and the common
// SampleParams, streams finished reads to a SampleSink as they come, honours
// the Interrupter between sweeps, and returns statistics; Sampler::Solve maps a
// BackendJob onto that once for every such backend, and each one maps its own
// parameter message in ApplyParams. Sample() is also the library API for
// benchmarks and tests. Samplers are shared by all requests: Sample() must be
// thread-safe.
#ifndef QS_CORE_SAMPLE_SAMPLER_H_
#define QS_CORE_SAMPLE_SAMPLER_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "core/backend/backend.h"
#include "core/base/interrupter.h"
#include "core/qubo/qubo.h"
#include "qs/v1/solve.pb.h"

namespace qs {

enum class ScheduleType { kGeometric, kLinear, kCustom };

// How the beta range is derived from the model when the caller leaves it open
// (schedule.h).
enum class BetaRangeRule {
  // This project's default: a colder start, from the model's flip costs.
  kTuned,
  // dwave-samplers' default range, for like-for-like comparisons.
  kDwave,
};

// Acceptance probability of a proposed flip costing delta: Metropolis
// min(1, exp(-beta delta)), or Gibbs (heat bath) 1 / (1 + exp(beta delta)).
enum class Acceptance { kMetropolis, kGibbs };

// The SIMD path of the annealing kernel. kAuto picks the best one the CPU has;
// a path the CPU lacks falls back to the best one below it. Every path gives
// the same samples for the same seed.
enum class KernelPath { kAuto, kScalar, kAvx2, kAvx512 };

struct SampleParams {
  int num_reads = 100;
  int num_sweeps = 1000;
  uint64_t seed = 0;
  // Inverse temperatures; 0 means derived from the model by beta_range_rule
  // (see schedule.h).
  double beta_hot = 0;
  double beta_cold = 0;
  ScheduleType schedule = ScheduleType::kGeometric;
  BetaRangeRule beta_range_rule = BetaRangeRule::kTuned;
  // Each beta of the schedule is held for this many sweeps (dwave-samplers'
  // num_sweeps_per_beta).
  int sweeps_per_beta = 1;
  // An explicit schedule, one beta per entry (each held sweeps_per_beta
  // sweeps); when set it replaces num_sweeps, the range and the schedule type.
  std::vector<double> beta_schedule;
  Acceptance acceptance = Acceptance::kMetropolis;
  KernelPath kernel = KernelPath::kAuto;
  // A read at or below this energy (offset included) ends the sampling with
  // kTargetReached.
  std::optional<double> target_energy;
  // The lowest energy the model can reach (offset included), where the
  // formulation fixes it: a read that reaches it can stop, nothing lies below.
  std::optional<double> known_ground_energy;
  // Exactly-one groups over the model's variables (CompiledProblem::
  // one_hot_groups), for samplers with moves that keep them; may be null.
  const std::vector<std::vector<int32_t>>* one_hot_groups = nullptr;
  // Starting states over the model's variables, cycled over the reads; empty:
  // random starts.
  std::vector<std::vector<uint8_t>> initial_states;
  // The request's wire parameters, for backend-specific options (the
  // backend_params oneof). May be null.
  const v1::SolveParams* wire = nullptr;
  // Where values derived from the model alone are kept across solves of the
  // same compiled problem (kernel model, beta range). May be null.
  DerivedCache* derived = nullptr;
};

struct SampleStats {
  StopReason stop_reason =
      StopReason::kNone;  // kNone: every read ran to the end
  int reads_done = 0;
  // Reads delivered as they stood when the time limit, the deadline or a
  // cancel stopped them (counted in reads_done too).
  int reads_cut_short = 0;
  int64_t sweeps_done = 0;           // over all reads
  int64_t spin_update_attempts = 0;  // proposals evaluated
  int64_t accepted_flips = 0;
  uint64_t seed = 0;
  double beta_hot = 0;   // first beta of the schedule
  double beta_cold = 0;  // last beta of the schedule
  ScheduleType schedule = ScheduleType::kGeometric;
  // The rule that derived the range, when the caller left it open.
  BetaRangeRule beta_range_rule = BetaRangeRule::kTuned;
  int sweeps_per_beta = 1;
  Acceptance acceptance = Acceptance::kMetropolis;
  std::string kernel;  // the path that ran: "avx512", "avx2", "scalar"
  int lanes = 1;       // reads annealed together by one kernel call
  // False when the kernel rounded coefficients (sa_kernel.h KernelModel).
  bool kernel_exact = true;
  int threads = 1;
  absl::Duration elapsed;
  // CPU time of the annealing kernel summed over threads (zero for samplers
  // that do not measure it).
  absl::Duration cpu_time;
  // Time on a remote device billed to these reads (BackendResult).
  absl::Duration device_time;
  // What the sampler reports of itself in the summary (e.g. BackendInfo.dwave:
  // solver, QPU timing, embedding and chain statistics).
  v1::BackendInfo info;
};

class Sampler : public Backend {
 public:
  // Runs the reads. Returns the statistics once every read has finished or the
  // interrupter fired; in the latter case the reads already delivered stay
  // valid and stats.stop_reason says why it stopped.
  virtual absl::StatusOr<SampleStats> Sample(
      const Qubo& model, const SampleParams& params, SampleSink& sink,
      Interrupter& interrupter) const = 0;

  // The job's reads, sweeps, seed, target and starts, then ApplyParams, then
  // Sample on the reduced model.
  absl::StatusOr<BackendResult> Solve(const BackendJob& job, SampleSink& sink,
                                      Interrupter& interrupter) const final;

 protected:
  // Samples a higher-order model (CompiledProblem::higher_order), for
  // samplers whose capabilities say higher_order; the engine sends such
  // problems to no other.
  virtual absl::StatusOr<SampleStats> SampleHigherOrder(
      const Hubo& hubo, const SampleParams& params, SampleSink& sink,
      Interrupter& interrupter) const {
    return absl::UnimplementedError("this sampler takes QUBOs only");
  }
  // Copies the backend's own (checked) parameter message into `params`.
  virtual void ApplyParams(const v1::SolveParams& wire,
                           SampleParams& params) const {}
  // The backend's part of the summary; by default what Sample reported in
  // stats.info.
  virtual void FillInfo(const SampleStats& stats, v1::BackendInfo& info) const {
    info = stats.info;
  }
};

}  // namespace qs

#endif  // QS_CORE_SAMPLE_SAMPLER_H_
