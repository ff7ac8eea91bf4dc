// SolveEngine: construction, the request checks of Solve, Compile, Validate
// and ListBackends. Solve is in solve.cc, Count in count.cc, Generate in
// generate.cc.
#include "core/solve/solve_engine.h"

#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "core/base/allocation_guard.h"
#include "core/base/status_macros.h"
#include "core/compile/preprocess_stage.h"
#include "core/qaoa/qasm.h"
#include "core/qubo/qubo_proto.h"

namespace qs {

SolveEngine::SolveEngine(const CompilerRegistry* compilers,
                         const BackendRegistry* backends, SolveLimits limits,
                         CompileCache* cache)
    : compilers_(compilers),
      backends_(backends),
      limits_(limits),
      cache_(cache) {}

absl::StatusOr<CompileCache::Problem> SolveEngine::CompileThroughCache(
    const PuzzleCompiler& compiler, const v1::PuzzleSpec& spec,
    const v1::CompileOptions& options, bool* from_cache) const {
  RETURN_IF_ERROR(CheckEncoding(options.encoding(), "compile.encoding"));
  CompileCache::Problem problem;
  if (cache_ != nullptr) {
    ASSIGN_OR_RETURN(problem,
                     cache_->GetOrCompile(compiler, spec, options, from_cache));
  } else {
    *from_cache = false;
    ASSIGN_OR_RETURN(CompiledProblem compiled,
                     CompileProblem(compiler, spec, options));
    problem = std::make_shared<const CompiledProblem>(std::move(compiled));
  }
  RETURN_IF_ERROR(
      CheckEncodingApplied(options.encoding(), *problem, "compile.encoding"));
  return problem;
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

absl::Status SolveEngine::CheckSolveRequest(
    const v1::SolveRequest& request) const {
  RETURN_IF_ERROR(CheckRequestId(request.request_id()));
  ASSIGN_OR_RETURN(const PuzzleCompiler* compiler,
                   compilers_->ForSpec(request.puzzle()));
  RETURN_IF_ERROR(CheckModelSize(request.puzzle(), *compiler, limits_));
  RETURN_IF_ERROR(CheckBackend(*backends_, request.params(), &request.puzzle(),
                               limits_, "params")
                      .status());
  return CheckCommonParams(request.params(), limits_, "params");
}

absl::StatusOr<v1::CompileResponse> SolveEngine::Compile(
    const v1::CompileRequest& request) const {
  return GuardAllocation(
      "Compile", [&]() -> absl::StatusOr<v1::CompileResponse> {
        ASSIGN_OR_RETURN(const PuzzleCompiler* compiler,
                         compilers_->ForSpec(request.puzzle()));
        RETURN_IF_ERROR(CheckModelSize(request.puzzle(), *compiler, limits_));
        const absl::Time start = absl::Now();
        bool from_cache = false;
        ASSIGN_OR_RETURN(const CompileCache::Problem compiled,
                         CompileThroughCache(*compiler, request.puzzle(),
                                             request.options(), &from_cache));
        const CompiledProblem& problem = *compiled;
        v1::CompileResponse response;
        FillCompileStats(problem, absl::Now() - start, from_cache,
                         *response.mutable_stats());
        if (request.options().return_qubo() && problem.higher_order) {
          return absl::InvalidArgumentError(
              "options.return_qubo: the binary encoding gives a higher-order "
              "model, which is no QUBO (its size is in the statistics)");
        }
        if (request.options().return_qubo())
          *response.mutable_qubo() = QuboToProto(problem.model);
        for (int r = 0; r < problem.variables.num_reduced(); ++r) {
          response.add_variable_map(problem.variables.representative(r));
        }
        for (const std::string& label : problem.full_model.labels())
          response.add_labels(label);
        if (request.options().qaoa_circuit().qasm_version() != 0) {
          RETURN_IF_ERROR(AddQaoaCircuit(
              problem, request.options().qaoa_circuit(), response));
        }
        return response;
      });
}

absl::StatusOr<v1::ValidateResponse> SolveEngine::Validate(
    const v1::ValidateRequest& request) const {
  return GuardAllocation(
      "Validate", [&]() -> absl::StatusOr<v1::ValidateResponse> {
        ASSIGN_OR_RETURN(const PuzzleCompiler* compiler,
                         compilers_->ForSpec(request.puzzle()));
        RETURN_IF_ERROR(CheckModelSize(request.puzzle(), *compiler, limits_));
        v1::ValidateResponse response;
        ASSIGN_OR_RETURN(
            *response.mutable_report(),
            compiler->Validate(request.puzzle(), request.solution()));
        v1::CompileOptions options;
        options.set_reduction(v1::REDUCTION_NONE);
        ASSIGN_OR_RETURN(CompiledProblem problem,
                         compiler->Compile(request.puzzle(), options));
        auto bits =
            compiler->Encode(request.puzzle(), problem, request.solution());
        if (bits.ok()) response.set_energy(problem.full_model.Energy(*bits));
        return response;
      });
}

v1::ListBackendsResponse SolveEngine::ListBackends() const {
  v1::ListBackendsResponse response;
  for (const Backend* backend : backends_->All()) {
    v1::BackendDescription* d = response.add_backends();
    d->set_name(std::string(backend->name()));
    d->set_description(std::string(backend->description()));
    d->set_available(backend->Available().ok());
    d->set_status(backend->StatusMessage());
    const BackendCapabilities caps = backend->capabilities();
    d->set_max_variables(caps.max_variables);
    d->set_exact(caps.exact);
    d->set_deterministic(caps.deterministic);
    d->set_interruptible(caps.interruptible);
    d->set_remote(caps.remote);
    d->set_rules(caps.rules);
    d->set_higher_order(caps.higher_order);
    d->set_params_field(std::string(backend->params_field()));
    if (const auto* field = v1::SolveParams::descriptor()->FindFieldByName(
            std::string(backend->params_field()));
        field != nullptr && field->message_type() != nullptr) {
      for (v1::ParamDescription& row : DescribeParams(*field->message_type()))
        *d->add_params() = std::move(row);
    }
  }
  return response;
}

}  // namespace qs
