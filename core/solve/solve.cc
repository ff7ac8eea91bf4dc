// SolveEngine::Solve: compile (through the cache), check the model against
// the limits, hand the job to its backend with the streaming sink, and build
// the summary. The engine knows the backend only through core/backend.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "core/backend/requested_budget.h"
#include "core/base/allocation_guard.h"
#include "core/base/rng.h"
#include "core/base/status_macros.h"
#include "core/solve/solve_engine.h"
#include "core/solve/streaming_sink.h"

namespace qs {
namespace {

// Weighs the job's spin-update attempts (reads x sweeps x variables x
// proposals per variable) against the server's budget. A request with a time
// limit is bounded by it (CheckCommonParams caps the limit), so it is never
// refused: its reads, and when one read alone is over the budget its sweeps,
// are clamped to fit, and `clamped` says so. Without a time limit nothing
// else bounds it: RESOURCE_EXHAUSTED naming the fields.
absl::Status FitBudget(const v1::SolveParams& p, double variables,
                       const SolveLimits& limits, JobBudget& budget,
                       std::string& clamped) {
  const double per_sweep = variables * budget.proposals_per_variable;
  const double attempts =
      static_cast<double>(budget.num_reads) * budget.num_sweeps * per_sweep;
  if (attempts <= limits.max_attempts) return absl::OkStatus();
  const std::string product = absl::StrCat(
      "num_reads * num_sweeps * variables",
      budget.proposals_per_variable > 1
          ? absl::StrCat(" * ", budget.proposals_per_variable,
                         " (replicas or slices)")
          : "",
      " = ", attempts, " spin-update attempts, over this server's limit of ",
      limits.max_attempts, " (qs_server --max_attempts)");
  if (p.time_limit_seconds() <= 0) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "params.num_reads, params.num_sweeps: ", product,
        "; ask for fewer, or set params.time_limit_seconds (a time-limited "
        "request is clamped to the budget instead)"));
  }
  const int reads = budget.num_reads, sweeps = budget.num_sweeps;
  const double per_read = sweeps * per_sweep;
  budget.num_reads =
      static_cast<int>(std::clamp(std::floor(limits.max_attempts / per_read),
                                  1.0, static_cast<double>(reads)));
  if (per_read > limits.max_attempts) {
    budget.num_sweeps =
        static_cast<int>(std::clamp(std::floor(limits.max_attempts / per_sweep),
                                    1.0, static_cast<double>(sweeps)));
  }
  clamped = absl::StrCat("num_reads ", reads, " -> ", budget.num_reads);
  if (budget.num_sweeps != sweeps)
    absl::StrAppend(&clamped, ", num_sweeps ", sweeps, " -> ",
                    budget.num_sweeps);
  absl::StrAppend(&clamped, ": ", product,
                  "; the time limit bounds the request");
  return absl::OkStatus();
}

// The job of a checked request over its compiled problem.
absl::StatusOr<BackendJob> MakeJob(const v1::SolveRequest& request,
                                   const CompiledProblem& problem,
                                   const Backend& backend,
                                   const SolveLimits& limits,
                                   std::string& clamped) {
  const v1::SolveParams& p = request.params();
  JobBudget budget = backend.Budget(p, RequestedBudget(p));
  RETURN_IF_ERROR(FitBudget(p, std::max(SampledVariables(problem), 1), limits,
                            budget, clamped));
  const int max_variables = backend.capabilities().max_variables;
  if (max_variables > 0 && SampledVariables(problem) > max_variables) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "params.backend: '", backend.name(), "' takes at most ", max_variables,
        " variables; the reduced model has ", SampledVariables(problem)));
  }
  BackendJob job;
  job.spec = &request.puzzle();
  job.problem = &problem;
  job.params = &p;
  job.num_reads = budget.num_reads;
  job.num_sweeps = budget.num_sweeps;
  job.seed = p.has_seed() ? p.seed() : DrawSeed();
  // With stop_at_first_valid the sink checks the energy together with the
  // rules: a backend stopping on energy alone would end the solve at a board
  // that breaks a rule the QUBO cannot express (Takuzu's unique lines).
  if (p.has_target_energy() && !p.stop_at_first_valid())
    job.target_energy = p.target_energy();
  for (int k = 0; k < p.initial_states_size(); ++k) {
    auto full = UnpackBits(p.initial_states(k), problem.variables.num_full());
    if (!full.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "params.initial_states[", k, "]: ", full.status().message()));
    }
    job.initial_states.push_back(problem.variables.Restrict(*full));
  }
  return job;
}

