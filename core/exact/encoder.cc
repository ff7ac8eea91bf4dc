// EncoderRegistry.
#include "core/exact/encoder.h"

#include <algorithm>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace qs {

absl::Status EncoderRegistry::Register(std::unique_ptr<RulesEncoder> encoder) {
  const std::string kind(encoder->kind());
  const int puzzle_case = static_cast<int>(encoder->puzzle_case());
  if (by_kind_.contains(kind)) {
    return absl::AlreadyExistsError(
        absl::StrCat("encoder kind '", kind, "' registered twice"));
  }
  if (by_case_.contains(puzzle_case)) {
    return absl::AlreadyExistsError(
        absl::StrCat("puzzle case ", puzzle_case, " already encoded by '",
                     by_case_.at(puzzle_case)->kind(), "'"));
  }
  by_kind_[kind] = encoder.get();
  by_case_[puzzle_case] = encoder.get();
  encoders_.push_back(std::move(encoder));
  return absl::OkStatus();
}

absl::StatusOr<const RulesEncoder*> EncoderRegistry::ForSpec(
    const v1::PuzzleSpec& spec) const {
  if (spec.puzzle_case() == v1::PuzzleSpec::PUZZLE_NOT_SET)
    return absl::InvalidArgumentError("puzzle: not set");
  auto it = by_case_.find(static_cast<int>(spec.puzzle_case()));
  if (it == by_case_.end()) {
    return absl::UnimplementedError(absl::StrCat(
        "puzzle: the exact engines have no rules for this family (families "
        "with rules: ",
        absl::StrJoin(Kinds(), ", "), ")"));
  }
  return it->second;
}

std::vector<std::string> EncoderRegistry::Kinds() const {
  std::vector<std::string> kinds;
  for (const auto& [kind, encoder] : by_kind_) kinds.push_back(kind);
  std::sort(kinds.begin(), kinds.end());
  return kinds;
}

const EncoderRegistry& BuiltinEncoders() {
  static const EncoderRegistry* const registry = [] {
    auto* r = new EncoderRegistry();
    // A duplicate registration is a programming error in builtin.cc.
    if (!RegisterBuiltinEncoders(*r).ok()) std::abort();
    return r;
  }();
  return *registry;
}

}  // namespace qs
