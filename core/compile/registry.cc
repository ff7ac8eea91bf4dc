// CompilerRegistry.
#include "core/compile/registry.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"

namespace qs {

absl::Status CompilerRegistry::Register(
    std::unique_ptr<PuzzleCompiler> compiler) {
  std::string kind(compiler->kind());
  const int puzzle_case = static_cast<int>(compiler->puzzle_case());
  return compilers_.Register(std::move(compiler), std::move(kind), puzzle_case);
}

absl::StatusOr<const PuzzleCompiler*> CompilerRegistry::ForSpec(
    const v1::PuzzleSpec& spec) const {
  if (spec.puzzle_case() == v1::PuzzleSpec::PUZZLE_NOT_SET) {
    return absl::InvalidArgumentError("puzzle: not set (one of " +
                                      absl::StrJoin(Kinds(), ", ") + ")");
  }
  const PuzzleCompiler* compiler =
      compilers_.FindCase(static_cast<int>(spec.puzzle_case()));
  if (compiler == nullptr) {
    return absl::UnimplementedError(
        absl::StrCat("puzzle: case ", static_cast<int>(spec.puzzle_case()),
                     " has no compiler"));
  }
  return compiler;
}

absl::StatusOr<const PuzzleCompiler*> CompilerRegistry::ForKind(
    absl::string_view kind) const {
  if (const PuzzleCompiler* compiler = compilers_.Find(kind)) return compiler;
  return absl::InvalidArgumentError(
      absl::StrCat("unknown puzzle kind '", kind, "' (one of ",
                   absl::StrJoin(Kinds(), ", "), ")"));
}

}  // namespace qs
