// What the fuzz targets share: the start of a text target (its input split
// into a text and a board) and what they check on the core path a request
// takes
// (core/solve/solve_engine.h): request checks, Compile and Validate of a
// PuzzleSpec must end in a status, never a crash, sanitizer report or hang,
// and the status must be one a caller can be blamed for (INVALID_ARGUMENT,
// RESOURCE_EXHAUSTED, ...), never INTERNAL or UNKNOWN. A successful Compile
// must describe itself consistently. A violation aborts with a message, which
// libFuzzer reports as a crash.
#ifndef QS_TESTS_FUZZ_FUZZ_ENGINE_H_
#define QS_TESTS_FUZZ_FUZZ_ENGINE_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "core/solve/solve_engine.h"
#include "qs/v1/solve.pb.h"

namespace qs::fuzz {

// LLVMFuzzerInitialize of every target: protobuf's logging off (the targets
// feed it bad input on purpose) and the engine built before the first input.
void Initialize();

// A text target's bytes: a text, then optionally a NUL and a board text.
struct TextInput {
  absl::string_view text;
  absl::string_view board;
  bool has_board = false;
};
TextInput SplitTextInput(const uint8_t* data, size_t size);

// Aborts unless `message` serializes and parses back equal: what a client
// sends is what the server reads.
void CheckSerializes(const google::protobuf::Message& message);

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