// A higher-order model goes only to a backend that takes one, and its terms
// count against the couplers limit.
absl::Status CheckHigherOrder(const CompiledProblem& problem,
                              const Backend& backend,
                              const BackendRegistry& backends,
                              const SolveLimits& limits) {
  if (!problem.higher_order) return absl::OkStatus();
  if (!backend.capabilities().higher_order) {
    std::vector<std::string> takers;
    for (const Backend* b : backends.All()) {
      if (b->capabilities().higher_order) takers.emplace_back(b->name());
    }
    return absl::InvalidArgumentError(absl::StrCat(
        "params.backend: '", backend.name(),
        "' samples QUBOs, and the binary encoding (compile.encoding) gives a "
        "higher-order model; backends that take one: ",
        takers.empty() ? "none" : absl::StrJoin(takers, ", ")));
  }
  const int64_t terms =
      static_cast<int64_t>(problem.higher_order->terms.size());
  if (terms > limits.max_couplers) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "puzzle: the higher-order model has ", terms,
        " terms, over this server's limit of ", limits.max_couplers,
        " couplers (qs_server --max_couplers)"));
  }
  return absl::OkStatus();
}

// A round's reads, passed on to the solve's sink numbered after the reads of
// the rounds before.
class RoundSink final : public SampleSink {
 public:
  RoundSink(SampleSink& sink, uint32_t first_read)
      : sink_(sink), first_read_(first_read) {}
  void OnSample(Sample sample) override {
    sample.read_index += first_read_;
    sink_.OnSample(std::move(sample));
  }
  std::optional<bool> IsValidBoard(const std::vector<uint8_t>& bits) override {
    return sink_.IsValidBoard(bits);
  }

 private:
  SampleSink& sink_;
  const uint32_t first_read_;
};

// stop_at_first_valid with a time limit asks for a valid board within that
// time: a sampler whose reads all end without one (ground states that break a
// rule no QUBO term expresses, or no read at the ground) runs another round on
// a derived seed. Not an exact or rules backend (a new seed finds the same
// ground states or proof), nor a remote one (each round would spend QPU time
// the request did not ask for).
bool RepeatsRounds(const v1::SolveParams& p, const Backend& backend) {
  const BackendCapabilities c = backend.capabilities();
  return p.stop_at_first_valid() && p.time_limit_seconds() > 0 && !c.exact &&
         !c.rules && !c.remote;
}

void AddRound(BackendResult round, BackendResult& total) {
  total.stop_reason = round.stop_reason;
  total.reads_done += round.reads_done;
  total.reads_cut_short += round.reads_cut_short;
  total.sweeps_done += round.sweeps_done;
  total.spin_update_attempts += round.spin_update_attempts;
  total.accepted_flips += round.accepted_flips;
  total.elapsed += round.elapsed;
  total.cpu_time += round.cpu_time;
  total.device_time += round.device_time;
  total.info = std::move(round.info);
  total.exact = std::move(round.exact);
  if (!round.solved_by.empty()) total.solved_by = std::move(round.solved_by);
}

