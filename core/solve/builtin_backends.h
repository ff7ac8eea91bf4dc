// The one list of every built-in backend: RegisterBuiltinBackends fills a
// BackendRegistry with them. A new backend is one line here (and its library
// in core/CMakeLists.txt).
#ifndef QS_CORE_SOLVE_BUILTIN_BACKENDS_H_
#define QS_CORE_SOLVE_BUILTIN_BACKENDS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "core/backend/registry.h"
#include "core/base/worker_pool.h"
#include "core/sample/dwave/dwave_options.h"

namespace qs {

// What the built-in backends need from their host.
struct BackendOptions {
  WorkerPool* pool = nullptr;  // shared compute pool; required
  DwaveOptions dwave;
  // Memory the "qaoa" simulator may hold; 0: a quarter of physical memory.
  int64_t qaoa_max_memory_bytes = 0;
};

absl::Status RegisterBuiltinBackends(BackendRegistry& registry,
                                     const BackendOptions& options);

}  // namespace qs

#endif  // QS_CORE_SOLVE_BUILTIN_BACKENDS_H_
