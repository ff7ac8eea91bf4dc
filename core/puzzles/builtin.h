// The one list of every built-in puzzle family: RegisterBuiltinCompilers, and
// the process-wide registry built from it.
#ifndef QS_CORE_PUZZLES_BUILTIN_H_
#define QS_CORE_PUZZLES_BUILTIN_H_

#include "absl/status/status.h"
#include "core/compile/registry.h"

namespace qs {

// Registers every built-in puzzle family.
absl::Status RegisterBuiltinCompilers(CompilerRegistry& registry);

// A registry with every built-in family, built once.
const CompilerRegistry& BuiltinCompilers();

}  // namespace qs

#endif  // QS_CORE_PUZZLES_BUILTIN_H_
