// SolveEngine: request checks, compile, sample, decode, validate and the
// ordered event stream.
#include "core/solve/solve_engine.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "core/base/rng.h"
#include "core/base/status_macros.h"
#include "core/exact/encoder.h"
#include "core/exact/exact_solver.h"
#include "core/generate/generator.h"
#include "core/qubo/qubo_proto.h"
#include "core/sample/cpu_sa/cpu_sa_params.h"

namespace qs {
namespace {

constexpr uint32_t kDefaultReads = 100;
constexpr uint64_t kDefaultCountLimit = 1000000;
constexpr uint32_t kDefaultSweeps = 1000;

double Seconds(absl::Duration d) { return absl::ToDoubleSeconds(d); }

v1::Termination TerminationFor(StopReason reason) {
  switch (reason) {
    case StopReason::kNone:
      return v1::COMPLETED;
    case StopReason::kTargetReached:
      return v1::TARGET_REACHED;
    case StopReason::kTimeLimit:
      return v1::TIME_LIMIT;
    case StopReason::kCancelled:
      return v1::CANCELLED;
    case StopReason::kDeadline:
      return v1::DEADLINE;
    case StopReason::kShutdown:
      return v1::SHUTDOWN;
  }
  return v1::TERMINATION_UNSPECIFIED;
}

// A seed for a request that sets none: one random_device read per thread (it
// opens the entropy source each time it is made), then a thread-local stream.
uint64_t DrawSeed() {
  thread_local std::mt19937_64 rng(
      (uint64_t{std::random_device{}()} << 32 | std::random_device{}()) ^
      static_cast<uint64_t>(absl::GetCurrentTimeNanos()));
  return rng();
}

void FillStats(const CompiledProblem& problem, absl::Duration compile_time,
               bool from_cache, v1::CompileStats& stats) {
  const QuboStats model_stats = problem.model.Stats();
  stats.set_puzzle_kind(problem.kind);
  stats.set_variables_total(problem.full_model.num_variables());
  stats.set_variables(model_stats.num_variables);
  stats.set_couplers(model_stats.num_couplers);
  stats.set_linear_terms(model_stats.num_linear_terms);
  stats.set_density(model_stats.density);
  if (problem.ground_energy) stats.set_ground_energy(*problem.ground_energy);
  for (const ReductionStage& s : problem.stages) {
    v1::ReductionStage* stage = stats.add_stages();
    stage->set_name(s.name);
    stage->set_variables(s.variables);
    stage->set_fixed_zero(s.fixed_zero);
    stage->set_fixed_one(s.fixed_one);
  }
  stats.set_compile_seconds(Seconds(compile_time));
  stats.set_offset(problem.model.offset());
  stats.set_from_cache(from_cache);
}

// Collects samples from the sampler's threads, decodes and validates them, and
// emits events in order.
class StreamingSink final : public SampleSink {
 public:
  StreamingSink(const PuzzleCompiler& compiler, const v1::PuzzleSpec& spec,
                const CompiledProblem& problem, const v1::SolveParams& params,
                uint32_t reads_total, Interrupter& interrupter,
                const SolveEngine::EventFn& emit,
                absl::Duration progress_interval)
      : compiler_(compiler),
        spec_(spec),
        problem_(problem),
        params_(params),
        reads_total_(reads_total),
        interrupter_(interrupter),
        emit_(emit),
        progress_interval_(progress_interval),
        buffered_(params.aggregate() || params.max_sample_events() > 0),
        start_(absl::Now()),
        last_progress_(start_) {}

  void OnSample(Sample sample) override {
    // Decoding runs outside the sink's lock, on the sampler's thread, so that
    // decoding scales with the reads.
    const absl::Time decode_start = absl::Now();
    v1::SampleEvent event = DecodeOnce(sample.bits);
    event.set_energy(sample.energy);
    event.set_num_occurrences(sample.num_occurrences);
    event.set_read_index(sample.read_index);
    const absl::Duration decode_time = absl::Now() - decode_start;
    // stop_at_first_valid stops at a valid board at or below target_energy
    // (when set); a valid board always sits at the ground energy.
    if (event.valid() && params_.stop_at_first_valid() &&
        (!params_.has_target_energy() ||
         event.energy() <= params_.target_energy() + 1e-9))
      interrupter_.Interrupt(StopReason::kTargetReached);

    absl::MutexLock lock(&mu_);
    decode_time_ += decode_time;
    reads_done_ += static_cast<uint32_t>(sample.num_occurrences);
    if (event.valid()) valid_ += static_cast<uint32_t>(sample.num_occurrences);
    UpdateBest(event);
    // Uniform sampling: only valid boards, each distinct one once.
    const bool streamed =
        !params_.distinct_valid() ||
        (event.valid() && distinct_.insert(event.bits()).second);
    if (!streamed) {
      // Neither held nor emitted.
    } else if (buffered_) {
      held_.push_back(std::move(event));
    } else {
      v1::SolveResponse response;
      *response.mutable_sample() = std::move(event);
      emit_(std::move(response));
    }
    const absl::Time now = absl::Now();
    if (now - last_progress_ >= progress_interval_ &&
        reads_done_ < reads_total_) {
      last_progress_ = now;
      v1::SolveResponse response;
      v1::Progress* progress = response.mutable_progress();
      progress->set_reads_done(reads_done_);
      progress->set_reads_total(reads_total_);
      progress->set_best_energy(best_.energy());
      progress->set_valid_found(valid_);
      progress->set_elapsed_seconds(Seconds(now - start_));
      emit_(std::move(response));
    }
  }

