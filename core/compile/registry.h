// CompilerRegistry: puzzle kind -> compiler. Filled once at start-up from the
// families (core/families/family.h; BuiltinCompilers in
// core/families/builtin.h), read-only afterwards and so thread-safe to read.
#ifndef QS_CORE_COMPILE_REGISTRY_H_
#define QS_CORE_COMPILE_REGISTRY_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/base/registry.h"
#include "core/compile/compiler.h"

namespace qs {

class CompilerRegistry {
 public:
  // ALREADY_EXISTS when the kind or the oneof case is taken.
  absl::Status Register(std::unique_ptr<PuzzleCompiler> compiler);
  // The compiler for the spec's oneof case; INVALID_ARGUMENT "puzzle: not set"
  // when empty.
  absl::StatusOr<const PuzzleCompiler*> ForSpec(
      const v1::PuzzleSpec& spec) const;
  absl::StatusOr<const PuzzleCompiler*> ForKind(absl::string_view kind) const;
  std::vector<std::string> Kinds() const { return compilers_.SortedNames(); }

 private:
  Registry<PuzzleCompiler> compilers_{"puzzle kind"};
};

}  // namespace qs

#endif  // QS_CORE_COMPILE_REGISTRY_H_
