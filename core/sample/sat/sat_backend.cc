// The "sat" backend: CaDiCaL on a puzzle's Boolean rules.
#include "core/sample/sat/sat_backend.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "core/base/status_macros.h"
#include "core/exact/exact_solver.h"
#include "core/families/builtin.h"
#include "core/families/queens/queens_formula.h"
#include "core/sample/sample_util.h"

namespace qs {
namespace {

// Two boards tell whether the first is the only one.

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

class SatBackend final : public Backend {
 public:
  absl::string_view name() const override { return kSatBackend; }
  absl::string_view description() const override {
    return "CaDiCaL on the puzzle's Boolean rules: a valid board or a proof "
           "that none exists, and whether it is unique";
  }
  absl::string_view params_field() const override { return "sat"; }
  BackendCapabilities capabilities() const override {
    // A binary-encoded queens problem is solved by its BIN formula.
    return {.exact = true,
            .deterministic = true,
            .rules = true,
            .higher_order = true};
  }

  absl::Status CheckParams(const v1::SolveParams& params,
                           const ParamLimits& limits,
                           absl::string_view prefix) const override {
    if (params.sat().max_solutions() > limits.max_reads) {
      return absl::InvalidArgumentError(absl::StrCat(
          prefix, ".sat.max_solutions: must be 0..", limits.max_reads, ", got ",
          params.sat().max_solutions()));
    }
    return absl::OkStatus();
  }

  absl::Status Supports(const v1::PuzzleSpec& spec,
                        absl::string_view prefix) const override {
    if (BuiltinEncoders().ForSpec(spec).ok()) return absl::OkStatus();
    return absl::InvalidArgumentError(absl::StrCat(
        prefix, ".backend: '", kSatBackend,
        "' solves a puzzle family's rules, and raw QUBO input has none (the "
        "'exact' backend enumerates small QUBOs)"));
  }

  // Boards to find take the place of reads; there are no sweeps.
  JobBudget Budget(const v1::SolveParams& params,
                   JobBudget defaults) const override {
    return {.num_reads = static_cast<int>(
                params.sat().max_solutions() > 0
                    ? params.sat().max_solutions()
                    : static_cast<int64_t>(
                          StatedDefault<v1::SatParams>("max_solutions"))),
            .num_sweeps = 0};
  }

  absl::StatusOr<BackendResult> Solve(const BackendJob& job, SampleSink& sink,
                                      Interrupter& interrupter) const override {
    const absl::Time start = absl::Now();
    // The search runs on this thread: its CPU time is the engine's, counted
    // with the annealers' (Timings.annealer_cpu_seconds).
    const int64_t cpu_start = ThreadCpuNanos();
    ASSIGN_OR_RETURN(const RulesEncoder* encoder,
                     BuiltinEncoders().ForSpec(*job.spec));
    const CompiledProblem& problem = *job.problem;
    // Each board is a full-model assignment: scored on the full model and
    // handed to the sink over the reduced variables, like a read.
    absl::Status board_status;
    uint32_t index = 0;
    auto on_board = [&](std::vector<uint8_t> full) {
      if (!board_status.ok()) return;
      if (!problem.variables.IsConsistent(full)) {
        board_status = absl::InternalError(
            "a board of the puzzle's rules contradicts a value the reduction "
            "fixed");
        return;
      }
      const double energy = FullEnergy(problem, full);
      sink.OnSample({problem.variables.Restrict(full), energy, index++, 1});
    };
    const PuzzleCompiler* compiler =
        BuiltinCompilers().ForSpec(*job.spec).value_or(nullptr);
    const bool optimizes = compiler != nullptr && !problem.higher_order &&
                           !compiler->Policy().valid_is_optimal;
    ASSIGN_OR_RETURN(
        const ExactSolveResult solved,
        optimizes ? Optimize(*compiler, *encoder, job, on_board, interrupter)
        : problem.higher_order
            ? SolveQueensBinary(*job.spec, job.num_reads, on_board,
                                &interrupter)
            : SolveRules(*encoder, *job.spec,
                         problem.full_model.num_variables(), job.num_reads,
                         on_board, &interrupter));
    RETURN_IF_ERROR(board_status);
    BackendResult result;
    const Enumeration& e = solved.enumeration;
    v1::ExactSummary& summary = result.exact.emplace();
    summary.set_status(ToProto(e.status));
    summary.set_solutions_found(static_cast<uint64_t>(e.found));
    summary.set_complete(e.complete);
    // A model's search stops at its best board: it says nothing of how
    // many boards there are, and complete means that board is optimal.
    summary.set_unique(!optimizes && e.complete && e.found == 1);
    v1::EncodingStats* encoding = summary.mutable_encoding();
    encoding->set_primary_variables(solved.encoding.primary_variables);
    encoding->set_auxiliary_variables(solved.encoding.auxiliary_variables);
    encoding->set_clauses(solved.encoding.clauses);
    encoding->set_literals(solved.encoding.literals);
    // A search that ended without its answer was stopped.
    if (!e.complete && e.found < job.num_reads)
      result.stop_reason = interrupter.reason();
    result.reads_done = static_cast<int>(index);
    result.seed = job.seed;
    result.elapsed = absl::Now() - start;
    result.cpu_time = absl::Nanoseconds(ThreadCpuNanos() - cpu_start);
    return result;
  }

 private:
  // For a kind whose valid boards are not all optimal (constrained models):
  // the rules, then the rules with the objective strictly below the last
  // board's, solved again until no board is better (complete: the last board
  // is optimal, or none exists), the encoding refuses the bound (the boards
  // found stand, not proven optimal) or the search is stopped. Every board
  // goes to `on_board` as it is found.
  static absl::StatusOr<ExactSolveResult> Optimize(
      const PuzzleCompiler& compiler, const RulesEncoder& encoder,
      const BackendJob& job,
      const std::function<void(std::vector<uint8_t>)>& on_board,
      Interrupter& interrupter) {
    const CompiledProblem& problem = *job.problem;
    const int num_primary = problem.full_model.num_variables();
    ExactSolveResult total;
    EncodeOptions options;
    std::optional<double> best;
    for (;;) {
      if (best) options.objective_below = *best;
      absl::StatusOr<Cnf> cnf =
          EncodeCnf(encoder, *job.spec, num_primary, options);
      if (!cnf.ok()) {
        if (best && absl::IsUnimplemented(cnf.status())) return total;
        return cnf.status();
      }
      std::vector<uint8_t> board;
      const Enumeration e = EnumerateSolutions(
          *cnf, 1, [&](std::vector<uint8_t> full) { board = std::move(full); },
          &interrupter);
      total.encoding = cnf->Stats();
      if (e.status == SatResult::kUnknown) return total;  // stopped
      if (e.status == SatResult::kUnsatisfiable) {
        // No board at all is a proof of infeasibility; none better than the
        // last, of its optimality.
        total.enumeration.status =
            best ? SatResult::kSatisfiable : SatResult::kUnsatisfiable;
        total.enumeration.complete = true;
        return total;
      }
      ++total.enumeration.found;
      total.enumeration.status = SatResult::kSatisfiable;
      const v1::PuzzleSolution decoded =
          compiler.Decode(*job.spec, problem, board);
      const std::optional<double> measure =
          compiler.TargetMeasure(*job.spec, problem, decoded);
      on_board(std::move(board));
      if (!measure) return total;
      best = *measure;
    }
  }
};

}  // namespace

std::unique_ptr<Backend> NewSatBackend() {
  return std::make_unique<SatBackend>();
}

}  // namespace qs