  // Emits what was held back (aggregated and/or capped, lowest energy first).
  void Flush() {
    absl::MutexLock lock(&mu_);
    if (!buffered_) return;
    std::vector<v1::SampleEvent> events = std::move(held_);
    if (params_.aggregate()) {
      std::map<std::string, size_t> index;
      std::vector<v1::SampleEvent> merged;
      for (v1::SampleEvent& e : events) {
        auto [it, inserted] = index.emplace(e.bits(), merged.size());
        if (inserted) {
          merged.push_back(std::move(e));
        } else {
          v1::SampleEvent& m = merged[it->second];
          m.set_num_occurrences(m.num_occurrences() + e.num_occurrences());
        }
      }
      events = std::move(merged);
    }
    // Ties go by bits, so that one seed gives one stream whatever order the
    // reads finished in.
    std::sort(events.begin(), events.end(),
              [](const v1::SampleEvent& a, const v1::SampleEvent& b) {
                if (a.valid() != b.valid()) return a.valid();
                if (a.energy() != b.energy()) return a.energy() < b.energy();
                return a.bits() < b.bits();
              });
    if (params_.max_sample_events() > 0 &&
        events.size() > params_.max_sample_events()) {
      events.resize(params_.max_sample_events());
    }
    for (v1::SampleEvent& e : events) {
      v1::SolveResponse response;
      *response.mutable_sample() = std::move(e);
      emit_(std::move(response));
    }
  }

  uint32_t reads_done() const {
    absl::MutexLock lock(&mu_);
    return reads_done_;
  }
  uint32_t valid() const {
    absl::MutexLock lock(&mu_);
    return valid_;
  }
  uint32_t distinct_valid() const {
    absl::MutexLock lock(&mu_);
    return static_cast<uint32_t>(distinct_.size());
  }
  absl::Duration decode_time() const {
    absl::MutexLock lock(&mu_);
    return decode_time_;
  }
  // The lowest-energy valid sample, else the lowest-energy one; has_best()
  // false when no read finished.
  bool has_best() const {
    absl::MutexLock lock(&mu_);
    return has_best_;
  }
  v1::SampleEvent best() const {
    absl::MutexLock lock(&mu_);
    return best_;
  }

 private:
  // The bits, board and verdict of a reduced assignment. Reads of a small
  // puzzle mostly end in the same few states (the ground state above all), so
  // each distinct state is decoded and validated once per solve; the first
  // kMaxMemo states are remembered.
  v1::SampleEvent DecodeOnce(const std::vector<uint8_t>& bits) {
    static constexpr size_t kMaxMemo = 1024;
    {
      absl::MutexLock lock(&memo_mu_);
      auto it = memo_.find(bits);
      if (it != memo_.end()) return it->second;
    }
    const std::vector<uint8_t> full = problem_.variables.Expand(bits);
    v1::SampleEvent event;
    event.set_bits(PackBits(full));
    event.set_num_variables(static_cast<uint32_t>(full.size()));
    *event.mutable_solution() = compiler_.Decode(spec_, problem_, full);
    auto report = compiler_.Validate(spec_, event.solution());
    if (report.ok()) {
      event.set_valid(report->valid());
      *event.mutable_violations() = std::move(*report->mutable_violations());
    } else {
      event.set_valid(false);
      *event.add_violations() =
          MakeViolation("decode_error", "", report.status().message());
    }
    absl::MutexLock lock(&memo_mu_);
    if (memo_.size() < kMaxMemo) memo_.emplace(bits, event);
    return event;
  }

  void UpdateBest(const v1::SampleEvent& event)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    const bool better =
        !has_best_ || (event.valid() && !best_.valid()) ||
        (event.valid() == best_.valid() && event.energy() < best_.energy());
    if (better) {
      best_ = event;
      has_best_ = true;
    }
  }

  const PuzzleCompiler& compiler_;
  const v1::PuzzleSpec& spec_;
  const CompiledProblem& problem_;
  const v1::SolveParams& params_;
  const uint32_t reads_total_;
  Interrupter& interrupter_;
  const SolveEngine::EventFn& emit_;
  const absl::Duration progress_interval_;
  const bool buffered_;
  const absl::Time start_;

