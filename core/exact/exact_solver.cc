// SolveRules and CountRuleSolutions: CaDiCaL for solutions and enumeration,
// BuDDy for exact counts.
#include "core/exact/exact_solver.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/base/status_macros.h"
#include "core/exact/bdd_counter.h"

namespace qs {

absl::StatusOr<Cnf> EncodeCnf(const RulesEncoder& encoder,
                              const v1::PuzzleSpec& spec, int num_primary,
                              const EncodeOptions& options) {
  CnfBuilder builder(num_primary);
  RETURN_IF_ERROR(encoder.Encode(spec, options, builder));
  return std::move(builder).Take();
}

namespace {

ExactSolveResult SolveCnf(
    const Cnf& cnf, int64_t max_solutions,
    const std::function<void(std::vector<uint8_t>)>& on_solution,
    Interrupter* interrupter) {
  ExactSolveResult result;
  result.encoding = cnf.Stats();
  result.enumeration =
      EnumerateSolutions(cnf, max_solutions, on_solution, interrupter);
  return result;
}

// Counting by CaDiCaL enumeration, up to `limit` solutions.
CountResult CountCnf(const Cnf& cnf, uint64_t limit, Interrupter* interrupter) {
  CountResult result;
  result.method = CountMethod::kSat;
  result.encoding = cnf.Stats();
  const Enumeration enumeration = EnumerateSolutions(
      cnf, static_cast<int64_t>(std::min<uint64_t>(limit, INT64_MAX)),
      [](std::vector<uint8_t>) {}, interrupter);
  result.status = enumeration.status;
  result.count = static_cast<uint64_t>(enumeration.found);
  result.complete = enumeration.complete;
  return result;
}

// A finished BDD count as a CountResult.
CountResult FromBdd(const BddCount& counted) {
  CountResult result;
  result.method = CountMethod::kBdd;
  result.encoding = counted.stats;
  if (counted.stopped) return result;
  result.count = static_cast<uint64_t>(std::llround(counted.count));
  result.complete = true;
  result.status =
      result.count > 0 ? SatResult::kSatisfiable : SatResult::kUnsatisfiable;
  return result;
}

}  // namespace

absl::StatusOr<ExactSolveResult> SolveRules(
    const RulesEncoder& encoder, const v1::PuzzleSpec& spec, int num_primary,
    int64_t max_solutions,
    const std::function<void(std::vector<uint8_t>)>& on_solution,
    Interrupter* interrupter) {
  ASSIGN_OR_RETURN(const Cnf cnf, EncodeCnf(encoder, spec, num_primary));
  return SolveCnf(cnf, max_solutions, on_solution, interrupter);
}

absl::StatusOr<CountResult> CountRuleSolutions(const RulesEncoder& encoder,
                                               const v1::PuzzleSpec& spec,
                                               int num_primary, uint64_t limit,
                                               CountMethod method,
                                               Interrupter* interrupter) {
  if (method == CountMethod::kBdd && encoder.needs_auxiliary()) {
    return absl::InvalidArgumentError(
        absl::StrCat("method: the ", encoder.kind(),
                     " rules need auxiliary variables, which a BDD count over "
                     "the board's variables cannot hold; count with sat"));
  }
  if (method == CountMethod::kBdd ||
      (method == CountMethod::kAuto && num_primary <= kBddAutoVariables &&
       !encoder.needs_auxiliary())) {
    BddBuilder bdd(num_primary);
    RETURN_IF_ERROR(encoder.Encode(spec, EncodeOptions(), bdd));
    absl::StatusOr<BddCount> counted = bdd.Count(interrupter);
    const bool fall_back = method == CountMethod::kAuto && !counted.ok() &&
                           absl::IsResourceExhausted(counted.status());
    if (!fall_back) {
      RETURN_IF_ERROR(counted.status());
      return FromBdd(*counted);
    }
  }
  ASSIGN_OR_RETURN(const Cnf cnf, EncodeCnf(encoder, spec, num_primary));
  return CountCnf(cnf, limit, interrupter);
}

ExactSolveResult SolveCircuit(
    const BoolCircuit& circuit, int64_t max_solutions,
    const std::function<void(std::vector<uint8_t>)>& on_solution,
    Interrupter* interrupter) {
  return SolveCnf(circuit.ToCnf(), max_solutions, on_solution, interrupter);
}

absl::StatusOr<CountResult> CountCircuitSolutions(const BoolCircuit& circuit,
                                                  uint64_t limit,
                                                  CountMethod method,
                                                  Interrupter* interrupter) {
  const int n = circuit.num_primary();
  if (method == CountMethod::kBdd ||
      (method == CountMethod::kAuto && n <= kBddAutoVariables)) {
    absl::StatusOr<BddCount> counted = CountCircuit(circuit, interrupter);
    const bool fall_back = method == CountMethod::kAuto && !counted.ok() &&
                           absl::IsResourceExhausted(counted.status());
    if (!fall_back) {
      RETURN_IF_ERROR(counted.status());
      return FromBdd(*counted);
    }
  }
  return CountCnf(circuit.ToCnf(), limit, interrupter);
}

}  // namespace qs
