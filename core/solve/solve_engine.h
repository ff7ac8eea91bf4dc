// SolveEngine: everything a Compile, Solve, Validate, Count, Generate or
// ListBackends call does, without gRPC: request checks (INVALID_ARGUMENT naming
// the field, RESOURCE_EXHAUSTED over the limits; request_checks.h), compiling
// through the CompilerRegistry, solving through the one Backend interface of
// the BackendRegistry (samplers, the puzzle-rules "sat" backend, D-Wave: the
// engine knows none by name), decoding and validating every sample
// (streaming_sink.h), and the ordered event stream: one SolveHeader,
// SampleEvents and Progress as reads finish, one SolveSummary. Count
// (count.cc) and Generate (generate.cc) use the exact engines of core/exact and
// the generators of core/generate. The server only moves these messages to and
// from the wire. An allocation failure ends the request that made it with
// RESOURCE_EXHAUSTED, never the process. Thread-safe: one engine serves all
// requests.
#ifndef QS_CORE_SOLVE_SOLVE_ENGINE_H_
#define QS_CORE_SOLVE_SOLVE_ENGINE_H_

#include <cstdint>
#include <functional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "core/backend/registry.h"
#include "core/base/interrupter.h"
#include "core/compile/compile_cache.h"
#include "core/compile/registry.h"
#include "core/exact/cnf.h"
#include "core/generate/generator.h"
#include "core/solve/request_checks.h"
#include "core/solve/wire.h"
#include "qs/v1/solve.pb.h"

namespace qs {

class SolveEngine {
 public:
  // `cache` (optional, outliving the engine) keeps compiled problems for
  // Compile and Solve calls that repeat a puzzle.
  SolveEngine(const CompilerRegistry* compilers,
              const BackendRegistry* backends, SolveLimits limits,
              CompileCache* cache = nullptr);

  const SolveLimits& limits() const { return limits_; }
  const CompilerRegistry& compilers() const { return *compilers_; }
  const BackendRegistry& backends() const { return *backends_; }

  // Checks that need no compiling: parameters in range, known backend, puzzle
  // set, declared size within limits. Cheap; run it before admitting a request.
  absl::Status CheckSolveRequest(const v1::SolveRequest& request) const;

  absl::StatusOr<v1::CompileResponse> Compile(
      const v1::CompileRequest& request) const;
  absl::StatusOr<v1::ValidateResponse> Validate(
      const v1::ValidateRequest& request) const;
  v1::ListBackendsResponse ListBackends() const;
  // The puzzle families and raw model kinds, with their text kinds, examples
  // and what the exact engines and generators do for them (families.cc).
  v1::ListFamiliesResponse ListFamilies() const;
  // Parses a puzzle text, and a board text when the request has one, of a
  // kind ListFamilies lists: INVALID_ARGUMENT naming `kind`, `text` or
  // `board` (families.cc).
  absl::StatusOr<v1::ParseResponse> Parse(
      const v1::ParseRequest& request) const;
  // The puzzle's family's drawing of the puzzle and, when the request has
  // one, of the solution: INVALID_ARGUMENT for a solution whose cells do not
  // fit the board, UNIMPLEMENTED for a family that draws no boards.
  absl::StatusOr<v1::DrawResponse> Draw(const v1::DrawRequest& request) const;

  // Counts the puzzle's solutions with the exact engines (core/exact):
  // BuDDy on small boards, CaDiCaL enumeration up to the request's limit
  // otherwise. OK with complete = false when the request's time limit ends
  // the count; CANCELLED / DEADLINE_EXCEEDED / UNAVAILABLE when the
  // interrupter fires for those reasons.
  absl::StatusOr<v1::CountResponse> Count(const v1::CountRequest& request,
                                          Interrupter& interrupter) const;

  // Checks of a Generate request that need no work (family, size,
  // difficulty, count, sampling parameters); run it before admitting one.
  absl::StatusOr<GenerateOptions> CheckGenerateRequest(
      const v1::GenerateRequest& request) const;

  using GenerateFn = std::function<void(v1::GeneratedPuzzle&&)>;

  // Makes request.count puzzles with the family's generator (core/generate),
  // sampling each solution with Solve on the request's sampling parameters,
  // and emits each as it is made. OK when all were made or the request's time
  // limit ended the call early (fewer puzzles); CANCELLED /
  // DEADLINE_EXCEEDED / UNAVAILABLE when the interrupter fires for those
  // reasons.
  absl::Status Generate(const v1::GenerateRequest& request,
                        Interrupter& interrupter, const GenerateFn& emit) const;

  // Called for each event, from one thread at a time, in stream order.
  using EventFn = std::function<void(v1::SolveResponse&&)>;

  // Runs a whole solve and emits its events. `queue_time` is how long the
  // request waited before this call (reported in the header and summary). The
  // result is OK when sampling ended normally (all reads, target reached, time
  // limit); CANCELLED, DEADLINE_EXCEEDED or UNAVAILABLE when the interrupter
  // fired for those reasons (the summary is still emitted); any compile or
  // sampler error as is.
  // With `stream_samples` false only the header and the summary are emitted
  // (for a caller that reads nothing else, such as a SolveBatch item).
  absl::Status Solve(const v1::SolveRequest& request, Interrupter& interrupter,
                     const EventFn& emit,
                     absl::Duration queue_time = absl::ZeroDuration(),
                     bool stream_samples = true) const;

  // The status a solve ends with when stopped for `reason` (OK for kNone,
  // kTargetReached, kTimeLimit).
  static absl::Status StatusForStop(StopReason reason);

 private:
  // The problem of (spec, options), through the cache when there is one.
  absl::StatusOr<CompileCache::Problem> CompileThroughCache(
      const PuzzleCompiler& compiler, const v1::PuzzleSpec& spec,
      const v1::CompileOptions& options, bool* from_cache) const;
  absl::Status SolveUnguarded(const v1::SolveRequest& request,
                              Interrupter& interrupter, const EventFn& emit,
                              absl::Duration queue_time,
                              bool stream_samples) const;
  absl::Status GenerateUnguarded(const v1::GenerateRequest& request,
                                 Interrupter& interrupter,
                                 const GenerateFn& emit) const;
  absl::StatusOr<v1::CountResponse> CountUnguarded(
      const v1::CountRequest& request, Interrupter& interrupter) const;

  const CompilerRegistry* compilers_;
  const BackendRegistry* backends_;
  SolveLimits limits_;
  CompileCache* cache_;
};

}  // namespace qs

#endif  // QS_CORE_SOLVE_SOLVE_ENGINE_H_
