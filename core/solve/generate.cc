// SolveEngine::Generate: puzzles with proven-unique solutions, made by the
// generators of core/generate from solutions the engine samples itself.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "core/base/allocation_guard.h"
#include "core/base/rng.h"
#include "core/base/status_macros.h"
#include "core/families/builtin.h"
#include "core/generate/generator.h"
#include "core/solve/solve_engine.h"

namespace qs {
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
    if (params_.backend().empty())
      params_.set_backend(std::string(kDefaultSamplingBackend));
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
  options.sudoku = request.sudoku();
  RETURN_IF_ERROR(generator->Check(options));
  if (request.count() > limits_.max_reads) {
    return absl::InvalidArgumentError(absl::StrCat(
        "count: must be 0..", limits_.max_reads, ", got ", request.count()));
  }
  RETURN_IF_ERROR(
      CheckTimeLimit(request.time_limit_seconds(), "time_limit_seconds"));
  v1::SolveParams sampling = request.sampling();
  if (sampling.backend().empty())
    sampling.set_backend(std::string(kDefaultSamplingBackend));
  RETURN_IF_ERROR(CheckBackend(*backends_, sampling, nullptr, limits_,
                               "sampling", /*samplers_only=*/true)
                      .status());
  RETURN_IF_ERROR(CheckCommonParams(request.sampling(), limits_, "sampling"));
  return options;
}

absl::Status SolveEngine::Generate(const v1::GenerateRequest& request,
                                   Interrupter& interrupter,
                                   const GenerateFn& emit) const {
  return GuardAllocation("Generate", [&] {
    return GenerateUnguarded(request, interrupter, emit);
  });
}

absl::Status SolveEngine::GenerateUnguarded(const v1::GenerateRequest& request,
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

}  // namespace qs
