// SolveEngine::Count: the number of boards that keep a puzzle's rules, with
// the exact engines of core/exact.
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "core/base/allocation_guard.h"
#include "core/base/status_macros.h"
#include "core/exact/encoder.h"
#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/families/queens/queens_formula.h"
#include "core/solve/solve_engine.h"

namespace qs {
namespace {

constexpr uint64_t kDefaultCountLimit = 1000000;

// The compiler's refusals name compile.encoding; a CountRequest's field is
// encoding.
absl::StatusOr<CompiledProblem> CompileForCount(
    const PuzzleCompiler& compiler, const v1::PuzzleSpec& spec,
    const v1::CompileOptions& options) {
  absl::StatusOr<CompiledProblem> problem = compiler.Compile(spec, options);
  constexpr absl::string_view kField = "compile.encoding";
  if (!problem.ok() && absl::StartsWith(problem.status().message(), kField)) {
    return absl::Status(
        problem.status().code(),
        absl::StrCat("encoding",
                     problem.status().message().substr(kField.size())));
  }
  return problem;
}

}  // namespace

absl::StatusOr<v1::CountResponse> SolveEngine::Count(
    const v1::CountRequest& request, Interrupter& interrupter) const {
  return GuardAllocation("Count",
                         [&] { return CountUnguarded(request, interrupter); });
}

absl::StatusOr<v1::CountResponse> SolveEngine::CountUnguarded(
    const v1::CountRequest& request, Interrupter& interrupter) const {
  const absl::Time start = absl::Now();
  ASSIGN_OR_RETURN(const PuzzleCompiler* compiler,
                   compilers_->ForSpec(request.puzzle()));
  RETURN_IF_ERROR(CheckModelSize(request.puzzle(), *compiler, limits_));
  if (!v1::CountMethod_IsValid(request.method())) {
    return absl::InvalidArgumentError(
        absl::StrCat("method: unknown value ", request.method()));
  }
  RETURN_IF_ERROR(
      CheckTimeLimit(request.time_limit_seconds(), "time_limit_seconds"));
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
  RETURN_IF_ERROR(CheckEncoding(request.encoding(), "encoding"));
  options.set_encoding(request.encoding());
  ASSIGN_OR_RETURN(const CompiledProblem problem,
                   CompileForCount(*compiler, request.puzzle(), options));
  RETURN_IF_ERROR(
      CheckEncodingApplied(request.encoding(), problem, "encoding"));
  const bool binary = problem.higher_order.has_value();
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
  ASSIGN_OR_RETURN(
      const CountResult counted,
      binary ? CountQueensBinary(request.puzzle(), limit, method, &interrupter)
             : CountRuleSolutions(**encoder, request.puzzle(),
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

}  // namespace qs
