// PuzzleSolver: the extension point for backends that work on a puzzle's rules
// rather than on its QUBO (the "sat" backend, core/exact/sat_backend.h). A
// Sampler sees only the reduced model; a PuzzleSolver gets the spec and its
// compiled problem, and reports the boards it finds as full-model assignments,
// which the engine scores on the model, decodes and validates like any sample.
// It also says what it proved: no board exists, or the board found is the only
// one. Registered next to the samplers (SamplerRegistry), under names they do
// not use. Solve() must be thread-safe.
#ifndef QS_CORE_SAMPLE_PUZZLE_SOLVER_H_
#define QS_CORE_SAMPLE_PUZZLE_SOLVER_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/base/interrupter.h"
#include "core/compile/compiler.h"
#include "core/sample/sampler.h"
#include "qs/v1/solve.pb.h"

namespace qs {

struct PuzzleSolveStats {
  StopReason stop_reason = StopReason::kNone;
  // Status, boards found, completeness, uniqueness, encoding size.
  v1::ExactSummary summary;
  absl::Duration elapsed;
};

class PuzzleSolver {
 public:
  virtual ~PuzzleSolver() = default;
  virtual absl::string_view name() const = 0;
  virtual absl::string_view description() const = 0;
  virtual SamplerCapabilities capabilities() const = 0;
  virtual absl::Status Available() const { return absl::OkStatus(); }
  // OK when the backend can work on this kind of puzzle; INVALID_ARGUMENT
  // naming params.backend otherwise. Cheap: checked before admission.
  virtual absl::Status Supports(const v1::PuzzleSpec& spec) const = 0;
  // Finds boards of `spec` (compiled as `problem`), passing each as a
  // full-model assignment to `on_board` as it is found. The backend options
  // are in params (e.g. params.sat()).
  virtual absl::StatusOr<PuzzleSolveStats> Solve(
      const v1::PuzzleSpec& spec, const CompiledProblem& problem,
      const v1::SolveParams& params,
      const std::function<void(std::vector<uint8_t>)>& on_board,
      Interrupter& interrupter) const = 0;
};

}  // namespace qs

#endif  // QS_CORE_SAMPLE_PUZZLE_SOLVER_H_
