// Small conversions between the engine's values and the wire (qs.v1): packed
// bit strings, terminations, compile statistics and encoding sizes.
#ifndef QS_CORE_SOLVE_WIRE_H_
#define QS_CORE_SOLVE_WIRE_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "core/base/interrupter.h"
#include "core/compile/compiler.h"
#include "core/exact/cnf.h"
#include "qs/v1/solve.pb.h"

namespace qs {

// Packs 0/1 bytes into bits, LSB first (variable v is bit v % 8 of byte v / 8).
std::string PackBits(std::span<const uint8_t> bits);
// The inverse; INVALID_ARGUMENT when `packed` is too short.
absl::StatusOr<std::vector<uint8_t>> UnpackBits(absl::string_view packed,
                                                int num_variables);

v1::Termination TerminationFor(StopReason reason);

// The statistics of a compiled problem (CompileResponse, SolveHeader).
void FillCompileStats(const CompiledProblem& problem,
                      absl::Duration compile_time, bool from_cache,
                      v1::CompileStats& stats);

// The wire form of an encoding's size.
v1::EncodingStats ToProto(const EncodingStats& stats);

// A seed for a request that sets none.
uint64_t DrawSeed();

inline double Seconds(absl::Duration d) { return absl::ToDoubleSeconds(d); }

}  // namespace qs

#endif  // QS_CORE_SOLVE_WIRE_H_
