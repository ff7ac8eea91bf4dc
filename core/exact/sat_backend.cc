// The "sat" backend: CaDiCaL on a puzzle's Boolean rules.
#include "core/exact/sat_backend.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "core/base/status_macros.h"
#include "core/exact/exact_solver.h"

namespace qs {
namespace {

// Two boards tell whether the first is the only one.
constexpr int64_t kDefaultMaxSolutions = 2;

v1::Satisfiability ToProto(SatResult result) {
  switch (result) {
    case SatResult::kSatisfiable:
      return v1::SATISFIABLE;
    case SatResult::kUnsatisfiable:
      return v1::UNSATISFIABLE;
    case SatResult::kUnknown:
      return v1::SATISFIABILITY_UNKNOWN;
  }
  return v1::SATISFIABILITY_UNKNOWN;
}

class SatPuzzleSolver final : public PuzzleSolver {
 public:
  absl::string_view name() const override { return kSatBackend; }
  absl::string_view description() const override {
    return "CaDiCaL on the puzzle's Boolean rules: a valid board or a proof "
           "that none exists, and whether it is unique";
  }
  SamplerCapabilities capabilities() const override {
    SamplerCapabilities caps;
    caps.exact = true;
    caps.deterministic = true;
    return caps;
  }

  absl::Status Supports(const v1::PuzzleSpec& spec) const override {
    if (BuiltinEncoders().ForSpec(spec).ok()) return absl::OkStatus();
    return absl::InvalidArgumentError(absl::StrCat(
        "params.backend: '", kSatBackend,
        "' solves a puzzle family's rules, and raw QUBO input has none (the "
        "'exact' backend enumerates small QUBOs)"));
  }

  absl::StatusOr<PuzzleSolveStats> Solve(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::SolveParams& params,
      const std::function<void(std::vector<uint8_t>)>& on_board,
      Interrupter& interrupter) const override {
    const absl::Time start = absl::Now();
    ASSIGN_OR_RETURN(const RulesEncoder* encoder,
                     BuiltinEncoders().ForSpec(spec));
    const int64_t max_solutions = params.sat().max_solutions() > 0
                                      ? params.sat().max_solutions()
                                      : kDefaultMaxSolutions;
    ASSIGN_OR_RETURN(
        const ExactSolveResult result,
        SolveRules(*encoder, spec, problem.full_model.num_variables(),
                   max_solutions, on_board, &interrupter));
    PuzzleSolveStats stats;
    const Enumeration& e = result.enumeration;
    stats.summary.set_status(ToProto(e.status));
    stats.summary.set_solutions_found(static_cast<uint64_t>(e.found));
    stats.summary.set_complete(e.complete);
    stats.summary.set_unique(e.complete && e.found == 1);
    v1::EncodingStats* encoding = stats.summary.mutable_encoding();
    encoding->set_primary_variables(result.encoding.primary_variables);
    encoding->set_auxiliary_variables(result.encoding.auxiliary_variables);
    encoding->set_clauses(result.encoding.clauses);
    encoding->set_literals(result.encoding.literals);
    // A search that ended without its answer was stopped.
    if (!e.complete && e.found < max_solutions)
      stats.stop_reason = interrupter.reason();
    stats.elapsed = absl::Now() - start;
    return stats;
  }
};

}  // namespace

std::unique_ptr<PuzzleSolver> NewSatPuzzleSolver() {
  return std::make_unique<SatPuzzleSolver>();
}

}  // namespace qs
