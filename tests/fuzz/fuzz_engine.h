// What the fuzz targets check on the core path a request takes
// (core/solve/solve_engine.h): request checks, Compile and Validate of a
// PuzzleSpec must end in a status, never a crash, sanitizer report or hang,
// and the status must be one a caller can be blamed for (INVALID_ARGUMENT,
// RESOURCE_EXHAUSTED, ...), never INTERNAL or UNKNOWN. A successful Compile
// must describe itself consistently. A violation aborts with a message, which
// libFuzzer reports as a crash.
#ifndef QS_TESTS_FUZZ_FUZZ_ENGINE_H_
#define QS_TESTS_FUZZ_FUZZ_ENGINE_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "core/solve/solve_engine.h"
#include "qs/v1/solve.pb.h"

namespace qs::fuzz {

// One engine for the whole fuzzing process, with limits small enough that a
// single input cannot take seconds (the point is crashes, not big models).
const SolveEngine& Engine();

// Aborts (after printing `what`, the status and the input) unless `status`
// has a code the API documents for bad input.
void CheckCallerError(absl::string_view what, const absl::Status& status,
                      const google::protobuf::Message& input);

// CheckSolveRequest, then Compile (with `options`) and Validate (with
// `solution`), each checked as above; a successful Compile's statistics and
// variable map must agree with each other.
void CheckEnginePath(const v1::PuzzleSpec& puzzle,
                     const v1::CompileOptions& options,
                     const v1::SolveParams& params,
                     const v1::PuzzleSolution& solution);

}  // namespace qs::fuzz

#endif  // QS_TESTS_FUZZ_FUZZ_ENGINE_H_