  mutable absl::Mutex mu_;
  absl::Time last_progress_ ABSL_GUARDED_BY(mu_);
  uint32_t reads_done_ ABSL_GUARDED_BY(mu_) = 0;
  uint32_t valid_ ABSL_GUARDED_BY(mu_) = 0;
  absl::Duration decode_time_ ABSL_GUARDED_BY(mu_);
  bool has_best_ ABSL_GUARDED_BY(mu_) = false;
  v1::SampleEvent best_ ABSL_GUARDED_BY(mu_);
  std::vector<v1::SampleEvent> held_ ABSL_GUARDED_BY(mu_);
  // Packed bits of the valid boards streamed (params.distinct_valid).
  absl::flat_hash_set<std::string> distinct_ ABSL_GUARDED_BY(mu_);
  absl::Mutex memo_mu_;
  absl::flat_hash_map<std::vector<uint8_t>, v1::SampleEvent> memo_
      ABSL_GUARDED_BY(memo_mu_);
};

}  // namespace

v1::EncodingStats ToProto(const EncodingStats& stats) {
  v1::EncodingStats out;
  out.set_primary_variables(stats.primary_variables);
  out.set_auxiliary_variables(stats.auxiliary_variables);
  out.set_clauses(stats.clauses);
  out.set_literals(stats.literals);
  out.set_bdd_nodes(stats.bdd_nodes);
  out.set_bdd_peak_nodes(stats.bdd_peak_nodes);
  out.set_bdd_operations(stats.bdd_operations);
  return out;
}

std::string PackBits(std::span<const uint8_t> bits) {
  std::string packed((bits.size() + 7) / 8, '\0');
  for (size_t v = 0; v < bits.size(); ++v) {
    if (bits[v])
      packed[v / 8] = static_cast<char>(packed[v / 8] | (1 << (v % 8)));
  }
  return packed;
}

absl::StatusOr<std::vector<uint8_t>> UnpackBits(absl::string_view packed,
                                                int num_variables) {
  if (packed.size() * 8 < static_cast<size_t>(num_variables)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "packed state has ", packed.size(), " bytes, ", num_variables,
        " variables need ", (num_variables + 7) / 8));
  }
  std::vector<uint8_t> bits(num_variables);
  for (int v = 0; v < num_variables; ++v)
    bits[v] = (packed[v / 8] >> (v % 8)) & 1;
  return bits;
}

SolveEngine::SolveEngine(const CompilerRegistry* compilers,
                         const SamplerRegistry* samplers, SolveLimits limits,
                         CompileCache* cache)
    : compilers_(compilers),
      samplers_(samplers),
      limits_(limits),
      cache_(cache) {}

absl::StatusOr<CompileCache::Problem> SolveEngine::CompileThroughCache(
    const PuzzleCompiler& compiler, const v1::PuzzleSpec& spec,
    const v1::CompileOptions& options, bool* from_cache) const {
  if (cache_ != nullptr)
    return cache_->GetOrCompile(compiler, spec, options, from_cache);
  *from_cache = false;
  ASSIGN_OR_RETURN(CompiledProblem problem, compiler.Compile(spec, options));
  return std::make_shared<const CompiledProblem>(std::move(problem));
}

absl::Status SolveEngine::StatusForStop(StopReason reason) {
  switch (reason) {
    case StopReason::kCancelled:
      return absl::CancelledError("the client cancelled the solve");
    case StopReason::kDeadline:
      return absl::DeadlineExceededError(
          "the deadline passed before the solve finished");
    case StopReason::kShutdown:
      return absl::UnavailableError(
          "the server is shutting down; retry on another replica");
    default:
      return absl::OkStatus();
  }
}

absl::Status SolveEngine::CheckModelSize(const v1::PuzzleSpec& puzzle,
                                         const PuzzleCompiler& compiler) const {
  const int64_t variables = compiler.ModelVariables(puzzle);
  if (variables > limits_.max_variables) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "puzzle: the ", compiler.kind(), " model has ", variables,
        " variables, over this server's limit of ", limits_.max_variables));
  }
  return absl::OkStatus();
}

absl::Status SolveEngine::CheckSolveRequest(
    const v1::SolveRequest& request) const {
  ASSIGN_OR_RETURN(const PuzzleCompiler* compiler,
                   compilers_->ForSpec(request.puzzle()));
  RETURN_IF_ERROR(CheckModelSize(request.puzzle(), *compiler));
  const v1::SolveParams& p = request.params();
  const std::string backend =
      p.backend().empty() ? std::string(kDefaultBackend) : p.backend();
  if (const PuzzleSolver* solver = samplers_->FindPuzzleSolver(backend)) {
    RETURN_IF_ERROR(solver->Available());
    RETURN_IF_ERROR(solver->Supports(request.puzzle()));
  } else {
    ASSIGN_OR_RETURN(const Sampler* sampler, samplers_->Get(backend));
    RETURN_IF_ERROR(sampler->Available());
  }
  return CheckSolveParams(p, "params");
}