// Runs the job, in rounds while RepeatsRounds and no round was stopped (by a
// valid board, the time limit or anything else).
absl::StatusOr<BackendResult> RunRounds(const Backend& backend,
                                        const BackendJob& job,
                                        StreamingSink& sink,
                                        Interrupter& interrupter, bool repeat,
                                        int& rounds) {
  BackendJob round = job;
  BackendResult total;
  total.seed = job.seed;
  for (rounds = 1;; ++rounds) {
    RoundSink round_sink(
        sink, static_cast<uint32_t>(static_cast<uint64_t>(rounds - 1) *
                                    job.num_reads));
    ASSIGN_OR_RETURN(BackendResult result,
                     backend.Solve(round, round_sink, interrupter));
    AddRound(std::move(result), total);
    if (!repeat || total.stop_reason != StopReason::kNone) return total;
    // The time ran out (or a stop came) between rounds: the next round
    // would have run, so that is why the solve ended.
    if (interrupter.ShouldStop()) {
      total.stop_reason = interrupter.reason();
      return total;
    }
    round.seed = DeriveSeed(job.seed, static_cast<uint64_t>(rounds));
    sink.AddReadsTotal(static_cast<uint32_t>(job.num_reads));
  }
}

v1::SolveResponse Header(const v1::SolveRequest& request,
                         const Backend& backend, const CompiledProblem& problem,
                         const BackendJob& job, absl::Duration compile_time,
                         bool from_cache, absl::Duration queue_time) {
  v1::SolveResponse response;
  v1::SolveHeader* header = response.mutable_header();
  header->set_request_id(request.request_id());
  FillCompileStats(problem, compile_time, from_cache, *header->mutable_stats());
  header->set_backend(std::string(backend.name()));
  header->set_seed(job.seed);
  if (!backend.capabilities().sizes_own_rounds) {
    header->set_num_reads(job.num_reads);
    header->set_num_sweeps(job.num_sweeps);
  }
  header->set_queue_seconds(Seconds(queue_time));
  return response;
}

// What the sink saw and the backend reported.
void FillSummary(const StreamingSink& sink, BackendResult result,
                 v1::SolveSummary& summary) {
  summary.set_termination(TerminationFor(result.stop_reason));
  if (result.exact && result.exact->status() == v1::UNSATISFIABLE)
    summary.set_termination(v1::INFEASIBLE);
  const uint32_t reads_done = sink.reads_done();
  summary.set_reads_done(reads_done);
  summary.set_num_valid(sink.valid());
  summary.set_success_fraction(
      reads_done > 0 ? static_cast<double>(sink.valid()) / reads_done : 0.0);
  if (sink.has_best()) {
    v1::SampleEvent best = sink.best();
    summary.set_best_energy(best.energy());
    *summary.mutable_best_solution() = std::move(*best.mutable_solution());
    summary.set_best_valid(best.valid());
    *summary.mutable_best_violations() = std::move(*best.mutable_violations());
  }
  if (sink.has_best()) summary.set_solved_by(std::move(result.solved_by));
  summary.set_reads_cut_short(static_cast<uint32_t>(result.reads_cut_short));
  summary.set_sweeps_done(result.sweeps_done);
  summary.set_spin_update_attempts(result.spin_update_attempts);
  summary.set_accepted_flips(result.accepted_flips);
  const double sample_seconds = Seconds(result.elapsed);
  summary.set_attempts_per_second(
      sample_seconds > 0 ? result.spin_update_attempts / sample_seconds : 0);
  *summary.mutable_backend() = std::move(result.info);
  if (result.exact) *summary.mutable_exact() = std::move(*result.exact);
}

}  // namespace

absl::Status SolveEngine::Solve(const v1::SolveRequest& request,
                                Interrupter& interrupter, const EventFn& emit,
                                absl::Duration queue_time,
                                bool stream_samples) const {
  return GuardAllocation("Solve", [&] {
    return SolveUnguarded(request, interrupter, emit, queue_time,
                          stream_samples);
  });
}

