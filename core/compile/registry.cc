// CompilerRegistry.
#include "core/compile/registry.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"

namespace qs {

absl::Status CompilerRegistry::Register(
    std::unique_ptr<PuzzleCompiler> compiler) {
  const std::string kind(compiler->kind());
  const int puzzle_case = static_cast<int>(compiler->puzzle_case());
  if (by_kind_.contains(kind)) {
    return absl::AlreadyExistsError(
        absl::StrCat("puzzle kind '", kind, "' registered twice"));
  }
  if (by_case_.contains(puzzle_case)) {
    return absl::AlreadyExistsError(
        absl::StrCat("puzzle case ", puzzle_case, " already handled by '",
                     by_case_.at(puzzle_case)->kind(), "'"));
  }
  by_kind_[kind] = compiler.get();
  by_case_[puzzle_case] = compiler.get();
  compilers_.push_back(std::move(compiler));
  return absl::OkStatus();
}

absl::StatusOr<const PuzzleCompiler*> CompilerRegistry::ForSpec(
    const v1::PuzzleSpec& spec) const {
  if (spec.puzzle_case() == v1::PuzzleSpec::PUZZLE_NOT_SET) {
    return absl::InvalidArgumentError("puzzle: not set (one of " +
                                      absl::StrJoin(Kinds(), ", ") + ")");
  }
  auto it = by_case_.find(static_cast<int>(spec.puzzle_case()));
  if (it == by_case_.end()) {
    return absl::UnimplementedError(
        absl::StrCat("puzzle: case ", static_cast<int>(spec.puzzle_case()),
                     " has no compiler"));
  }
  return it->second;
}

absl::StatusOr<const PuzzleCompiler*> CompilerRegistry::ForKind(
    absl::string_view kind) const {
  auto it = by_kind_.find(kind);
  if (it == by_kind_.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown puzzle kind '", kind, "' (one of ",
                     absl::StrJoin(Kinds(), ", "), ")"));
  }
  return it->second;
}

std::vector<std::string> CompilerRegistry::Kinds() const {
  std::vector<std::string> kinds;
  for (const auto& [kind, compiler] : by_kind_) kinds.push_back(kind);
  std::sort(kinds.begin(), kinds.end());
  return kinds;
}

const CompilerRegistry& BuiltinCompilers() {
  static const CompilerRegistry* const registry = [] {
    auto* r = new CompilerRegistry();
    const absl::Status status = RegisterBuiltinCompilers(*r);
    if (!status.ok()) {
      // A duplicate registration is a programming error in builtin.cc; fail
      // loudly at start-up.
      std::abort();
    }
    return r;
  }();
  return *registry;
}

}  // namespace qs