absl::Status SolveEngine::CheckSolveParams(const v1::SolveParams& p,
                                           absl::string_view prefix) const {
  if (p.has_num_reads() &&
      (p.num_reads() == 0 || p.num_reads() > limits_.max_reads)) {
    return absl::InvalidArgumentError(
        absl::StrCat(prefix, ".num_reads: must be 1..", limits_.max_reads,
                     ", got ", p.num_reads()));
  }
  if (p.has_num_sweeps() &&
      (p.num_sweeps() == 0 || p.num_sweeps() > limits_.max_sweeps)) {
    return absl::InvalidArgumentError(
        absl::StrCat(prefix, ".num_sweeps: must be 1..", limits_.max_sweeps,
                     ", got ", p.num_sweeps()));
  }
  if (!std::isfinite(p.time_limit_seconds()) || p.time_limit_seconds() < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(prefix, ".time_limit_seconds: must be >= 0, got ",
                     p.time_limit_seconds()));
  }
  if (p.has_target_energy() && !std::isfinite(p.target_energy())) {
    return absl::InvalidArgumentError(
        absl::StrCat(prefix, ".target_energy: must be finite"));
  }
  if (p.has_sat() && p.sat().max_solutions() > limits_.max_reads) {
    return absl::InvalidArgumentError(
        absl::StrCat(prefix, ".sat.max_solutions: must be 0..",
                     limits_.max_reads, ", got ", p.sat().max_solutions()));
  }
  if (p.has_cpu_sa()) {
    RETURN_IF_ERROR(CheckCpuSaParams(p.cpu_sa(), limits_.max_sweeps));
  }
  if (p.has_dwave()) {
    const v1::DwaveParams& d = p.dwave();
    if (d.has_annealing_time_us() &&
        !(std::isfinite(d.annealing_time_us()) && d.annealing_time_us() > 0)) {
      return absl::InvalidArgumentError(
          absl::StrCat("params.dwave.annealing_time_us: must be > 0, got ",
                       d.annealing_time_us()));
    }
    if (d.has_chain_strength() &&
        !(std::isfinite(d.chain_strength()) && d.chain_strength() > 0)) {
      return absl::InvalidArgumentError(
          absl::StrCat("params.dwave.chain_strength: must be > 0, got ",
                       d.chain_strength()));
    }
    if (d.has_chain_strength_prefactor() &&
        !(std::isfinite(d.chain_strength_prefactor()) &&
          d.chain_strength_prefactor() > 0)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "params.dwave.chain_strength_prefactor: must be > 0, got ",
          d.chain_strength_prefactor()));
    }
    if (d.has_embedding_timeout_seconds() &&
        !(std::isfinite(d.embedding_timeout_seconds()) &&
          d.embedding_timeout_seconds() > 0)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "params.dwave.embedding_timeout_seconds: must be > 0, got ",
          d.embedding_timeout_seconds()));
    }
    if (d.label().size() > 1024) {
      return absl::InvalidArgumentError(
          absl::StrCat("params.dwave.label: ", d.label().size(),
                       " characters, over SAPI's limit of 1024"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<v1::CompileResponse> SolveEngine::Compile(
    const v1::CompileRequest& request) const {
  ASSIGN_OR_RETURN(const PuzzleCompiler* compiler,
                   compilers_->ForSpec(request.puzzle()));
  RETURN_IF_ERROR(CheckModelSize(request.puzzle(), *compiler));
  const absl::Time start = absl::Now();
  bool from_cache = false;
  ASSIGN_OR_RETURN(const CompileCache::Problem compiled,
                   CompileThroughCache(*compiler, request.puzzle(),
                                       request.options(), &from_cache));
  const CompiledProblem& problem = *compiled;
  v1::CompileResponse response;
  FillStats(problem, absl::Now() - start, from_cache,
            *response.mutable_stats());
  if (request.options().return_qubo())
    *response.mutable_qubo() = QuboToProto(problem.model);
  for (int r = 0; r < problem.variables.num_reduced(); ++r) {
    response.add_variable_map(problem.variables.representative(r));
  }
  for (const std::string& label : problem.full_model.labels())
    response.add_labels(label);
  return response;
}

absl::StatusOr<v1::ValidateResponse> SolveEngine::Validate(
    const v1::ValidateRequest& request) const {
  ASSIGN_OR_RETURN(const PuzzleCompiler* compiler,
                   compilers_->ForSpec(request.puzzle()));
  RETURN_IF_ERROR(CheckModelSize(request.puzzle(), *compiler));
  v1::ValidateResponse response;
  ASSIGN_OR_RETURN(*response.mutable_report(),
                   compiler->Validate(request.puzzle(), request.solution()));
  v1::CompileOptions options;
  options.set_reduction(v1::REDUCTION_NONE);
  ASSIGN_OR_RETURN(CompiledProblem problem,
                   compiler->Compile(request.puzzle(), options));
  auto bits = compiler->Encode(request.puzzle(), problem, request.solution());
  if (bits.ok()) response.set_energy(problem.full_model.Energy(*bits));
  return response;
}

absl::StatusOr<v1::CountResponse> SolveEngine::Count(
    const v1::CountRequest& request, Interrupter& interrupter) const {
  const absl::Time start = absl::Now();
  ASSIGN_OR_RETURN(const PuzzleCompiler* compiler,
                   compilers_->ForSpec(request.puzzle()));
  RETURN_IF_ERROR(CheckModelSize(request.puzzle(), *compiler));
  if (!v1::CountMethod_IsValid(request.method())) {
    return absl::InvalidArgumentError(
        absl::StrCat("method: unknown value ", request.method()));
  }
  if (!std::isfinite(request.time_limit_seconds()) ||
      request.time_limit_seconds() < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("time_limit_seconds: must be >= 0, got ",
                     request.time_limit_seconds()));
  }
  auto encoder = BuiltinEncoders().ForSpec(request.puzzle());
  if (!encoder.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "puzzle: Count needs a puzzle family's rules; raw QUBO input has "
        "none (",
        encoder.status().message(), ")"));
  }
  // Compiling checks the spec and gives the variables the rules are over.
  v1::CompileOptions options;
  options.set_reduction(v1::REDUCTION_NONE);
  ASSIGN_OR_RETURN(const CompiledProblem problem,
                   compiler->Compile(request.puzzle(), options));
  if (request.time_limit_seconds() > 0) {
    interrupter.SetDeadline(
        absl::Now() + absl::Seconds(request.time_limit_seconds()),
        StopReason::kTimeLimit);
  }
  const uint64_t limit =
      request.limit() > 0 ? request.limit() : kDefaultCountLimit;
  CountMethod method = CountMethod::kAuto;
  if (request.method() == v1::COUNT_METHOD_SAT) method = CountMethod::kSat;
  if (request.method() == v1::COUNT_METHOD_BDD) method = CountMethod::kBdd;
  ASSIGN_OR_RETURN(const CountResult counted,
                   CountRuleSolutions(**encoder, request.puzzle(),
                                      problem.full_model.num_variables(), limit,
                                      method, &interrupter));
  if (!counted.complete && interrupter.reason() != StopReason::kNone)
    RETURN_IF_ERROR(StatusForStop(interrupter.reason()));
  v1::CountResponse response;
  response.set_puzzle_kind(std::string(compiler->kind()));
  response.set_count(counted.count);
  response.set_complete(counted.complete);
  response.set_unique(counted.complete && counted.count == 1);
  response.set_status(counted.status == SatResult::kSatisfiable
                          ? v1::SATISFIABLE
                      : counted.status == SatResult::kUnsatisfiable
                          ? v1::UNSATISFIABLE
                          : v1::SATISFIABILITY_UNKNOWN);
  response.set_method(counted.method == CountMethod::kBdd
                          ? v1::COUNT_METHOD_BDD
                          : v1::COUNT_METHOD_SAT);
  *response.mutable_encoding() = ToProto(counted.encoding);
  response.set_seconds(Seconds(absl::Now() - start));
  return response;
}

