// Raw QUBO / Ising models passed through to the samplers (docs/architecture.md
// §3, puzzle family 7).
#include "core/families/qubo/raw_qubo.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/base/status_macros.h"
#include "core/qubo/qubo_proto.h"

namespace qs {
namespace {

class RawQuboCompiler final : public PuzzleCompiler {
 public:
  absl::string_view kind() const override { return "qubo"; }
  v1::PuzzleSpec::PuzzleCase puzzle_case() const override {
    return v1::PuzzleSpec::kQubo;
  }

  int64_t ModelVariables(const v1::PuzzleSpec& spec) const override {
    return spec.qubo().num_variables();
  }

  absl::StatusOr<CompiledProblem> Compile(
      const v1::PuzzleSpec& spec,
      const v1::CompileOptions& options) const override {
    ASSIGN_OR_RETURN(Qubo model, QuboFromProto(spec.qubo(), "puzzle.qubo"));
    return UnreducedProblem(kind(), std::move(model));
  }

  v1::PuzzleSolution Decode(const v1::PuzzleSpec& spec,
                            const CompiledProblem& problem,
                            std::span<const uint8_t> bits) const override {
    return BinaryRowBoard(bits);
  }

  bool EveryBoardValid() const override { return true; }

  KindPolicy Policy() const override { return {.raw_model = true}; }

  absl::StatusOr<v1::ValidationReport> Validate(
      const v1::PuzzleSpec& spec,
      const v1::PuzzleSolution& solution) const override {
    const uint32_t n = spec.qubo().num_variables();
    if (static_cast<uint32_t>(solution.cells_size()) != n) {
      return absl::InvalidArgumentError(
          absl::StrCat("solution.cells: expected ", n, " values, got ",
                       solution.cells_size()));
    }
    for (int k = 0; k < solution.cells_size(); ++k) {
      if (solution.cells(k) != 0 && solution.cells(k) != 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("solution.cells[", k, "]: must be 0 or 1, got ",
                         solution.cells(k)));
      }
    }
    v1::ValidationReport report;
    report.set_valid(true);
    return report;
  }

  absl::StatusOr<std::vector<uint8_t>> Encode(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::PuzzleSolution& solution) const override {
    ASSIGN_OR_RETURN(v1::ValidationReport report, Validate(spec, solution));
    std::vector<uint8_t> bits(solution.cells().begin(), solution.cells().end());
    return bits;
  }

  // A model read from a maximisation problem is stored negated.
  std::optional<double> Objective(const v1::PuzzleSpec& spec,
                                  double energy) const override {
    return spec.qubo().sense() == v1::MAXIMIZE ? -energy : energy;
  }
};

}  // namespace

std::unique_ptr<PuzzleCompiler> NewRawQuboCompiler() {
  return std::make_unique<RawQuboCompiler>();
}

}  // namespace qs
