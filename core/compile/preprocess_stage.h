// The preprocessing stages of the compile path: CompileOptions.preprocess
// applied to a compiled problem's reduced model (core/preprocess), the fixed
// and merged variables folded into the problem's variable map the way the
// givens are clamped, so that the model's energies stay those of the full
// model. Every family gets it; the compile cache keys on the options, so a
// cached problem carries its preprocessing.
#ifndef QS_CORE_COMPILE_PREPROCESS_STAGE_H_
#define QS_CORE_COMPILE_PREPROCESS_STAGE_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/compile/compiler.h"
#include "qs/v1/puzzles.pb.h"
#include "qs/v1/solve.pb.h"

namespace qs {

// Appends the stages of `preprocess` ("roof", then "qpro" for
// PREPROCESS_QPRO) to the problem. A problem in higher-order form is left
// alone.
absl::Status ApplyPreprocess(v1::Preprocess preprocess,
                             CompiledProblem& problem);

// compiler.Compile followed by ApplyPreprocess(options.preprocess()): what
// the engine and the compile cache compile with.
absl::StatusOr<CompiledProblem> CompileProblem(
    const PuzzleCompiler& compiler, const v1::PuzzleSpec& spec,
    const v1::CompileOptions& options);

}  // namespace qs

#endif  // QS_CORE_COMPILE_PREPROCESS_STAGE_H_