namespace {

// Reads per solve when GenerateRequest.sampling leaves num_reads unset, and
// solves (each with its own seed) before a generator is told there is no
// valid board.
constexpr uint32_t kGenerateReads = 16;
constexpr int kSampleAttempts = 100;

// The generators' SolutionSampler: Solve on the engine itself, in small solves
// that run every read to the end, keeping the valid board of the lowest read
// index. Stopping at the first valid read would be cheaper by a few reads, but
// which read finishes first depends on the threads; this way the same seed
// gives the same board, and so the same puzzle. Each solve runs under a child
// interrupter, which the call's cancel and deadline reach.
class EngineSolutionSampler final : public SolutionSampler {
 public:
  EngineSolutionSampler(const SolveEngine& engine, v1::SolveParams params)
      : engine_(engine), params_(std::move(params)) {
    if (!params_.has_num_reads()) params_.set_num_reads(kGenerateReads);
    params_.set_stop_at_first_valid(false);
    params_.clear_target_energy();
    params_.set_distinct_valid(true);
    params_.set_aggregate(false);
    params_.set_max_sample_events(0);
  }

  absl::StatusOr<std::vector<uint8_t>> SampleValidBoard(
      const v1::PuzzleSpec& spec, uint64_t seed, Interrupter& interrupter,
      int64_t* reads) override {
    v1::SolveRequest request;
    *request.mutable_puzzle() = spec;
    *request.mutable_params() = params_;
    for (int attempt = 0; attempt < kSampleAttempts; ++attempt) {
      request.mutable_params()->set_seed(DeriveSeed(seed, attempt));
      Interrupter solve_interrupter(&interrupter);
      std::optional<v1::SampleEvent> board;
      RETURN_IF_ERROR(engine_.Solve(
          request, solve_interrupter, [&](v1::SolveResponse&& event) {
            if (event.has_sample() && event.sample().valid() &&
                (!board || event.sample().read_index() < board->read_index()))
              board = std::move(*event.mutable_sample());
            if (event.has_summary()) *reads += event.summary().reads_done();
          }));
      if (interrupter.ShouldStop())
        return absl::AbortedError("stopped while sampling");
      if (board) return UnpackBits(board->bits(), board->num_variables());
    }
    return absl::NotFoundError(
        absl::StrCat("no valid board in ", kSampleAttempts, " x ",
                     params_.num_reads(), " annealer reads"));
  }

