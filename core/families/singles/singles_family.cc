// The Singles (Hitori) family: its parts, registered by one line of
// core/families/builtin.cc.
#include <memory>

#include "core/families/family.h"
#include "core/families/singles/singles.h"

namespace qs {

// Defined in singles_rules.cc and singles_generator.cc.
std::unique_ptr<RulesEncoder> NewSinglesEncoder();
std::unique_ptr<PuzzleGenerator> NewSinglesGenerator();

// Defined in singles_drawing.cc.
absl::StatusOr<v1::BoardPicture> DrawSingles(
    const v1::PuzzleSpec& spec, const v1::PuzzleSolution* solution);

Family NewSinglesFamily() {
  Family family;
  family.name = "singles";
  family.text_kinds = {"singles"};
  family.draw = &DrawSingles;
  family.compiler = NewSinglesCompiler();
  family.rules = NewSinglesEncoder();
  family.generators.push_back(NewSinglesGenerator());
  return family;
}

}  // namespace qs