absl::Status SolveEngine::SolveUnguarded(const v1::SolveRequest& request,
                                         Interrupter& interrupter,
                                         const EventFn& emit,
                                         absl::Duration queue_time,
                                         bool stream_samples) const {
  const absl::Time start = absl::Now();
  RETURN_IF_ERROR(CheckSolveRequest(request));
  const v1::SolveParams& p = request.params();
  const PuzzleCompiler* compiler = *compilers_->ForSpec(request.puzzle());
  const Backend* backend = backends_->Find(backends_->NameFor(p));
  bool from_cache = false;
  ASSIGN_OR_RETURN(const CompileCache::Problem compiled,
                   CompileThroughCache(*compiler, request.puzzle(),
                                       request.compile(), &from_cache));
  const CompiledProblem& problem = *compiled;
  const absl::Duration compile_time = absl::Now() - start;
  if (problem.model.num_couplers() > limits_.max_couplers) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "puzzle: the reduced model has ", problem.model.num_couplers(),
        " couplers, over this server's limit of ", limits_.max_couplers,
        " (qs_server --max_couplers)"));
  }
  RETURN_IF_ERROR(CheckHigherOrder(problem, *backend, *backends_, limits_));
  std::string clamped;
  ASSIGN_OR_RETURN(const BackendJob job,
                   MakeJob(request, problem, *backend, limits_, clamped));
  if (p.time_limit_seconds() > 0) {
    interrupter.SetDeadline(absl::Now() + absl::Seconds(p.time_limit_seconds()),
                            StopReason::kTimeLimit);
  }
  emit(Header(request, *backend, problem, job, compile_time, from_cache,
              queue_time));

  StreamingSink sink(*compiler, request.puzzle(), problem, p,
                     static_cast<uint32_t>(job.num_reads), interrupter, emit,
                     limits_.progress_interval, stream_samples);
  const absl::Time sample_start = absl::Now();
  int rounds = 1;
  ASSIGN_OR_RETURN(BackendResult result,
                   RunRounds(*backend, job, sink, interrupter,
                             RepeatsRounds(p, *backend), rounds));
  const absl::Duration sample_time = absl::Now() - sample_start;
  sink.Flush();

  const StopReason stop_reason = result.stop_reason;
  const absl::Duration cpu_time = result.cpu_time;
  const absl::Duration device_time = result.device_time;
  v1::SolveResponse response;
  v1::SolveSummary* summary = response.mutable_summary();
  summary->set_request_id(request.request_id());
  FillSummary(sink, std::move(result), *summary);
  // A board that carries its own objective (a constrained model's, scored
  // from its values) says it; else the family reads it off the energy.
  if (sink.has_best() && summary->best_solution().has_objective()) {
    summary->set_objective(summary->best_solution().objective());
  } else if (auto objective =
                 compiler->Objective(request.puzzle(), summary->best_energy());
             sink.has_best() && objective) {
    summary->set_objective(*objective);
  }
  summary->mutable_backend()->set_name(std::string(backend->name()));
  if (sink.has_best() && summary->solved_by().empty())
    summary->set_solved_by(std::string(backend->name()));
  if (problem.ground_energy) summary->set_ground_energy(*problem.ground_energy);
  v1::Timings* timings = summary->mutable_timings();
  timings->set_queue_seconds(Seconds(queue_time));
  timings->set_compile_seconds(Seconds(compile_time));
  timings->set_sample_seconds(Seconds(sample_time));
  timings->set_decode_seconds(Seconds(sink.decode_time()));
  timings->set_annealer_cpu_seconds(Seconds(cpu_time));
  timings->set_device_seconds(Seconds(device_time));
  timings->set_total_seconds(Seconds(queue_time + (absl::Now() - start)));
  summary->set_seed(job.seed);
  if (p.distinct_valid())
    summary->set_num_distinct_valid(sink.distinct_valid());
  summary->set_budget_clamped(clamped);
  if (rounds > 1) summary->set_rounds(static_cast<uint32_t>(rounds));
  emit(std::move(response));
  return StatusForStop(stop_reason);
}

}  // namespace qs
