// The Light Up (Akari) family: its parts, registered by one line of
// core/families/builtin.cc.
#include <memory>

#include "core/families/family.h"
#include "core/families/lightup/lightup.h"

namespace qs {

// Defined in lightup_rules.cc and lightup_generator.cc.
std::unique_ptr<RulesEncoder> NewLightupEncoder();
std::unique_ptr<PuzzleGenerator> NewLightupGenerator();

// Defined in lightup_drawing.cc.
absl::StatusOr<v1::BoardPicture> DrawLightup(
    const v1::PuzzleSpec& spec, const v1::PuzzleSolution* solution);

Family NewLightupFamily() {
  Family family;
  family.name = "lightup";
  family.text_kinds = {"lightup"};
  family.draw = &DrawLightup;
  family.compiler = NewLightupCompiler();
  family.rules = NewLightupEncoder();
  family.generators.push_back(NewLightupGenerator());
  return family;
}

}  // namespace qs
