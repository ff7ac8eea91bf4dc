// SolveEngine::ListFamilies: the families and raw model kinds the service
// takes, from the registries (compilers, rules encoders, generators) and the
// text formats, so that clients offer what the server has instead of lists
// of their own (docs/api.md).
#include <string>

#include "core/exact/encoder.h"
#include "core/generate/generator.h"
#include "core/solve/solve_engine.h"
#include "formats/puzzle_text.h"

namespace qs {
namespace {

// How a solution of `spec` is drawn (FamilyDescription.board).
std::string BoardOf(const v1::PuzzleSpec& spec) {
  if (spec.has_qubo()) return "values";
  if (spec.has_maxcut()) return "cut";
  return "grid";
}

}  // namespace

v1::ListFamiliesResponse SolveEngine::ListFamilies() const {
  v1::ListFamiliesResponse response;
  for (const formats::TextKind& kind : formats::TextKinds()) {
    absl::StatusOr<v1::PuzzleSpec> example =
        formats::ParsePuzzleText(kind.kind, kind.example);
    if (!example.ok()) continue;  // the formats' test keeps every example
    const auto* field =
        v1::PuzzleSpec::descriptor()->FindFieldByNumber(example->puzzle_case());
    if (field == nullptr || !compilers_->ForSpec(*example).ok()) continue;
    v1::FamilyDescription& family = *response.add_families();
    family.set_kind(kind.kind);
    family.set_puzzle_field(std::string(field->name()));
    family.set_description(kind.description);
    family.set_rules(BuiltinEncoders().ForSpec(*example).ok());
    family.set_generate(BuiltinGenerators().Get(kind.kind).ok());
    family.set_example(kind.example);
    family.set_board(BoardOf(*example));
  }
  return response;
}

}  // namespace qs