 private:
  const SolveEngine& engine_;
  v1::SolveParams params_;
};

}  // namespace

absl::StatusOr<GenerateOptions> SolveEngine::CheckGenerateRequest(
    const v1::GenerateRequest& request) const {
  ASSIGN_OR_RETURN(const PuzzleGenerator* generator,
                   BuiltinGenerators().Get(request.family()));
  GenerateOptions options;
  options.rows = static_cast<int>(std::min<uint32_t>(request.rows(), 1 << 16));
  options.cols =
      request.cols() == 0
          ? options.rows
          : static_cast<int>(std::min<uint32_t>(request.cols(), 1 << 16));
  if (!v1::Difficulty_IsValid(request.difficulty())) {
    return absl::InvalidArgumentError(
        absl::StrCat("difficulty: unknown value ", request.difficulty()));
  }
  options.difficulty = request.difficulty() == v1::DIFFICULTY_DEFAULT
                           ? v1::DIFFICULTY_HARD
                           : request.difficulty();
  options.target_clues =
      static_cast<int>(std::min<uint32_t>(request.target_clues(), 1 << 20));
  RETURN_IF_ERROR(generator->Check(options));
  if (request.count() > limits_.max_reads) {
    return absl::InvalidArgumentError(absl::StrCat(
        "count: must be 0..", limits_.max_reads, ", got ", request.count()));
  }
  if (!std::isfinite(request.time_limit_seconds()) ||
      request.time_limit_seconds() < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("time_limit_seconds: must be >= 0, got ",
                     request.time_limit_seconds()));
  }
  const v1::SolveParams& sampling = request.sampling();
  const std::string backend = sampling.backend().empty()
                                  ? std::string(kDefaultBackend)
                                  : sampling.backend();
  auto sampler = samplers_->Get(backend);
  if (!sampler.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "sampling.backend: '", backend,
        "' is not a sampler; solutions are drawn by sampling the QUBO"));
  }
  RETURN_IF_ERROR((*sampler)->Available());
  RETURN_IF_ERROR(CheckSolveParams(sampling, "sampling"));
  return options;
}

absl::Status SolveEngine::Generate(const v1::GenerateRequest& request,
                                   Interrupter& interrupter,
                                   const GenerateFn& emit) const {
  ASSIGN_OR_RETURN(const GenerateOptions options,
                   CheckGenerateRequest(request));
  const PuzzleGenerator* generator = *BuiltinGenerators().Get(request.family());
  if (request.time_limit_seconds() > 0) {
    interrupter.SetDeadline(
        absl::Now() + absl::Seconds(request.time_limit_seconds()),
        StopReason::kTimeLimit);
  }
  const uint64_t seed = request.has_seed() ? request.seed() : DrawSeed();
  EngineSolutionSampler sampler(*this, request.sampling());
  const uint32_t count = std::max<uint32_t>(request.count(), 1);
  for (uint32_t index = 0; index < count; ++index) {
    const absl::Time start = absl::Now();
    const uint64_t puzzle_seed = DeriveSeed(seed, index);
    absl::StatusOr<GeneratedPuzzle> made =
        generator->Generate(options, puzzle_seed, sampler, interrupter);
    if (interrupter.reason() != StopReason::kNone)
      return StatusForStop(interrupter.reason());
    RETURN_IF_ERROR(made.status());
    // Compiling the puzzle checks it and gives the board to decode.
    ASSIGN_OR_RETURN(const PuzzleCompiler* compiler,
                     compilers_->ForSpec(made->puzzle));
    v1::CompileOptions none;
    none.set_reduction(v1::REDUCTION_NONE);
    ASSIGN_OR_RETURN(const CompiledProblem problem,
                     compiler->Compile(made->puzzle, none));
    v1::GeneratedPuzzle out;
    out.set_index(index);
    out.set_family(request.family());
    out.set_puzzle_kind(made->puzzle_kind);
    *out.mutable_puzzle() = std::move(made->puzzle);
    *out.mutable_solution() =
        compiler->Decode(out.puzzle(), problem, made->solution);
    out.set_clues(made->clues);
    out.set_clues_at_start(made->clues_at_start);
    out.set_propagation_decided(made->propagation_decided);
    out.set_unique(true);
    out.set_seed(puzzle_seed);
    out.set_sample_reads(static_cast<uint32_t>(made->sample_reads));
    out.set_sat_calls(static_cast<uint32_t>(made->sat_calls));
    out.set_seconds(Seconds(absl::Now() - start));
    emit(std::move(out));
  }
  return absl::OkStatus();
}

