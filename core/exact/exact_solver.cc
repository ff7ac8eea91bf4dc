// SolveRules and CountRuleSolutions: CaDiCaL for solutions and enumeration,
// BuDDy for exact counts.
#include "core/exact/exact_solver.h"

#include <cmath>
#include <utility>

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

absl::StatusOr<ExactSolveResult> SolveRules(
    const RulesEncoder& encoder, const v1::PuzzleSpec& spec, int num_primary,
    int64_t max_solutions,
    const std::function<void(std::vector<uint8_t>)>& on_solution,
    Interrupter* interrupter) {
  ASSIGN_OR_RETURN(const Cnf cnf, EncodeCnf(encoder, spec, num_primary));
  ExactSolveResult result;
  result.encoding = cnf.Stats();
  result.enumeration =
      EnumerateSolutions(cnf, max_solutions, on_solution, interrupter);
  return result;
}

absl::StatusOr<CountResult> CountRuleSolutions(const RulesEncoder& encoder,
                                               const v1::PuzzleSpec& spec,
                                               int num_primary, uint64_t limit,
                                               CountMethod method,
                                               Interrupter* interrupter) {
  CountResult result;
  if (method == CountMethod::kBdd ||
      (method == CountMethod::kAuto && num_primary <= kBddAutoVariables)) {
    BddBuilder bdd(num_primary);
    RETURN_IF_ERROR(encoder.Encode(spec, EncodeOptions(), bdd));
    absl::StatusOr<BddCount> counted = bdd.Count(interrupter);
    const bool fall_back = method == CountMethod::kAuto && !counted.ok() &&
                           absl::IsResourceExhausted(counted.status());
    if (!fall_back) {
      RETURN_IF_ERROR(counted.status());
      result.method = CountMethod::kBdd;
      result.encoding = counted->stats;
      if (counted->stopped) return result;
      result.count = static_cast<uint64_t>(std::llround(counted->count));
      result.complete = true;
      result.status = result.count > 0 ? SatResult::kSatisfiable
                                       : SatResult::kUnsatisfiable;
      return result;
    }
  }
  ASSIGN_OR_RETURN(const Cnf cnf, EncodeCnf(encoder, spec, num_primary));
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

}  // namespace qs
