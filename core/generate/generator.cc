// GeneratorRegistry.
#include "core/generate/generator.h"

#include <algorithm>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace qs {

absl::Status GeneratorRegistry::Register(
    std::unique_ptr<PuzzleGenerator> generator) {
  const std::string family(generator->family());
  if (by_family_.contains(family)) {
    return absl::AlreadyExistsError(
        absl::StrCat("generator '", family, "' registered twice"));
  }
  by_family_[family] = generator.get();
  generators_.push_back(std::move(generator));
  return absl::OkStatus();
}

absl::StatusOr<const PuzzleGenerator*> GeneratorRegistry::Get(
    absl::string_view family) const {
  auto it = by_family_.find(family);
  if (it != by_family_.end()) return it->second;
  return absl::InvalidArgumentError(
      absl::StrCat("family: unknown family '", family, "' (one of ",
                   absl::StrJoin(Families(), ", "), ")"));
}

std::vector<std::string> GeneratorRegistry::Families() const {
  std::vector<std::string> families;
  for (const auto& [family, generator] : by_family_) families.push_back(family);
  std::sort(families.begin(), families.end());
  return families;
}

const GeneratorRegistry& BuiltinGenerators() {
  static const GeneratorRegistry* const registry = [] {
    auto* r = new GeneratorRegistry();
    // A duplicate registration is a programming error in builtin.cc.
    if (!RegisterBuiltinGenerators(*r).ok()) std::abort();
    return r;
  }();
  return *registry;
}

double RequiredPropagation(v1::Difficulty difficulty) {
  switch (difficulty) {
    case v1::DIFFICULTY_EASY:
      return 1.0;
    case v1::DIFFICULTY_MEDIUM:
      return 0.5;
    default:
      return 0.0;
  }
}

}  // namespace qs
