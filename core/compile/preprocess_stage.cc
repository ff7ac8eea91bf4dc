// Preprocessing stages: a variable map over the reduced model per stage,
// composed with the problem's own.
#include "core/compile/preprocess_stage.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "core/base/status_macros.h"
#include "core/preprocess/qpro.h"
#include "core/preprocess/roof_duality.h"

namespace qs {
namespace {

// The full variables' sources through `outer` (full -> reduced) and then
// `inner` (reduced -> newly reduced). The representative of a new variable is
// the old representative of its own representative: a plain literal of it.
absl::StatusOr<VariableMap> Compose(const VariableMap& outer,
                                    const VariableMap& inner) {
  std::vector<VariableMap::Source> sources(outer.num_full());
  for (int v = 0; v < outer.num_full(); ++v) {
    const VariableMap::Source& s = outer.source(v);
    if (s.reduced < 0) {
      sources[v] = s;
      continue;
    }
    const VariableMap::Source& t = inner.source(s.reduced);
    sources[v] = {t.reduced, static_cast<uint8_t>(s.value ^ t.value)};
  }
  std::vector<int32_t> representatives(inner.num_reduced());
  for (int r = 0; r < inner.num_reduced(); ++r)
    representatives[r] = outer.representative(inner.representative(r));
  return VariableMap::FromSourcesWithRepresentatives(
      std::move(sources), std::move(representatives));
}

// An exactly-one group through the map: its members fixed to 0 leave it; a
// member fixed to 1, negated or merged with another member makes it no longer
// a plain exactly-one group over distinct variables, and it is dropped.
std::vector<std::vector<int32_t>> MapGroups(
    const std::vector<std::vector<int32_t>>& groups, const VariableMap& map) {
  std::vector<std::vector<int32_t>> out;
  for (const std::vector<int32_t>& group : groups) {
    std::vector<int32_t> mapped;
    bool keep = true;
    for (int32_t r : group) {
      const VariableMap::Source& s = map.source(r);
      if (s.reduced < 0 && s.value == 0) continue;
      if (s.reduced < 0 || s.value != 0 ||
          std::find(mapped.begin(), mapped.end(), s.reduced) != mapped.end()) {
        keep = false;
        break;
      }
      mapped.push_back(s.reduced);
    }
    if (keep && !mapped.empty()) out.push_back(std::move(mapped));
  }
  return out;
}

absl::Status ApplyStage(const VariableMap& map, absl::string_view name,
                        CompiledProblem& problem) {
  const int zero_before = problem.variables.num_fixed_zero();
  const int one_before = problem.variables.num_fixed_one();
  const int variables_before = problem.variables.num_reduced();
  ASSIGN_OR_RETURN(problem.variables, Compose(problem.variables, map));
  ASSIGN_OR_RETURN(problem.model, ApplyVariableMap(problem.model, map));
  problem.one_hot_groups = MapGroups(problem.one_hot_groups, map);
  problem.stages.push_back({std::string(name), problem.variables.num_reduced(),
                            problem.variables.num_fixed_zero() - zero_before,
                            problem.variables.num_fixed_one() - one_before});
  problem.removed_by_preprocess +=
      variables_before - problem.variables.num_reduced();
  return absl::OkStatus();
}

}  // namespace

absl::Status ApplyPreprocess(v1::Preprocess preprocess,
                             CompiledProblem& problem) {
  if (preprocess == v1::PREPROCESS_NONE || problem.higher_order.has_value())
    return absl::OkStatus();
  const absl::Time start = absl::Now();
  const RoofDualityResult roof = RoofDuality(problem.model);
  problem.roof_lower_bound = roof.lower_bound;
  ASSIGN_OR_RETURN(const VariableMap fixed,
                   VariableMap::FromAssignment(roof.fixed));
  RETURN_IF_ERROR(ApplyStage(fixed, "roof", problem));
  if (preprocess == v1::PREPROCESS_QPRO) {
    ASSIGN_OR_RETURN(const VariableMap reduced, QproReduce(problem.model));
    RETURN_IF_ERROR(ApplyStage(reduced, "qpro", problem));
  }
  problem.preprocess_seconds = absl::ToDoubleSeconds(absl::Now() - start);
  return absl::OkStatus();
}

absl::StatusOr<CompiledProblem> CompileProblem(
    const PuzzleCompiler& compiler, const v1::PuzzleSpec& spec,
    const v1::CompileOptions& options) {
  if (!v1::Preprocess_IsValid(options.preprocess())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "options.preprocess: unknown value ", options.preprocess()));
  }
  ASSIGN_OR_RETURN(CompiledProblem problem, compiler.Compile(spec, options));
  RETURN_IF_ERROR(ApplyPreprocess(options.preprocess(), problem));
  return problem;
}

}  // namespace qs