v1::ListBackendsResponse SolveEngine::ListBackends() const {
  v1::ListBackendsResponse response;
  for (const Sampler* sampler : samplers_->All()) {
    v1::BackendDescription* d = response.add_backends();
    d->set_name(std::string(sampler->name()));
    d->set_description(std::string(sampler->description()));
    const absl::Status available = sampler->Available();
    d->set_available(available.ok());
    d->set_status(available.ok() ? "ready" : std::string(available.message()));
    const SamplerCapabilities caps = sampler->capabilities();
    d->set_max_variables(caps.max_variables);
    d->set_exact(caps.exact);
    d->set_deterministic(caps.deterministic);
  }
  for (const PuzzleSolver* solver : samplers_->PuzzleSolvers()) {
    v1::BackendDescription* d = response.add_backends();
    d->set_name(std::string(solver->name()));
    d->set_description(std::string(solver->description()));
    const absl::Status available = solver->Available();
    d->set_available(available.ok());
    d->set_status(available.ok() ? "ready" : std::string(available.message()));
    const SamplerCapabilities caps = solver->capabilities();
    d->set_max_variables(caps.max_variables);
    d->set_exact(caps.exact);
    d->set_deterministic(caps.deterministic);
  }
  return response;
}

absl::Status SolveEngine::Solve(const v1::SolveRequest& request,
                                Interrupter& interrupter, const EventFn& emit,
                                absl::Duration queue_time) const {
  const absl::Time start = absl::Now();
  RETURN_IF_ERROR(CheckSolveRequest(request));
  const v1::SolveParams& p = request.params();
  const PuzzleCompiler* compiler = *compilers_->ForSpec(request.puzzle());
  const std::string backend =
      p.backend().empty() ? std::string(kDefaultBackend) : p.backend();
  // A puzzle solver works on the rules; a sampler on the reduced model.
  const PuzzleSolver* solver = samplers_->FindPuzzleSolver(backend);
  const Sampler* sampler =
      solver == nullptr ? *samplers_->Get(backend) : nullptr;

  bool from_cache = false;
  ASSIGN_OR_RETURN(const CompileCache::Problem compiled,
                   CompileThroughCache(*compiler, request.puzzle(),
                                       request.compile(), &from_cache));
  const CompiledProblem& problem = *compiled;
  const absl::Duration compile_time = absl::Now() - start;
  const int n = problem.model.num_variables();
  if (problem.model.num_couplers() > limits_.max_couplers) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "puzzle: the reduced model has ", problem.model.num_couplers(),
        " couplers, over this server's limit of ", limits_.max_couplers));
  }
  SampleParams params;
  params.num_reads =
      static_cast<int>(p.has_num_reads() ? p.num_reads() : kDefaultReads);
  params.num_sweeps =
      static_cast<int>(p.has_num_sweeps() ? p.num_sweeps() : kDefaultSweeps);
  if (p.has_cpu_sa()) ApplyCpuSaParams(p.cpu_sa(), params);
  // Uniform sampling needs the hot start of seed 001 §4: the tuned range
  // starts cold enough that a short anneal keeps a bias towards the boards
  // nearest its random start (4x4 Sudoku at 100 sweeps: chi-square 9,000 over
  // 287 degrees of freedom, against 250 from the hot start). A range the
  // request chooses is kept.
  if (p.distinct_valid() &&
      p.cpu_sa().beta_range() == v1::BETA_RANGE_RULE_DEFAULT)
    params.beta_range_rule = BetaRangeRule::kDwave;
  if (solver != nullptr) {
    // Boards to find take the place of reads; there are no sweeps.
    params.num_reads = static_cast<int>(
        p.sat().max_solutions() > 0 ? p.sat().max_solutions() : 2);
    params.num_sweeps = 0;
  }
  const double attempts = static_cast<double>(params.num_reads) *
                          params.num_sweeps * std::max(n, 1);
  if (attempts > limits_.max_attempts) {
    return absl::ResourceExhaustedError(
        absl::StrCat("params: num_reads * num_sweeps * variables = ", attempts,
                     " spin-update attempts, over this server's "
                     "limit of ",
                     limits_.max_attempts));
  }
  params.seed = p.has_seed() ? p.seed() : DrawSeed();
  // With stop_at_first_valid the sink checks the energy together with the
  // rules: a sampler stopping on energy alone would end the solve at a board
  // that breaks a rule the QUBO cannot express (Takuzu's unique lines).
  if (p.has_target_energy() && !p.stop_at_first_valid())
    params.target_energy = p.target_energy();
  for (int k = 0; k < p.initial_states_size(); ++k) {
    auto full = UnpackBits(p.initial_states(k), problem.variables.num_full());
    if (!full.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "params.initial_states[", k, "]: ", full.status().message()));
    }
    params.initial_states.push_back(problem.variables.Restrict(*full));
  }
  params.wire = &p;
  if (p.time_limit_seconds() > 0) {
    interrupter.SetDeadline(absl::Now() + absl::Seconds(p.time_limit_seconds()),
                            StopReason::kTimeLimit);
  }

  {
    v1::SolveResponse response;
    v1::SolveHeader* header = response.mutable_header();
    header->set_request_id(request.request_id());
    FillStats(problem, compile_time, from_cache, *header->mutable_stats());
    header->set_backend(backend);
    header->set_seed(params.seed);
    header->set_num_reads(params.num_reads);
    header->set_num_sweeps(params.num_sweeps);
    header->set_queue_seconds(Seconds(queue_time));
    emit(std::move(response));
  }

  StreamingSink sink(*compiler, request.puzzle(), problem, p,
                     static_cast<uint32_t>(params.num_reads), interrupter, emit,
                     limits_.progress_interval);
  const absl::Time sample_start = absl::Now();
  SampleStats stats;
  std::optional<v1::ExactSummary> exact;
  if (solver != nullptr) {
    // Each board is a full-model assignment: scored on the full model and
    // handed to the sink over the reduced variables, like a read.
    absl::Status board_status;
    uint32_t index = 0;
    ASSIGN_OR_RETURN(
        PuzzleSolveStats solved,
        solver->Solve(
            request.puzzle(), problem, p,
            [&](std::vector<uint8_t> full) {
              if (!board_status.ok()) return;
              if (!problem.variables.IsConsistent(full)) {
                board_status = absl::InternalError(
                    "a board of the puzzle's rules contradicts a value the "
                    "reduction fixed");
                interrupter.Interrupt(StopReason::kCancelled);
                return;
              }
              Sample sample;
              sample.energy = problem.full_model.Energy(full);
              sample.bits = problem.variables.Restrict(full);
              sample.read_index = index++;
              sink.OnSample(std::move(sample));
            },
            interrupter));
    RETURN_IF_ERROR(board_status);
    stats.stop_reason = solved.stop_reason;
    stats.reads_done = static_cast<int>(index);
    stats.elapsed = solved.elapsed;
    stats.seed = params.seed;
    exact = std::move(solved.summary);
  } else {
    ASSIGN_OR_RETURN(stats,
                     sampler->Sample(problem.model, params, sink, interrupter));
  }
  const absl::Duration sample_time = absl::Now() - sample_start;
  sink.Flush();

  v1::SolveResponse response;
  v1::SolveSummary* summary = response.mutable_summary();
  summary->set_request_id(request.request_id());
  summary->set_termination(TerminationFor(stats.stop_reason));
  if (exact.has_value() && exact->status() == v1::UNSATISFIABLE)
    summary->set_termination(v1::INFEASIBLE);
  const uint32_t reads_done = sink.reads_done();
  summary->set_reads_done(reads_done);
  summary->set_num_valid(sink.valid());
  summary->set_success_fraction(
      reads_done > 0 ? static_cast<double>(sink.valid()) / reads_done : 0.0);
  if (sink.has_best()) {
    v1::SampleEvent best = sink.best();
    summary->set_best_energy(best.energy());
    if (auto objective = compiler->Objective(request.puzzle(), best.energy()))
      summary->set_objective(*objective);
    *summary->mutable_best_solution() = std::move(*best.mutable_solution());
    summary->set_best_valid(best.valid());
    *summary->mutable_best_violations() = std::move(*best.mutable_violations());
  }
  if (problem.ground_energy) summary->set_ground_energy(*problem.ground_energy);
  v1::Timings* timings = summary->mutable_timings();
  timings->set_queue_seconds(Seconds(queue_time));
  timings->set_compile_seconds(Seconds(compile_time));
  timings->set_sample_seconds(Seconds(sample_time));
  timings->set_decode_seconds(Seconds(sink.decode_time()));
  timings->set_annealer_cpu_seconds(Seconds(stats.cpu_time));
  timings->set_total_seconds(Seconds(queue_time + (absl::Now() - start)));
  summary->set_seed(params.seed);
  summary->set_sweeps_done(stats.sweeps_done);
  summary->set_spin_update_attempts(stats.spin_update_attempts);
  summary->set_accepted_flips(stats.accepted_flips);
  const double sample_seconds = Seconds(stats.elapsed);
  summary->set_attempts_per_second(
      sample_seconds > 0 ? stats.spin_update_attempts / sample_seconds : 0);
  v1::BackendInfo* info = summary->mutable_backend();
  FillBackendInfo(stats, *info);
  info->set_name(backend);
  if (exact.has_value()) *summary->mutable_exact() = std::move(*exact);
  if (p.distinct_valid())
    summary->set_num_distinct_valid(sink.distinct_valid());
  if (stats.dwave) *info->mutable_dwave() = *stats.dwave;
  emit(std::move(response));
  return StatusForStop(stats.stop_reason);
}

}  // namespace qs
