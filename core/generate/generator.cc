// GeneratorRegistry.
#include "core/generate/generator.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/exact/sat_solver.h"

namespace qs {

absl::Status GeneratorRegistry::Register(
    std::unique_ptr<PuzzleGenerator> generator) {
  std::string family(generator->family());
  return generators_.Register(std::move(generator), std::move(family));
}

absl::StatusOr<const PuzzleGenerator*> GeneratorRegistry::Get(
    absl::string_view family) const {
  return generators_.Get(family, "family");
}

double RequiredPropagation(v1::Difficulty difficulty) {
  switch (difficulty) {
    case v1::DIFFICULTY_EASY:
      return 1.0;
    case v1::DIFFICULTY_MEDIUM:
      return 0.5;
    default:
      return 0.0;
  }
}

absl::StatusOr<bool> HasExactlyOneSolution(const Cnf& cnf,
                                           absl::string_view family,
                                           Interrupter& interrupter,
                                           int64_t* sat_calls) {
  const Enumeration found = EnumerateSolutions(
      cnf, 2, [](std::vector<uint8_t>) {}, &interrupter);
  *sat_calls += found.found + 1;
  const bool settled = found.status != SatResult::kUnknown && found.complete;
  if (!settled && interrupter.reason() != StopReason::kNone)
    return absl::AbortedError(absl::StrCat(family, " generation stopped"));
  return settled && found.found == 1;
}

absl::Status CheckGridSides(const GenerateOptions& options,
                            absl::string_view family, int min_side,
                            int max_side) {
  for (const auto& [field, side] :
       {std::pair<const char*, int>{"rows", options.rows},
        std::pair<const char*, int>{"cols", options.cols}}) {
    if (side < min_side || side > max_side) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": ", family, " sides are ", min_side, "..",
                       max_side, ", got ", side));
    }
  }
  return absl::OkStatus();
}

}  // namespace qs
