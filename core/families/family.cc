// FamilyRegistry: a family's parts into the engines' registries.
#include "core/families/family.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/base/status_macros.h"

namespace qs {

absl::Status FamilyRegistry::Register(Family family) {
  if (family.compiler == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("family '", family.name, "' has no compiler"));
  }
  if (family.compiler->kind() != family.name) {
    return absl::InvalidArgumentError(
        absl::StrCat("family '", family.name, "': its compiler is of kind '",
                     family.compiler->kind(), "'"));
  }
  if (family.rules != nullptr &&
      (family.rules->kind() != family.name ||
       family.rules->puzzle_case() != family.compiler->puzzle_case())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "family '", family.name, "': its rules (kind '", family.rules->kind(),
        "') are not of its compiler's kind and puzzle case"));
  }
  if (family.text_kinds.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("family '", family.name, "' has no text kind"));
  }
  // Clashes are found before anything is registered, so that a refused
  // family leaves the registry as it was (a taken oneof case is found by the
  // compilers' registry, the first to register, and the rules have the
  // compiler's case).
  if (families_.Find(family.name) != nullptr) {
    return absl::AlreadyExistsError(
        absl::StrCat("family '", family.name, "' registered twice"));
  }
  for (size_t i = 0; i < family.text_kinds.size(); ++i) {
    const std::string& kind = family.text_kinds[i];
    const bool repeated =
        std::find(family.text_kinds.begin(), family.text_kinds.begin() + i,
                  kind) != family.text_kinds.begin() + i;
    if (repeated || text_kinds_.contains(kind)) {
      return absl::AlreadyExistsError(absl::StrCat(
          "family '", family.name, "': text kind '", kind, "' is taken"));
    }
  }
  for (const std::unique_ptr<PuzzleGenerator>& generator : family.generators) {
    if (generators_.Get(generator->family()).ok()) {
      return absl::AlreadyExistsError(
          absl::StrCat("family '", family.name, "': generator '",
                       generator->family(), "' is taken"));
    }
  }
  auto info = std::make_unique<FamilyInfo>();
  info->name = family.name;
  info->text_kinds = family.text_kinds;
  info->board = family.board;
  info->draw = family.draw;
  info->compiler = family.compiler.get();
  info->rules = family.rules.get();
  RETURN_IF_ERROR(compilers_.Register(std::move(family.compiler)));
  if (family.rules != nullptr) {
    RETURN_IF_ERROR(encoders_.Register(std::move(family.rules)));
  }
  for (std::unique_ptr<PuzzleGenerator>& generator : family.generators) {
    info->generators.push_back(generator.get());
    RETURN_IF_ERROR(generators_.Register(std::move(generator)));
  }
  // A text kind belongs to one family (its text is parsed by one parser).
  text_kinds_.insert(family.text_kinds.begin(), family.text_kinds.end());
  return families_.Register(std::move(info), family.name);
}

}  // namespace qs
