// SolveEngine::ListFamilies: the families and raw model kinds the service
// takes, from the family registry (core/families/) and the text formats, so
// that clients offer what the server has instead of lists of their own
// (docs/api.md).
#include <string>

#include "absl/container/flat_hash_map.h"
#include "core/families/builtin.h"
#include "core/solve/solve_engine.h"
#include "formats/puzzle_text.h"

namespace qs {

v1::ListFamiliesResponse SolveEngine::ListFamilies() const {
  absl::flat_hash_map<std::string, formats::TextKind> texts;
  for (formats::TextKind& kind : formats::TextKinds()) {
    std::string name = kind.kind;
    texts.emplace(std::move(name), std::move(kind));
  }
  v1::ListFamiliesResponse response;
  for (const FamilyInfo* info : BuiltinFamilies().All()) {
    for (const std::string& kind : info->text_kinds) {
      auto text = texts.find(kind);
      if (text == texts.end()) continue;  // the families' test keeps them
      absl::StatusOr<v1::PuzzleSpec> example =
          formats::ParsePuzzleText(kind, text->second.example);
      if (!example.ok()) continue;  // the formats' test keeps every example
      const auto* field = v1::PuzzleSpec::descriptor()->FindFieldByNumber(
          example->puzzle_case());
      // A registry of the engine's own (tests) may leave a family out.
      if (field == nullptr || !compilers_->ForSpec(*example).ok()) continue;
      v1::FamilyDescription& family = *response.add_families();
      family.set_kind(kind);
      family.set_puzzle_field(std::string(field->name()));
      family.set_description(text->second.description);
      family.set_rules(info->rules != nullptr);
      family.set_generate(BuiltinGenerators().Get(kind).ok());
      family.set_example(text->second.example);
      family.set_board(info->board);
    }
  }
  return response;
}

}  // namespace qs
