// GuardAllocation: the boundary where an allocation failure (std::bad_alloc)
// becomes a status. Core code returns absl::Status and throws nothing across
// layers; the one exception the standard library may still throw is
// bad_alloc, and it must end the request that made it with
// RESOURCE_EXHAUSTED, never the process. Every public entry of the solve
// engine runs its work through here (and WorkerPool tasks catch it too).
#ifndef QS_CORE_BASE_ALLOCATION_GUARD_H_
#define QS_CORE_BASE_ALLOCATION_GUARD_H_

#include <new>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace qs {

// Runs `fn` (returning absl::Status or absl::StatusOr<T>); RESOURCE_EXHAUSTED
// naming `what` when it runs out of memory.
template <typename Fn>
auto GuardAllocation(absl::string_view what, Fn&& fn) -> decltype(fn()) {
  try {
    return std::forward<Fn>(fn)();
  } catch (const std::bad_alloc&) {
    return absl::ResourceExhaustedError(
        absl::StrCat(what, ": the server ran out of memory for this request"));
  }
}

}  // namespace qs

#endif  // QS_CORE_BASE_ALLOCATION_GUARD_H_
