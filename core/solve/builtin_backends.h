// The one list of every built-in backend: RegisterBuiltinBackends fills a
// BackendRegistry with them. A new backend is one line here (and its folder,
// core/sample/<name>/).
#ifndef QS_CORE_SOLVE_BUILTIN_BACKENDS_H_
#define QS_CORE_SOLVE_BUILTIN_BACKENDS_H_

#include <cstdint>
#include <optional>

#include "absl/status/status.h"
#include "core/backend/registry.h"
#include "core/base/worker_pool.h"
#include "core/sample/dwave/dwave_options.h"

namespace qs {

// What the built-in backends need from their host. A backend's own server
// settings are its flags, declared in its folder; a host may pass them here
// instead (tests).
struct BackendOptions {
  WorkerPool* pool = nullptr;  // shared compute pool; required
  // Unset: the --dwave_* flags (core/sample/dwave/dwave_flags.h).
  std::optional<DwaveOptions> dwave;
  // Unset: --qaoa_max_memory_mb (core/sample/qaoa/qaoa_backend.h).
  std::optional<int64_t> qaoa_max_memory_bytes;
};

absl::Status RegisterBuiltinBackends(BackendRegistry& registry,
                                     const BackendOptions& options);

}  // namespace qs

#endif  // QS_CORE_SOLVE_BUILTIN_BACKENDS_H_
