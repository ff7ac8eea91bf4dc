// The checks of a request that need no compiling, run before admission:
// parameters in range (INVALID_ARGUMENT naming the field), a known and
// available backend that takes the puzzle and whose own parameters are
// right, and a declared model size within the server's limits
// (RESOURCE_EXHAUSTED).
#ifndef QS_CORE_SOLVE_REQUEST_CHECKS_H_
#define QS_CORE_SOLVE_REQUEST_CHECKS_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "core/backend/registry.h"
#include "core/compile/compiler.h"
#include "qs/v1/solve.pb.h"

namespace qs {

struct SolveLimits {
  int64_t max_variables = 2000000;  // full-model variables of one puzzle
  int64_t max_couplers = 20000000;  // quadratic terms of the reduced model
  // Memory to build one model, estimated from its size before it is built
  // (kModelBytesPerCoupler, kModelBytesPerVariable).
  int64_t max_model_bytes = int64_t{512} << 20;
  uint32_t max_reads = 100000;
  uint32_t max_sweeps = 10000000;
  // Upper bound on reads * sweeps * variables (spin-update attempts) of one
  // request. Over it, a request without a time limit is refused; one with a
  // time limit has its reads clamped to it (docs/budgets.md).
  double max_attempts = 1e12;
  // Largest time_limit_seconds accepted: a time limit bounds a request only
  // if the server caps it.
  double max_time_limit_seconds = 3600;
  // Time between Progress events of a running solve.
  absl::Duration progress_interval = absl::Milliseconds(250);
};

// The parameters every backend shares; messages name fields as
// "<prefix>.num_reads".
absl::Status CheckCommonParams(const v1::SolveParams& params,
                               const SolveLimits& limits,
                               absl::string_view prefix);

// The backend's own message in `params`, when set, against the backend's
// parameter schema (its fields' (qs.v1.param) options), then the backend's
// CheckParams; messages name
// "<prefix>.<message>.<field>".
absl::Status CheckBackendParams(const Backend& backend,
                                const v1::SolveParams& params,
                                const ParamLimits& limits,
                                absl::string_view prefix = "params");

// The backend `params` names: known, available now, able to take `spec`
// (when given) and with its own parameters right. `samplers_only` refuses the
// backends that work on a puzzle's rules (Generate draws solutions by
// sampling the QUBO).
absl::StatusOr<const Backend*> CheckBackend(const BackendRegistry& backends,
                                            const v1::SolveParams& params,
                                            const v1::PuzzleSpec* spec,
                                            const SolveLimits& limits,
                                            absl::string_view prefix,
                                            bool samplers_only = false);

// What building a model takes, per quadratic term the family announces
// (ModelCouplersAtLeast) and per variable: a term lives in the builder's hash
// map and in the compiled problem's lists; a 200-row Queens board (8e6 terms)
// measured 0.95 GB at its peak.
inline constexpr int64_t kModelBytesPerCoupler = 96;
inline constexpr int64_t kModelBytesPerVariable = 64;

// The full model's size from the spec's dimensions against the limits,
// before anything is built: variables, couplers, and the memory estimated
// from them (RESOURCE_EXHAUSTED naming `puzzle`).
absl::Status CheckModelSize(const v1::PuzzleSpec& puzzle,
                            const PuzzleCompiler& compiler,
                            const SolveLimits& limits);

// A request id of at most kMaxRequestIdLength printable ASCII characters
// (0x20..0x7e); INVALID_ARGUMENT naming `field` otherwise.
inline constexpr size_t kMaxRequestIdLength = 128;
absl::Status CheckRequestId(absl::string_view id,
                            absl::string_view field = "request_id");
// A request id as a log line shows it: at most kMaxRequestIdLength
// characters, printable ASCII but quotes and backslashes, the rest escaped as
// \xNN, so that an id refused for its content forges no log line.
std::string RequestIdForLog(absl::string_view id);

// A time limit in seconds: finite and >= 0.
absl::Status CheckTimeLimit(double seconds, absl::string_view field);

// An Encoding value in `field` (compile.encoding, or Count's encoding) that
// exists.
absl::Status CheckEncoding(int encoding, absl::string_view field);
// After compiling: ENCODING_BINARY gave a higher-order model, which only the
// families with a binary encoding (queens) do.
absl::Status CheckEncodingApplied(int encoding, const CompiledProblem& problem,
                                  absl::string_view field);

}  // namespace qs

#endif  // QS_CORE_SOLVE_REQUEST_CHECKS_H_
